"""Evidence for flags from the camera itself: the frames that show what a flag says happened.

While a table runs, `EvidenceRecorder.add` keeps every analysed frame (JPEG in memory, bounded) with its
detections. When a round's flags are raised, `write(flag)` puts under `media_dir/evidence/<table>/<round>/`
a snapshot of the frame the flag names (its `frames.start`, or the nearest analysed frame), a short WebM
clip of the analysed frames around it and the detections of that frame, and returns their paths relative to
`media_dir`: the dashboards serve a round's media from the store's folder (and `--media` folders), so
with `media_dir` there the round page shows them and the evidence bundle carries them.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import supervision as sv

from pipelines.reconcile.flag import Flag
from pipelines.sim.video import VideoSink, can_write

log = logging.getLogger(__name__)
JPEG_QUALITY = 90
MAX_GAP_S = 2.0  # a flag's snapshot is at most this far from the frame it names


class EvidenceRecorder:
    def __init__(self, media_dir: str | Path, table_id: str, fps: float = 10.0, *, max_frames: int = 1500,
                 clip_s: float = 2.0, homography: np.ndarray | None = None) -> None:
        """`max_frames`: analysed frames kept (about 100 KB each at 1280x720); a round must end within them
        for its flags to have evidence. `clip_s`: seconds of a flag's clip, around its frame, in real time:
        each analysed frame is held until the next (motion gating and a live camera skip frames), so a
        dealer's hand moves in the clip as fast as it did at the table."""
        self.media_dir = Path(media_dir)
        self.table_id = table_id
        self.fps = fps
        self.max_frames = max_frames
        self.clip_ticks = max(1, round(clip_s * fps))
        self.homography = None if homography is None else np.asarray(homography).tolist()
        self._frames: OrderedDict[int, tuple[bytes, list[dict]]] = OrderedDict()
        self._encoder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="evidence-clips")

    def add(self, index: int, image: np.ndarray, detections: sv.Detections) -> None:
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            return
        self._frames[index] = (jpeg.tobytes(), _boxes(detections))
        while len(self._frames) > self.max_frames:
            self._frames.popitem(last=False)

    def forget_before(self, index: int) -> None:
        """Drop the frames before `index`: the first frame of a round whose evidence is written (the flags of
        the rounds after it name none of them)."""
        for k in [k for k in self._frames if k < index]:
            del self._frames[k]

    def frame_for(self, flag: Flag) -> int | None:
        """The analysed frame kept that is nearest the flag's first frame, if within `MAX_GAP_S` of it (None:
        nothing kept near it; a frame seconds away would show something else)."""
        if not self._frames:
            return None
        want = flag.frames.start if flag.frames is not None else next(reversed(self._frames))
        keys = np.fromiter(self._frames, dtype=np.int64)
        best = int(keys[np.argmin(np.abs(keys - want))])
        return best if abs(best - want) <= MAX_GAP_S * self.fps else None

    def write(self, flag: Flag) -> list[str]:
        """Snapshot, clip and detections of the frame a flag names, as paths relative to `media_dir` ([] if no
        frame is kept near it). Flags of one round at one frame share the files; the clip is encoded in the
        background (`close` waits for it): VP8 takes about a second a clip, too long to hold the camera up."""
        at = self.frame_for(flag)
        if at is None:
            return []
        stem = Path("evidence") / self.table_id / flag.round_id / f"f{at}"
        clip = f"{stem}.webm" if can_write(".webm") else None  # an OpenCV without VP8: the snapshot alone
        out = [f"{stem}.jpg", *([clip] if clip else []), f"{stem}_detections.json"]
        if (self.media_dir / out[0]).is_file():
            return out
        (self.media_dir / stem.parent).mkdir(parents=True, exist_ok=True)
        jpeg, boxes = self._frames[at]
        (self.media_dir / out[-1]).write_text(json.dumps(
            {"frame": at, "table_id": self.table_id, "camera_homography": self.homography, "detections": boxes},
            indent=1))
        if clip:
            lo, hi = at - self.clip_ticks // 2, at + (self.clip_ticks + 1) // 2
            keys = [k for k in self._frames if lo <= k < hi]
            starts = list(keys)
            earlier = [k for k in self._frames if k < lo]
            if earlier and keys[0] > lo:  # until its first analysed frame, the window shows the one before
                keys, starts = [earlier[-1], *keys], [lo, *starts]
            held = np.diff([*starts, hi]).tolist()  # how many frame times each is shown
            frames = [(self._frames[k][0], n) for k, n in zip(keys, held, strict=True)]
            self._encoder.submit(_write_clip, self.media_dir / clip, frames, self.fps).add_done_callback(_said)
        (self.media_dir / out[0]).write_bytes(jpeg)  # last: it says the files of this frame are there
        return out

    def close(self) -> None:
        """Wait for the clips still being encoded."""
        self._encoder.shutdown(wait=True)


def _said(job: Future) -> None:
    """A clip that could not be written is said in the log (its snapshot and detections stand)."""
    if job.exception() is not None:  # VideoError, or the disk (OSError)
        log.warning("evidence clip not written: %s", job.exception())


def _write_clip(path: Path, frames: list[tuple[bytes, int]], fps: float) -> None:
    """The frames, each written `n` times (held for the frame times it stood for)."""
    images = (cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR) for jpeg, _ in frames)
    first = next(images)
    with VideoSink(path, fps, (first.shape[1], first.shape[0])) as sink:
        for image, (_, n) in zip((first, *images), frames, strict=True):
            for _ in range(n):
                sink.write(image)


def _boxes(det: sv.Detections) -> list[dict]:
    """The detections as plain JSON rows (class, box in frame pixels, confidence, card, chip value)."""
    data = det.data
    return [{"class_name": str(data["class_name"][i]), "xyxy": [round(float(v), 1) for v in det.xyxy[i]],
             "confidence": round(float(det.confidence[i]), 3), "card": str(data.get("card", [""] * len(det))[i]),
             "chip_value": int(data.get("chip_value", [0] * len(det))[i])} for i in range(len(det))]
