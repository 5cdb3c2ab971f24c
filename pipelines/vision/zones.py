"""Detections (pixel boxes) -> table millimetres -> the layout's zones: one `FrameObs` per frame.

Cards go to card areas (kinds cards, card_box, discard, shoe) by containment of their centre. Card
areas may be nested (blackjack `seatN.cards` holds `seatN.cards.1` and `.2` for split hands): a card is
reported in *every* card area that contains it, so rounds/ reads `seatN.cards` for an unsplit hand and
`seatN.cards.H` after a split. A card just outside every area (a sideways double-down card) goes to the
nearest one within `card_reach_mm`.

Chips go to bet, paid and tray zones by *stack*, never chip by chip: stacks are drawn spread (each chip
`ChipSpread.step_mm` from the next along a fixed direction, rows of `per_row`, rows `row_pitch_mm` apart),
so a stack spills over neighbouring betting circles. Chips are grouped into rows (same perpendicular
offset, consecutive steps, never a chip worth more than the one before it: stacks are coloured up, largest
at the bottom), rows into stacks (same centre along the spread, one pitch apart), and each
stack goes to the zone containing its centre (else the nearest within `stack_reach_mm`). A chip read below
the detector's confidence makes its zone uncertain, unless the row vouches for it (inside the row between
two sure chips of its kind), and so does a box less sure than a neighbour of its denomination under a step
from it (`_near_twins`); an unsure box inside a row that the chip verifier leans `none` on is dropped, and
one at a row's end or alone that it has leant `none` on in each of its place's last readings
(`_hollow_in_rows`, `lasting_none.py`), and so is a box under a step from a more confident one of its denomination
that the verifier leans `none` on (`_duplicates`); a lone unsure box off the rows of its spot's sure chips is no
chip at all, nor is an unsure box without which the spot's chips form regular stacks, or one stack, where they did
not (`_misfits`).
A lone chip just past the end of another spot's row leaves both spots in doubt (`_adrift`): which holds it is a
guess; so does a spot read as two stacks on one line a chip's gap apart (`_gapped`): one stack with a chip unseen,
counted where its neighbours are of one denomination (a stack is coloured up).
A row also ends where the chips step a few mm across from one straight line to another (`_sidestep`), and a box
between two such lines that the verifier leans `none` on is the gap between a wager and its payout (`_bridges`).
A small stack in a zone that held no chips lately, lying on chips another zone held lately and no longer shows, is
that zone's stack seen in part, the rest under the dealer's hand (`_seen_in_part`, `recent_stacks.py`).
Each stack is spread centred on its spot (the simulator's are), so a run of chips holding two neighbouring spots'
stacks (a wager and its payout laid over its top chip, two wagers side by side) is cut where each, centred on its
spot, ends (`_stack_parts`); a box on no place of the two is no chip (`_ghosts_between_spots`), and a lone chip the
two account for is no guess (`_adrift`).
Each spot's reading also says whether a chip missed could lie over a card's edge (`_card_edge_room`), under
another stack's chip (`_under_chip_room`), or at the end of a payout lying half a step off its spot's centre
(`_off_centre_room`); the tracker and the round machine weigh that against what else was read.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import supervision as sv
from matplotlib.path import Path as MplPath

from pipelines.games.layout import Layout

from .chip_boxes import chip_centres, share_under
from .lasting_none import LastingNone
from .observe import CardObs, FrameObs, ZoneObs
from .recent_stacks import RecentStacks

if TYPE_CHECKING:
    from pipelines.sim.scene import Scene

CARD_KINDS = ("cards", "card_box", "discard", "shoe")
CHIP_KINDS = ("bet", "paid", "tray")
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
# about 2.5 mm; two spots whose stacks meet lie up to half a row pitch apart across).
SPOT_ACROSS_MM = 6.0
CHIP_MM = 39.0  # a chip's width on the felt (the simulator's; the spread's defaults below are measured in it)
# A row whose length along the spread differs from what its count of boxes spans by this many steps or more is read
# with doubt: a box too many or one drawn off its chip (`ChipStackObs.rows_regular`). 0.75 (three times the spread of a
# row's length under the detector's ~2.5 mm jitter) let a 3 Card Monster $400 Royal through, read $500 surely by five
# $100 boxes over 3.2 steps (set QQ, seed 11943). Over thirteen held-out video sets (`benchmarks/row_lengths.py`, every
# second frame, rows of three boxes or more against the scripted scene's chips), rows 0.65-0.75 of a step short held
# 38 box-frames a box too many, 1 a box too few and 1 right (0.55-0.65: 3 right of 21).
IRREGULAR_STEPS = 0.65
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


def apply_homography(H: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    homog = pts @ H[:, :2].T + H[:, 2]
    return homog[:, :2] / homog[:, 2:3]


@dataclass(frozen=True)
class _Outlines:
    """The edges of several polygons in one array, so that every point's distance to every outline is one
    vectorised step (a Python loop over a King High layout's ~100 chip zones cost more than the rest of
    mapping a frame)."""

    start: np.ndarray  # (E, 2) each edge's first corner
    vec: np.ndarray  # (E, 2) from that corner to the next
    first: np.ndarray  # (Z,) index of each polygon's first edge

    @classmethod
    def of(cls, polygons: list[np.ndarray]) -> _Outlines:
        corners = [np.asarray(p, np.float64).reshape(-1, 2) for p in polygons]
        if not corners:
            return cls(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0, int))
        first = np.cumsum([0] + [len(c) for c in corners[:-1]])
        return cls(np.concatenate(corners), np.concatenate([np.roll(c, -1, axis=0) - c for c in corners]), first)

    def distances(self, points: np.ndarray) -> np.ndarray:
        """(N, Z): each point's distance to each polygon's outline."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if not len(pts) or not len(self.first):
            return np.zeros((len(pts), len(self.first)))
        ap = pts[:, None, :] - self.start[None]  # (N, E, 2)
        t = np.clip((ap * self.vec).sum(-1) / np.maximum((self.vec * self.vec).sum(-1), 1e-12), 0.0, 1.0)
        edge = np.linalg.norm(ap - t[..., None] * self.vec[None], axis=-1)  # to the edge's nearest point
        return np.minimum.reduceat(edge, self.first, axis=1)


