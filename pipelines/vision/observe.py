"""What one frame shows in each zone of the layout, and the debounced state built from it.

The contract between vision/ (detections -> `FrameObs`) and rounds/ (stable `ZoneState` changes ->
events and rounds). rounds/ never sees pixels; vision/ never knows a game's rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class CardObs:
    card: str | None  # "Ah"; None for a back or an unreadable face
    face_up: bool
    back: str | None = None  # "red" | "blue" when the back shows
    x_mm: float = 0.0  # position on the felt, so a zone's cards keep their left-to-right order
    y_mm: float = 0.0
    confidence: float = 1.0  # the card classifier's, for a face; the detector's, for a back
    uncertain: bool = False  # below the detector's confidence: carried, never trusted for a hard flag
    box_confidence: float = 1.0  # the detector's confidence in the card's box (low where a hand half covers it)


@dataclass
class ZoneObs:
    cards: list[CardObs] = field(default_factory=list)
    chips: list[int] = field(default_factory=list)  # denominations seen in the zone's stack
    chips_uncertain: bool = False  # a chip of the zone's stack below the detector's confidence
    # Doubt about the chips other than their reaching into another betting spot (`ChipStackObs.reaches`).
    chips_doubt_other: bool = False
    # The other zones its stack and theirs meet in: betting spots chips of its stack lie in, and the stacks whose
    # chips lie in its spot (`zones._reached_by_others`).
    chips_reach_into: set[str] = field(default_factory=set)
    chips_min_confidence: float = 1.0  # the least confident chip of the zone's stack
    # A chip of the stack the detector missed could lie over a card's edge (`ZoneMapper._card_edge_room`).
    chips_card_edge_room: bool = False
    # A chip of the stack the detector missed could lie under another stack's chip (`ZoneMapper._under_chip_room`).
    chips_under_room: bool = False
    # The stack lies off its spot's centre as one a chip longer would (`ZoneMapper._off_centre_room`).
    chips_off_centre_room: bool = False
    # A wager's one row, short of a full one, lies off its spot's centre as the row a chip longer would: its end chip
    # may have been missed (`ZoneMapper._short_wager_rows`), or the box at its other end be none. Weighed by the
    # tracker, not a doubt in itself (its far end seen below `OFF_CENTRE_END_SEEN` is one, besides).
    chips_short_row: bool = False
    # Its one doubt is a chip counted unseen between two runs of its stack a chip's gap apart (`ZoneMapper._gapped`).
    chips_gap_only: bool = False

    @property
    def chips_hidden_room(self) -> bool:
        """A chip of the stack the detector missed could lie unseen: over a card's edge or under another stack's, or
        at the end of a stack lying off its spot's centre."""
        return self.chips_card_edge_room or self.chips_under_room or self.chips_off_centre_room

    @property
    def chips_against_other(self) -> bool:
        """The stack meets another: a chip of it could lie under the other's, or chips of one lie in the other's spot.
        Where stacks meet, a chip of the one beside it, or a box that is no chip, may be counted in it."""
        return self.chips_under_room or bool(self.chips_reach_into)

    @property
    def uncertain(self) -> bool:
        """Anything in the zone below the detector's confidence."""
        return self.chips_uncertain or any(c.uncertain for c in self.cards)

    @property
    def chips_reach_only(self) -> bool:
        """The zone's chips are in doubt only because some lie in another betting spot."""
        return self.chips_uncertain and not self.chips_doubt_other

    @property
    def chip_total(self) -> float:
        return float(sum(self.chips))


FrameObs = dict[str, ZoneObs]  # zone name -> what is in it; empty zones are absent


