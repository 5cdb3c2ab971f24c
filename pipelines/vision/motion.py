"""Motion gating: run the detector only when something changed inside the table's zones.

Each frame is shrunk to a small grey image, its brightness matched to the reference (cameras and the
simulator vary exposure frame to frame) and differenced against the *last analysed* frame, inside the
zones projected into the image. So slow changes add up until they are seen, and a frame is analysed
when enough pixels of some zone changed. A periodic full refresh (`refresh_every`) analyses a frame
whatever the difference, so nothing stays missed for long.

`changed_box` says where the change lies (full-frame pixels), so the detector can look only there
(`pipelines/vision/regional.py`); it is None when the whole frame is to be looked at (the first frame,
a refresh).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import cv2
import numpy as np

GREY_BGR = np.array([0.114, 0.587, 0.299], np.float32)  # OpenCV's BGR -> grey weights


@dataclass(frozen=True)
class MotionConfig:
    work_width: int = 320  # frames are shrunk to this width before differencing
    pixel_threshold: int = 28  # grey levels (after blur and brightness matching) that count as a change
    min_changed_fraction: float = 0.02  # of a zone's pixels
    min_changed_pixels: int = 6
    refresh_every: int = 30  # analyse at least every Nth frame
    # A change for `changed_box` is any colour channel moving this much: a red chip put down on green felt
    # can hardly change the grey level, and a change left out of the box would never be looked at.
    box_threshold: int = 16


class MotionGate:
    """`check(index, frame) -> bool`: should this frame be analysed? `changed_zones` says where."""

    def __init__(self, zone_polygons_px: Mapping[str, np.ndarray], frame_size: tuple[int, int],
                 config: MotionConfig | None = None) -> None:
        self.config = c = config or MotionConfig()
        w, h = frame_size
        self.scale = min(1.0, c.work_width / w)
        self.size = (max(1, round(w * self.scale)), max(1, round(h * self.scale)))
        self.names = list(zone_polygons_px)
        self._masks: list[tuple[int, int, np.ndarray]] = []  # (x0, y0, mask of the bounding box)
        union = np.zeros(self.size[::-1], np.uint8)
        for name in self.names:
            poly = np.round(np.asarray(zone_polygons_px[name], np.float64) * self.scale).astype(np.int32)
            m = np.zeros_like(union)
            cv2.fillPoly(m, [poly], 1)
            cv2.polylines(m, [poly], True, 1, 2)  # a little margin: objects overlap their zone's edge
            ys, xs = np.nonzero(m)
            if not len(xs):
                self._masks.append((0, 0, np.zeros((0, 0), bool)))
                continue
            x0, y0 = xs.min(), ys.min()
            self._masks.append((x0, y0, m[y0:ys.max() + 1, x0:xs.max() + 1].astype(bool)))
            union |= m
        self.union = union.astype(bool)
        # Where a change counts for `changed_box`: the zones and a margin, as objects overlap their zone's edge.
        self._near_zones = cv2.dilate(union, np.ones((9, 9), np.uint8)).astype(bool)
        self._ref: np.ndarray | None = None
        self._last_analysed = -(10**9)
        self.changed_zones: list[str] = []
        self._moved: np.ndarray | None = None  # the last check's per-pixel change, None for the whole frame

    def _prepare(self, frame: np.ndarray) -> np.ndarray:
        """The frame shrunk and blurred, float32, colour kept."""
        small = cv2.resize(frame, self.size, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (5, 5), 0).astype(np.float32)

    def check(self, index: int, frame: np.ndarray, force: bool = False) -> bool:
        """True when the frame should be analysed (it then becomes the new reference)."""
        cur = self._prepare(frame)
        c = self.config
        if self._ref is None or index - self._last_analysed >= c.refresh_every:
            self.changed_zones, self._moved = list(self.names), None
            self._accept(index, cur)
            return True
        region = self.union if self.union.any() else np.ones_like(self.union)
        gain = float(self._ref[region].mean()) / max(float(cur[region].mean()), 1e-3)
        delta = cur * gain - self._ref
        self._moved = np.abs(delta)
        diff = (self._moved if delta.ndim == 2 else np.abs(delta @ GREY_BGR)) > c.pixel_threshold
        if force:
            self.changed_zones = list(self.names)
            self._accept(index, cur)
            return True
        changed = []
        for name, (x0, y0, m) in zip(self.names, self._masks, strict=True):
            if not m.size:
                continue
            n = int(diff[y0:y0 + m.shape[0], x0:x0 + m.shape[1]][m].sum())
            if n >= c.min_changed_pixels and n >= c.min_changed_fraction * m.sum():
                changed.append(name)
        self.changed_zones = changed
        if changed:
            self._accept(index, cur)
            return True
        return False

    @property
    def changed_box(self) -> tuple[int, int, int, int] | None:
        """Where the last checked frame changed: the bounding box, in full-frame pixels, of the pixels near
        the zones where some colour channel moved `box_threshold` or more; (0, 0, 0, 0) when none did, None
        when the whole frame is to be looked at. Found only when asked: plain gating never needs it."""
        if self._moved is None:
            return None
        colour = self._moved if self._moved.ndim == 2 else self._moved.max(axis=2)
        ys, xs = np.nonzero((colour > self.config.box_threshold) & self._near_zones)
        if not len(xs):
            return (0, 0, 0, 0)
        s = self.scale
        return (int(xs.min() / s), int(ys.min() / s),
                int(np.ceil((xs.max() + 1) / s)), int(np.ceil((ys.max() + 1) / s)))

    def _accept(self, index: int, cur: np.ndarray) -> None:
        self._ref = cur
        self._last_analysed = index


def frames_to_analyse(gate: MotionGate, frames: Iterable[tuple[int, np.ndarray]]) -> list[int]:
    """The indices of the frames the gate lets through (for benchmarks and tests)."""
    return [i for i, f in frames if gate.check(i, f)]