def polygon_gap_mm(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> float:
    """The shortest distance between two polygons' outlines (0 where a corner of one lies inside the other)."""
    pa, pb = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if MplPath(pa).contains_points(pb).any() or MplPath(pb).contains_points(pa).any():
        return 0.0
    return float(min(_Outlines.of([pb]).distances(pa).min(), _Outlines.of([pa]).distances(pb).min()))


@dataclass
class _ZoneGeom:
    name: str
    kind: str
    polygon: np.ndarray
    path: MplPath
    area: float


def _area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


@dataclass
class ZoneMapper:
    """Maps detections into a layout's zones through the camera calibration (table mm -> image px)."""

    layout: Layout
    H_table_to_image: np.ndarray
    spread: ChipSpread = field(default_factory=ChipSpread)
    card_reach_mm: float = 45.0
    stack_reach_mm: float = 60.0
    # A chip this near the centre of a wager's spot is the wager's: a payout is laid beside it, never there.
    spot_core_mm: float = 15.0
    frame_size: tuple[int, int] = (1280, 720)  # only for observe_scene: what falls outside the frame
    # what the chip verifier said of each place over the last analysed frames: `observe` keeps it
    lasting: LastingNone = field(default_factory=LastingNone, repr=False, compare=False)
    # where each zone's chips lay over the last analysed frames: `observe` keeps it (`_seen_in_part`)
    recent: RecentStacks = field(default_factory=RecentStacks, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.H_table_to_image = np.asarray(self.H_table_to_image, np.float64)
        if self.H_table_to_image.shape != (3, 3) or abs(np.linalg.det(self.H_table_to_image)) < 1e-12:
            raise ValueError(f"ZoneMapper: H_table_to_image must be an invertible 3x3 matrix, "
                             f"got {self.H_table_to_image!r}")
        self.H_image_to_table = np.linalg.inv(self.H_table_to_image)
        geoms = []
        for z in self.layout.zones:
            poly = np.asarray(z.polygon, np.float64)
            geoms.append(_ZoneGeom(z.name, z.kind, poly, MplPath(poly), _area(poly)))
        self._card_zones = [g for g in geoms if g.kind in CARD_KINDS]
        self._chip_zones = [g for g in geoms if g.kind in CHIP_KINDS]
        self._card_outlines = _Outlines.of([g.polygon for g in self._card_zones])
        self._chip_outlines = _Outlines.of([g.polygon for g in self._chip_zones])
        self._chip_names = [g.name for g in self._chip_zones]
        self._chip_areas = np.array([g.area for g in self._chip_zones])
        self._bet_zones = [g for g in self._chip_zones if g.kind == "bet"]
        self._bet_centres = np.array([g.polygon.mean(axis=0) for g in self._bet_zones]).reshape(-1, 2)
        u_ax, v_ax = self.spread.axes
        # each chip spot's centre along and across the spread, mm
        self._spot_uv = {g.name: (float(c @ u_ax), float(c @ v_ax))
                         for g in self._chip_zones for c in [g.polygon.mean(axis=0)]}
        self._meets = self._neighbour_spots()

    def _neighbour_spots(self) -> np.ndarray:
        """Pairs of chip spots whose stacks can meet in one line of chips: centres at most half a row pitch apart
        across the spread and two rows' length along it. Per pair: the first's and the second's place
        along and across the spread (mm), and whether the second is the first's payout spot, whose stack is laid
        later and lies on top. (A wager whose payout spot lies before it along the spread is the pair's second.) Two
        payout spots pair too: a 3 Card Monster Ante payout and the Play payout beside it, 15 mm apart across, read as
        one run through a box over the gap between them."""
        spots = [g for g in self._chip_zones if g.kind in ("bet", "paid")]
        reach = 2 * self.spread.per_row * self.spread.step_mm
        out = []
        for a, b in itertools.combinations(spots, 2):
            first, second = (b, a) if a.name == b.name + ".paid" else (a, b)
            (ua, va), (ub, vb) = self._spot_uv[first.name], self._spot_uv[second.name]
            if abs(vb - va) <= 0.5 * self.spread.row_pitch_mm and 0 < abs(ub - ua) <= reach:
                out.append((ua, va, ub, vb, float(second.name == first.name + ".paid")))
        return np.array(out, np.float64).reshape(-1, 5)

    # ------------------------------------------------------------------------------------ geometry

    def to_table(self, points_px: np.ndarray) -> np.ndarray:
        """Image px (N, 2) -> table mm (N, 2)."""
        return apply_homography(self.H_image_to_table, points_px)

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        return apply_homography(self.H_table_to_image, points_mm)

    def zone_polygons_px(self, kinds: tuple[str, ...] = CARD_KINDS + CHIP_KINDS) -> dict[str, np.ndarray]:
        """Zone polygons projected into the image (for motion gating and drawing)."""
        return {z.name: self.to_image(np.asarray(z.polygon)) for z in self.layout.zones if z.kind in kinds}

    def card_zones(self, points_mm: np.ndarray) -> list[list[str]]:
        """For each point, the card areas holding it (all nested ones), else the nearest within reach."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 2)
        out: list[list[str]] = [[] for _ in range(len(pts))]
        if not len(pts) or not self._card_zones:
            return out
        inside = np.stack([g.path.contains_points(pts) for g in self._card_zones], axis=1)  # (N, Z)
        for i in np.flatnonzero(inside.any(axis=1)):
            out[i] = [self._card_zones[j].name for j in np.flatnonzero(inside[i])]
        lost = np.flatnonzero(~inside.any(axis=1))
        if len(lost):
            dist = self._card_outlines.distances(pts[lost])
            best = dist.argmin(axis=1)
            for k, i in enumerate(lost):
                if dist[k, best[k]] <= self.card_reach_mm:
                    out[i] = [self._card_zones[best[k]].name]
        return out

    def stack_zone(self, points_mm: np.ndarray) -> list[str | None]:
        """For each stack centre, the chip zone holding it (the smallest if nested), else the nearest in reach."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 2)
        if not len(pts) or not self._chip_zones:
            return [None] * len(pts)
        inside = np.stack([g.path.contains_points(pts) for g in self._chip_zones], axis=1)  # (N, Z)
        smallest = np.where(inside, self._chip_areas[None], np.inf).argmin(axis=1)
        dist = self._chip_outlines.distances(pts)
        nearest = dist.argmin(axis=1)
        reach = dist[np.arange(len(pts)), nearest] <= self.stack_reach_mm
        held = inside.any(axis=1)
        names = self._chip_names
        return [names[s] if h else names[n] if r else None
                for s, n, h, r in zip(smallest, nearest, held, reach, strict=True)]

    def group_stacks(self, chips_mm: np.ndarray, values: np.ndarray | None = None) -> list[ChipStackObs]:
        """Group chip centres (mm) into spread stacks and assign each stack a zone. With the chips' `values`,
        a row never holds a chip worth more than the one before it (stacks are coloured up, largest at the
        bottom, and spread bottom first)."""
        pts = np.asarray(chips_mm, np.float64).reshape(-1, 2)
        if not len(pts):
            return []
        rows = self._rows(pts, np.zeros(len(pts)) if values is None else np.asarray(values, np.float64))
        stacks = self._chain_rows(pts, rows)
        centres = np.array([c for _, c in stacks])
        zones = self.stack_zone(centres)
        u = pts @ self.spread.axes[0]
        irregular = {i for r in rows if abs(row_shortfall(u[r], self.spread.step_mm)) >= IRREGULAR_STEPS for i in r}
        in_bet, off_centre = self._bet_zone_holding(pts)
        row_of = {i: tuple(r) for r in rows for i in r}  # _rows gives each row in order along the spread
        return [ChipStackObs(tuple(sorted(m)), float(c[0]), float(c[1]), z,
                             rows=tuple(dict.fromkeys(row_of[i] for i in m)), rows_regular=not irregular & set(m),
                             reach_into=_straddled(z, in_bet[m], off_centre[m] < self.spot_core_mm))
                for (m, c), z in zip(stacks, zones, strict=True)]

    def _bet_zone_holding(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each point, the name of the bet zone whose polygon holds it (else "") and its distance from
        that zone's centre in mm (else inf)."""
        out = np.full(len(pts), "", dtype=object)
        off = np.full(len(pts), np.inf)
        for g, centre in zip(self._bet_zones, self._bet_centres, strict=True):
            hit = g.path.contains_points(pts) & (out == "")
            out[hit] = g.name
            off[hit] = np.linalg.norm(pts[hit] - centre, axis=1)
        return out, off

    def _lines(self, pts: np.ndarray) -> tuple[list[list[int]], np.ndarray, np.ndarray]:
        """Chips on one line along the spread direction (the same offset across it, within 0.3 of a row pitch),
        each line in order along it; with every chip's place along (u) and across (v) the spread, mm."""
        u_ax, v_ax = self.spread.axes
        u, v = pts @ u_ax, pts @ v_ax
        v_tol = 0.3 * self.spread.row_pitch_mm
        lines: list[list[int]] = []
        for i in np.argsort(v, kind="stable"):  # cluster by perpendicular offset
            if lines and abs(v[i] - np.mean(v[lines[-1]])) <= v_tol:
                lines[-1].append(int(i))
            else:
                lines.append([int(i)])
        for line in lines:
            line.sort(key=lambda i: u[i])
        return lines, u, v

    def _rows(self, pts: np.ndarray, values: np.ndarray) -> list[list[int]]:
        """Chips on one line along the spread direction, each within ~one step of the next."""
        lines, u, v = self._lines(pts)
        return [row for line in lines for part in self._stack_parts(line, u, v)
                for row in _split_runs(part, u, v, values, self.spread.step_mm, self.spread.per_row)]

    def _stack_parts(self, line: list[int], u: np.ndarray, v: np.ndarray) -> list[list[int]]:
        """A line of chips cut where one spot's stack ends and a neighbouring spot's begins, when the two lie in
        one run. Each stack is spread centred on its spot (the simulator's are), so the run's far end on each side
        says how many chips that side's stack holds; where both fit and every box lies on one of their places,
        the run is cut between the two (`_meeting`). Without it the run was cut where a row fills (five chips):
        a King High $20 Low (four $5) and its $20 payout, centred 3.2 steps apart, read $25 and $10, the payout's
        bottom chip lying over the wager's top one and showing as one box; a $15 Pokerpot and the $15 Seven
        beside it read $25 and $5. The wager chip under its payout leaves the wager read a chip short while the
        payout stays (the round machine keeps the amount locked before, `RoundMachine._wager_hidden_by_payout`)."""
        cuts = [run[0] + cut for run in self._gap_runs(line, u)
                if (cut := self._spots_cut(run, line, u, v)) is not None]
        return [line[i:j] for i, j in itertools.pairwise([0, *cuts, len(line)])]

    def _gap_runs(self, line: list[int], u: np.ndarray) -> list[range]:
        """A line's runs (positions in it): chips less than 1.4 steps apart along the spread."""
        starts = [0, *(np.flatnonzero(np.diff(u[line]) >= RUN_GAP_STEPS * self.spread.step_mm) + 1)]
        return [range(a, b) for a, b in zip(starts, [*starts[1:], len(line)], strict=True)]

    def _spots_cut(self, run: range | list[int], line: list[int], u: np.ndarray, v: np.ndarray) -> int | None:
        """Where the chips `line[k] for k in run` part into two neighbouring spots' stacks that explain them all
        (`_meeting`), as a count of chips before the cut; None where no pair of spots does."""
        if len(run) < 2 or not len(self._meets):
            return None
        step = self.spread.step_mm
        ru, rv = u[[line[k] for k in run]], v[[line[k] for k in run]]
        fits = []
        for wu, wv, pu, pv, on_top in self._meets[self._near_run(ru, rv)]:
            f = _meeting(ru, wu, pu, step, self.spread.per_row, bool(on_top), MEET_END_COUNT)
            if f is None:
                continue
            lo, hi = (wv, pv) if pu > wu else (pv, wv)  # across, the spots of the run's first and second part
            if max(abs(float(np.mean(rv[:f[1]])) - lo), abs(float(np.mean(rv[f[1]:])) - hi)) <= SPOT_ACROSS_MM:
                fits.append(f)
        return min(fits)[1] if fits else None

    def _near_run(self, ru: np.ndarray, rv: np.ndarray) -> np.ndarray:
        """Which spot pairs (`_meets`) could hold a run of chips at places `ru` along (sorted) and `rv` across the
        spread: both centres within half a step of its ends along, `SPOT_ACROSS_MM` of its chips across. A run
        with fewer chips lies within the same bounds, so is near no more pairs."""
        m, half = self._meets, self.spread.step_mm / 2
        return ((m[:, [1, 3]] >= rv.min() - SPOT_ACROSS_MM).all(axis=1)
                & (m[:, [1, 3]] <= rv.max() + SPOT_ACROSS_MM).all(axis=1)
                & (m[:, [0, 2]] >= ru[0] - half).all(axis=1) & (m[:, [0, 2]] <= ru[-1] + half).all(axis=1))

    def _ghosts_between_spots(self, pts: np.ndarray, uncertain: np.ndarray) -> set[int]:
        """Boxes without which their run of chips is just two neighbouring spots' stacks (`_spots_cut`), and with
        which it is not: such a box lies on no place of either. A box read below the detector's confidence may lie
        anywhere in the run; a sure one only between the two stacks, apart from both, where the detector draws a
        box over the gap between one's top chip and the other's bottom one. (A sure box at another's place along
        the run is a chip left in view by the stack laid over it, off its line.) A 3 Card Monster $10 Ante beside
        the $400 Monster read $110 for an unsure box between the two (the chip verifier leaned `none` on it at
        0.89); a $20 Ante with its $15 payout (a true short pay) read $25 for a sure box in the gap in half the
        frames, and the payout's chip seemed counted with it. (A chip missing or added re-centres its stack, and a
        real chip dropped from a stack leaves its place empty or moves an end: neither fits.)"""
        if not len(self._meets) or len(pts) < 3:
            return set()
        lines, u, v = self._lines(pts)
        out: set[int] = set()
        for line in lines:
            for run in self._gap_runs(line, u):
                if len(run) < 3:
                    continue
                ru, rv = u[[line[k] for k in run]], v[[line[k] for k in run]]
                # no pair of spots near the run (nor near it with a box fewer), or a pair explains every box
                if not self._near_run(ru, rv).any() or self._spots_cut(run, line, u, v) is not None:
                    continue
                gaps = np.minimum(np.diff(ru, prepend=-np.inf), np.diff(ru, append=np.inf))
                apart = gaps >= 0.4 * self.spread.step_mm
                for j, k in enumerate(run):
                    if not uncertain[line[k]] and (j in (0, len(run) - 1) or not apart[j]):
                        continue
                    cut = self._spots_cut([i for i in run if i != k], line, u, v)
                    if cut is not None and (uncertain[line[k]] or cut == j):
                        out.add(line[k])
        return out

    def _duplicates(self, pts: np.ndarray, weaker: np.ndarray, none: np.ndarray) -> set[int]:
        """Indices of the chip boxes that are another box's second reading of its chip (`DUPLICATE_STEPS`,
        `DUPLICATE_NONE`): nearer than a step past a more confident box of the same denomination along the spread
        (`weaker`, from `_weaker_near`; past it is where a taller stack's next chip would lie), with the verifier
        leaning `none` on them. A box it did not look at (NaN) is kept."""
        u = pts @ self.spread.axes[0]
        past = (weaker & (u[:, None] > u[None])).any(axis=1)
        return {int(i) for i in np.flatnonzero(past & (none >= DUPLICATE_NONE))}

    def _second_boxes(self, pts: np.ndarray, none: np.ndarray, weaker: np.ndarray,
                      stacks: list[ChipStackObs]) -> set[int]:
        """The boxes the detector drew over a gap between chips or a second time on one (`_bridges`,
        `_duplicates`), less those that end a payout centred on its spot (`_ending_centred_payouts`)."""
        boxes = self._bridges(pts, none) | self._duplicates(pts, weaker, none)
        return boxes - self._ending_centred_payouts(boxes, stacks, pts) if boxes else boxes

    def _ending_centred_payouts(self, boxes: set[int], stacks: list[ChipStackObs], pts: np.ndarray) -> set[int]:
        """Those of `boxes` that end a payout's single row centred on its spot with them and `OFF_CENTRE_STEPS` or
        more off it without them, two chips or more (as `_off_centre_room` reads a row short of a chip): a payout is
        laid centred on its spot, so such a box is its end chip, whatever the verifier leans to. A Pick 2 $400
        payout laid in one line with its $400 wager, its bottom chip 0.8 of a step past the wager's top one, read
        $300 in most frames: that chip's box, at 0.64 with the verifier leaning `none` at 0.4-0.6, was taken for the
        wager's top chip's second box (`_duplicates`) or a box in the gap between the two (`_bridges`)."""
        u = pts @ self.spread.axes[0]
        out = set()
        for st in stacks:
            row = st.rows[0] if len(st.rows) == 1 else ()
            if _wager_of(st.zone) is None or len(row) < 3:
                continue
            for end, rest in ((row[0], row[1:]), (row[-1], row[:-1])):
                if (end in boxes and not self._off_its_spot(st.zone, u[list(row)])
                        and self._off_its_spot(st.zone, u[list(rest)])):
                    out.add(end)
        return out

    def _off_its_spot(self, zone: str, row_u: np.ndarray) -> bool:
        """Whether a row of chips at places `row_u` along the spread is centred `OFF_CENTRE_STEPS` or more off
        `zone`'s spot."""
        return abs((row_u.min() + row_u.max()) / 2 - self._spot_uv[zone][0]) >= OFF_CENTRE_STEPS * self.spread.step_mm

    @staticmethod
    def _near_twins(weaker: np.ndarray, conf: np.ndarray) -> np.ndarray:
        """Which chip boxes read below `TWIN_CONF` lie nearer than `DUPLICATE_STEPS` of a step to a more confident
        box of their denomination (`weaker`, from `_weaker_near`), on either side: chips of one stack lie a step
        apart, so such a box may be the detector's second box on that chip or a chip half hidden under it, and is
        read as unsure."""
        return weaker.any(axis=1) & (conf < TWIN_CONF)

    def _weaker_near(self, pts: np.ndarray, values: np.ndarray, conf: np.ndarray) -> np.ndarray:
        """[i, j]: chip box i is read less confidently than box j, of its denomination, nearer than
        `DUPLICATE_STEPS` of a step to it."""
        near = np.linalg.norm(pts[:, None] - pts[None], axis=2) < DUPLICATE_STEPS * self.spread.step_mm
        return (values[:, None] == values[None]) & (conf[:, None] < conf[None]) & near

    def _bridges(self, pts: np.ndarray, none: np.ndarray) -> set[int]:
        """Boxes the chip verifier leans `none` on at `BRIDGE_NONE` or more that lie between two lines of chips
        `STRAIGHT_SIDESTEP_MM` or more apart across, off both: one or two chips on one line before the box, one or
        two on the other after it (three at least, a pair lying straight), all a step apart along. Such a box is
        the detector's box in the gap between a wager's top chip and a payout laid a little off its line; taken as
        a chip, it joins the two into one row (a $15 Ante read as $25 and its $15 payout as $10). On 16 held-out
        video sets, real chips there read below 0.9 had `none` 0.26 at most (113 of them), against 0.4 or more for
        163 of the 215 phantoms (one-off measurement, thirty-first session)."""
        if not (none >= BRIDGE_NONE).any():  # most frames: nothing the verifier doubts, no lines to draw
            return set()
        lines, u, v = self._lines(pts)
        step = self.spread.step_mm
        out: set[int] = set()
        for line in lines:
            for k, b in enumerate(line):
                before, after = line[max(k - 2, 0):k], line[k + 1:k + 3]
                if not none[b] >= BRIDGE_NONE or not before or not after or len(before) + len(after) < 3:
                    continue
                if np.diff(u[[*before, b, *after]]).max() >= 1.4 * step:
                    continue
                if any(len(side) == 2 and abs(v[side[1]] - v[side[0]]) >= STRAIGHT_MM for side in (before, after)):
                    continue
                lo, hi = sorted((float(np.mean(v[before])), float(np.mean(v[after]))))
                if hi - lo >= STRAIGHT_SIDESTEP_MM and lo + BRIDGE_OFF_MM <= v[b] <= hi - BRIDGE_OFF_MM:
                    out.add(b)
        return out

    def _chain_rows(self, pts: np.ndarray, rows: list[list[int]]) -> list[tuple[list[int], np.ndarray]]:
        """Rows with the same centre along the spread, one pitch apart, form a stack."""
        sp = self.spread
        u_ax, v_ax = sp.axes
        u, v = pts @ u_ax, pts @ v_ax
        info = sorted(((float(np.mean(v[r])), float((u[r].min() + u[r].max()) / 2), r) for r in rows),
                      key=lambda t: t[0])
        used = [False] * len(info)
        stacks: list[tuple[list[int], np.ndarray]] = []
        for k, (v0, u0, r0) in enumerate(info):
            if used[k]:
                continue
            used[k] = True
            members, vs, us, v_last = list(r0), [v0], [u0], v0
            chain = [r0]
            while _may_follow(chain, sp.per_row):  # the next row up: one pitch further, centred alike
                best, best_err = None, math.inf
                for j in range(k + 1, len(info)):
                    vj, uj, rj = info[j]
                    if used[j]:
                        continue
                    dv = vj - v_last - sp.row_pitch_mm
                    if dv > ROW_PITCH_TOL_MM:
                        break
                    du = abs(uj - np.median(us))
                    if abs(dv) <= ROW_PITCH_TOL_MM and du <= 0.75 * sp.step_mm and du + abs(dv) < best_err:
                        best, best_err = j, du + abs(dv)
                if best is None:
                    break
                used[best] = True
                vj, uj, rj = info[best]
                chain.append(rj)
                members += rj
                vs.append(vj)
                us.append(uj)
                v_last = vj
            uc, vc = float(np.median(us)), (min(vs) + max(vs)) / 2
            stacks.append((members, uc * u_ax + vc * v_ax))
        return stacks

    # ------------------------------------------------------------------------------------ observing

    def observe(self, detections: sv.Detections) -> FrameObs:
        """One frame's detections -> what each zone holds. Objects outside every zone are left out."""
        obs: dict[str, ZoneObs] = defaultdict(ZoneObs)
        n = len(detections)
        if not n:
            return {}
        xyxy = np.asarray(detections.xyxy, np.float64)
        data = detections.data
        names = np.asarray(data.get("class_name", np.full(n, "", object)), dtype=object)
        cards = np.asarray(data.get("card", np.full(n, "", object)), dtype=object)
        chip_vals = np.asarray(data.get("chip_value", np.zeros(n, int)))
        is_card = (names == "card") | np.char.startswith(names.astype(str), "back_")
        centres_px = np.stack([(xyxy[:, 0] + xyxy[:, 2]) / 2, (xyxy[:, 1] + xyxy[:, 3]) / 2], 1)
        centres_px[chip_vals > 0] = chip_centres(xyxy[chip_vals > 0], xyxy[is_card])
        centres = self.to_table(centres_px)
        uncertain = np.array(data.get("uncertain", np.zeros(n, bool)), dtype=bool)  # a copy: set below
        conf = (np.asarray(detections.confidence, np.float64) if detections.confidence is not None
                else np.ones(n))
        card_conf = np.asarray(data.get("card_confidence", conf), np.float64)

        card_idx = np.flatnonzero(is_card)
        under_chips = share_under(xyxy[card_idx], xyxy[chip_vals > 0]) >= CARD_UNDER_CHIPS
        for i, zones, under in zip(card_idx, self.card_zones(centres[card_idx]), under_chips, strict=True):
            face = names[i] == "card"
            c = CardObs(card=(cards[i] or None) if face else None, face_up=bool(face),
                        back=None if face else str(names[i])[5:], x_mm=float(centres[i, 0]),
                        y_mm=float(centres[i, 1]), confidence=float(card_conf[i] if face else conf[i]),
                        uncertain=bool(uncertain[i] or (face and under)), box_confidence=float(conf[i]))
            for z in zones:
                obs[z].cards.append(c)

        chip_idx = np.flatnonzero(chip_vals > 0)
        weaker = self._weaker_near(centres[chip_idx], chip_vals[chip_idx], conf[chip_idx])
        uncertain[chip_idx[self._near_twins(weaker, conf[chip_idx])]] = True
        stacks = self.group_stacks(centres[chip_idx], chip_vals[chip_idx])
        none = np.asarray(data.get("chip_none", np.full(n, np.nan)), np.float64)
        lasting = self.lasting.update(centres[chip_idx], none[chip_idx])
        hollow = (_hollow_in_rows(stacks, uncertain[chip_idx], none[chip_idx], lasting, centres[chip_idx],
                                  self.spread.step_mm)
                  | self._second_boxes(centres[chip_idx], none[chip_idx], weaker, stacks)
                  | self._ghosts_between_spots(centres[chip_idx], uncertain[chip_idx]))
        if hollow:
            chip_idx = np.delete(chip_idx, sorted(hollow))
            stacks = self.group_stacks(centres[chip_idx], chip_vals[chip_idx])
        misfits = self._misfits(stacks, centres[chip_idx], chip_vals[chip_idx], uncertain[chip_idx])
        if misfits:
            chip_idx = np.delete(chip_idx, sorted(misfits))
            stacks = self.group_stacks(centres[chip_idx], chip_vals[chip_idx])
        doubled, short_rows = self._doubled_in_short_rows(stacks, centres[chip_idx], chip_vals[chip_idx],
                                                          conf[chip_idx])
        if doubled:
            chip_idx = np.delete(chip_idx, sorted(doubled))
            stacks = self.group_stacks(centres[chip_idx], chip_vals[chip_idx])
        off_row = self._off_row_ghosts(stacks, centres[chip_idx], uncertain[chip_idx])
        gapped = self._gapped(stacks, centres[chip_idx], chip_vals[chip_idx], skip=off_row)
        adrift = self._adrift(stacks, centres[chip_idx], chip_vals[chip_idx], skip=off_row)
        doubted_beside_gap: set[str] = set()
        stacks = self._seen_in_part(stacks, centres[chip_idx], skip=off_row)
        # How sure each chip is: the detector's confidence, or the verifier's belief that a chip lies there where
        # it looked and that is higher (its full-resolution second look is a second witness).
        seen = np.fmax(conf, np.where(uncertain, np.nan, 1.0 - none))
        places = self._next_places(stacks, centres[chip_idx])
        edge = self._card_edge_room(stacks, places, xyxy[card_idx])
        under = self._under_chip_room(stacks, centres[chip_idx], places)
        off_centre = self._off_centre_room(stacks, centres[chip_idx])
        for k, st in enumerate(stacks):
            if st.zone is None or k in off_row:
                continue
            members = chip_idx[list(st.members)]
            obs[st.zone].chips.extend(int(chip_vals[i]) for i in members)
            doubted = uncertain[members] & ~_vouched(st, chip_idx, uncertain, chip_vals)
            beside_gap = bool(doubted.any()) or not st.rows_regular or st.zone in adrift or st.zone in short_rows
            other = beside_gap or st.zone in gapped
            obs[st.zone].chips_uncertain |= other or st.reaches
            obs[st.zone].chips_reach_into.update(st.reach_into)
            obs[st.zone].chips_doubt_other |= other
            if beside_gap or st.reaches:
                doubted_beside_gap.add(st.zone)
            obs[st.zone].chips_min_confidence = min(obs[st.zone].chips_min_confidence, float(seen[members].min()))
            obs[st.zone].chips_card_edge_room |= edge[k]
            obs[st.zone].chips_under_room |= under[k]
            obs[st.zone].chips_off_centre_room |= off_centre[k]
        for zone, unseen in gapped.items():
            obs[zone].chips.extend(unseen)
            obs[zone].chips_gap_only = zone not in doubted_beside_gap
        return _sorted(obs)

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
        near = _Outlines.of(boxes).distances(at).min(1) <= reach
        x, y = self.to_image(at).T[:, :, None]  # inside a box: in the image, where the boxes are upright
        near |= ((x >= cards_xyxy[:, 0]) & (x <= cards_xyxy[:, 2]) & (y >= cards_xyxy[:, 1])
                 & (y <= cards_xyxy[:, 3])).any(1)
        return np.bincount(owner[near], minlength=len(stacks)) > 0

    def _under_chip_room(self, stacks: list[ChipStackObs], pts: np.ndarray, places: NextPlaces) -> np.ndarray:
        """For each stack, whether a chip of it the detector missed could lie under another stack's chip: a chip of
        another stack lies within `UNDER_CHIP_REACH` of a chip's width of a place its rows' next chip would take
        in one of its rows (`_next_places`; a King High $2 High laid against a $20 Seven, its bottom $1 hidden
        between the Seven's top chip and its own top one). What is laid later lies on top, so a payout's chip
        cannot lie under its own wager's, laid before it (a Pick 2 $4 short pay laid against its $5 Ante was
        sent to review for that room). All stacks' places are measured at once."""
        if len(stacks) < 2:
            return np.zeros(len(stacks), bool)
        at, owner, further = places
        at, owner = at[~further], owner[~further]
        chip_owner = np.full(len(pts), -1)
        for k, st in enumerate(stacks):
            chip_owner[list(st.members)] = k
        zone = np.array([st.zone or "" for st in stacks] + [""], object)  # [-1]: a chip of no stack
        laid_before = np.array([_wager_of(z) for z in zone[:-1]], object)
        gap = np.linalg.norm(at[:, None] - pts[None], axis=-1)
        other = (chip_owner[None] != owner[:, None]) & (zone[chip_owner][None] != laid_before[owner][:, None])
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

    def _seen_in_part(self, stacks: list[ChipStackObs], pts: np.ndarray, skip: set[int]) -> list[ChipStackObs]:
        """Each stack in the zone it belongs to: a small stack read in a zone that held no chips lately, lying on
        chips another zone held lately and shows no longer, is that zone's stack seen in part, the rest of it
        under the dealer's hand (`RecentStacks`). Remembers this frame's chips per zone."""
        def by_zone(sts: list[ChipStackObs]) -> dict[str, np.ndarray]:
            out: dict[str, list[int]] = defaultdict(list)
            for k, st in enumerate(sts):
                if k not in skip and st.zone is not None:
                    out[st.zone] += st.members
            return {z: pts[m] for z, m in out.items()}

        now = by_zone(stacks)
        owners = [None if k in skip or st.zone is None else self.recent.owner(st.zone, pts[list(st.members)], now)
                  for k, st in enumerate(stacks)]
        stacks = [st if owner is None else replace(st, zone=owner) for st, owner in zip(stacks, owners, strict=True)]
        self.recent.update(by_zone(stacks))
        return stacks

    def _misfits(self, stacks: list[ChipStackObs], pts: np.ndarray, values: np.ndarray,
                 uncertain: np.ndarray) -> set[int]:
        """Unsure boxes that alone spoil their spot's reading: without the one box, the spot's chips form regular
        stacks (rows as long as their chips say) where they did not, or one stack where they formed several. Such
        a box is the detector reading two chips' overlap as a chip: between two chips of a row (the row too
        long), or worth more than the chip below it (a row never is, so it starts a second stack in the spot).
        On held-out frames, a box that alone made its row too long was no chip in 192 of 196 cases (a one-off
        count against the simulator's perfect observation). When more than one unsure box would do, which is
        the chip is a guess: none is dropped."""
        out: set[int] = set()
        by_zone: dict[str, list[ChipStackObs]] = defaultdict(list)
        for st in stacks:
            if st.zone is not None:
                by_zone[st.zone].append(st)
        for held in by_zone.values():
            if len(held) == 1 and held[0].regular:
                continue
            members = sorted(m for st in held for m in st.members)
            fits = []
            for m in (m for m in members if uncertain[m]):
                rest = [k for k in members if k != m]
                regrouped = self.group_stacks(pts[rest], values[rest]) if rest else []
                if regrouped and all(s.regular for s in regrouped) and (len(held) == 1 or len(regrouped) == 1):
                    fits.append(m)
            if len(fits) == 1:
                out.add(fits[0])
        return out

    def _doubled_in_short_rows(self, stacks: list[ChipStackObs], pts: np.ndarray, values: np.ndarray,
                               conf: np.ndarray) -> tuple[set[int], set[str]]:
        """The box too many of each row of one denomination, three boxes or more, that is `IRREGULAR_STEPS` to
        `DOUBLED_STEPS` steps shorter than its count spans: the weaker of its two nearest boxes, a second box on one
        chip. With the zones of those rows, which stay in doubt (a row so short is read with doubt either way; read
        one chip fewer, its sure readings can confirm it). Over fourteen held-out video sets
        (`benchmarks/row_lengths.py`, every second frame) such rows held one box too many in 61 box-frames of 63 (one
        was right, one a box too few). Rows of mixed denominations are left alone: which box is the second is a
        guess."""
        out: set[int] = set()
        zones: set[str] = set()
        u = pts @ self.spread.axes[0]
        for st in stacks:
            if st.zone is None or len(st.rows) != 1 or len(st.members) < 3:
                continue
            row = np.asarray(st.rows[0])
            if len(set(values[row].tolist())) != 1:
                continue
            if not IRREGULAR_STEPS <= row_shortfall(u[row], self.spread.step_mm) < DOUBLED_STEPS:
                continue
            gaps = np.diff(u[row])
            k = int(np.abs(gaps).argmin())
            pair = row[k:k + 2]
            out.add(int(pair[conf[pair].argmin()]))
            zones.add(st.zone)
        return out, zones

    def _off_row_ghosts(self, stacks: list[ChipStackObs], pts: np.ndarray, uncertain: np.ndarray) -> set[int]:
        """Indices of the stacks that are a single box below the detector's confidence, lying off the rows of
        their spot's confident chips (between a quarter and three quarters of a row pitch across every one).
        A spot holds one stack and its chips lie on its rows, so no chip lies there: such a box is the print
        of a card back read as a chip (Pick 2's ante lies against its seat's cards; 168 of 172 such boxes
        on the held-out video caches were not chips, a one-off count against the simulator's truth)."""
        v = pts @ self.spread.axes[1]
        pitch = self.spread.row_pitch_mm
        sure: dict[str, list[int]] = defaultdict(list)
        for st in stacks:
            if st.zone is not None:
                sure[st.zone] += [m for m in st.members if not uncertain[m]]
        out = set()
        for k, st in enumerate(stacks):
            if len(st.members) != 1 or not uncertain[st.members[0]] or not sure.get(st.zone):
                continue
            dv = np.abs(v[sure[st.zone]] - v[st.members[0]])
            if ((dv >= 0.25 * pitch) & (dv <= 0.75 * pitch)).all():
                out.add(k)
        return out

    def _adrift(self, stacks: list[ChipStackObs], pts: np.ndarray, values: np.ndarray, skip: set[int]) -> set[str]:
        """Zones whose total hangs on a lone chip lying on another spot's row, past its end by 1.4 to 2 steps
        (each spot's and the row's). Rows break at a gap of 1.4 steps (`_split_runs`), so a chip of the row whose
        box lies a few mm off, or a chip slid off the stack, lands in the next spot as a wager of its own: on
        held-out King High video a 4 × $100 stack whose top chip's box lay 10 mm off read as $300 and $100 in the
        next spot, sure of both. Which spot the chip is in is a guess, so both spots are read with doubt. A
        payout beside its own wager is no such guess (laid there on purpose, and read as the payout), nor is a chip
        where the two spots' stacks, each centred on its spot, account for it (`_each_on_its_spot`)."""
        u_ax, v_ax = self.spread.axes
        u, v = pts @ u_ax, pts @ v_ax
        step, v_tol = self.spread.step_mm, 0.3 * self.spread.row_pitch_mm
        out: set[str] = set()
        for k, lone in enumerate(stacks):
            if k in skip or lone.zone is None or len(lone.members) != 1:
                continue
            m = lone.members[0]
            for j, st in enumerate(stacks):
                if j == k or j in skip or st.zone is None or _spot(st.zone) == _spot(lone.zone):
                    continue
                near = [r for r in st.rows if abs(float(np.mean(v[list(r)])) - v[m]) <= v_tol]
                for row in near:
                    # past the row's top (values never rise along it) or before its bottom (never fall)
                    past = u[m] - u[row[-1]] if values[m] <= values[row[-1]] else -np.inf
                    before = u[row[0]] - u[m] if values[m] >= values[row[0]] else -np.inf
                    if RUN_GAP_STEPS * step <= max(past, before) <= 2.0 * step and not self._each_on_its_spot(
                            np.sort(u[[*row, m]]), st.zone, lone.zone):
                        out |= {lone.zone, st.zone}
        return out

    def _each_on_its_spot(self, run_u: np.ndarray, a: str, b: str) -> bool:
        """The chips of `run_u` (places along the spread, sorted) are just spot `a`'s stack and spot `b`'s, each
        centred on its spot (`_meeting`): a King High $40 Pokerpot and the $5 Seven 1.6 steps past its top."""
        if a not in self._spot_uv or b not in self._spot_uv:
            return False
        return _meeting(run_u, self._spot_uv[a][0], self._spot_uv[b][0], self.spread.step_mm, self.spread.per_row,
                        False) is not None

    def _gapped(self, stacks: list[ChipStackObs], pts: np.ndarray, values: np.ndarray,
                skip: set[int]) -> dict[str, list[int]]:
        """Zones holding two stacks on one line with a gap of `GAPPED_STEPS` between the end of one and the start of
        the other: one stack with a chip unseen between (a black $100 on dark felt missed in every frame, a 4 x $100
        Monster wager read as $300). A spot's wager is one stack, and its payout is laid in a zone of its own, so the
        total is read with doubt. Per zone, the unseen chips whose worth the stack itself says: one between two chips
        of one denomination is of it too, as a stack is coloured up, each chip worth no more than the one before it
        (a High Tie $300 Main read $200 in most frames before its bets closed, its middle $100 missed)."""
        u_ax, v_ax = self.spread.axes
        u, v = pts @ u_ax, pts @ v_ax
        step, v_tol = self.spread.step_mm, 0.3 * self.spread.row_pitch_mm
        rows: dict[str, list[tuple[int, ...]]] = defaultdict(list)
        for k, st in enumerate(stacks):
            if k not in skip and st.zone is not None:
                rows[st.zone] += st.rows
        lo, hi = GAPPED_STEPS
        out: dict[str, list[int]] = {}
        for zone, rs in rows.items():
            for a, b in itertools.permutations(rs, 2):
                if (abs(float(np.mean(v[list(a)]) - np.mean(v[list(b)]))) <= v_tol
                        and lo * step <= u[b[0]] - u[a[-1]] <= hi * step):
                    unseen = out.setdefault(zone, [])  # the zone is in doubt whatever the chip is worth
                    if values[a[-1]] == values[b[0]]:
                        unseen.append(int(values[b[0]]))
        return out

    def occluded_zones(self, scene: Scene, min_fraction: float = 0.25) -> set[str]:
        """Zones of a simulator Scene at least `min_fraction` covered by the dealer's hands and arms."""
        return {name for name, frac in self.occluded_fractions(scene).items() if frac >= min_fraction}

    def occluded_fractions(self, scene: Scene) -> dict[str, float]:
        """The share of each card and chip zone of a simulator Scene under the dealer's hands and arms (zones
        with none left out)."""
        from pipelines.sim.render import _in_occluder

        if not scene.occluders:
            return {}
        pts, owner = self._zone_samples()
        covered = np.zeros(len(pts), bool)
        for oc in scene.occluders:
            covered |= _in_occluder(oc, self.layout, pts)
        zones = self._card_zones + self._chip_zones
        frac = np.bincount(owner, covered, len(zones)) / np.maximum(np.bincount(owner, None, len(zones)), 1)
        return {zones[i].name: float(frac[i]) for i in np.flatnonzero(frac > 0)}

    def _zone_samples(self) -> tuple[np.ndarray, np.ndarray]:
        """A 7x7 grid of points inside every card and chip zone (cached), and the zone index of each."""
        if not hasattr(self, "_samples"):
            pts, owner = [], []
            for k, g in enumerate(self._card_zones + self._chip_zones):
                lo, hi = g.polygon.min(axis=0), g.polygon.max(axis=0)
                gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], 7), np.linspace(lo[1], hi[1], 7))
                p = np.stack([gx.ravel(), gy.ravel()], 1)
                p = p[g.path.contains_points(p)]
                if not len(p):
                    p = g.polygon.mean(axis=0, keepdims=True)
                pts.append(p)
                owner.append(np.full(len(p), k))
            self._samples = (np.concatenate(pts), np.concatenate(owner))
        return self._samples

    def observe_scene(self, scene: Scene) -> FrameObs:
        """The perfect observation of a simulator Scene: every object the renderer would label (not hidden
        under the dealer's hand, later objects or the frame edge), each stack in the zone of its centre."""
        from pipelines.sim.camera import Camera
        from pipelines.sim.render import HIDDEN_LIMIT, _hidden, _objects

        camera = Camera(H=self.H_table_to_image, size=self.frame_size)
        objs = _objects(scene)
        hidden = _hidden(objs, scene, self.layout, camera)
        visible = [o for o, h in zip(objs, hidden, strict=True) if h <= HIDDEN_LIMIT]
        obs: dict[str, ZoneObs] = defaultdict(ZoneObs)
        placed = {(round(c.x, 6), round(c.y, 6)): c for c in scene.cards}
        card_objs = [o for o in visible if o.kind == "card"]
        if card_objs:
            pts = np.array([o.centre for o in card_objs])
            for o, zones in zip(card_objs, self.card_zones(pts), strict=True):
                pc = placed[(round(float(o.centre[0]), 6), round(float(o.centre[1]), 6))]
                face = bool(pc.face_up and pc.card)
                c = CardObs(card=pc.card if face else None, face_up=face, back=None if face else pc.back,
                            x_mm=float(o.centre[0]), y_mm=float(o.centre[1]))
                for z in zones:
                    obs[z].cards.append(c)
        if scene.chips:
            zones = self.stack_zone(np.array([[s.x, s.y] for s in scene.chips]))
            for o in visible:
                if o.kind == "chip" and zones[o.stack] is not None:
                    obs[zones[o.stack]].chips.append(int(o.cls[5:]))
            # A payout is the one stack a dealer may spread next to another: read partly, it is unsure. Any stack so
            # read has a chip under another stack's, as `observe` finds by geometry (`_under_chip_room`).
            paid = {z.name for z in self.layout.zones_of("paid")}
            for st in self._stacks_under_objects(objs, hidden, scene, camera):
                zo = obs.get(zones[st])  # a plain get: a stack not seen at all is no zone's reading
                if zo is None:
                    continue
                zo.chips_under_room = True
                if zones[st] in paid:
                    zo.chips_uncertain = zo.chips_doubt_other = True
        return _sorted(obs)

    def _stacks_under_objects(self, objs: list, hidden: list[float], scene: Scene, camera: object) -> set[int]:
        """Stacks seen in part, the rest under other chips rather than the dealer's hand: a detector
        would count such a stack short, so its total is not to be trusted."""
        from dataclasses import replace

        from pipelines.sim.render import HIDDEN_LIMIT, _hidden

        seen = {o.stack for o, h in zip(objs, hidden, strict=True) if o.kind == "chip" and h <= HIDDEN_LIMIT}
        part = {o.stack for o, h in zip(objs, hidden, strict=True)
                if o.kind == "chip" and h > HIDDEN_LIMIT and o.stack in seen}
        if not part:
            return set()
        if not scene.occluders:
            return part
        bare = _hidden(objs, replace(scene, occluders=[]), self.layout, camera)
        return {o.stack for o, h in zip(objs, bare, strict=True) if o.kind == "chip" and h > HIDDEN_LIMIT
                and o.stack in part}


