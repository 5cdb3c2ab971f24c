"""Where a chip the detector missed could lie beside a stack it read (`MissedChipRoom`, a part of `ZoneMapper`): over
a card's edge, under another stack's chip, or at the end of a payout lying half a step off its spot's centre. The
tracker and the round machine weigh that room against what else was read."""

from __future__ import annotations

import numpy as np

from .chip_stacks import (
    CHIP_MM,
    EDGE_CHIP_SHARE,
    UNDER_CHIP_REACH,
    ChipSpread,
    ChipStackObs,
    NextPlaces,
    _wager_of,
)
from .outlines import Outlines


class MissedChipRoom:
    """`ZoneMapper`'s room for a missed chip beside each stack."""

    spread: ChipSpread

    def _off_centre_room(self, stacks: list[ChipStackObs], pts: np.ndarray) -> np.ndarray:
        """For each stack, whether it is a payout of one row, two chips or more and short of a full one, whose centre
        lies `OFF_CENTRE_STEPS` or more along the spread off its spot's: as the same row a chip longer would lie, its
        end chip missed. Each stack is spread centred on its spot (the simulator's are, `ChipSpread`). A 3 Card
        Monster $300 Ante payout read $200 for good: its bottom chip, beside the wager's top one, went unseen, and
        the two chips read lay 0.6 of a step past the spot's centre. (A lone chip read as a payout is laid under the
        dealer's hand lies where it happens to: a true $4 short pay read as one $1 chip 1.6 steps off its spot.)"""
        out = np.zeros(len(stacks), bool)
        u = pts @ self.spread.axes[0]
        for k, st in enumerate(stacks):
            if _wager_of(st.zone) is None or len(st.rows) != 1 or not 2 <= len(st.members) < self.spread.per_row:
                continue
            out[k] = self._off_its_spot(st.zone, u[list(st.rows[0])])
        return out

    def _card_edge_room(self, stacks: list[ChipStackObs], places: NextPlaces, cards_xyxy: np.ndarray) -> np.ndarray:
        """For each stack, whether a chip of it the detector missed could lie over a card's edge: a place its
        rows' next chip would take (`_next_places`, a row further too) has `EDGE_CHIP_SHARE` of a chip's width on a
        card's box. A turned card's box is larger than the card, so no such place is ruled out that is not. All
        stacks' places are measured at once."""
        if not len(cards_xyxy) or not stacks:
            return np.zeros(len(stacks), bool)
        at, owner, _ = places
        boxes = self._card_boxes_mm(cards_xyxy)
        reach = CHIP_MM / 2 - EDGE_CHIP_SHARE * CHIP_MM  # a place whose centre is this near a box
        near = Outlines.of(boxes).distances(at).min(1) <= reach
        x, y = self.to_image(at).T[:, :, None]  # inside a box: in the image, where the boxes are upright
        near |= ((x >= cards_xyxy[:, 0]) & (x <= cards_xyxy[:, 2]) & (y >= cards_xyxy[:, 1])
                 & (y <= cards_xyxy[:, 3])).any(1)
        return np.bincount(owner[near], minlength=len(stacks)) > 0

    def _under_chip_room(self, stacks: list[ChipStackObs], pts: np.ndarray, places: NextPlaces) -> np.ndarray:
        """For each stack, whether a chip of it the detector missed could lie under another stack's chip: a chip of
        another stack lies within `UNDER_CHIP_REACH` of a chip's width of a place its rows' next chip would take
        in one of its rows (`_next_places`; a King High $2 High laid against a $20 Seven, its bottom $1 hidden
        between the Seven's top chip and its own top one). What is laid later lies on top, so a payout's chip
        cannot lie under a wager's, every wager laid before any payout (a Pick 2 $4 short pay laid against its $5
        Ante was sent to review for that room; so was a $4 Play short pay laid centred on its spot, its next place
        22 mm from the Ante's chip). All stacks' places are measured at once."""
        if len(stacks) < 2:
            return np.zeros(len(stacks), bool)
        at, owner, further = places
        at, owner = at[~further], owner[~further]
        chip_owner = np.full(len(pts), -1)
        for k, st in enumerate(stacks):
            chip_owner[list(st.members)] = k
        payout = np.array([_wager_of(st.zone) is not None for st in stacks], bool)
        placed = np.array([st.zone is not None for st in stacks], bool)
        wager = np.append(placed & ~payout, False)  # [-1]: a chip of no stack, which may be anything
        gap = np.linalg.norm(at[:, None] - pts[None], axis=-1)
        other = (chip_owner[None] != owner[:, None]) & ~(payout[owner][:, None] & wager[chip_owner][None])
        near = ((gap <= UNDER_CHIP_REACH * CHIP_MM) & other).any(1)
        return np.bincount(owner[near], minlength=len(stacks)) > 0

    def _next_places(self, stacks: list[ChipStackObs], pts: np.ndarray) -> NextPlaces:
        """Where a chip of each stack that the detector missed would lie (mm), with the stack each place is of: one
        step before or after either end of each row and, with every row full, a row further (marked as such)."""
        u, v = self.spread.axes
        step, pitch = self.spread.step_mm * u, self.spread.row_pitch_mm * v
        places, owner, further = [], [], []
        for k, st in enumerate(stacks):
            rows = st.rows or (st.members,)
            ends = [p for r in rows for p in (pts[r[0]] - step, pts[r[-1]] + step)]
            more = [pts[rows[-1][0]] + pitch, pts[rows[0][0]] - pitch] if all(
                len(r) >= self.spread.per_row for r in rows) else []
            places += ends + more
            owner += [k] * (len(ends) + len(more))
            further += [False] * len(ends) + [True] * len(more)
        return NextPlaces(np.asarray(places).reshape(-1, 2), np.asarray(owner, int), np.asarray(further, bool))

    def _card_boxes_mm(self, cards_xyxy: np.ndarray) -> list[np.ndarray]:
        """Each card box's corners on the felt (mm)."""
        corners = cards_xyxy[:, [0, 1, 2, 1, 2, 3, 0, 3]].reshape(-1, 2)
        return list(self.to_table(corners).reshape(-1, 4, 2))
