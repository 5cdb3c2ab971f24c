"""A stack of chips as the dealer lays it (`ChipSpread`) and as the zones read it (`ChipStackObs`), and the bounds,
each measured on held-out frames, by which `ZoneMapper` groups chip boxes into stacks and checks them."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

# Neighbours in one row lie on one line: across it they differ by under 2 mm in 99 % of held-out frames and
# never by 8 mm; neighbours 7 mm or more apart across are a payout laid a little off its wager's line.
SIDESTEP_MM = 7.0
# A smaller step across still parts two stacks where the chips on each side of it lie on their own straight line
# (the chip before and the chip after each within `STRAIGHT_MM` across of their neighbour): a Pick 2 Ante and the
# payout laid in line with it, 4-7 mm apart across. On 16 held-out video sets (every second frame, neighbours
# paired with the scripted scene's chips) such straight-sided steps between chips of one stack never reached
# 3.5 mm (20,000 pairs), while 45 of 114 between two stacks lay at 4-7 mm (one-off measurement, thirty-first session).
STRAIGHT_SIDESTEP_MM = 4.0
STRAIGHT_MM = 1.5
# A box between two such lines, off each by this much or more, that the chip verifier leans `none` on at
# `BRIDGE_NONE` or more is no chip (`ZoneMapper._bridges`).
BRIDGE_OFF_MM = 1.0
BRIDGE_NONE = 0.4
# Two stacks of one zone on one line this many steps apart (end to start) are one with a chip unseen between.
GAPPED_STEPS = (1.4, 2.6)
# A stack's next row lies one row pitch on, give or take 2.1 mm at most on held-out frames; a payout laid
# overlapping its King High wager (two rows of four, centred alike) lies 6.3 mm or more off the pitch.
ROW_PITCH_TOL_MM = 4.0
# A card face half under chip boxes is read through them: on held-out frames, 3 of 11 such cards were read
# as another rank (a chip taken for pips), against 0 of 42 under less and 25 of 2,770 under none.
CARD_UNDER_CHIPS = 0.5
# The detector misses chips over a card's edge (a chip with this share of its box or more on a card's box:
# found 92 % of 160 on held-out frames, against all of 4,516 elsewhere; `benchmarks/detector_accuracy.py`).
EDGE_CHIP_SHARE = 0.15
# A chip missed could lie under another stack's chip within this share of a chip's width of its place: with its own
# row's next chip a step (0.4 of a width) the other way, two thirds of it or more would be covered. (0.65 until a King
# High $25, the bottom chip of a $40 High Run, lay 0.70 of a width from a $1 laid against its row, 69 % covered, and
# was missed in every frame after the $1 came: set P, seed 11041.)
UNDER_CHIP_REACH = 0.72
# A payout's one row centred this many steps or more off its spot lies as one a chip longer would, its end chip
# missed (`ZoneMapper._off_centre_room`): each stack is spread centred on its spot, so a missing end chip moves the
# row's centre half a step; the detector's jitter (about 2.5 mm, a sixth of a step) moves it less.
OFF_CENTRE_STEPS = 0.25
# A wager's one row centred this many steps or more off its spot is read with doubt (`ZoneMapper._off_centre_wagers`):
# a wager is laid centred on its spot, so a box too many at one end moves the row's centre half a step ...
WAGER_OFF_CENTRE_STEPS = 0.4
# ... where the box ending the row on that side is seen below this: the A51 phantom box at 0.65-0.86, a wager's real
# chips at 0.93 and more, or with the verifier's belief in a chip at 0.99 (sets A48 and A51).
OFF_CENTRE_END_SEEN = 0.9
# A run of chips in a row breaks where neighbours lie this many steps apart or more (`_split_runs`, `_gap_runs`).
RUN_GAP_STEPS = 1.4
# Two neighbouring spots' stacks in one line of chips are told apart where each, centred on its own spot, explains
# the line's end on its side within this much of a whole count of chips, and every box lies this many steps or less
# from one of their places (`ZoneMapper._stack_parts`); two places nearer than half a step show as one box, a
# payout's over its wager's.
MEET_FIT_STEPS = 0.3
# ... and where the run's end on each side, so centred, says how many chips that side's stack holds within this much
# of a whole count (an end chip off its place by half this in steps) when a run is cut (`_stack_parts`; every box
# must still lie on a place): MEET_FIT_STEPS (0.15 of a step, 2.3 mm, under the detector's jitter) left a 3 Card
# Monster $400 Ante and its $400 payout, four $100 each in one line, cut where a row fills in most frames ($500 and
# $300), the Ante's bottom box 0.16 of a step in. A lone chip past a row is placed by the strict bound (`_adrift`).
MEET_END_COUNT = 0.45
# ... and where each part's chips lie across the spread within this of their spot's centre (the detector's jitter is
# about 2.5 mm; two spots whose stacks meet lie up to half a row pitch apart across). So too rows chained into one
# stack whose middle lies on no spot, but whose first rows and the rest each lie centred on a spot of their own
# (within half a step along, this across), are those two spots' stacks (`ZoneMapper._parted_chain`): Pick 2's Ante
# payout spot lies 66 mm across from the 5 Card Bonus payout's, so a one-row $250 Ante payout lay a pitch and 4 mm
# from the first row of a two-row $90 Bonus payout and was chained to it: $340 paid on the Bonus (set A57, 14564
# 461a81ca).
SPOT_ACROSS_MM = 6.0
CHIP_MM = 39.0  # a chip's width on the felt (the simulator's; the spread's defaults below are measured in it)
# A row whose length along the spread differs from what its count of boxes spans by this many steps or more is read
# with doubt: a box too many or one drawn off its chip (`ChipStackObs.rows_regular`). 0.75 (three times the spread of a
# row's length under the detector's ~2.5 mm jitter) let a 3 Card Monster $400 Royal through, read $500 surely by five
# $100 boxes over 3.2 steps (set QQ, seed 11943). Over thirteen held-out video sets (`benchmarks/row_lengths.py`, every
# second frame, rows of three boxes or more against the scripted scene's chips), rows 0.65-0.75 of a step short held
# 38 box-frames a box too many, 1 a box too few and 1 right (0.55-0.65: 3 right of 21). 0.65 until the seventy-seventh
# session: over A46-A51 (`benchmarks/row_lengths.py --every 1`), rows 0.45-0.65 short held a box too many in 138
# row-frames, a box too few in 2 and were right in 6. A King High $200 Pokerpot drew a third sure $100 box, in a row
# about half a step short, before bets closed (A47 14191 cb66b4f8): read $300 surely, the round was left in doubt. The
# held-out A52 disagrees at frame level: 41 right rows 0.45-0.65 short (most in one 3 Card Monster session, 14363), 1
# too many; its rounds read the same with either bound. Below 0.45 right rows are common (0.35-0.45: 90 right, 133
# too many over A46-A52).
IRREGULAR_STEPS = 0.45
# A row of one denomination shorter than this (and by `IRREGULAR_STEPS` or more) holds one box too many
# (`ZoneMapper._doubled_in_short_rows`); the fourteen held-out sets' short rows were all within 1.1 steps.
DOUBLED_STEPS = 1.5
# An unsure box inside a row (neither end) that the chip verifier leans `none` on at this or more is no chip.
# On 16 held-out video sets (benchmarks/unsure_chips.py: every unsure box paired with the scripted scene's chips)
# such boxes were no chip in 115 frames of 115 (the bound was chosen on set 9401); at a row's ends 32 of 344 were
# real chips, 14 of them at 0.9+ (at its top, a payout laid over its wager's top chip), so the ends are left alone.
HOLLOW_NONE = 0.7
# An unsure box at a row's end, or alone, that the verifier has leant `none` on at this or more in each of its
# place's last `LastingNone.frames` (5) readings is no chip (lasting_none.py). Real chips there draw single
# readings up to 0.96, but not five in a row: `benchmarks/unsure_chips.py` (its lasting table) over twelve held-out
# video sets counts 0 real chips among 47 such box-frames at a row's ends (and none at the bottom from 0.5 up).
LASTING_NONE = 0.8
# An unsure box at a row's bottom lying nearer than this many steps to the row's next box, that the verifier leans
# `none` on at `NEAR_BOTTOM_NONE` or more, is no chip: the detector's box on the row's bottom chip drawn again,
# half a step below it (a King High $2 Low read $27 with doubt, a $25 box 0.63 of a step below its bottom $1). A real
# chip lies a step below: over nine held-out video sets (`benchmarks/unsure_chips.py`, "near bottom"; bounds chosen
# on three sets and checked on six), 116 unsure bottom boxes so near and so leant on were phantoms and none a real
# chip; real bottom chips lay 0.71 of a step or more from the next (`none` up to 0.97), or drew `none` below 0.7.
NEAR_BOTTOM_STEPS = 0.7
NEAR_BOTTOM_NONE = 0.7
# A chip box less than DUPLICATE_STEPS of a step past a more confident box of its denomination along the spread, that
# the verifier leans `none` on at DUPLICATE_NONE or more, is the detector's second box on that chip (two thirds of a
# step on, where a taller stack's next chip would lie, as a one-chip stack drew it frame after frame: $100 read $200
# by turns). Real chips of one stack lie a step apart. `benchmarks/unsure_chips.py` (its near-pairs table) on the
# sixteen video sets of the forty-second session (Y, 11341-11374): past the stronger box, 7 real chips among 181
# such box-frames (most of them a $404 payout laid against its Play); behind it, 15 among 42, so those stay.
DUPLICATE_STEPS = 0.8
DUPLICATE_NONE = 0.15
# A chip box read below this, nearer than DUPLICATE_STEPS of a step to a more confident box of its denomination on
# either side, is unsure (`_near_twins`): behind the stronger box as many such boxes were real chips half covered as
# not (15 of 42 on set Y), so it cannot be dropped, but read surely it made a King High $1 Seven $2 (set AA, 11401
# cb66b4f8: a second box at 0.54-0.75, 0.7 of a step behind the chip; the round said $2 was wagered). Unsure, the
# rules for unsure boxes weigh it; a box read at 0.9 stays the detector's word.
TWIN_CONF = 0.85


@dataclass(frozen=True)
class ChipSpread:
    """How a stack is laid on the felt; defaults are the simulator's (pipelines/sim/render.py)."""

    step_mm: float = 0.4 * CHIP_MM  # centre to centre along a row
    row_pitch_mm: float = 1.05 * CHIP_MM  # row to row, perpendicular
    per_row: int = 5
    direction_deg: float = -35.0  # the row direction on the felt

    @property
    def axes(self) -> tuple[np.ndarray, np.ndarray]:
        a = math.radians(self.direction_deg)
        u = np.array([math.cos(a), math.sin(a)])
        return u, np.array([-u[1], u[0]])


