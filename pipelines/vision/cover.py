"""Where the dealer's hand lies: the zones something other than a card or chip covers, frame by frame.

A payout shows only once the hand that laid it has left its spot, and a stack taken vanishes as the hand
comes over it; when the hand was over which spot orders settlements the chips alone cannot (a wager taken
and, 0.4 s later, the next seat's payout laid). `CoverMeter` finds, in a frame, the zones whose pixels
differ from the empty-table reference where no detection explains the difference (the hand, its arm or
its shadow); `CoverLog` keeps, per zone, the spells it was covered.

Both err towards covered: a difference no box explains (a chip the detector missed) counts, and a spell
ends only after `END_FRAMES` analysed frames in a row saw the zone clear, so frames never analysed (motion
gating) or one frame's miss do not split it. A spell too long only leaves an order in doubt; a spell split
would claim one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np
import supervision as sv

END_FRAMES = 2  # analysed frames in a row a zone must be seen clear before its spell ends


@dataclass
class _Spell:
    first: int
    last: int  # the last frame seen covered
    clear: int = 0  # analysed frames seen clear since `last`
    ended: bool = False


@dataclass
class CoverLog:
    """Per zone, the spells (first, last frame seen covered) something lay over it."""

    end_frames: int = END_FRAMES
    _spells: dict[str, list[_Spell]] = field(default_factory=dict)

    def add(self, frame: int, covered: Iterable[str]) -> None:
        """One analysed frame: the zones covered in it (every other zone logged so far was seen clear)."""
        now = set(covered)
        for zone in now:
            spells = self._spells.setdefault(zone, [])
            if spells and not spells[-1].ended:
                spells[-1].last, spells[-1].clear = frame, 0
            else:
                spells.append(_Spell(frame, frame))
        for zone, spells in self._spells.items():
            s = spells[-1]
            if zone not in now and not s.ended:
                s.clear += 1
                s.ended = s.clear >= self.end_frames

    def spell_at(self, zone: str, frame: int) -> tuple[int, int] | None:
        """(first, last) of the zone's spell covering `frame`, a frame from its first to one before the
        zone was next seen clear; None when the zone was not covered then."""
        for s in reversed(self._spells.get(zone, [])):
            if s.first <= frame <= s.last + 1:
                return s.first, s.last
            if s.last < frame:
                return None
        return None


class CoverMeter:
    """`covered(frame, detections) -> set of zone names`: zones at least `min_fraction` covered."""

    def __init__(self, zone_polygons_px: Mapping[str, np.ndarray], reference: np.ndarray, *,
                 work_width: int = 320, pixel_threshold: int = 40, min_fraction: float = 0.25) -> None:
        h, w = reference.shape[:2]
        self.scale = min(1.0, work_width / w)
        self.size = (max(1, round(w * self.scale)), max(1, round(h * self.scale)))
        self.pixel_threshold = pixel_threshold
        self.min_fraction = min_fraction
        self.names = list(zone_polygons_px)
        # One label image: the zone each work pixel belongs to (0: none; a pixel of two zones, the later).
        self._labels = np.zeros(self.size[::-1], np.int32)
        for k, name in enumerate(self.names, 1):
            poly = np.round(np.asarray(zone_polygons_px[name], np.float64) * self.scale).astype(np.int32)
            cv2.fillPoly(self._labels, [poly], k)
        self._area = np.bincount(self._labels.ravel(), minlength=len(self.names) + 1).astype(np.float64)
        self._in_zones = self._labels > 0
        self._ref = self._prepare(reference)

    def _prepare(self, image: np.ndarray) -> np.ndarray:
        small = cv2.resize(image, self.size, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (5, 5), 0).astype(np.float32)

    def covered(self, image: np.ndarray, detections: sv.Detections) -> set[str]:
        cur = self._prepare(image)
        # The camera's exposure drifts: match the frame's brightness to the reference over the zones.
        gain = float(self._ref[self._in_zones].mean()) / max(float(cur[self._in_zones].mean()), 1e-3)
        differs = np.abs(cur * gain - self._ref).max(axis=2) > self.pixel_threshold
        for x0, y0, x1, y1 in np.round(np.asarray(detections.xyxy, np.float64) * self.scale).astype(int):
            differs[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)] = False  # what a box explains
        hits = np.bincount(self._labels[differs], minlength=len(self.names) + 1)
        frac = hits / np.maximum(self._area, 1.0)
        return {self.names[k - 1] for k in np.flatnonzero(frac[1:] >= self.min_fraction) + 1}
