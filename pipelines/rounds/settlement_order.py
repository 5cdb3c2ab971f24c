"""The order settlements were made in: the times each was seen, where the dealer's hand lay, and the manual's order
where the frames cannot tell (`SettlementOrder._in_dealer_order`, a part of `RoundMachine`)."""

from __future__ import annotations

from itertools import pairwise

from pipelines.vision.cover import CoverLog

from .live import WagerSeen
from .timeline import STAGE_FRAMES
from .timings import PAYOUT_LAG_S, SAME_TIME_S


class SettlementOrder:
    """`RoundMachine`'s reading of the settlement order; the pairs it put in the manual's order, and why, are kept
    for the round's notes."""

    fps: float
    cover: CoverLog | None
    _assumed_order: list[tuple[tuple[int, str, int], tuple[int, str, int]]]
    _unseen_order: list[tuple[tuple[int, str, int], tuple[int, str, int]]]
    _tangled_order: bool

    def _in_dealer_order(self, done: list[WagerSeen], exp_order: dict[tuple[int, str, int], int]
                         ) -> list[WagerSeen]:
        """Settlements in the order the dealer made them. A payout shows only once the dealer's hand
        has left it (`PAYOUT_LAG_S` later than a stack taken away); settlements closer together than
        `SAME_TIME_S` (one of them a payout) cannot be told apart in time and keep the manual's order, unless
        where the hand lay orders them (`_under_the_hand`: it had left one's spot before it came over the
        other's; a High Tie Main taken, then, 0.4 s later, the next seat's Main paid)."""
        lag, near = PAYOUT_LAG_S * self.fps, SAME_TIME_S * self.fps

        def when(ws: WagerSeen) -> float:
            if ws.outcome != "win":
                return ws.settled_at or 0
            return _first_seen(ws) - lag

        def whole(ws: WagerSeen) -> float:
            """When a payout first read whole, as `when` reads time: one seen first in part and revealed in
            stages as the hand left it was laid at some moment up to then (a 3 Card Monster payout read $5, then
            $60 half a second later with the two laid before it: seen first, it was laid last)."""
            p = ws.payout
            if ws.outcome != "win" or p is None or ws.settled_at is None:
                return when(ws)
            full = next(f for f, v in p.steps if v == p.peak)
            upto = [v for f, v in p.steps if f <= full]
            rising = all(b > a for a, b in pairwise(upto))
            return when(ws) + (full - ws.settled_at) if rising and full - ws.settled_at <= STAGE_FRAMES else when(ws)

        # A stack gone from view in the same frame as a settlement of its box that the manual puts first was
        # most likely covered by the hand making that one, and taken later: when, is not known (with a frame
        # or two fewer analysed, a Pick 2 bonus vanished with the Ante and was ordered before the 3-5 Bonus
        # taken after it). Within its box it keeps the manual's order.
        gone_with = {id(ws) for ws in done if ws.outcome != "win" and any(
            o is not ws and o.wager.seat == ws.wager.seat and o.settled_at == ws.settled_at
            and exp_order.get(o.key, 0) < exp_order.get(ws.key, 0) for o in done)}

        # Where the dealer's hand lay as each settlement was made (`_under_the_hand`): for a payout, its laying.
        spans = {id(ws): span for ws in done if (span := self._under_the_hand(ws)) is not None}

        # A stack of a box gone in the frame the hand came over a wager of that box it then paid was covered, and
        # taken at some moment of the hand's stay: not before it was covered. So too one gone while the hand lay over
        # that wager's paid spot laying its payout (`_gone_while_paying`). Seen covered after the payout, it was
        # taken after it; seen covered before, it may have been taken before or after: the manual's order is
        # assumed, and the round says so.
        covered = {id(ws) for ws in done if ws.outcome != "win" and any(
            o.wager.seat == ws.wager.seat and o.outcome == "win" and o.settled_at is not None
            and (any(gone == ws.settled_at and gone <= o.settled_at <= back + lag for gone, back in o.inst.hidden)
                 or _gone_while_paying(ws, spans.get(id(o))))
            for o in done)}

        # A stack read as gone as the hand left its spot was taken at some moment of the hand's stay there, up to as
        # long before as a payout shows after it is laid (a 3 Card Monster Play returned under the hand, read gone
        # 7 frames later, after the Ante's payout laid beside it showed): the frame the stay began, where there is one.
        stay_from = {id(ws): f for ws in done if ws.outcome != "win" and self.cover is not None
                     and ws.settled_at is not None
                     and (f := self.cover.covered_until_near(ws.inst.zone, ws.settled_at, round(near))) is not None}

        def earliest(ws: WagerSeen) -> float:
            """The earliest moment `ws` may have been settled, against another settlement of its box."""
            first = stay_from.get(id(ws))
            return when(ws) if first is None else max(first, (ws.settled_at or 0) - lag)

        def too_close(a: WagerSeen, b: WagerSeen) -> bool:
            if a.wager.seat == b.wager.seat and (id(a) in gone_with or id(b) in gone_with):
                return True
            first = earliest if a.wager.seat == b.wager.seat else when
            gap = max(first(a) - whole(b), first(b) - whole(a), 0.0)  # between the spans each may have been laid in
            # Two stacks taken away are ordered by the frames they left view, unless they share a box: the hand
            # sweeping it covers one on its way to take the other (a King High $1 Suit gone under the sleeve three
            # frames before the $2 High the hand took first, then the Suit).
            return gap <= (near if "win" in (a.outcome, b.outcome) or a.wager.seat == b.wager.seat else 1.0)

        laid_from = {id(ws): f for ws in done if (f := self._laid_unseen_from(ws)) is not None}

        def unseen_between(a: WagerSeen, b: WagerSeen) -> bool:
            """`b` is a payout laid at an unseen moment after `a` was settled, or `a` one laid after `b`."""
            return any(id(w) in laid_from and laid_from[id(w)] - near <= when(o) <= (w.settled_at or 0) + near
                       for w, o in ((a, b), (b, a)))

        stays = {id(ws): stay for ws in done if (stay := self._taken_in_stay(ws)) is not None}

        def span(ws: WagerSeen, other: WagerSeen) -> tuple[int, int] | None:
            """`ws`'s span against `other`'s: a stack read gone under the hand, which then went on to another box,
            was taken by the time the hand left its spot, though the spot showed no bare felt until much later (a
            King High $40 Seven taken at 730 under a hand that left at 732, its spot never bare again for a
            neighbour's stack lying over its corner, and seat 2's Low paid at 734: the dealer out of the manual's
            order). Within one box the hand's edge may hide a stack it comes back for (`CoverLog.taken_within`)."""
            s, stay = spans.get(id(ws)), stays.get(id(ws))
            if s is None or stay is None or ws.wager.seat == other.wager.seat:
                return s
            return s[0], min(s[1], stay[1] + 1)

        def before(a: WagerSeen, b: WagerSeen) -> bool:
            """The hand had left `a`'s spot, having settled it, when it came over `b`'s, and not the other way round:
            two stacks taken within one frame (spans of a frame each, alike) are ordered by neither."""
            sa, sb = span(a, b), span(b, a)
            return sa is not None and sb is not None and sa[1] <= sb[0] and not sb[1] <= sa[0]

        out = sorted(done, key=when)
        # Bubble neighbours that are too close in time into the manual's order. The rules need not agree (the hand's
        # path may put a before b, b before c, and the times seen c before a), so the passes are bounded: where they
        # never settle, no order is known.
        for _ in range(len(out) ** 2 + 1):
            changed = False
            for i in range(len(out) - 1):
                a, b = out[i], out[i + 1]
                if before(b, a):
                    out[i], out[i + 1] = b, a
                    changed = True
                    continue
                if exp_order.get(a.key, 0) <= exp_order.get(b.key, 0) or before(a, b):
                    continue
                if too_close(a, b):
                    out[i], out[i + 1] = b, a
                    changed = True
                    # Seen the other way round between two boxes (the hand moved from one to the
                    # other): the order is in doubt. Within one box it is one sweep of the hand, unless
                    # a stack of it went under the hand that paid (`covered`): taken at some moment of the
                    # hand's stay, as the payout was laid unseen, whatever the times seen say. (King High, A43
                    # 14031 cb66b4f8: a $250 Seven covered as the hand came to pay the High beside it, the
                    # High's payout read 8 frames later, the Seven taken after it: the dealer out of the
                    # manual's order, and the round said the manual's.)
                    if id(b) in covered:
                        self._unseen_order.append((b.key, a.key))
                    elif when(a) < when(b) and a.wager.seat != b.wager.seat:
                        self._assumed_order.append((b.key, a.key))
                elif unseen_between(a, b):
                    out[i], out[i + 1] = b, a
                    changed = True
                    self._unseen_order.append((b.key, a.key))
            if not changed:
                return out
        self._tangled_order = True
        self._assumed_order, self._unseen_order = [], []  # swaps of a circle say nothing of any one pair
        return sorted(done, key=when)

    def _under_the_hand(self, ws: WagerSeen) -> tuple[int, int] | None:
        """(first, last) frames a settlement was made within, from where the dealer's hand lay (`self.cover`,
        `CoverLog.laid_within` and `taken_within`). None where that is not known: the order then rests on the
        times seen."""
        if self.cover is None or ws.settled_at is None:
            return None
        if ws.outcome == "win":
            return self.cover.laid_within(ws.paid_zone, ws.settled_at)
        if ws.outcome in ("lose", "returned"):
            return self.cover.taken_within(ws.inst.zone, ws.settled_at)
        return None

    def _taken_in_stay(self, ws: WagerSeen) -> tuple[int, int] | None:
        """The spell the dealer's hand lay over a stack's spot as it was read gone (`CoverLog.stay_over`); None for a
        payout, or where it was read gone in plain view."""
        if self.cover is None or ws.settled_at is None or ws.outcome not in ("lose", "returned"):
            return None
        return self.cover.stay_over(ws.inst.zone, ws.settled_at)

    def _laid_unseen_from(self, ws: WagerSeen) -> int | None:
        """A payout whose wager was out of view (under the dealer's hand) just before the payout showed was laid
        at some moment of that spell, not `PAYOUT_LAG_S` before it showed: the frame the spell began. (A 3 Card
        Monster Ante payout laid as the hand went on to the Monster: the Ante and its payout hidden for a second,
        the payout seen 1.3 s after the Monster was taken, as if laid after it.) So too a payout first seen while the
        hand still lay over its spot, bare before the hand came (`CoverLog.laid_under`): laid at some moment of the
        hand's stay (a 3 Card Monster $500 Play payout laid at 142 under a hand that stayed over its spot to 165, first
        read at 161, after the Ante's payout laid at 148 and read at 153)."""
        if ws.outcome != "win" or ws.settled_at is None:
            return None
        lag, near = PAYOUT_LAG_S * self.fps, SAME_TIME_S * self.fps
        spells = [gone for gone, back in ws.inst.hidden if 0 <= ws.settled_at - back <= lag + near]
        under = self.cover.laid_under(ws.paid_zone, ws.settled_at) if self.cover is not None else None
        if under is not None and ws.settled_at - under > lag + near:  # sooner, `when` has it: a payout shows so late
            spells.append(under)
        return min(spells, default=None)


