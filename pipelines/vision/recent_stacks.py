"""Where each zone's chips lay over the last analysed frames, to tell a stack half hidden from a new one.

The dealer's hand passing over a stack often leaves one or two of its chips in view, and their boxes, cut by the
hand, sit a few mm off the chips. At a zone's edge that is enough to put their centre in the next zone: a King
High $20 Low (four $5) under the hand showed only its bottom chip, 4 mm off, in the High Run spot beside it, for
three frames, and a $5 High Run wager was read that no one made. `RecentStacks` remembers, per zone, the chips
of its last reading; a small stack in a zone that held no chips lately, lying on chips another zone held lately
and shows none of now, is that zone's stack seen in part (`ZoneMapper.observe` gives it back to that zone). A zone
still showing chips is in view: a stack beside it that one frame read as part of it (two stacks in one line, a
detector's second box between them) is no part of it seen (a King High $25 Seven laid against a $20 High, read
with it as $45 in one frame, was then given to the High in every frame: the round said a $45 High was wagered).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class RecentStacks:
    frames: int = 10  # analysed frames a zone's last chips are remembered unseen
    within_mm: float = 6.5  # a chip this near a remembered one lies on it (a chip step is 15.6 mm)
    most: int = 2  # the most chips a stack seen in part is taken for
    _seen: dict[str, tuple[int, np.ndarray]] = field(default_factory=dict)  # zone -> (frame, chips mm (N, 2))
    _frame: int = 0

    def owner(self, zone: str, chips_mm: np.ndarray, now: dict[str, np.ndarray]) -> str | None:
        """The zone a stack of `chips_mm` read in `zone` belongs to, if it is another's seen in part: `zone` held
        no chips lately; each chip lies on one another zone held lately, and that zone shows no chip now (`now`:
        each zone's chips this frame)."""
        chips_mm = np.asarray(chips_mm, np.float64).reshape(-1, 2)
        if not 0 < len(chips_mm) <= self.most or zone in self._seen:
            return None
        for other, (_, before) in self._seen.items():
            if other == zone or not _on(chips_mm, before, self.within_mm).all():
                continue
            if other not in now:
                return other
        return None

    def update(self, now: dict[str, np.ndarray]) -> None:
        """One analysed frame's chips per zone (zones without chips absent)."""
        self._frame += 1
        for zone, chips in now.items():
            self._seen[zone] = (self._frame, np.asarray(chips, np.float64).reshape(-1, 2))
        self._seen = {z: v for z, v in self._seen.items() if self._frame - v[0] <= self.frames}


def _on(points: np.ndarray, targets: np.ndarray, within: float) -> np.ndarray:
    """Which of `points` (N, 2) lie within `within` of some of `targets` (M, 2)."""
    if not len(targets):
        return np.zeros(len(points), bool)
    return (np.linalg.norm(points[:, None] - targets[None], axis=-1) <= within).any(axis=1)