def _straddled(zone: str | None, chip_bet_zones: np.ndarray, at_spot_core: np.ndarray) -> tuple[str, ...]:
    """The other betting spots a stack given to `zone` has chips lying inside: it may be two players' wagers read as
    one (King High's spots are 65 mm squares; two stacks in one line merge), so its total is not to be trusted for
    either. A payout's chips over the edge of its own wager's spot are no such doubt (it is laid against the wager,
    and reaches into the spot once the wager has gone); a chip near that spot's centre is the wager's, read as one
    row with its payout."""
    if zone is None:
        return ()
    own = _wager_of(zone)
    return tuple(sorted({str(b) for b, core in zip(chip_bet_zones, at_spot_core, strict=True)
                         if b and b != zone and (b != own or core)}))


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


def _hollow_in_rows(stacks: list[ChipStackObs], uncertain: np.ndarray, none: np.ndarray,
                    lasting: np.ndarray, pts: np.ndarray, step_mm: float) -> set[int]:
    """Members (indices into the grouped chips, at `pts` on the felt) read below the detector's confidence that are
    no chip: inside a row (between two of its boxes) where the chip verifier leans `none` on them at `HOLLOW_NONE`
    or more, at a row's end or alone where it has at `LASTING_NONE` or more in each of their place's last readings
    (`lasting`), and at a row's bottom off its place, nearer the next box than `NEAR_BOTTOM_STEPS`, where it leans
    so at `NEAR_BOTTOM_NONE` or more.
    Inside a row such a box is the detector's box in the gap between two chips (a payout laid a chip's gap past its
    wager) or half a step off one: taken as a chip, it joins wager and payout into one row, or makes a row one chip
    too long. At a row's end a single frame's `none` is no proof (at its top the verifier leans `none` at up to
    0.92 on a real payout chip laid over its wager's top chip, at its bottom up to 0.96), but a phantom there (a
    $25 box one step below a $2 row) draws it frame after frame. A bottom box half a step off its place is the
    exception: no real chip lies there."""
    out: set[int] = set()
    for st in stacks:
        for row in st.rows:
            out |= {m for m in row[1:-1] if uncertain[m] and none[m] >= HOLLOW_NONE}
            out |= {m for m in {row[0], row[-1]} if uncertain[m] and lasting[m] >= LASTING_NONE}
            if (len(row) > 1 and uncertain[row[0]] and none[row[0]] >= NEAR_BOTTOM_NONE
                    and np.hypot(*(pts[row[0]] - pts[row[1]])) < NEAR_BOTTOM_STEPS * step_mm):
                out.add(row[0])
    return out