def _gone_while_paying(ws: WagerSeen, laid: tuple[int, int] | None) -> bool:
    """`ws` was read gone while the dealer's hand lay over the paid spot of a winner of its box, laying its payout
    (`laid`: that payout's `CoverLog.laid_within` span, None where not known): taken at some moment of that stay,
    before or after the payout. (King High, held-out set A55, seed 14481, round 4698f69e: seat 2's $20 Low paid at
    521-523 and its losing $1 Suit taken at 527, against the manual, under a hand over the whole box from 520 to 528.
    The Suit read gone from 522, the payout first at 529; the round said the manual's order, without doubt.)"""
    return laid is not None and ws.settled_at is not None and laid[0] <= ws.settled_at < laid[1]


def _first_seen(ws: WagerSeen) -> int:
    """The frame a won wager's payout was first read as it was confirmed, or as the whole it came to, where that came
    before it confirmed: read, then hidden by the hand or read otherwise before it confirmed, it was laid by the first
    reading (a King High $15 High payout read for two frames as the hand left it, hidden again, read $20 with doubt
    for five frames as it reached into the wager's spot, then $15 from ten frames after it was first read: dated so,
    it came after the Suit payout laid after it; a 3 Card Monster $20 Play payout read whole in single frames between
    the hand's passes from 567, confirmed at $10 at 580 with half of it under the hand, then $20: dated from 580, it
    came after the Ante's, read whole from 573). Else the frame it confirmed from (`settled_at`)."""
    start = ws.settled_at or 0
    p = ws.payout
    if p is None:
        return start
    full = next((f for f, v in p.steps if v == p.peak), p.start)
    first = min((r for f in (p.start, full) if (r := p.first_read.get(f)) is not None), default=start)
    return min(first, start)
