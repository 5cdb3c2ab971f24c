"""What the chip verifier said of a place on the felt over the last analysed frames.

A chip box read below the detector's confidence at the end of a row is a real chip as often as not, and one
frame's `none` from the verifier does not tell the two apart there: real chips at a row's ends draw up to 0.96 in
single frames. A phantom (the detector reading two chips' overlap, or the felt beside a stack, as a chip) lies
still, and the verifier keeps calling it `none` frame after frame; a real chip it doubts in one frame it reads
as a chip in the next ones. `LastingNone` links each frame's unsure chip boxes to the places it saw them before
(nearest first, within `radius_mm`, seen again within `gap` analysed frames) and gives, per box, the least `none`
over the place's last `frames` readings: high only when every one of them was.

A reading carried over unchanged from an earlier frame (the regional path keeps the last frame's detections
outside its tile, `regional.py`) is the same look, not a new one: a value equal to the place's last is not
stored again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .pairing import nearest_first


@dataclass
class _Place:
    xy: np.ndarray
    last_frame: int
    readings: list[float] = field(default_factory=list)


@dataclass
class LastingNone:
    frames: int = 5  # readings a place needs, all of them high, before its lasting `none` is high
    radius_mm: float = 6.0  # a box this near a place seen before is the same place (a chip step is 15.6 mm)
    gap: int = 10  # analysed frames a place is remembered unseen (the verifier drops boxes it is sure of)
    _places: list[_Place] = field(default_factory=list)
    _frame: int = 0

    def update(self, points_mm: np.ndarray, none: np.ndarray) -> np.ndarray:
        """One analysed frame's unsure chip boxes (table mm, (N, 2)) and the verifier's `none` for each (NaN
        where it did not look) -> each box's least `none` over its place's last `frames` readings (NaN while the
        place has fewer)."""
        self._frame += 1
        self._places = [p for p in self._places if self._frame - p.last_frame <= self.gap]
        points_mm = np.asarray(points_mm, np.float64).reshape(-1, 2)
        none = np.asarray(none, np.float64).reshape(-1)
        out = np.full(len(none), np.nan)
        looked = np.flatnonzero(np.isfinite(none))
        if not len(looked):
            return out
        for k, p in zip(looked, self._nearest(points_mm[looked]), strict=True):
            if p is None:
                p = _Place(points_mm[k].copy(), self._frame)
                self._places.append(p)
            p.last_frame = self._frame
            if not p.readings or p.readings[-1] != none[k]:  # equal: a carried-over detection, the same look
                p.xy = points_mm[k].copy()
                p.readings = [*p.readings, float(none[k])][-self.frames:]
            if len(p.readings) >= self.frames:
                out[k] = min(p.readings)
        return out

    def _nearest(self, pts: np.ndarray) -> list[_Place | None]:
        """Each point's place seen before, one to one and nearest first, within `radius_mm`."""
        if not self._places or not len(pts):
            return [None] * len(pts)
        d = np.linalg.norm(pts[:, None, :] - np.array([p.xy for p in self._places])[None, :, :], axis=2)
        return [self._places[j] if j >= 0 else None for j in nearest_first(d, d <= self.radius_mm)]
