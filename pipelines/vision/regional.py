"""Looking only where the table changed: the detector on a window around the change, the last analysed
frame's detections everywhere else.

Between two analysed frames the dealer's hand usually changes a small part of the table (a median of 7-14 %
of the frame on scripted sessions of the four games, with the context below). The window model is the same
weights exported with a free input size (`models/detector_window.onnx`), and reads a window of the whole
frame's own input (the 960x544 letterbox of a 1280x720 frame): the same pixels, on the same stride grid;
its cost is about its share of the input's pixels. It does not read exactly as the whole look does: the
detector's attention layer (YOLO11's C2PSA) sees its whole input, so what lies outside the window moves a
reading inside it (a $100 chip 0.82 whole, 0.54-0.74 through windows of 64-224 px of context, not in
order). Held-out video decides whether the difference matters (benchmarks/RESULTS.md).

- Every object the changed box touches is read anew: a detection of the window counts when its box
  overlaps the changed box, one of the last frame when it does not (the window holds `context_px` around
  the change, so an object reaching into it is seen whole and well inside the window: with 48 px a $100
  chip 50 px from the edge was missed in three frames of five that the whole frame read it in, and a King
  High payout was never confirmed). The two are merged under the detector's own suppression, so an
  object on the box's edge is kept once.
- The pipeline adds the zones the tracker is still confirming to the changed box: debouncing needs
  fresh readings of them, as the whole-frame path gives (an unsure chip read again may read sure).
- A change whose window would cover more than `max_share` of the input (little to save), the gate's
  refresh, and the first frame are looked at whole. A frame with no change and nothing to confirm keeps
  the last detections.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import supervision as sv

from .detect import Detector, ModelError, _session, letterbox, letterbox_geometry
from .paths import MODELS_DIR

WINDOW_PATH = MODELS_DIR / "detector_window.onnx"
STRIDE = 32  # the detector's deepest stride (input pixels): a window on it keeps the whole look's anchor cells
Box = tuple[int, int, int, int]


@dataclass
class RegionalCounters:
    whole: int = 0  # frames the detector looked at whole
    window: int = 0  # frames it looked at through a window around the change
    reused: int = 0  # frames with no change: the last detections kept
    window_share: float = 0.0  # the windows' pixels, in whole inputs (the work they cost, roughly)


class RegionalDetector:
    """`detect(frame, changed_box)`: the frame's detections, looking only at `changed_box` where it can."""

    def __init__(self, detector: Detector, window_path: Path = WINDOW_PATH, context_px: int = 160,
                 max_share: float = 0.6) -> None:
        self.detector = detector
        self._session = _session(window_path, detector.config.threads)
        shape = self._session.get_inputs()[0].shape
        if isinstance(shape[2], int) or isinstance(shape[3], int):
            raise ModelError(f"{window_path}: the window model needs a free input size, got {shape[2:]} "
                             "(export it with dynamic=True)")
        self.context_px = context_px
        self.max_share = max_share
        self.counters = RegionalCounters()
        self._last: sv.Detections | None = None

    def window(self, frame_size: tuple[int, int], box: Box) -> Box | None:
        """The window of the detector's input (the letterboxed frame, input pixels) that holds `box`
        (frame pixels) with its context, on the input's stride grid; None when it would cover more than
        `max_share` of the input.

        Cut from the whole frame's input on its grid, the window reads the very pixels the whole look
        reads, in the same anchor cells. A tile resized from the frame on its own put the grid elsewhere,
        and an unsure chip read in one look was missed in the other: a King High payout read alternately
        as 4 and 5 chips never confirmed (held-out seed 9301)."""
        ih, iw = self.detector.config.imgsz
        scale, _, (px, py) = letterbox_geometry(frame_size, (ih, iw))
        c = self.context_px * scale
        g = STRIDE
        # The box with its context, in input pixels, out to the grid; past the frame's edge is nothing.
        x0 = max(0, int((box[0] * scale + px - c) // g) * g)
        y0 = max(0, int((box[1] * scale + py - c) // g) * g)
        x1 = min(iw, -int(-(box[2] * scale + px + c) // g) * g)
        y1 = min(ih, -int(-(box[3] * scale + py + c) // g) * g)
        if x1 <= x0 or y1 <= y0 or (x1 - x0) * (y1 - y0) > self.max_share * iw * ih:
            return None
        return x0, y0, x1, y1

    def detect(self, frame: np.ndarray, changed_box: Box | None) -> sv.Detections:
        """This frame's detections. `changed_box`: where it differs from the last frame passed here
        (frame pixels), (0, 0, 0, 0) for nowhere, None to look at the whole frame."""
        h, w = frame.shape[:2]
        last = self._last
        if last is not None and changed_box == (0, 0, 0, 0):
            self.counters.reused += 1
            return last
        window = None if changed_box is None or last is None else self.window((w, h), changed_box)
        if window is None:
            self.counters.whole += 1
            self._last = self.detector.detect(frame)
            return self._last
        image, scale, pad = letterbox(frame, self.detector.config.imgsz)
        x0, y0, x1, y1 = window
        self.counters.window += 1
        self.counters.window_share += (x1 - x0) * (y1 - y0) / (image.shape[0] * image.shape[1])
        fresh = self.detector.detect_input(frame, image[y0:y1, x0:x1], scale, pad, (x0, y0), self._session)
        merged = sv.Detections.merge([last[~_touching(last, changed_box)], fresh[_touching(fresh, changed_box)]])
        self._last = self.detector.suppress(merged)
        return self._last


def _touching(det: sv.Detections, box: Box) -> np.ndarray:
    """Which detections' boxes overlap `box`."""
    if not len(det):
        return np.zeros(0, bool)
    x0, y0, x1, y1 = box
    b = det.xyxy
    return (b[:, 0] < x1) & (b[:, 2] > x0) & (b[:, 1] < y1) & (b[:, 3] > y0)


def union(a: Box | None, b: Box | None) -> Box | None:
    """The smallest box holding both; None (the whole frame) if either is; (0, 0, 0, 0) is empty."""
    if a is None or b is None:
        return None
    if a == (0, 0, 0, 0):
        return b
    if b == (0, 0, 0, 0):
        return a
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])