class NextPlaces(NamedTuple):
    """The places a chip of a stack that the detector missed would take (`ZoneMapper._next_places`)."""

    at: np.ndarray  # (N, 2) mm
    owner: np.ndarray  # (N,) the stack each place is of
    further: np.ndarray  # (N,) a row further than the stack's rows, not at a row's end


@dataclass(frozen=True)
class ChipStackObs:
    """One grouped stack: its chips (indices into the input), centre in mm, and zone (or None)."""

    members: tuple[int, ...]
    x_mm: float
    y_mm: float
    zone: str | None
    rows: tuple[tuple[int, ...], ...] = ()  # the members row by row, each in order along the spread
    # Every row holds as many chips as its length along the spread says (one per step): a row with a
    # chip too many (a box between two chips) or a chip missing inside it is not.
    rows_regular: bool = True
    reach_into: tuple[str, ...] = ()  # the other betting spots chips of it lie in (`_straddled`)

    @property
    def reaches(self) -> bool:
        """Chips of it lie in another betting spot: two stacks in one line may read as one."""
        return bool(self.reach_into)

    @property
    def regular(self) -> bool:
        """Rows as long as their chips say, all within its own spot: a stack whose total can be trusted."""
        return self.rows_regular and not self.reaches


def _spot(zone: str) -> str:
    """The betting spot a chip zone belongs to: a payout zone (`X.paid`) is its wager's spot `X`."""
    return zone.removesuffix(".paid")


