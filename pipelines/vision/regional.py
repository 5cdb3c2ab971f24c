"""Looking only where the table changed: the detector on one tile around the change, the last analysed
frame's detections everywhere else.

Between two analysed frames the dealer's hand usually changes a small part of the table (a median of 7-14 %
of the frame on scripted sessions of the four games, with the context below). The tile model is the same
weights exported at 480x288, a quarter of the default input's pixels, and reads a window of the whole
frame's own input (the 960x544 letterbox; 640x384 frame pixels of a 1280x720 frame): the same pixels on
the same stride grid, so cards and chips are the size the detector reads best and read as a whole look
reads them.

- Every object the changed box touches is read anew: a detection of the tile counts when its box
  overlaps the changed box, one of the last frame when it does not (the tile holds `context_px` around
  the change, so an object reaching into it is seen whole and well inside the tile: with 48 px a $100
  chip 50 px from the tile's edge was missed in three frames of five that the whole frame read it in, and
  a King High payout was never confirmed). The two are merged under the detector's own suppression, so
  an object on the box's edge is kept once.
- The pipeline adds the zones the tracker is still confirming to the changed box: debouncing needs
  fresh readings of them, as the whole-frame path gives (an unsure chip read again may read sure).
- A change that does not fit one tile with its context, the gate's refresh, and the first frame are
  looked at whole. A frame with no change and nothing to confirm keeps the last detections.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import supervision as sv

from .detect import Detector, ModelError, _session, letterbox, letterbox_geometry
from .paths import MODELS_DIR

TILE_PATH = MODELS_DIR / "detector_tile.onnx"
STRIDE = 32  # the detector's deepest stride (input pixels): a tile starting on it keeps the anchor cells
Box = tuple[int, int, int, int]


@dataclass
class RegionalCounters:
    whole: int = 0  # frames the detector looked at whole
    tile: int = 0  # frames it looked at through one tile
    reused: int = 0  # frames with no change: the last detections kept


class RegionalDetector:
    """`detect(frame, changed_box)`: the frame's detections, looking only at `changed_box` where it can."""

    def __init__(self, detector: Detector, tile_path: Path = TILE_PATH, context_px: int = 96) -> None:
        self.detector = detector
        self._tile = _session(tile_path, detector.config.threads)
        shape = self._tile.get_inputs()[0].shape
        if not (isinstance(shape[2], int) and isinstance(shape[3], int)):
            raise ModelError(f"{tile_path}: the tile model needs a fixed input size, got {shape[2:]}")
        self.tile_size = (int(shape[2]), int(shape[3]))  # (height, width)
        self.context_px = context_px
        self.counters = RegionalCounters()
        self._last: sv.Detections | None = None

    def window(self, frame_size: tuple[int, int], box: Box) -> Box | None:
        """The tile's window in the detector's input (the letterboxed frame, input pixels) around `box`
        (frame pixels) and its context, or None when they do not fit one tile.

        The window is cut from the whole frame's input and starts on its stride grid, so the tile reads
        the very pixels the whole look reads, in the same anchor cells. A tile resized from the frame on
        its own put the grid elsewhere, and an unsure chip read in one look was missed in the other: a King
        High payout read alternately as 4 and 5 chips never confirmed (held-out seed 9301)."""
        ih, iw = self.detector.config.imgsz
        th, tw = self.tile_size
        scale, _, (px, py) = letterbox_geometry(frame_size, (ih, iw))
        c = self.context_px * scale
        # The box with its context, in input pixels; past the frame's edge there is nothing to read.
        x0, x1 = max(0.0, box[0] * scale + px - c), min(float(iw), box[2] * scale + px + c)
        y0, y1 = max(0.0, box[1] * scale + py - c), min(float(ih), box[3] * scale + py + c)
        wx, wy = _placed(x0, x1, tw, iw), _placed(y0, y1, th, ih)
        if wx is None or wy is None:
            return None
        return wx, wy, wx + tw, wy + th

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
        self.counters.tile += 1
        image, scale, pad = letterbox(frame, self.detector.config.imgsz)
        x0, y0, x1, y1 = window
        fresh = self.detector.detect_input(frame, image[y0:y1, x0:x1], scale, pad, (x0, y0), self._tile)
        merged = sv.Detections.merge([last[~_touching(last, changed_box)], fresh[_touching(fresh, changed_box)]])
        self._last = self.detector.suppress(merged)
        return self._last


def _placed(lo: float, hi: float, size: int, limit: int, stride: int = STRIDE) -> int | None:
    """Where a tile of `size` starts along one axis of an input `limit` long so that it holds [lo, hi]: on
    the stride grid, inside the input, and as near centred on [lo, hi] as the grid allows (the most
    context on both sides: the tile's edge is where its reading can differ from the whole look's)."""
    first = max(0, -int(-(hi - size) // stride) * stride)  # the first start on the grid reaching hi
    last = min(int(lo // stride) * stride, (limit - size) // stride * stride)  # the last one starting by lo
    if first > last:
        return None
    centred = (lo + hi - size) / 2
    return int(min(max(round(centred / stride) * stride, first), last))


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