def _vouched(st: ChipStackObs, chip_idx: np.ndarray, uncertain: np.ndarray, values: np.ndarray) -> np.ndarray:
    """For each member of a regular stack: whether it lies inside its row between two confident chips read
    as its own denomination. The row's length says a chip lies there, and stacks are coloured up in order,
    largest at the bottom (the simulator's always are: `chips_for`), so between two alike it is one more
    of them: a reading below the detector's confidence there is no doubt."""
    ok: set[int] = set()
    if st.regular:
        for row in st.rows:
            idx = chip_idx[list(row)]
            for k in range(1, len(row) - 1):
                a, b, c = idx[k - 1], idx[k], idx[k + 1]
                if not uncertain[a] and not uncertain[c] and values[a] == values[b] == values[c]:
                    ok.add(row[k])
    return np.array([m in ok for m in st.members], dtype=bool)


def _may_follow(chain: list[list[int]], per_row: int) -> bool:
    """Whether another row can follow a stack whose rows so far are `chain` (rows in the order the
    stack fills them, along the perpendicular axis). A stack fills a row before it starts the next, so
    only its last row may be short (one chip fewer still counts as full: the detector misses a chip now
    and then). A short row with a full one a pitch further on (a King High wager with its payout laid
    beside it) is two stacks."""
    return all(len(r) >= per_row - 1 for r in chain)


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