@dataclass(frozen=True)
class ZoneState:
    """Stable contents of a zone: cards in table order (along the line they lie in) and the chip total."""

    cards: tuple[tuple[str | None, bool], ...] = ()  # (card or None, face_up)
    chip_total: float = 0.0
    uncertain: bool = False
    # Back colour of each card, in the order of `cards` (None where no back was seen), or () when no
    # back was seen at all: a wrong deck in a two-deck rotation shows only here.
    backs: tuple[str | None, ...] = ()
    # Why it is uncertain, in words for the round's note; not part of what the zone holds.
    doubt: str = field(default="", compare=False)
    # Where each card of `cards` lies on the felt (mm), or () where unknown: a card read as a new identity
    # where a known one lay is that card read again; elsewhere it is another card. Not part of the contents.
    spots: tuple[tuple[float, float], ...] = field(default=(), compare=False)
    # A chip of it missed could have lain unseen, over a card's edge or under another stack's chip, in a frame that
    # confirmed it (`ZoneObs.chips_hidden_room`); where not known, it could. Not part of the contents.
    hidden_room: bool = field(default=True, compare=False)
    # Chips only, confirmed on an empty spot, or as some of a stack's own chips where it was confirmed in plain view:
    # the largest total read confidently since the spot was last read empty, where that is more than `chip_total`,
    # was not read confidently again once `chip_total` was first read, and a chip missed could lie under another
    # stack's chip as it is confirmed (`ZoneTracker._read_more`); else 0. Not part of the contents.
    read_more: float = field(default=0.0, compare=False)
    # Chips only: the frame its total was first read, confidently or not, since the spot last read empty (before it
    # was confirmed); None where not known. Not part of the contents.
    first_read: int | None = field(default=None, compare=False)
    # Chips only, confirmed as read with doubt only because its stack met others (chips of it in other betting spots,
    # or theirs in its own): those zones, in any frame that confirmed it (`ZoneObs.chips_reach_into`); else (). Not
    # part of the contents.
    reach_into: tuple[str, ...] = field(default=(), compare=False)
    # Chips only: every total read confidently since the spot last read empty, up to the frame that confirmed it
    # (`ZoneTracker._read_surely`), or the larger total a confirmed payout was read surely as for a moment
    # (`ZoneTracker._payout_read_larger_briefly`): a payout half under another stack may be read whole only as it is
    # laid. Not part of the contents.
    read_surely: tuple[float, ...] = field(default=(), compare=False)
    # Chips only: each total of `read_surely` read so since the spot last read empty, with the last frame it was read
    # so and whether so in a frame its chips lay against no other stack's (`ZoneTracker._read_surely_at`); a payout's
    # brief larger total has none. Not part of the contents.
    read_surely_at: tuple[tuple[float, int, bool], ...] = field(default=(), compare=False)
    # Chips only: confirmed in place of the total confirmed with doubt before it, which was a misreading
    # (`ZoneTracker._gap_read_away`). Not part of the contents.
    corrects: bool = field(default=False, compare=False)

    @property
    def empty(self) -> bool:
        return not self.cards and self.chip_total == 0


@dataclass(frozen=True)
class ZoneChange:
    zone: str
    frame: int  # the first frame the new state was seen (debouncing confirms it later)
    before: ZoneState
    after: ZoneState


def cards_in_table_order(obs: dict[str, ZoneObs]) -> FrameObs:
    """Each zone's cards in table order: along the line they are laid in (a row left to right, a column
    top to bottom). Sorting by x then y would flicker between frames for a column, whose x differ only
    by a detector's jitter."""
    for zo in obs.values():
        if len(zo.cards) < 2:
            continue
        pts = np.array([(c.x_mm, c.y_mm) for c in zo.cards])
        ax = _row_axis(pts)
        zo.cards.sort(key=lambda c: (round(c.x_mm * ax[0] + c.y_mm * ax[1], 3), c.x_mm, c.y_mm))
    return dict(obs)


def _row_axis(pts: np.ndarray) -> np.ndarray:
    """Unit vector along the points' principal direction, pointing to +x, or to +y when nearer upright."""
    centred = pts - pts.mean(axis=0)
    _, vecs = np.linalg.eigh(centred.T @ centred)
    ax = vecs[:, -1]
    lead = 0 if abs(ax[0]) >= abs(ax[1]) else 1
    return ax if ax[lead] > 0 else -ax