def _wager_of(zone: str | None) -> str | None:
    """A payout zone's (`X.paid`) wager zone `X`; None for any other zone."""
    return _spot(zone) if zone is not None and zone.endswith(".paid") else None


def row_shortfall(row_u: np.ndarray, step_mm: float) -> float:
    """How many steps a row of boxes at places `row_u` along the spread is shorter than its count spans (n boxes span
    n - 1 steps); negative where it is longer (`IRREGULAR_STEPS`, `benchmarks/row_lengths.py`)."""
    return len(row_u) - 1 - float(np.ptp(row_u)) / step_mm


def _meeting(run_u: np.ndarray, first: float, second: float, step: float, per_row: int,
             on_top: bool, end_fit: float = MEET_FIT_STEPS) -> tuple[float, int] | None:
    """How a run of chips (places along the spread, sorted) parts into a stack centred at `first` and one centred
    at `second`: (how far the run's ends lie off the two's places, in steps; the number of chips before the cut),
    or None where the two do not explain the run better than one stack: each at most a row, its end on its side
    within `end_fit` of a whole count of chips, every box on a place, none left over; one place shared (one box for
    two chips) only where the second lies `on_top` (a payout over its wager's top chip)."""
    x, w, p = (run_u, first, second) if second > first else (-run_u[::-1], -first, -second)
    if len(x) <= per_row and min(abs((x[0] + x[-1]) / 2 - c) for c in (w, p)) <= MEET_FIT_STEPS * step / 2:
        return None  # one stack centred on either spot
    fw, fp = 2 * (w - x[0]) / step + 1, 2 * (x[-1] - p) / step + 1
    nw, np_ = round(fw), round(fp)
    off = max(abs(fw - nw), abs(fp - np_))
    if not (1 <= nw <= per_row and 1 <= np_ <= per_row) or off > end_fit:
        return None
    top, bottom = w + (nw - 1) * step / 2, p - (np_ - 1) * step / 2
    shared = bottom - top < 0.5 * step
    if bottom - top <= -0.5 * step or (shared and not on_top):
        return None
    wager = w + (np.arange(nw) - (nw - 1) / 2) * step
    payout = p + (np.arange(np_) - (np_ - 1) / 2) * step
    places = np.concatenate([wager[:-1] if shared else wager, payout])
    if len(places) != len(x) or np.abs(np.sort(places) - x).max() > MEET_FIT_STEPS * step:
        return None
    cut = int(np.sum(x < min((top + bottom) / 2, bottom - 0.35 * step)))
    if not 0 < cut < len(x):
        return None
    return off, cut if second > first else len(x) - cut
