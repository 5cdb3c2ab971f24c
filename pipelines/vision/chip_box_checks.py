"""The checks on a frame's chip boxes before they count (`ChipBoxChecks`, a part of `ZoneMapper`): boxes that are no
chip (a second box on one chip, a ghost between two spots' stacks, a box the verifier leans `none` on where a row says
none lies), and stacks read with doubt (a lone chip past another spot's row, one stack read as two a chip's gap apart,
a stack seen in part under the dealer's hand)."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import replace

import numpy as np

from pipelines.games.layout import Layout

from .chip_stacks import (
    BRIDGE_NONE,
    BRIDGE_OFF_MM,
    DOUBLED_STEPS,
    DUPLICATE_NONE,
    DUPLICATE_STEPS,
    GAPPED_STEPS,
    HOLLOW_NONE,
    IRREGULAR_STEPS,
    LASTING_NONE,
    NEAR_BOTTOM_NONE,
    NEAR_BOTTOM_STEPS,
    OFF_CENTRE_END_SEEN,
    OFF_CENTRE_STEPS,
    RUN_GAP_STEPS,
    STRAIGHT_MM,
    STRAIGHT_SIDESTEP_MM,
    TWIN_CONF,
    WAGER_OFF_CENTRE_STEPS,
    ChipSpread,
    ChipStackObs,
    _meeting,
    _spot,
    _wager_of,
    row_shortfall,
)
from .lasting_none import LastingNone
from .recent_stacks import RecentStacks


class ChipBoxChecks:
    """`ZoneMapper`'s checks on chip boxes and the stacks they form."""

    layout: Layout
    spread: ChipSpread
    lasting: LastingNone
    recent: RecentStacks

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

    def _wager_chip_ending(self, zone: str | None, rows: tuple[tuple[int, ...], ...], u: np.ndarray,
                           in_bet: np.ndarray) -> int | None:
        """The box ending a payout's single row on its wager's side, lying in the wager's spot, where the row is
        `OFF_CENTRE_STEPS` or more off the payout's spot with it and centred on it without it: a payout is laid
        centred on its spot, so that box is most likely the wager's top chip, drawn a little off its place and read
        in one row with the payout (the mirror of `_ending_centred_payouts`). The payout then reaches into its
        wager's spot, as if the box lay at the spot's centre. (King High, set A7, seed 12581: a $3 Low payout of
        three $1 laid in one line with its $2 wager; the wager's top chip, boxed 9 mm off its place and 18 mm from
        the spot's centre, joined the payout's row for four frames, and the payout was read $4 surely.) Rows of
        three boxes or more: without the end box two are left, too few to say where a row is centred."""
        wager = _wager_of(zone)
        if wager is None or len(rows) != 1 or len(rows[0]) < 3:
            return None
        end = self._end_off_centring(zone, list(rows[0]), u, toward_wager=True)
        return end if end is not None and in_bet[end] == wager else None

    def _end_off_centring(self, zone: str, row: list[int], u: np.ndarray, toward_wager: bool) -> int | None:
        """The box ending payout `zone`'s `row` on its wager's side (`toward_wager`), else on the other, where the row
        is `OFF_CENTRE_STEPS` or more off the spot with it and centred on it without it; else None."""
        wager_lower = self._spot_uv[_wager_of(zone)][0] < self._spot_uv[zone][0]
        end = min(row, key=lambda i: u[i]) if wager_lower == toward_wager else max(row, key=lambda i: u[i])
        rest = [i for i in row if i != end]
        return end if self._off_its_spot(zone, u[row]) and not self._off_its_spot(zone, u[rest]) else None

    def _payouts_ending_on_stacks(self, stacks: list[ChipStackObs], pts: np.ndarray, u: np.ndarray
                                  ) -> list[ChipStackObs]:
        """`stacks`, each payout's single row that ends, away from its wager, in a box lying in one line with another
        betting spot's stack, less than `RUN_GAP_STEPS` from its first chip, read as reaching into that spot where the
        row is `OFF_CENTRE_STEPS` or more off the payout's spot with the box and centred on it without: a payout is
        laid centred on its spot, so the box is as likely that stack's end chip, read in one run with the payout. (Pick
        2, set A17, seed 12974: a $175 Play payout, an overpay, laid in one line between its wager and the seat's Ante;
        the Ante's first $25 chip joined the payout's row, and $200 was read surely: a $50 overpay claimed.) The
        payout is in doubt in such frames, as for a box of its own wager (`_wager_chip_ending`)."""
        v_tol = 0.3 * self.spread.row_pitch_mm
        out = list(stacks)
        for k, st in enumerate(stacks):
            wager = _wager_of(st.zone)
            if wager is None or len(st.rows) != 1 or len(st.rows[0]) < 3:
                continue
            end = self._end_off_centring(st.zone, list(st.rows[0]), u, toward_wager=False)
            if end is None:
                continue
            # most frames have no such row: where a stack lies across the spread, and whose each box is, only now
            v = pts @ self.spread.axes[1]
            zone_of = {i: s.zone for s in stacks for i in s.members}
            away = 1.0 if self._spot_uv[wager][0] < self._spot_uv[st.zone][0] else -1.0
            ahead = away * (u - u[end])
            beyond = (ahead > 0) & (ahead < RUN_GAP_STEPS * self.spread.step_mm) & (np.abs(v - v[end]) <= v_tol)
            spots = {zone_of.get(int(i)) for i in np.flatnonzero(beyond)} - {None, wager, st.zone}
            spots = {z for z in spots if _wager_of(z) is None and z in self._spot_uv}
            if spots:
                out[k] = replace(st, reach_into=tuple(sorted({*st.reach_into, *spots})))
        return out

    @staticmethod
    def _off_centre_wagers(lone: list[tuple[str, list[int], float]], seen: np.ndarray) -> set[str]:
        """Of the wager zones whose lone row lies off its spot's centre (`lone`, from `_lone_wager_rows`), those whose
        box ending the row on that side is seen (`seen`: the detector's confidence, or the verifier's belief in a chip
        there where higher) below `OFF_CENTRE_END_SEEN`. A wager is laid centred on its spot, so that box is as likely
        no chip: the total is in doubt. (3 Card Monster, set A51, seed 14323: a $300 Monster of three $100 in one line
        with the seat's $300 Ante; the detector drew a fourth $100 box a step past the Monster's top chip, toward the
        Ante, seen at 0.65-0.86 in every frame, and the Monster was read $400 surely, half a step off its spot.) A row
        off its spot for a chip missed at its near end keeps its sure end chips: `_short_wager_rows` marks it."""
        # rows run in order along the spread: the far end is the last chip where the row lies past the spot's centre
        return {zone for zone, row, off in lone if seen[row[-1] if off > 0 else row[0]] < OFF_CENTRE_END_SEEN}

    def _short_wager_rows(self, lone: list[tuple[str, list[int], float]]) -> set[str]:
        """Of the wager zones whose lone row lies off its spot's centre (`lone`, from `_lone_wager_rows`), those whose
        row is short of a full one: it lies as the same row a chip longer would, its end chip missed. Not a doubt in
        itself (a wager is seldom read so for good): the tracker doubts the total where it is confirmed so in every
        frame, and lifts that doubt once the row is read centred (`ZoneTracker`). (King High, set A58, seed 14631: a
        $400 Suit of four $100, its bottom chip laid over the seat's $1 Low and never detected, read $300 surely, the
        three read 0.54 of a step off the spot.)"""
        return {zone for zone, row, _ in lone if len(row) < self.spread.per_row}

    def _lone_wager_rows(self, stacks: list[ChipStackObs], pts: np.ndarray, skip: set[int]
                         ) -> list[tuple[str, list[int], float]]:
        """(zone, the row's chips in order along the spread, its signed offset in mm) of each wager zone holding one
        stack, reaching into no other spot, that is one row of two chips or more centred `WAGER_OFF_CENTRE_STEPS`
        or more along the spread off its spot's centre: a wager is laid centred on its spot, so a box too many or
        too few at one end moves the row's centre half a step."""
        u = pts @ self.spread.axes[0]
        stacks_in = Counter(st.zone for k, st in enumerate(stacks) if k not in skip)
        out = []
        for k, st in enumerate(stacks):
            if (k in skip or st.zone not in self._spot_uv or _wager_of(st.zone) is not None or st.reaches
                    or stacks_in[st.zone] != 1 or len(st.rows) != 1 or len(st.members) < 2):
                continue
            row = list(st.rows[0])
            off = self._row_offset(st.zone, u[row])
            if abs(off) >= WAGER_OFF_CENTRE_STEPS * self.spread.step_mm:
                out.append((st.zone, row, off))
        return out

    def _off_its_spot(self, zone: str, row_u: np.ndarray) -> bool:
        """Whether a row of chips at places `row_u` along the spread is centred `OFF_CENTRE_STEPS` or more off
        `zone`'s spot."""
        return abs(self._row_offset(zone, row_u)) >= OFF_CENTRE_STEPS * self.spread.step_mm

    def _row_offset(self, zone: str, row_u: np.ndarray) -> float:
        """How far (mm, signed along the spread) a row of chips at places `row_u` is centred off `zone`'s spot."""
        return float((row_u.min() + row_u.max()) / 2 - self._spot_uv[zone][0])

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
        was right, one a box too few); from 0.45 steps short, over A46-A51 (every frame), in 145 of 148 (none
        right), but on the held-out A52 in 2 of 47 (42 right, most in one session): the box dropped from a right row
        leaves its spot in doubt, read one chip short, and A52's rounds read the same either way. Rows of mixed
        denominations are left alone: which box is the second is a guess."""
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
