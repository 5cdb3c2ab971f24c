"""Detections (pixel boxes) -> table millimetres -> the layout's zones: one `FrameObs` per frame.

Cards go to card areas (kinds cards, card_box, discard, shoe) by containment of their centre. Card
areas may be nested (blackjack `seatN.cards` holds `seatN.cards.1` and `.2` for split hands): a card is
reported in *every* card area that contains it, so rounds/ reads `seatN.cards` for an unsplit hand and
`seatN.cards.H` after a split. A card just outside every area (a sideways double-down card) goes to the
nearest one within `card_reach_mm`. A card box lying almost wholly inside a more confident, much larger card box
is that card boxed again in part, no card of its own (`card_boxes.py`).

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
two account for is no guess (`_adrift`). A wager's lone row half a step off its spot, ending on that side in a box
seen below `OFF_CENTRE_END_SEEN`, is in doubt: that box is as likely no chip (`_off_centre_wagers`).
Each spot's reading also says whether a chip missed could lie over a card's edge (`_card_edge_room`), under
another stack's chip (`_under_chip_room`), or at the end of a payout lying half a step off its spot's centre
(`_off_centre_room`); the tracker and the round machine weigh that against what else was read.

`ZoneMapper` is in parts: the checks on chip boxes (`chip_box_checks.py`), the room for a missed chip
(`missed_chip_room.py`), the perfect observation of a simulator scene (`scene_observation.py`); the bounds they use,
each with its measurement, are in `chip_stacks.py`.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
import supervision as sv
from matplotlib.path import Path as MplPath

from pipelines.games.layout import Layout

from .card_boxes import parts_of_cards
from .chip_box_checks import ChipBoxChecks, _hollow_in_rows, _vouched
from .chip_boxes import chip_centres, share_under
from .chip_stacks import (
    CARD_UNDER_CHIPS,
    IRREGULAR_STEPS,
    MEET_END_COUNT,
    ROW_PITCH_TOL_MM,
    RUN_GAP_STEPS,
    SIDESTEP_MM,
    SPOT_ACROSS_MM,
    STRAIGHT_MM,
    STRAIGHT_SIDESTEP_MM,
    ChipSpread,
    ChipStackObs,
    _meeting,
    _wager_of,
    row_shortfall,
)
from .lasting_none import LastingNone
from .missed_chip_room import MissedChipRoom
from .observe import CardObs, FrameObs, ZoneObs, cards_in_table_order
from .outlines import Outlines
from .recent_stacks import RecentStacks
from .scene_observation import SceneObservation

CARD_KINDS = ("cards", "card_box", "discard", "shoe")
CHIP_KINDS = ("bet", "paid", "tray")


def apply_homography(H: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    homog = pts @ H[:, :2].T + H[:, 2]
    return homog[:, :2] / homog[:, 2:3]


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
class ZoneMapper(ChipBoxChecks, MissedChipRoom, SceneObservation):
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
        self._card_outlines = Outlines.of([g.polygon for g in self._card_zones])
        self._chip_outlines = Outlines.of([g.polygon for g in self._chip_zones])
        self._chip_names = [g.name for g in self._chip_zones]
        self._chip_areas = np.array([g.area for g in self._chip_zones])
        self._bet_zones = [g for g in self._chip_zones if g.kind == "bet"]
        self._bet_centres = np.array([g.polygon.mean(axis=0) for g in self._bet_zones]).reshape(-1, 2)
        u_ax, v_ax = self.spread.axes
        # each chip spot's centre along and across the spread, mm
        self._spot_uv = {g.name: (float(c @ u_ax), float(c @ v_ax))
                         for g in self._chip_zones for c in [g.polygon.mean(axis=0)]}
        self._meets = self._neighbour_spots()
        spots = [g.name for g in self._chip_zones if g.kind in ("bet", "paid")]
        self._spots_uv = np.array([self._spot_uv[n] for n in spots], np.float64).reshape(-1, 2)

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
        out = []
        for (m, c), z in zip(stacks, zones, strict=True):
            st_rows = tuple(dict.fromkeys(row_of[i] for i in m))
            wagers = off_centre[m] < self.spot_core_mm  # a chip near its spot's centre is the wager's
            end = self._wager_chip_ending(z, st_rows, u, in_bet)
            if end is not None:
                wagers |= np.asarray(m) == end
            out.append(ChipStackObs(tuple(sorted(m)), float(c[0]), float(c[1]), z, rows=st_rows,
                                    rows_regular=not irregular & set(m), reach_into=_straddled(z, in_bet[m], wagers)))
        return self._payouts_ending_on_stacks(out, pts, u)

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
            vs, us, v_last = [v0], [u0], v0
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
                vs.append(vj)
                us.append(uj)
                v_last = vj
            stacks += [([i for row in part for i in row], uc * u_ax + vc * v_ax)
                       for part, uc, vc in self._parted_chain(chain, us, vs)]
        return stacks

    def _parted_chain(self, chain: list[list[int]], us: list[float], vs: list[float]
                      ) -> list[tuple[list[list[int]], float, float]]:
        """A chain of rows (with each row's middle along, `us`, and place across, `vs`) as one stack, with its centre
        along and across the spread; or, where that centre lies on no spot and the chain's first rows and the rest each
        lie centred on a spot of their own, as those two stacks (within half a step along, `SPOT_ACROSS_MM` across)."""
        def centre(a: int, b: int) -> tuple[float, float]:
            return float(np.median(us[a:b])), (min(vs[a:b]) + max(vs[a:b])) / 2

        def spot(uv: tuple[float, float]) -> int | None:
            off = np.abs(self._spots_uv - np.asarray(uv))
            hit = np.flatnonzero((off[:, 0] <= self.spread.step_mm / 2) & (off[:, 1] <= SPOT_ACROSS_MM))
            return int(hit[0]) if len(hit) else None

        whole = centre(0, len(chain))
        if len(chain) > 1 and spot(whole) is None:
            for k in range(1, len(chain)):
                first, rest = centre(0, k), centre(k, len(chain))
                a, b = spot(first), spot(rest)
                if a is not None and b is not None and a != b:
                    return [(chain[:k], *first), (chain[k:], *rest)]
        return [(chain, *whole)]

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
        conf = (np.asarray(detections.confidence, np.float64) if detections.confidence is not None
                else np.ones(n))
        is_card[np.flatnonzero(is_card)[parts_of_cards(xyxy[is_card], conf[is_card])]] = False  # a card boxed again
        centres_px = np.stack([(xyxy[:, 0] + xyxy[:, 2]) / 2, (xyxy[:, 1] + xyxy[:, 3]) / 2], 1)
        centres_px[chip_vals > 0] = chip_centres(xyxy[chip_vals > 0], xyxy[is_card])
        centres = self.to_table(centres_px)
        uncertain = np.array(data.get("uncertain", np.zeros(n, bool)), dtype=bool)  # a copy: set below
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
        reached = _reached_by_others(stacks, off_row, obs)
        doubted_beside_gap |= reached
        lone = self._lone_wager_rows(stacks, centres[chip_idx], skip=off_row)
        phantom_end = self._off_centre_wagers(lone, seen[chip_idx]) - reached
        for zone in phantom_end:
            obs[zone].chips_uncertain = obs[zone].chips_doubt_other = True
            doubted_beside_gap.add(zone)
        # a row whose far end is in doubt lies off its spot as one a chip short would too: it is marked as well, so the
        # frames confirming it count alike, whichever end the detector doubted in each
        for zone in self._short_wager_rows(lone) - reached:
            obs[zone].chips_short_row = True
        for zone, unseen in gapped.items():
            obs[zone].chips.extend(unseen)
            obs[zone].chips_gap_only = zone not in doubted_beside_gap
        return cards_in_table_order(obs)


def _reached_by_others(stacks: list[ChipStackObs], skip: set[int], obs: dict[str, ZoneObs]) -> set[str]:
    """The betting spots holding a stack of their own that another stack's chips lie in (`_straddled`), each put in
    doubt for that as the reaching one is: two stacks in one line may be read with a chip of one counted in the other,
    so neither total is sure (a King High $20 Seven of four $5 chips laid in line with its $20 Pokerpot read as $10,
    the Pokerpot as $25). Each notes the stacks reaching into it, so the round can see whether they held a stack."""
    reached: set[str] = set()
    for k, st in enumerate(stacks):
        if st.zone is None or k in skip:
            continue
        for spot in st.reach_into:
            if spot in obs and obs[spot].chips:
                obs[spot].chips_uncertain = True
                obs[spot].chips_reach_into.add(st.zone)
                reached.add(spot)
    return reached


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


def _may_follow(chain: list[list[int]], per_row: int) -> bool:
    """Whether another row can follow a stack whose rows so far are `chain` (rows in the order the
    stack fills them, along the perpendicular axis). A stack fills a row before it starts the next, so
    only its last row may be short (one chip fewer still counts as full: the detector misses a chip now
    and then). A short row with a full one a pitch further on (a King High wager with its payout laid
    beside it) is two stacks."""
    return all(len(r) >= per_row - 1 for r in chain)


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
