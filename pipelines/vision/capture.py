"""Frames with timestamps from a video file, a stream URL (RTSP/HTTP), a camera index or an image folder.

A file (or a recording served over the network) gives every frame, timed by its frame rate. A live camera
or stream is read in its own thread as fast as it sends (a decoder left unread buffers seconds of frames,
and over RTP drops packets and smears the frames after them), keeping one frame per tick of 1/fps, and the
pipeline takes them oldest first from a queue of at most `buffer_s`: it may fall that far behind the
camera and no further. Frames lost to a full queue, or never sent (a camera that stalls or drops for
two ticks or more), are said by the next frame (`Frame.dropped`), so what happened meanwhile goes to review
instead of being read wrong. A live frame's index is its tick, so
`index / fps` is the time it was captured whatever the camera's own rate.

A stream that drops is reopened (with back-off) instead of ending the watch, and one not there yet at the
start is waited for the same way; one that stalls is given up after `READ_TIMEOUT_S` and reopened. A file
or folder that cannot be read fails at once with a clear error naming it.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp"}
READ_TIMEOUT_S = 10.0  # a stream that sends nothing this long is reopened
# A live source is analysed at most this often when its table's configuration gives no camera.fps: the rate
# the debouncing (stable_frames) and the round machines' timings were measured at (the simulator's camera).
LIVE_FPS = 10.0
# A live camera's frames waiting for the analysis, at most (the lag it may reach; camera.buffer_s): 135 MB of
# 1280x720 frames at 10 a second.
LIVE_BUFFER_S = 5.0


class CaptureError(RuntimeError):
    """A source that cannot be opened or read."""


@dataclass(frozen=True)
class Frame:
    index: int
    timestamp: float  # seconds from the start of the source
    image: np.ndarray
    dropped: int = 0  # a live camera's ticks just before this one not analysed: the analysis had fallen
    # behind, or the camera sent nothing (stalled, or dropped and reopened)


@dataclass(frozen=True)
class SourceInfo:
    """What a source says of itself once opened: its frame rate (for a live one, the rate it is analysed
    at), its length in frames (0 when live or not known), and whether it is live."""

    fps: float
    frames: int
    live: bool


@dataclass
class LiveStats:
    """How a live source is keeping up: frames the camera sent, frames given to the pipeline, frames lost
    because it had fallen `buffer_s` behind, ticks the camera sent nothing for, and `lag_s`, the age of
    the last frame given when the pipeline came back for the next (how far behind the camera it is)."""

    captured: int = 0
    given: int = 0
    dropped: int = 0
    unseen: int = 0  # ticks the camera sent nothing for (stalled, or dropped and reopened)
    lag_s: float = 0.0
    lags: list[float] = field(default_factory=list, repr=False)  # every lag, for benchmarks (bounded)

    def note_lag(self, lag: float) -> None:
        self.lag_s = lag
        if len(self.lags) < 100_000:
            self.lags.append(lag)


def _is_stream(source: str) -> bool:
    return source.split("://", 1)[0].lower() in {"rtsp", "rtsps", "http", "https", "rtmp", "udp", "tcp"}


class FrameSource:
    """Iterate `Frame`s. `source`: a path, a folder, a URL, or a camera index ("0")."""

    def __init__(self, source: str | Path | int, fps: float | None = None, reconnect_attempts: int = 5,
                 reconnect_delay_s: float = 1.0, buffer_s: float | None = None) -> None:
        """`buffer_s`: how far a live camera's analysis may fall behind (default `LIVE_BUFFER_S`)."""
        self.source = source
        self.buffer_s = buffer_s or LIVE_BUFFER_S
        self.fps_override = fps
        self.reconnect_attempts = reconnect_attempts
        self.reconnect_delay_s = reconnect_delay_s
        text = str(source)
        self.kind = ("camera" if text.isdigit() else "stream" if _is_stream(text)
                     else "folder" if Path(text).is_dir() else "file")
        self.live = LiveStats()  # filled while a live camera or stream is read
        self._opened: tuple[cv2.VideoCapture, SourceInfo] | None = None  # probed, kept for the first iteration
        if self.kind == "file" and not Path(text).exists():
            raise CaptureError(f"{text}: no such video file")
        if self.kind == "folder" and not self._images():
            raise CaptureError(f"{text}: folder holds no images ({', '.join(sorted(IMAGE_SUFFIXES))})")

    def _images(self) -> list[Path]:
        return sorted(p for p in Path(str(self.source)).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def open(self, wait: bool = False) -> cv2.VideoCapture:
        """The source opened (CaptureError if it cannot be). With `wait`, a camera or stream is waited for
        with the reconnect back-off: one still booting when its table's process starts."""
        retries = self.reconnect_attempts if wait and self.kind in ("camera", "stream") else 0
        for attempt in range(1, retries + 1):
            try:
                return self._open_once()
            except CaptureError:
                time.sleep(self.reconnect_delay_s * attempt)
        try:
            return self._open_once()
        except CaptureError as e:
            raise CaptureError(f"{e}; tried {retries + 1} times" if retries else str(e)) from None

    def probe(self) -> SourceInfo:
        """Open the source (waiting for a camera or stream) and say its rate, length and whether it is live;
        the capture is kept for iterating, so a camera is not opened twice."""
        if self.kind == "folder":
            return SourceInfo(self.fps_override or 10.0, len(self._images()), False)
        if self._opened is None:
            cap = self.open(wait=True)
            frames = max(0, int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0))
            live = self.kind != "file" and frames == 0  # a stream that knows its length is a recording
            fps = self.fps_override or (LIVE_FPS if live else cap.get(cv2.CAP_PROP_FPS) or 10.0)
            self._opened = (cap, SourceInfo(float(fps), frames, live))
        return self._opened[1]

    def _open_once(self) -> cv2.VideoCapture:
        text = str(self.source)
        if self.kind == "stream":  # a stalled stream fails a read instead of blocking it for good
            ms = int(READ_TIMEOUT_S * 1000)
            cap = cv2.VideoCapture(text, cv2.CAP_FFMPEG,
                                   [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms])
        else:
            cap = cv2.VideoCapture(int(text) if self.kind == "camera" else text)
        if not cap.isOpened():
            cap.release()
            raise CaptureError(f"{text}: cannot open {self.kind} (not a video OpenCV can decode, or unreachable)")
        return cap

    def __iter__(self) -> Iterator[Frame]:
        if self.kind == "folder":
            yield from self._iter_folder()
        else:
            yield from self._iter_capture()

    def _iter_folder(self) -> Iterator[Frame]:
        fps = self.fps_override or 10.0
        for i, path in enumerate(self._images()):
            image = cv2.imread(str(path))
            if image is None:
                raise CaptureError(f"{path}: not a readable image")
            yield Frame(i, i / fps, image)

    def _iter_capture(self) -> Iterator[Frame]:
        info = self.probe()
        cap, self._opened = self._opened[0], None  # type: ignore[index]
        if info.live:
            yield from self._iter_live(_LiveReader(self, cap, info.fps))
        else:  # a file, or a recording served over the network
            yield from self._iter_recording(cap, info.fps, info.frames)

    def _iter_recording(self, cap: cv2.VideoCapture, fps: float, expected: int) -> Iterator[Frame]:
        index = 0
        try:
            while True:
                ok, image = cap.read()
                if not ok or image is None:
                    break
                yield Frame(index, index / fps, image)
                index += 1
        finally:
            cap.release()
        if index == 0:
            raise CaptureError(f"{self.source}: no frame could be decoded (corrupt or empty video)")
        if expected and index < expected * 0.9:
            raise CaptureError(f"{self.source}: video ends early at frame {index} of {expected} (truncated or corrupt)")

    def _iter_live(self, reader: _LiveReader) -> Iterator[Frame]:
        """The camera's frames, one per tick of 1/fps, oldest first, from the reader's bounded queue."""
        self.live = reader.stats
        try:
            while True:
                frame, t = reader.next()
                reader.stats.given += 1
                yield frame
                reader.stats.note_lag(time.monotonic() - t)
        finally:
            reader.stop()