def _split_runs(line: list[int], u: np.ndarray, v: np.ndarray, values: np.ndarray, step: float,
                per_row: int) -> list[list[int]]:
    """A line of chips (sorted along the spread) -> the rows of separate stacks in it: a run ends at a
    gap of 1.4 steps or more (within a row chips are one step apart, give or take the detector's few
    mm; at 1.5 two payouts laid side by side merged), when it holds a full row, at a step of
    `SIDESTEP_MM` across (or `STRAIGHT_SIDESTEP_MM` between two straight lines, `_sidestep`), or before a
    chip worth more than the one before it (a payout continuing its wager's row)."""
    rows: list[list[int]] = []
    run = [line[0]]
    for k, (a, b) in enumerate(itertools.pairwise(line)):
        if (u[b] - u[a] >= RUN_GAP_STEPS * step or len(run) == per_row
                or _sidestep(run, line[k + 2:k + 3], b, v, u, step) or values[b] > values[a]):
            rows.append(run)
            run = []
        run.append(b)
    rows.append(run)
    return rows


def _sidestep(run: list[int], after: list[int], b: int, v: np.ndarray, u: np.ndarray, step: float) -> bool:
    """Chip `b` steps across off the line of `run` (the chips before it): by `SIDESTEP_MM`, or by
    `STRAIGHT_SIDESTEP_MM` where the run's last two chips and `b` with the chip `after` it (within 1.4 steps
    along) each lie straight, within `STRAIGHT_MM` across."""
    a = run[-1]
    across = abs(v[b] - v[a])
    if across >= SIDESTEP_MM:
        return True
    if across < STRAIGHT_SIDESTEP_MM or len(run) < 2 or not after or u[after[0]] - u[b] >= 1.4 * step:
        return False
    return abs(v[a] - v[run[-2]]) < STRAIGHT_MM and abs(v[after[0]] - v[b]) < STRAIGHT_MM


def _sorted(obs: dict[str, ZoneObs]) -> FrameObs:
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
