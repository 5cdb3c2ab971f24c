"""Looking only where the table changed: the detector on one tile around the change, the last analysed
frame's detections everywhere else.

Between two analysed frames the dealer's hand usually changes a small part of the table (a median of 7-14 %
of the frame on scripted sessions of the four games, with the context below). The tile model is the same
weights exported at 480x288, a quarter of the default input's pixels, and is fed at the default model's
scale (a 640x384 window of a 1280x720 frame), so cards and chips are the size the detector reads best.

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

No tile reads exactly as the whole frame does, however it is cut: the detector's attention layer (YOLO11's
C2PSA, at stride 32) sees its whole input, so what lies outside the tile moves readings inside it (a $100
chip 0.82 whole, 0.54-0.74 through windows with 64-224 px of context). Two variants were measured and
dropped (benchmarks/RESULTS.md, eleventh session): a tile cut from the whole frame's own input on its
32-px grid (same pixels, finer placement, more frames through tiles: fewer exact King High rounds), and
windows of any size (the same weights exported with a free input size; 90 % of analysed frames through a
window, and three wrong rounds on two held-out sets). Mixed readings are the risk: this tile, read on
about 30 % of the analysed frames, made no round wrong on the four held-out sets (98 exact of 160, against
93 reading every frame whole).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import supervision as sv

from .detect import Detector, ModelError, _session
from .paths import MODELS_DIR

TILE_PATH = MODELS_DIR / "detector_tile.onnx"
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
        """The tile's window (frame pixels) around `box`, at the default model's scale, or None when
        `box` with its context does not fit one tile."""
        w, h = frame_size
        dh, dw = self.detector.config.imgsz
        scale = min(dh / h, dw / w)
        tw, th = round(self.tile_size[1] / scale), round(self.tile_size[0] / scale)
        x0, y0, x1, y1 = box
        c = self.context_px
        if x1 - x0 + 2 * c > tw or y1 - y0 + 2 * c > th or tw > w or th > h:
            return None
        # On the whole frame's grid: the window starts at a multiple of three deepest strides (96 input px)
        # that is whole frame pixels, so the tile's input is the whole input's pixels and its anchor cells
        # the same. Off the grid, an unsure chip read in one look was missed in the other, and a King High
        # payout read alternately as 4 and 5 chips never confirmed (held-out seed 9301).
        g = _grid(scale)
        wx = min(max(0, (x0 - c) // g * g), (w - tw) // g * g)
        wy = min(max(0, (y0 - c) // g * g), (h - th) // g * g)
        if x1 + c > wx + tw or y1 + c > wy + th:
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
        fresh = self.detector.detect_in(frame, window, self._tile, self.tile_size)
        merged = sv.Detections.merge([last[~_touching(last, changed_box)], fresh[_touching(fresh, changed_box)]])
        self._last = self.detector.suppress(merged)
        return self._last


def _grid(scale: float, stride: int = 32) -> int:
    """The fewest whole frame pixels that are a whole number of `stride`s at `scale` (128 at 0.75)."""
    for k in range(1, 65):
        px = k * stride / scale
        if abs(px - round(px)) < 1e-6:
            return round(px)
    return round(stride / scale)


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