class _LiveReader:
    """Reads a live camera or stream in a thread of its own and keeps one frame per tick of 1/fps (the first
    of each: a faster camera's others are skipped), up to `buffer_s` of them: a pipeline slower for a
    while catches up when the table is still (motion gating); one that stays behind loses the oldest frames,
    and the next frame it gets says how many (`Frame.dropped`). Reopens the source with back-off when it
    drops. The thread owns the capture (OpenCV's is not safe across threads)."""

    def __init__(self, source: FrameSource, cap: cv2.VideoCapture, fps: float) -> None:
        self.source, self.fps, self.stats = source, fps, LiveStats()
        self._cond = threading.Condition()
        self._queue: deque[tuple[Frame, float]] = deque()
        self._room = max(1, round(source.buffer_s * fps))
        self._dropped = 0  # frames dropped since the last one taken
        self._t0: float | None = None
        self._last_tick = -1
        self._error: CaptureError | None = None
        self._stopping = False
        self._thread = threading.Thread(target=self._run, args=(cap,), daemon=True,
                                        name=f"capture {source.source}")
        self._thread.start()

    def _keep(self, image: np.ndarray, t: float) -> None:
        if self._t0 is None:  # ticks are centred on the camera's frames: a little jitter moves none across one
            self._t0 = t
        tick = math.floor((t - self._t0) * self.fps + 0.5)
        self.stats.captured += 1
        if tick <= self._last_tick:
            return  # the camera is faster than fps: this tick has its frame
        # Two ticks or more with no frame: the camera stalled or dropped and was reopened. (One is jitter, or a
        # camera a little slower than fps.) What happened meanwhile was not seen either.
        unseen = tick - self._last_tick - 1 if tick - self._last_tick > 2 and self._last_tick >= 0 else 0
        self.stats.unseen += unseen
        self._last_tick = tick
        with self._cond:
            self._queue.append((Frame(tick, t - self._t0, image, dropped=unseen), t))
            if len(self._queue) > self._room:
                lost, _ = self._queue.popleft()
                self._dropped += 1 + lost.dropped  # the next frame taken says all of it
                self.stats.dropped += 1
            self._cond.notify_all()

    def _run(self, cap: cv2.VideoCapture) -> None:
        src, failures = self.source, 0
        try:
            while not self._stopping:
                ok, image = cap.read()
                if ok and image is not None:
                    failures = 0
                    self._keep(image, time.monotonic())
                    continue
                failures += 1  # the source dropped: reopen with back-off
                if failures > src.reconnect_attempts:
                    raise CaptureError(f"{src.source}: stream lost, {src.reconnect_attempts} reconnects failed")
                cap.release()
                time.sleep(src.reconnect_delay_s * failures)
                try:
                    cap = src._open_once()
                except CaptureError:
                    continue
        except CaptureError as e:
            with self._cond:
                self._error = e
                self._cond.notify_all()
        finally:
            cap.release()

    def next(self) -> tuple[Frame, float]:
        """The oldest frame kept and its capture time (waits for one); CaptureError once the source is lost for
        good and every frame kept was taken."""
        with self._cond:
            while not self._queue and self._error is None:
                self._cond.wait(0.5)
            if not self._queue:
                raise self._error  # type: ignore[misc]
            frame, t = self._queue.popleft()
            if self._dropped:
                frame = replace(frame, dropped=frame.dropped + self._dropped)
                self._dropped = 0
            return frame, t

    def stop(self) -> None:
        self._stopping = True
        self._thread.join(timeout=1.0)  # one stuck in a stalled read releases the capture itself
