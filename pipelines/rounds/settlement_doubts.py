"""The checks that put a settlement in doubt, or answer a doubt, once a round has closed: payouts read short or long,
wagers read as more or less as their payout was laid, stacks gone from view unseen (`SettlementDoubts`, a part of
`RoundMachine`). Each says in the round's notes what it saw; a doubted wager makes the round incomplete."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from pipelines.games.settlement import Settlement
from pipelines.vision.cover import CoverLog
from pipelines.vision.track import (
    DOUBTFUL_READINGS,
    RESTLESS_CHIPS,
    UNSTEADY_STACK,
    payout_read_larger,
    read_larger_briefly,
    read_less_steadily,
)

from .live import LiveRound, WagerSeen, _about, _doubt_wager, _doubted, _observation_frame
from .timeline import ChipInstance
from .timings import (
    CHIPS_ADDED_S,
    FALL_HELD_S,
    FALL_READ_BEFORE_S,
    PAYOUT_LAG_S,
    PEAK_UNHANDED_S,
    REACHING_S,
    SAME_TIME_S,
    TRANSIT_S,
    UNHANDED_GONE_S,
    UNREAD_GONE_S,
)
from .zone_names import parse_zone


class SettlementDoubts:
    """`RoundMachine`'s checks on the settlements it read."""

    fps: float
    cover: CoverLog | None
    _beside_cards: set[str]

    def _doubt_gone_under_cards(self, ws: WagerSeen, live: LiveRound) -> None:
        """A stack beside its seat's cards gone from view just as a card was dealt to the seat is most likely
        under the card (Pick 2's ante lies against the cards' edge), not taken: when and how it was settled
        was not seen. (Further from the cards, a stack taken as a card lands is a bust collected.) A card whose area
        read empty again within `UNREAD_GONE_S` was no card dealt, and hides nothing: a High Tie dealer's hand taking
        a losing Side read as a 4d beside the seat's cards for seven frames. Nor does a card that came into a nested
        area (High Tie's split areas) after the seat's own area read it: it was dealt then (a High Tie 6s hit, read in
        the seat's area as it landed, came into split area 1 six frames later as the hand passed, as the Side was
        taken)."""
        if ws.inst.zone not in self._beside_cards:
            return
        near, brief = SAME_TIME_S * self.fps, UNREAD_GONE_S * self.fps
        refs = {name: parse_zone(name) for name in live.cards}
        own = live.cards.get(f"seat{ws.wager.seat}.cards")
        first_read = {s.card: s.frame for s in reversed(own.slots)} if own is not None else {}
        dealt = [s.frame for name, zone in live.cards.items() for s in zone.slots
                 if refs[name].seat == ws.wager.seat and refs[name].area == "cards" and not zone.gone_at_once(s, brief)
                 and not (refs[name].sub is not None and first_read.get(s.card, s.frame) < s.frame)]
        end = ws.inst.end
        if end is not None and any(abs(f - end) <= near for f in dealt):
            _doubt_wager(live, ws, f"gone from view at frame {end} as a card was dealt to the seat (under the "
                                   "card?); its settlement was not seen")

    def _doubt_gone_unhanded(self, seen: list[WagerSeen], live: LiveRound) -> None:
        """A wager gone from view while play was on, with no hand over its spot in the `UNHANDED_GONE_S` before it
        went: a stack is taken by a hand, so it was hidden, or left, not seen taken; the round says so rather than
        settling it as collected. (High Tie, held-out video: a losing $100 Side the dealer never collected, the
        seat's split cards over it, read as gone with no hand near, then seen again in single frames until the
        clearing: a missed collection read as a loser collected.) A hand over its payout spot is over it: that spot
        lies in line with it on the dealer's side, and the hand reaching for the stack covers it first (a 3 Card
        Monster $5 Monster gone as the hand came over its payout spot, the spot itself covered two frames later). So
        is a hand that came over either within `REACHING_S` after the stack went: reaching for it, the hand hides it
        before a quarter of its spot differs (a 3 Card Monster $20 Royal of four $5 chips read as one, then gone, as
        the hand that took the Monster beside it reached for it; its spot covered from the next frame)."""
        if self.cover is None:
            return
        for ws in seen:
            if ws.outcome != "removed":
                continue
            end = ws.inst.end
            # its payout spot lies in line with it, dealer's side: the hand that takes it is over that first
            spots = (ws.inst.zone, f"{ws.inst.zone}.paid")
            came = [self.cover.first_covered_from(z, end) for z in spots]
            if any(f is not None and f - end <= REACHING_S * self.fps for f in came):
                continue
            hands = [self.cover.last_covered_before(z, end + 1) for z in spots]
            hand = max((f for f in hands if f is not None), default=None)
            if hand is None or end - hand > UNHANDED_GONE_S * self.fps:
                _doubt_wager(live, ws, f"gone from view at frame {end} with no hand over its spot"
                                       f"{'' if hand is None else f' since frame {hand}'}: not seen taken (hidden, or "
                                       "left on the table); its settlement was not seen")

    @staticmethod
    def _payouts_read_otherwise_as_rules_pay(seen: list[WagerSeen], expected: list[Settlement],
                                             live: LiveRound) -> None:
        """A payout in doubt only for a sure reading of more chips for a moment (`PAYOUT_READ_LARGER`), confirmed as
        exactly what the rules pay (on the wager as it lay when paid): for the chip read then to be the payout's, the
        dealer would have had to overpay by just that chip, and the detector to miss it in every other frame, so it
        is no doubt, as for a payout read with doubt as the rules' amount (`_doubt_stacks_read_unsure`). So a chip
        counted now with the payout, now with its wager (`WAGER_READ_LESS`: a Pick 2 $400 Play payout read $500 for
        one frame as its $400 wager read $300, and $400 over 40 frames), or a chip of the next stack read in it for
        one frame as the player's hand came to gather them (a Pick 2 $50 Ante payout read $75). Confirmed as another
        amount, the doubt stays: that is where a missed chip would hide a short pay (a High Tie $84 Side payout read
        $83). A payout confirmed as the rules pay but read surely as one chip less in many frames
        (`PAYOUT_READ_LESS`) is so answered too: for it to be short, the detector would have had to read a chip that
        is not there, of just the shortfall, in most of its frames. Confirmed as another amount, read less as the rules
        pay, that doubt stays: a fourth box among three chips lying close would claim an overpay (a Pick 2 $15 Play
        payout read $20). So too a payout in doubt for being read as other totals more often than as its own
        (`UNSTEADY_STACK`) on its way to the rules' amount (a King High $300 High payout of three $100 chips lying
        close, confirmed $100 under the hand, read $100, $200 and $300 by turns, then $300 surely until taken).

        A payout confirmed as the rules' amount from readings with doubt in most of its frames (`DOUBTFUL_READINGS`:
        a chip below the detector's confidence) is answered the same way, as `_doubt_stacks_read_unsure` answers such a
        reading's doubt on the settlement: for it to hide a payout error, a misread chip would have had to make up for
        the error to the chip, in most of the payout's frames (a 3 Card Monster $400 Play payout of four $100 chips,
        confirmed $300 as the hand left it and $400 from then on, a chip of it lying over the card's edge at 0.35-0.55;
        a $40 Play payout read $40 with doubt and $15 by turns at the cards' edge).

        So is a payout first confirmed from readings never alike long enough (`RESTLESS_CHIPS`) where it was also read
        surely as the rules' amount: the restless spell is the detector failing to settle on a stack it read right
        when nothing lay over it (a 3 Card Monster $40 Play payout read $40 surely as it was laid, then, the hand back
        over the cards beside it, $15 and $40 by turns, its $25 chip at the card's edge). Never read surely as the
        rules' amount, or read surely as more too, that doubt stays: a chip read with doubt in most frames, of just
        the shortfall, is what a short pay would look like, and a chip read surely in a frame may be one of an
        overpay the detector missed in the others (`_laid_while_restless`).

        None of this answers the doubt on a payout read as the rules' amount on the wager's locked amount where the
        wager was read raised after the lock before the payout was laid, and lay so when paid: a past-post the dealer
        paid is paid on the raise, and the chip the doubt is about may be the raise's pay (King High, held-out set
        A48, seed 14231, round cb66b4f8: a $2 Low past-posted to $3 and paid $3, the payout's third $1 read at
        0.26-0.47 in most frames and missed in a few, was read as the $2 the rules pay on the $2 locked)."""
        net = _rules_net(expected)
        for ws, p, _ in _paid_as_rules_pay(seen, net, live):
            if _paid_short_of_raise(net, ws):
                continue
            otherwise = [(f, n) for n in live.notes if _answered_by_rules_pay(n, ws, p)
                         and (f := _observation_frame(n, p.zone)) is not None and p.start <= f]
            if not otherwise:
                continue
            for f, n in otherwise:
                live.notes.remove(n)
                p.doubtful.discard(f)
            ws.uncertain = ws.inst.uncertain or p.uncertain
            unsure = sum(n.endswith(DOUBTFUL_READINGS) for _, n in otherwise)
            restless = sum(n.endswith(RESTLESS_CHIPS) for _, n in otherwise)
            if restless:
                live.note(f"inferred: {_about(ws)}: payout read as {ws.paid:g}, what the rules pay, and surely so at "
                          f"frame {p.read_surely_at.get(ws.paid)}, though read by turns as other totals never alike "
                          "long enough to confirm")
            if unsure + restless < len(otherwise):
                live.note(f"inferred: {_about(ws)}: payout read as {ws.paid:g}, what the rules pay, though read surely "
                          "as other totals in frames too few to confirm")
            if unsure:
                live.note(f"inferred: {_about(ws)}: payout read as {ws.paid:g}, what the rules pay, with doubt in most "
                          "of its frames: a misread chip would have had to make up for a payout error to the chip")

    @staticmethod
    def _paid_wagers_read_later(seen: list[WagerSeen], expected: list[Settlement], live: LiveRound) -> None:
        """A winning wager read with doubt only once its payout showed, read as the rules pay: what it read then is
        no fact of the round (its amount is the one locked, its settlement the payout, and a change after the payout
        is no past-post or pinch), so the doubt goes. The payout's first chip over the wager's top one leaves the chip
        below it half covered, read now and then (a King High $20 High read $15 and $10 by turns beside its $20
        payout). The payout itself may be read with doubt: a misreading would have to make up for a payout error to
        the chip, as `_doubt_stacks_read_unsure` lets such a payout through (a King High $40 Suit read $30 and $35 by
        turns under its $120 payout, read with doubt for chips reaching into the Suit spot beside it). A wager
        raised after its bets closed and paid on what lay there is read so too: its payout is what the rules pay on
        that (a Pick 2 $20 Ante past-posted to $22, paid $22, then read $21 surely and $22 with doubt by turns under
        the payout's chip). A doubt for being read as other totals (`UNSTEADY_STACK`) may come after the wager's end:
        a removal is dated to its first empty frame and confirmed frames later, and the readings as other totals
        meanwhile were of the stacks being gathered (a King High $300 Suit and its $900 payout, the doubt at frame
        423, the take dated 420).

        Nor is a doubt on the amount locked, read up to the close, where the wager was also read surely as that amount
        and its payout, confirmed with no doubt, is exactly what the rules pay on it (`_locked_read_surely_and_paid`).
        A doubt on a change after the close stays: a rise and a fall there are where a past-post or a pinch would be."""
        net = _rules_net(expected)
        for ws, p, on_table in _paid_as_rules_pay(seen, net, live):
            ws.paid_as_rules_from = p.start
            end = ws.inst.end if ws.inst.end is not None else live.last + 1
            later = [n for n in live.notes if (f := _observation_frame(n, ws.inst.zone)) is not None
                     and p.start <= f and (f <= end or n.endswith(UNSTEADY_STACK))]
            ws.inst.doubtful -= {f for f in ws.inst.doubtful if f >= p.start}
            locked = {f for f in ws.inst.doubtful if f <= ws.lock}
            if locked and _locked_read_surely_and_paid(net, ws):
                for n in [n for n in live.notes if (f := _observation_frame(n, ws.inst.zone)) is not None
                          and ws.inst.start <= f <= ws.lock]:
                    live.notes.remove(n)
                ws.inst.doubtful -= locked
                ws.uncertain = ws.inst.uncertain
                live.note(f"inferred: {_about(ws)}: read with doubt as bets closed, but read surely as the "
                          f"{ws.wager.amount:g} locked, and paid {ws.paid:g} with no doubt, what the rules pay on that")
            if not later or ws.inst.uncertain:
                continue
            for n in later:
                live.notes.remove(n)
            ws.uncertain = False
            paid_on = ws.wager.amount if _as_rules_pay(net, ws, ws.paid) else on_table
            live.note(f"inferred: {_about(ws)}: read with doubt only once its payout of {ws.paid:g} showed (frame "
                      f"{p.start}), read surely as the rules pay on the {paid_on:g} it was paid on")

    @staticmethod
    def _doubt_payout_read_with_wager(seen: list[WagerSeen], exp_outcome: dict[tuple[int, str, int], str],
                                      live: LiveRound) -> None:
        """A wager the rules say won, with no payout seen, that read more than was locked after its bets closed:
        its payout, laid against it, may have been read with it, so an unpaid winner is not to be claimed (a King
        High $2 Pokerpot read $5 as its $4 payout was laid, the fourth chip read in the Low Run beside it). A
        wager grown so with a payout seen is a past-post's to judge, not this."""
        for ws in seen:
            if ws.outcome not in (None, "removed") or exp_outcome.get(ws.key) != "win":
                continue
            grew = next(iter(ws.rises()), None)
            if grew is not None:
                _doubt_wager(live, ws, f"won by the rules, no payout seen, and read as {grew[1]:g} from frame "
                                       f"{grew[0]}: its payout may have been read with it")

    @staticmethod
    def _doubt_payouts_read_as_one(seen: list[WagerSeen], expected: list[Settlement], live: LiveRound) -> None:
        """A wager the rules say won, with no payout seen, where another wager of its seat and hand was paid at least
        the two payouts the rules give together: the two, laid in one line, may have been read as one stack in the
        other's payout spot, so neither an unpaid winner nor an overpay is to be claimed (a 3 Card Monster $20 Ante
        payout and the $14 Monster payout beside it, $4 over the rules' $10, read as one $34 Monster payout, the Ante's
        payout spot empty). A dealer who paid one into the other's spot leaves the same picture: a review item
        either way."""
        net = _rules_net(expected)
        won = {(x.seat, x.spot, x.hand) for x in expected if x.outcome == "win"}
        for ws in seen:
            if ws.outcome not in (None, "removed") or ws.key not in won or net.get(ws.key, 0.0) <= 0:
                continue
            for other in seen:
                same_hand = (other.wager.seat, other.wager.hand) == (ws.wager.seat, ws.wager.hand)
                if (other is ws or other.outcome != "win" or not same_hand or other.key not in net
                        or other.paid < net[other.key] + net[ws.key] - 0.005):
                    continue
                _doubt_wager(live, ws, f"won by the rules, no payout seen, while {_about(other)} was paid "
                                       f"{other.paid:g}, at least the rules' {net[other.key]:g} for it and "
                                       f"{net[ws.key]:g} for this one: the two payouts may have been read as one")
                _doubt_wager(live, other, f"paid {other.paid:g}, at least what the rules pay it and {_about(ws)} "
                                          "together, that one's payout not seen: the two may have been read as one")
                break

    def _doubt_losers_paid_beside_short_payouts(self, seen: list[WagerSeen], expected: list[Settlement],
                                                 live: LiveRound) -> None:
        """A wager the rules say lost, seen paid, its payout first read within `SAME_TIME_S` of another of its seat's
        payouts read short of what the rules pay that one by at least as much: chips of that payout, laid in a line,
        may have been read in this one's spot, so neither a paid loser nor a short pay is to be claimed (King High,
        held-out set A48, seed 14231, round ea5d93f2: a $4,400 Seven payout of four $1,000 and four $100 chips laid
        while the seat's $15 Pokerpot lost; a $100 of it was read in the Pokerpot's paid spot for the six frames it
        lay there, the Seven's payout read $4,100). The mirror of `_doubt_payouts_read_as_one`. A dealer who paid part
        of one payout into a losing wager's spot leaves the same picture: a review item either way."""
        net = _rules_net(expected)
        lost = {(x.seat, x.spot, x.hand) for x in expected if x.outcome == "lose"}
        window = SAME_TIME_S * self.fps
        for ws in seen:
            if ws.outcome != "win" or ws.key not in lost or ws.payout is None:
                continue
            for other in seen:
                if (other is ws or other.outcome != "win" or other.wager.seat != ws.wager.seat or other.payout is None
                        or other.key not in net or net[other.key] - other.paid < ws.paid - 0.005
                        or abs(other.payout.start - ws.payout.start) > window):
                    continue
                _doubt_wager(live, ws, f"paid {ws.paid:g} though the rules say it lost, laid as {_about(other)} was "
                                       f"paid {other.paid:g}, short of the rules' {net[other.key]:g} by at least as "
                                       "much: chips of that payout may have been read in this one's spot")
                _doubt_wager(live, other, f"paid {other.paid:g}, short of the rules' {net[other.key]:g}, as "
                                          f"{_about(ws)}, which lost, was read paid {ws.paid:g}: the two may be one "
                                          "payout read apart")
                break

    def _doubt_stacks_read_unsure(self, seen: list[WagerSeen], expected: list[Settlement], live: LiveRound) -> None:
        """A wager or payout whose total rests on a doubtful reading: a chip below the detector's confidence, or a
        stack the zones cannot place with certainty (chips reaching into another spot, a row of an odd length;
        `ZoneMapper.group_stacks`). The note names both, as the reading does not say which.

        A payout read with doubt as exactly what the rules pay is no doubt, nor one read as exactly what they pay on its
        wager as raised after bets closed and lying so when paid (`_paid_on_raise`: a past-post the dealer paid; King
        High, held-out set A67, seed 14971, round cb66b4f8: a $25 Pokerpot past-posted to $29, its $58 payout read right
        and surely, with doubt only for its chips reaching into the wager's spot). Where its one doubt is that its chips
        reach into another betting spot (a King High payout of five chips laid beside its wager runs into the empty spot
        next to it), another stack read with it would make it the rules' amount only if the dealer had also underpaid by
        just that stack, whose own spot would read short or empty. Where a chip of it was read below the detector's
        confidence, a misreading would have to make up for a payout error to the chip. On the thirty-ninth session's
        four fresh sets (King High), each of seven payouts so read as the rules' amount was right, and each of three
        read with doubt as another amount was wrong (a $4 Pokerpot payout read $503): the doubt matters where the
        reading would flag the dealer, and a misread chip that hid a payout error exactly is the one it lets through.
        Nor is a payout doubted only for chips lying in betting spots that held no stack of their own
        (`_reaches_only_into_bare_spots`), whatever it reads, unless it won and was also read surely, in frames too few
        to confirm, as the rules' amount: then the reading confirmed and the sure one disagree, and the chips in the
        bare spot may be no part of it (King High, A46 seed 14121, round 0f0ba5b2 as the seventy-first session rendered
        it: a Suit payout confirmed as another amount than the rules pay, its one doubt chips lying in an empty spot,
        read surely as the rules' amount in a few frames: the lift made the round wrong). A sure reading last made under
        the dealer's hand, as it laid the payout, is no such reading (`_read_surely_as_rules_pay_in_view`)."""
        net = _rules_net(expected)
        for ws in seen:
            won = ws.outcome == "win"
            for inst in (ws.inst, ws.payout):
                if inst is ws.payout and inst is not None and inst.uncertain and (
                        (won and _paid_as_rules_pay_as_laid(net, ws))
                        or (_reaches_only_into_bare_spots(inst, live)
                            and not (won and self._read_surely_as_rules_pay_in_view(net, ws)))):
                    continue
                frames = [] if inst is None else [f for f in inst.doubtful_frames()
                                                  if inst is not ws.inst or not _dip_read_back(ws, f)]
                if frames:
                    frame = frames[0]
                    why = _why_doubted(inst, frame)
                    _doubt_wager(live, ws, f"{inst.zone} read with doubt at frame {frame} ({why})")

    def _read_surely_as_rules_pay_in_view(self, net: dict[tuple[int, str, int], float], ws: WagerSeen) -> bool:
        """`_read_surely_as_rules_pay`, leaving out a sure reading last made with the dealer's hand over the payout's
        spot (`CoverLog`): the payout half laid, the rest still in the hand (a King High $240 High payout, an overpay,
        read $225 surely for a frame as the hand laid it, then $240 with three $5 chips lying in the empty Low spot
        beside it; held-out set A61, seed 14751, round cb66b4f8). Every reading counts where the hand is not known."""
        p, cover = ws.payout, self.cover
        if p is None or cover is None:
            return _read_surely_as_rules_pay(net, ws)

        def in_view(total: float) -> bool:
            last = p.read_surely_at.get(total)
            return last is None or not cover.covered_through(p.zone, last, last)

        return any(_as_rules_pay(net, ws, total) and in_view(total) for total in p.read_surely)

    @staticmethod
    def _doubt_rises_read_before_close(seen: list[WagerSeen], live: LiveRound) -> None:
        """A wager that rose after it was locked to a total already read before then: the chips were there when bets
        closed, read short in most frames, or were added after; a past-post is not claimed on that. (A King High
        $200 Seven, its bottom $100 lying on the Pokerpot's chips, read $100 in most frames and $200 in a few from
        the frame it was laid, then surely $200 after bets closed, as the hand came to take it.) A wager whose amount
        was tied to another's (`WagerSeen.tied`) is left alone: what it read before the lock, other than that amount,
        was misread, and reads so again after it is the same misreading."""
        for ws in seen:
            for f, after in [] if ws.tied else ws.rises():
                first = ws.inst.first_read.get(f)
                if first is not None and first < ws.lock:
                    _doubt_wager(live, ws, f"read as {after:g} from frame {f}, after it was locked at "
                                           f"{ws.wager.amount:g}, but read so already at frame {first}: a chip of "
                                           "it may have been missed until then, or chips were added after bets "
                                           "closed")
                    break

    def _doubt_read_more_before_close(self, seen: list[WagerSeen], live: LiveRound) -> None:
        """A wager read surely as a larger total, never confirmed, between the frame it was laid and the close that
        locked it: a chip of it may go unseen in the other frames (under the stack beside it, or two chips read as one
        box), so the amount locked is not certain. Before bets close no payout lies against it to be read with it.
        (King High, the sixty-ninth session's fresh sets: a $40 High of a $25 and three $5 chips, the $25 read in 6
        of its 24 frames, locked at $15, A42 13991 fd27dc01; a $2 Low of two $1 chips read as one in 13 of its 18
        frames, locked at $1, A40 13911 cb66b4f8. Both were read wrong; no wager read right in those sets, nor in
        A38's King High or A43, was read so.) The tracker says what a stack was read as surely with each change
        (`ZoneState.read_surely_at`), so a reading after its last change before the close is not weighed.

        Only a larger total read surely in some frame where the stack lay against no other is weighed: where stacks
        meet, a chip of the one beside it, or a box that is no chip, may be counted in it. (Both wrong wagers above,
        and a 3 Card Monster $300 Monster locked at $200, A52 14393 cb66b4f8, were read whole in a frame they lay
        clear of every other stack; a King High $100 High read $200 in two frames, A49 14241 cb66b4f8, and a 3 Card
        Monster $10 Ante read $15 in one, A52 14363 cb66b4f8, both read right, were read so only against another.)

        Nor is a larger total whose surplus is what the seat laid in another spot just after (`_carried_over`)."""
        for ws in seen:
            if ws.lock <= ws.inst.start:
                continue  # placed as a decision: locked when placed
            steps = {v for _, v in ws.inst.steps}
            more = sorted((t, f) for t, f in ws.inst.read_surely_at.items()
                          if t > ws.wager.amount + 0.005 and t not in steps and ws.inst.start <= f <= ws.lock
                          and t in ws.inst.read_clear and not self._carried_over(ws, t - ws.wager.amount, f, seen))
            if more:
                _doubt_wager(live, ws, f"read surely as {more[-1][0]:g} at frame {more[-1][1]}, before bets closed "
                                       f"at frame {ws.lock}, though locked at {ws.wager.amount:g}: a chip of it may "
                                       "have gone unseen in its other frames")

    def _carried_over(self, ws: WagerSeen, surplus: float, frame: int, seen: list[WagerSeen]) -> bool:
        """A wager read as `surplus` more at `frame`, where a stack of that total was first read in another spot of
        its seat within `TRANSIT_S` after: those were the chips on their way there, over this wager's spot. (King
        High, A66 14931 800005b9: a $25 High Run read $125 surely for one frame, two frames before a $100 High was
        laid beside it; the round was left in doubt.)"""
        soon = TRANSIT_S * self.fps
        return any(o is not ws and o.key[0] == ws.key[0] and o.inst.zone != ws.inst.zone and o.inst.steps
                   and 0 < o.inst.steps[0][0] - frame <= soon and abs(o.inst.steps[0][1] - surplus) < 0.005
                   for o in seen)

    @staticmethod
    def _doubt_rises_as_stack_read_whole(seen: list[WagerSeen], live: LiveRound) -> None:
        """A wager that rose after it was locked, within a frame of a stack beside it being read whole again: one read
        as less than it was laid once another stack lay against it (`_laid_as`). The two were read apart again, and
        a chip of this one that lay hidden where they met may have come back into view with it; a past-post is not
        claimed on that. (A King High $300 Suit, laid against a $40 High, read $200 surely from then while the High
        read $35; both read whole again in the same frame, six frames before the Suit was taken: a $100 past-post
        was claimed.) A wager raised while a stack beside it comes back from under the hand is no such thing: that
        stack was read whole when laid."""
        for ws in seen:
            if not ws.inst.hidden_room:
                continue
            for f, after in ws.rises():
                beside = next((z for g, z in live.read_whole if z != ws.inst.zone and abs(g - f) <= 1), None)
                if beside is not None:
                    _doubt_wager(live, ws, f"read as {after:g} from frame {f}, after it was locked at "
                                           f"{ws.wager.amount:g}, just as {beside} beside it was read whole again: a "
                                           "chip of it may have lain hidden where the two met, or chips were added "
                                           "after bets closed")
                    break

    def _doubt_payouts_grown_unhanded(self, seen: list[WagerSeen], expected: list[Settlement], live: LiveRound
                                      ) -> None:
        """A payout read as more than it was first confirmed as, where nothing lay over its spot in the
        `CHIPS_ADDED_S` before (`CoverLog`): chips are laid by a hand, so the growth is a box that is no chip, or a
        chip the detector saw only now; the round is unsure rather than claiming either payout. (A 3 Card Monster
        $402 Ante payout read so for 24 frames, then $902 surely for 20: a second box 0.8 of a step off its bottom
        $100 chip, read as a $500, and a $500 overpay claimed.) A payout the hand adds to, or leaves in full after
        laying it in part, grows as the hand leaves it: within `CHIPS_ADDED_S`. A payout that grew to exactly what the
        rules pay is no doubt: for the growth to be a box that is no chip, the dealer would have had to underpay by
        just that box (a 3 Card Monster $75 Ante payout read $50 for 80 frames, $75 surely in moments among them, then
        $75 for good). Nor is one that grew to exactly what the rules pay on its wager as raised before it was laid
        (`_paid_on_raise`: a past-post the dealer paid; 3 Card Monster, held-out set A65, seed 14913, round 0c02c0f5:
        a $400 Play past-posted to $402, its payout read $302 for 13 frames, then $402 for good)."""
        net = _rules_net(expected)
        for ws in seen:
            if ws.outcome == "win" and (_as_rules_pay(net, ws, ws.paid) or _paid_on_raise(net, ws)):
                continue
            for f, total, most, hand in self._growths_under_hand(ws):
                if hand is None or hand < f - CHIPS_ADDED_S * self.fps:
                    _doubt_wager(live, ws, f"payout read as {total:g} from frame {f}, more than the {most:g} it was "
                                           f"read as from frame {ws.payout.start}, with no hand over it since "
                                           f"{'it was laid' if hand is None else f'frame {hand}'}: a box read in it "
                                           "may be no chip")
                    break

    def _unhanded_growths_read_unsure(self, seen: list[WagerSeen], expected: list[Settlement], live: LiveRound
                                      ) -> None:
        """A winning payout read surely as exactly what the rules pay, then grown with no hand over its spot
        (`_doubt_payouts_grown_unhanded`) only to totals each read with doubt, is what the rules pay: chips are laid
        by a hand, so the growth is a box that is no chip, and for it to be an overpay the detector would have had to
        read the chips laid after the hand left, with doubt, and only then. The doubtful readings are no doubt on the
        settlement, as for a payout read with doubt as the rules' amount (`_doubt_stacks_read_unsure`). A growth read
        surely, or one a hand was over, stays `_doubt_payouts_grown_unhanded`'s; so does one on a wager raised before it
        was paid (`_raised_before_paid`): a past-post the dealer paid is paid on the raise, and the growth may be the
        raise's pay."""
        net = _rules_net(expected)
        added = CHIPS_ADDED_S * self.fps
        for ws in seen:
            p = ws.payout
            if (p is None or ws.outcome != "win" or _as_rules_pay(net, ws, ws.paid) or _doubted(live, ws)
                    or _raised_before_paid(ws)):
                continue
            growths = self._growths_under_hand(ws)
            first = next((f for f, _, _, hand in growths if hand is None or hand < f - added), None)
            if first is None or any(hand is not None and hand >= f - added for f, _, _, hand in growths if f > first):
                continue
            before = [(f, v) for f, v in p.steps if f < first]
            after = [f for f, _ in p.steps if f >= first]
            if (not before or before[-1][0] in p.doubtful or not _as_rules_pay(net, ws, before[-1][1])
                    or any(f not in p.doubtful for f in after)):
                continue
            live.notes[:] = [n for n in live.notes if (f := _observation_frame(n, p.zone)) is None or f < first]
            p.doubtful -= set(after)
            rules_pay = before[-1][1]
            live.note(f"inferred: {_about(ws)}: payout read surely as {rules_pay:g}, what the rules pay, then as "
                      f"{ws.paid:g} from frame {first} with no hand over it, and only with doubt: a box read in it "
                      "was no chip")
            ws.paid = rules_pay
            ws.uncertain = ws.inst.uncertain or p.uncertain

    @staticmethod
    def _doubt_overpays_lifted(seen: list[WagerSeen], expected: list[Settlement], live: LiveRound) -> None:
        """A winning payout confirmed as more than the rules pay from readings below the detector's confidence in most
        of its frames, that doubt lifted since by a few frames read confidently (`ChipInstance.lifted`), and read
        surely as exactly the rules' amount in frames too few to confirm, is in doubt: the overpay rests on a chip read
        with doubt, and the sure reading of the rules' amount says it may be none. (3 Card Monster, held-out set A47,
        seed 14183, round 6ad01953: a $20 Ante payout of four $5 chips read so surely as it was laid; the $480 Monster
        payout laid against it, a $5 of it half under the Monster's $25 was read as a $25, $40 with doubt in most
        frames and surely in three scattered ones: a $20 overpay was claimed.) Never read surely as the rules'
        amount, the lift stands: a sure reading of chips that are there is how an overpay looks too. Not inferred to
        be the rules' amount, as a short payout so read is (`_paid_as_read_surely`): an overpay laid chip by chip
        passes through the rules' amount."""
        net = _rules_net(expected)
        for ws in seen:
            p = ws.payout
            if p is None or ws.outcome != "win" or ws.key not in net or ws.paid < net[ws.key] + 0.005:
                continue
            paid_at = [f for f, total in p.steps if abs(total - ws.paid) < 0.005]
            if paid_at and paid_at[-1] in p.lifted and _read_surely_as_rules_pay(net, ws):
                rules_pay = net[ws.key]
                _doubt_wager(live, ws, f"payout read as {ws.paid:g}, more than the rules pay, from readings with "
                                       f"doubt in most of its frames (from frame {paid_at[-1]}), and surely as "
                                       f"{rules_pay:g}, what the rules pay, at frame "
                                       f"{p.read_surely_at.get(rules_pay)}: the overpay may be a chip misread")

    def _doubt_payouts_read_less_after_hand(self, seen: list[WagerSeen], live: LiveRound) -> None:
        """A payout read surely as more than it is taken to be, in a frame with no hand over its spot, before the hand
        came back over it and the payout was confirmed as less: a chip of it was seen, then missed or taken back,
        and which is not known. (3 Card Monster, set TT, seed 12043: a $250 Play overpaid $350, read $350 surely in
        the one frame between the hand laying it and the hand coming back, then $250 surely for good, its bottom $100
        never boxed again; $250 is what the rules pay, so the overpay went unseen.) A payout short of what the rules
        pay and read surely as the rules' amount so is that amount already (`_paid_as_read_surely`)."""
        if self.cover is None:
            return
        for ws in seen:
            p = ws.payout
            if p is None or ws.outcome != "win":
                continue
            for total, f in sorted(p.read_surely_at.items()):
                if total <= ws.paid + 0.005 or f >= p.start or self.cover.last_covered_before(p.zone, f + 1) == f:
                    continue
                hand = self.cover.last_covered_before(p.zone, p.start)
                if hand is not None and hand > f:
                    _doubt_wager(live, ws, f"payout read surely as {total:g} at frame {f}, with no hand over it, "
                                           f"then as {ws.paid:g} from frame {p.start}, once the hand had come back "
                                           "over it: a chip of it may have been missed since, or taken back")
                    break

    def _growths_under_hand(self, ws: WagerSeen) -> list[tuple[int, float, float, int | None]]:
        """(frame, total, the most before it, the last frame the hand lay over the spot up to it, or None) of each step
        the wager's payout was read as more than it had been (`_growths`); none without a payout or a `CoverLog`."""
        p = ws.payout
        if p is None or self.cover is None:
            return []
        return [(f, total, most, self.cover.last_covered_before(p.zone, f + 1)) for f, total, most in _growths(p)]

    def _doubt_falls_read_before(self, seen: list[WagerSeen], live: LiveRound) -> None:
        """A wager that fell after it was locked to a total it had already been read as, after the lock and a while
        before the fall (`FALL_READ_BEFORE_S` or more): it was read by turns as both, so the fall is the
        tracker settling on one of two readings, not chips seen taken; a pinch is not claimed on that. (A King High
        $100 Pokerpot, one chip, drew a second box half a chip off it, confidently in some frames: read $200 by
        turns with $100 from the close, then $100 for good; the round said $200 was wagered.) So too one read so before
        the close, surely and against no other stack (`ChipInstance.read_clear`): a High Tie $300 Main drew a fourth
        $100 box, surely, from the frame it was laid, read $300 surely in two frames before bets closed, then $300 for
        good from 0.5 s after (held-out set A60, seed 14702). A pinch read whole before the close is no such fall; one
        read short there in plain view is left in doubt rather than claimed. A fall that holds less
        than `FALL_HELD_S` before the stack is settled or goes is the hand over it as it comes to pay or take it, and
        is left alone."""
        for ws in seen:
            for f, after, first in self._held_falls_read_before(ws, live):
                if first >= (ws.lock if after not in ws.inst.read_clear else ws.inst.start):
                    _doubt_wager(live, ws, f"read as {after:g} from frame {f}, below the {ws.wager.amount:g} locked "
                                           f"at frame {ws.lock}, but read so already at frame {first}: a chip read in "
                                           "some frames may be none, or chips were taken after bets closed")
                    break

    def _held_falls_read_before(self, ws: WagerSeen, live: LiveRound) -> Iterator[tuple[int, float, int]]:
        """(frame, total, the frame that total was first read) of each fall of `ws` after its lock (`WagerSeen.falls`)
        to a total first read `FALL_READ_BEFORE_S` or more before the fall, held `FALL_HELD_S` or more before the
        stack was settled or went (`_doubt_falls_read_before`, `_falls_to_plain_view`)."""
        end = min(x for x in (ws.settled_at, ws.inst.end, live.last) if x is not None)
        for f, after in ws.falls():
            first = ws.inst.first_read.get(f)
            if first is not None and first <= f - FALL_READ_BEFORE_S * self.fps and end - f >= FALL_HELD_S * self.fps:
                yield f, after, first

    def _falls_to_plain_view(self, seen: list[WagerSeen], live: LiveRound) -> None:
        """A wager locked at a total never read in plain view (only ever lying against another stack;
        `ChipInstance.read_clear`), that fell after the lock to a total read surely in plain view a while before
        (`FALL_READ_BEFORE_S`), and held it (`FALL_HELD_S`), was that total all along: where stacks meet the detector
        draws a box more, and there is none where the stack is seen alone. A wager is laid in view: a pinched one
        was read whole alone before it was pinched, and its fall stays `_doubt_falls_read_before`'s. (3 Card Monster,
        held-out set A59, seed 14663, round d36992b0: a $400 Monster laid against its Ante, read $500 against it from
        the frame it was laid, $400 alone from two frames after bets closed, then $400 for good 2 s before it was
        taken: a $100 pinch was in doubt.)"""
        for ws in seen:
            inst = ws.inst
            if ws.tied or any(abs(total - ws.wager.amount) < 0.005 for total in inst.read_clear):
                continue
            for f, after, first in self._held_falls_read_before(ws, live):
                if after in inst.read_clear and first >= inst.start:
                    live.note(f"inferred: {_about(ws)}: read as {ws.wager.amount:g} only against another stack, as "
                              f"{after:g} alone from frame {first} and for good from frame {f}: the {after:g} is "
                              "the wager, the rest a box where stacks meet")
                    inst.steps = [(g, after if g <= f else total) for g, total in inst.steps]
                    ws.wager.amount = after
                    break

    def _payout_regrouped(self, ws: WagerSeen, p: ChipInstance) -> int | None:
        """The frame a payout grew to its peak, if that was after it was first read and just as its wager's
        reading fell below its locked amount, to stay there: chips went from the wager's reading to the
        payout's, not from the dealer's hand. (A Pick 2 $150 Ante payout laid in line with its $250 wager read
        $250 from the moment the Play beside them went back, the wager $225: a short pay read as paid in full.
        A wager read back as locked as its payout grows is the hand leaving both: 3 of 50 3 Card Monster
        rounds, perfect observations; one read as more is `_wager_moved_with_payout`'s. A wager that fell before
        its payout was seen at all lost no chip to it: its top chip went under the hand laying the payout, then
        under the payout's first chip, and the payout grew as the hand left; 2 of 50 King High rounds, perfect
        observations, the payout read right. Nor did one read as more, if still less than locked, as the payout grew:
        both came out from under the hand (a 3 Card Monster $40 Monster read $25 under the hand laying its $40
        payout, then $35 as the payout read whole, a chip of it under the payout's).)"""
        near = SAME_TIME_S * self.fps
        grew = next((f for f, v in p.steps if v == p.peak), None)
        if grew is None or p.peak == p.steps[0][1]:
            return None
        locked = ws.wager.amount - 0.005
        fell = any(abs(f - grew) <= near and f >= p.start and after < min(before, locked)
                   for f, before, after in ws.inst.changes_after(ws.lock))
        return grew if fell and ws.inst.value_at(int(grew + near)) < locked else None

    def _payout_shrank(self, p: ChipInstance, live: LiveRound) -> int | None:
        """The frame a payout fell from its peak, if the peak was held for less time than a lower total read
        after it: a payout once laid stays as laid until it is taken, so the short-lived peak was most likely
        the dealer's hand over it, read as a chip (a 3 Card Monster $75 Ante payout read $100 for three
        frames as the hand left, then $50 beside a wager read $125), or chips of it went to another reading.
        (A payout taken in stages falls only in its last frames, for less time than its peak was held.)"""
        ends = [f for f, _ in p.steps[1:]] + [p.end if p.end is not None else live.last + 1]
        held = [(v, end - f) for (f, v), end in zip(p.steps, ends, strict=True)]
        top = next(i for i, (v, _) in enumerate(held) if v == p.peak)
        longer = [i for i in range(top + 1, len(held)) if held[i][0] < p.peak and held[i][1] > held[top][1]]
        return p.steps[top + 1][0] if longer else None

    def _payouts_shrunk(self, seen: list[WagerSeen], expected: list[Settlement], live: LiveRound) -> None:
        """A payout read lower after a short-lived peak (`_payout_shrank`) is what it was read as after, where that is
        exactly what the rules pay, or what they pay on a wager raised after its bets closed as it lay when paid (a
        Pick 2 Ante past-posted from $5 to $15 and paid $15, read $20 for three frames as the hand lay over the Ante
        beside it): the peak is then the dealer's hand over it, read as chips, and for it to be the
        payout the dealer would have had to overpay and the lasting reading miss just the overpayment. Otherwise one
        of the two readings is wrong, and the round says so. (A 3 Card Monster $10 Monster payout read $100 for
        three frames as the hand left it and the wager beside it was out of view, then $10 for 26 frames; on the
        thirty-ninth and fortieth sessions' fresh sets the lasting reading was right in each of three such.) Where
        the cover log says the hand had left the spot `PEAK_UNHANDED_S` or more before the peak fell
        (`_hand_over_peak`), the peak was no hand: a High Tie $450 Side payout, the dealer paying a past-posted $9
        at 50 to 1, read so for 11 frames after the hand left, then $250 (what the rules pay on the $5 locked) as
        two of its $100 chips were read with the wager and not at all; the round said $250 was paid.

        Where only one of the two readings left room for a chip of it unseen (`ChipInstance.room`: over a card's edge,
        under another stack's chip, or at the end of a row lying off its spot's centre), the one read in plain view
        is the payout, if it is what the rules pay: the other is a chip missed, or a box drawn at the end of a row that
        then lies off-centre (`_payout_seen_in_plain_view`)."""
        net = _rules_net(expected)
        for ws in seen:
            if ws.shrank_at is None or ws.payout is None:
                continue
            later = ws.payout.value_at(ws.shrank_at)
            on_table = ws.inst.value_at(ws.payout.start)
            rules = _as_rules_pay(net, ws, later)
            raised = not rules and _as_rules_pay_on_raised(net, ws, on_table, later)
            plain = self._payout_seen_in_plain_view(ws, net)
            if (rules or raised) and (self._hand_over_peak(ws.payout, ws.shrank_at) or plain == "later"):
                pays = f"what the rules pay on the {on_table:g} it was paid on" if raised else "what the rules pay"
                why = ("the dealer's hand over it" if plain != "later" else
                       "a box that is no chip, the row it ended lying off its spot's centre or against another stack")
                live.note(f"inferred: {_about(ws)}: payout read as {ws.paid:g} only until frame {ws.shrank_at}, then "
                          f"as {later:g}, {pays}, until it was taken: the first reading was {why}")
                ws.paid = later
            elif plain == "peak":
                live.note(f"inferred: {_about(ws)}: payout read as {ws.paid:g}, what the rules pay, in plain view "
                          f"until frame {ws.shrank_at}, then as {later:g} where a chip of it could lie unseen (over a "
                          "card's edge, under another stack's chip, or at the end of a row lying off its spot's "
                          "centre): a chip of it was missed")
            else:
                _doubt_wager(live, ws, f"payout read as {ws.paid:g} only until frame {ws.shrank_at}, then as "
                                       f"{later:g} until it was taken: a laid payout does not shrink, so one of the "
                                       "two readings is wrong")

    @staticmethod
    def _payout_seen_in_plain_view(ws: WagerSeen, net: dict[tuple[int, str, int], float]
                                   ) -> Literal["peak", "later"] | None:
        """Of a payout's peak reading and the lower one after it (`_payout_shrank`), the one read in plain view where
        the other left room for a chip unseen (`ChipInstance.room`), as it was confirmed: "peak" where the peak is so
        and is what the rules pay, "later" where the later one is so; else None. (3 Card Monster, held-out set A59,
        seed 14663: a $600 Monster payout, $500 and $100, read $700 for 26 frames, a second $100 box at 0.3-0.96 past
        the first making the row lie off its spot's centre, then $600 centred in plain view until taken. Seed 14653:
        a $40 Royal payout read so in plain view, then $15 for good, its $25 end chip missed and the row off-centre.
        High Tie seed 14652: a $450 Side payout read so, then $350 with a $100 chip over a card's edge.)"""
        p = ws.payout
        peak_room = p.peak_had_room()
        later_room = p.room.get(ws.shrank_at, p.hidden_room)
        if peak_room and not later_room:
            return "later"
        if not peak_room and later_room and _as_rules_pay(net, ws, ws.paid):
            return "peak"
        return None

    def _hand_over_peak(self, p: ChipInstance, fell: int) -> bool:
        """Whether the dealer's hand was over the payout's spot (`CoverLog`) until less than `PEAK_UNHANDED_S` before
        its peak reading fell, at `fell`; True where that is not known (no cover log)."""
        if self.cover is None:
            return True
        top = next(f for f, total in p.steps if total == p.peak)
        hand = self.cover.last_covered_before(p.zone, fell)
        return hand is not None and fell - max(hand + 1, top) < PEAK_UNHANDED_S * self.fps

    def _wager_moved_with_payout(self, ws: WagerSeen, p: ChipInstance) -> tuple[int, float] | None:
        """A payout laid against its wager forms one row with it, and the line between the two zones falls
        where the boxes put it: a wager read as more than it is just as its payout appears may hold some of
        the payout's chips. The first such frame and what the wager was read as then, if any. (Read as less, it is
        most often the dealer's hand over it, laying the payout; read as less to stay, `_wager_hidden_by_payout`.)"""
        return next(((f, after) for f, after in self._wager_read_as_payout_came(ws, p, bumps=True)
                     if after > ws.wager.amount), None)

    def _wager_hidden_by_payout(self, ws: WagerSeen, p: ChipInstance) -> int | None:
        """The frame a wager's reading fell below what was locked just as its payout appeared, to stay there
        until it was taken: a payout laid over the wager's top chip hides it, and the two chips where they meet
        may read as none (a King High $400 Low and its $400 payout read $300 and $300, sure of both, the bottom
        payout chip lying 3 mm along and 5 mm across the wager's top one: a short pay claimed that was none)."""
        locked = ws.wager.amount - 0.005
        fell = next((f for f, after in self._wager_read_as_payout_came(ws, p) if 0 < after < locked), None)
        return fell if fell is not None and 0 < ws.inst.last_read() < locked else None

    def _wager_read_as_payout_came(self, ws: WagerSeen, p: ChipInstance, bumps: bool = False
                                   ) -> list[tuple[int, float]]:
        """(frame, total) of each change of the wager's reading after it was locked, around the moment its
        payout appeared (the payout shows `PAYOUT_LAG_S` after it is laid). With `bumps`, also each rise read surely
        and dropped as noise (`ChipInstance.bumps`), at the frame it was first read: the boxes may give the payout's
        nearest chip to the wager for a few frames only (a High Tie $300 Double and its $300 payout, read $400 and
        $200 surely for four frames from just after the payout showed, else $300 and $400 or $500 and $200 with
        doubt; held-out set A62, seed 14792). A rise first read with the dealer's hand over the wager's spot
        (`CoverLog`) is no such bump: the hand was read as a chip (3 Card Monster, held-out set A72, seed 15193, round
        c935d06a: a $40 Ante read as one $100 chip for three frames under the hand that took the Monster beside it,
        its payout read right as $40 and left in doubt)."""
        near, lag = SAME_TIME_S * self.fps, PAYOUT_LAG_S * self.fps
        read = [(f, after) for f, _, after in ws.inst.changes_after(ws.lock)]
        read += [(f, total) for f, total in ws.inst.bumps
                 if bumps and f > ws.lock and not (self.cover is not None
                                                   and self.cover.covered_through(ws.inst.zone, f, f))]
        return sorted((f, total) for f, total in read if p.start - lag - near <= f <= p.start + near)

    def _doubt_short_payouts(self, seen: list[WagerSeen], expected: list[Settlement], live: LiveRound) -> None:
        """A payout read short of what the rules pay is a short pay only where all of it could be seen;
        otherwise the round says it is unsure instead of claiming one:
        - its wager was read as more than it is just as the payout appeared: the zones' line may have
          counted some of the payout's chips with the wager. Where the payout read and that surplus add up
          to just what the rules pay, the surplus was the payout's (`_surplus_was_payout`). Otherwise (adding
          it back regardless was tried, and matched the rules by chance as often as not) the round is in
          doubt. With a surplus as large as the payout read,
          even a payout read as the rules pay is in doubt: the whole payout may be in the wager's reading
          and the chips read as the payout another stack's (a 3 Card Monster $300 Play payout, an
          overpay, read as the $200 the rules pay while the $200 wager read $500). A payout read as more than the
          rules pay is in doubt too: the overpay claimed may be only part of it (a 3 Card Monster $250 Ante
          overpaid $200, its $450 payout laid in line with it, read $350 while the wager read $525), where the
          wager read more by more than the overpay claimed, and the payout is not what the rules pay on the wager
          as it read: a past-post the dealer paid is paid at least on the raise (perfect observations: a $150 Ante
          past-posted to $155 and paid $160);
        - its wager was read as less than it is from the moment the payout appeared until it was taken
          (`_wager_hidden_by_payout`): a chip of each may lie hidden where they meet;
        - a chip of it missed could have lain unseen (`ChipInstance.peak_had_room`): over a card's edge
          (`ZoneMapper._card_edge_room`; the detector misses chips lying over a card's edge: found 92 % of 160 on
          held-out frames, against all of 4,516 elsewhere; a $30 Play payout read as $5 while its $25 lay on the
          card), or under another stack's chip (`ZoneMapper._under_chip_room`; a 3 Card Monster $15 Ante payout
          read $11 against the Monster payout laid beside it), or at the end of a stack lying off its spot's centre
          (`ZoneMapper._off_centre_room`; a $300 Ante payout read $200). Where all of it could be seen, the short pay
          stands (a true short pay against another stack is sent to review instead: 1 of 328 held-out rounds). What
          counts is the room as it was read at its largest (`ChipInstance.peak_had_room`): a 3 Card Monster $5 Play
          paid $4 (a true short pay) was read $2 with room for a chip unseen as it was laid, then $4 in plain view
          until taken (held-out set A48, seed 14223, round cb66b4f8).
        A payout read as more than the rules pay on its wager as it stood is in doubt where the wager fell as the
        payout came by at least the overpay, to stay so (`_wager_fell_into_payout`)."""
        net = _rules_net(expected)
        for ws in seen:
            if ws.outcome != "win":
                continue
            rules_pay = net.get(ws.key, 0.0)
            short = ws.paid < rules_pay - 0.005
            surplus = ws.moved_to - ws.wager.amount if ws.moved_at is not None else 0.0
            # An overpay less than the wager's surplus: a past-post the dealer paid is paid at least on the raise
            over = rules_pay + 0.005 < ws.paid < rules_pay + surplus - 0.005
            raised = (set() if ws.moved_at is None or ws.payout is None
                      else {ws.wager.amount + surplus, ws.inst.value_at(ws.payout.start)})
            over &= not any(_as_rules_pay_on_raised(net, ws, on_table, ws.paid) for on_table in raised)
            if short and ws.moved_at is not None and _as_rules_pay(net, ws, ws.paid + surplus):
                self._surplus_was_payout(ws, surplus, live)
            elif ws.moved_at is not None and (short or over or surplus >= ws.paid - 0.005):
                _doubt_wager(live, ws, f"payout read as {ws.paid:g} while the wager beside it was read as more "
                                       f"than it is (frame {ws.moved_at}); some of the payout's chips may have been "
                                       "counted with the wager")
            elif short and ws.hidden_at is not None:
                _doubt_wager(live, ws, f"payout read as {ws.paid:g}, less than the rules pay, while the wager "
                                       f"beside it read as {ws.inst.value_at(ws.hidden_at):g} from frame "
                                       f"{ws.hidden_at}: the payout may lie over the wager's top chip, hiding a "
                                       "chip of each")
            elif short and ws.payout is not None and (ws.payout.peak_had_room() or ws.payout.doubtful) \
                    and _read_surely_as_rules_pay(net, ws):
                self._paid_as_read_surely(ws, net[ws.key], live)
            elif short and (ws.payout is None or ws.payout.peak_had_room()):
                _doubt_wager(live, ws, f"payout read as {ws.paid:g}, less than the rules pay, where a chip of it "
                                       "could lie unseen (over a card's edge, under another stack's chip, or at "
                                       "the end of a stack lying off its spot's centre)")
            elif not short and (fell := self._wager_fell_into_payout(ws, net)) is not None:
                frame, as_laid, after = fell
                _doubt_wager(live, ws, f"payout read as {ws.paid:g}, more than the rules pay on the {as_laid:g} its "
                                       f"wager was read as when the payout came, while the wager fell to {after:g} "
                                       f"from frame {frame} and stayed so: a chip of the wager may have been counted "
                                       "with the payout")

    def _wager_fell_into_payout(self, ws: WagerSeen, net: dict[tuple[int, str, int], float]
                                ) -> tuple[int, float, float] | None:
        """(frame, total before, total after) where a payout read as more than the rules pay on its wager as it read
        when the payout was laid (raised or not), by no more than the wager fell as the payout came, to stay so
        until taken: the wager's nearest chip may have been counted with the payout, which is then read as an overpay
        that was none (a Pick 2 $30 Ante past-posted to $45 and paid $45, its payout read $50 surely and the wager $35
        from just after; held-out set A65, seed 14904, round cb66b4f8). An overpay the wager's reading does not
        account for stands."""
        p, locked = ws.payout, ws.wager.amount
        if p is None or ws.key not in net or locked <= 0:
            return None
        near, lag = SAME_TIME_S * self.fps, PAYOUT_LAG_S * self.fps
        before = p.start - lag  # about when it was laid: it shows once the hand has left it
        as_laid = ws.inst.value_at(before)
        over_by = ws.paid - _rules_pay_on(net, ws, as_laid)
        after = ws.inst.last_read()
        fall = next((f for f, _, total in ws.inst.changes_after(before) if total < as_laid - 0.005), None)
        if (over_by <= 0.005 or fall is None or fall > p.start + lag + near
                or not 0 < after <= as_laid - over_by + 0.005):
            return None
        return fall, as_laid, after

    @staticmethod
    def _paid_as_read_surely(ws: WagerSeen, rules_pay: float, live: LiveRound) -> None:
        """A payout confirmed short of what the rules pay, where a chip of it could lie unseen as it was read at its
        largest (`ChipInstance.peak_had_room`; room in a later reading only is that reading's, as a chip of the stack
        beside it counted with it lies off its spot's centre: a Pick 2 $125 Play short pay, confirmed in plain view,
        was lifted to the rules' $150 so, held-out set A70, seed 15084) or its reading was in doubt, that was read
        surely as exactly the rules' amount in frames too few to confirm
        (`ChipInstance.read_surely`), is the rules' amount: a King High $3 High payout of three $1 chips read so
        surely as it was laid, then $2 for good, its third chip under another stack's; a $200 payout of two $100
        chips lying almost one on the other, read as one box in five of its six frames. For it to be a short pay
        the detector would have had to read a chip that was not there, surely, of just the shortfall. The doubt the
        tracker raised for a sure reading larger than the confirmed one (`PAYOUT_READ_LARGER`) is so answered."""
        live.note(f"inferred: {_about(ws)}: payout read as {ws.paid:g}, less than the rules pay, where a chip of it "
                  f"could lie unseen, but read surely as {rules_pay:g}, what the rules pay, in frames too few to "
                  "confirm")
        answered = payout_read_larger(rules_pay)
        live.notes[:] = [n for n in live.notes if not (_observation_frame(n, ws.payout.zone) is not None
                                                        and n.endswith(answered))]
        ws.paid = rules_pay

    @staticmethod
    def _surplus_was_payout(ws: WagerSeen, surplus: float, live: LiveRound) -> None:
        """A payout read short by just what its wager was read over its locked amount as the payout came: the
        payout's chips nearest the wager were counted with it, and the payout is what the two readings add up
        to. A true short pay read so would need a second misreading that makes up the shortfall to the chip
        (a High Tie $20 Double payout read $15 beside its $20 wager read $25; three such payouts in 328
        held-out rounds, each paid in full)."""
        live.note(f"inferred: {_about(ws)}: the payout read as {ws.paid:g} and "
                  f"the {surplus:g} its wager was read over its locked amount from frame {ws.moved_at} are one "
                  f"payout of {ws.paid + surplus:g} laid against the wager")
        ws.paid += surplus


def _why_doubted(inst: ChipInstance, frame: int) -> str:
    """Why `inst`'s step at `frame` was read with doubt, as the tracker said (`ZoneState.doubt`); the usual causes
    where it said nothing."""
    return inst.why.get(frame) or "a chip below the detector's confidence, or chips reaching into another spot"


def _growths(p: ChipInstance) -> list[tuple[int, float, float]]:
    """(frame, total, the most before it) of each step a payout was read as more than it had been before."""
    out, most = [], p.steps[0][1]
    for f, total in p.steps[1:]:
        if total > most + 0.005:
            out.append((f, total, most))
        most = max(most, total)
    return out


def _dip_read_back(ws: WagerSeen, frame: int) -> bool:
    """`ws`'s step at `frame`, after its lock, read it below its locked amount, and a later step read it back at just
    that amount surely, every step between reading less: a dip, no fall (`WagerSeen.falls`), and what the dip read,
    with doubt, is no fact of the round (King High, set A70, seed 15081, round cb66b4f8: a losing $400 Pokerpot read
    $300 with a $100 chip at 0.5-0.75 for 26 frames as the hand took the seat's cards, then $400 surely until taken)."""
    steps, locked = ws.inst.steps, ws.wager.amount
    if frame <= ws.lock:
        return False
    start = next(k for k, (f, _) in enumerate(steps) if f == frame)
    for f, total in steps[start:]:
        if total >= locked - 0.005:
            return abs(total - locked) < 0.005 and f not in ws.inst.doubtful
    return False


def _locked_read_surely_and_paid(net: dict[tuple[int, str, int], float], ws: WagerSeen) -> bool:
    """`ws`, paid exactly what the rules pay on the amount it was locked at (`net` from `_rules_net`), was read surely
    as that amount in some frame, and its payout was confirmed with no doubt: a wager read with doubt as
    another amount would have had to hide a payout error of just the rules' pay on the difference for the round to be
    wrong. (King High, held-out set A76, seed 15351, round cb66b4f8: a $300 Seven whose third $100 chip was read at
    0.37-0.55 in most frames, surely in a few, paid $3,300 at 11 to 1, read surely; the round was left in doubt.)"""
    p, locked = ws.payout, ws.wager.amount
    return (p is not None and not p.uncertain and _as_rules_pay(net, ws, ws.paid)
            and any(abs(t - locked) < 0.005 for t in ws.inst.read_surely))


def _rules_net(expected: list[Settlement]) -> dict[tuple[int, str, int], float]:
    """Each wager's net by the rules (on a win, what they pay), by (seat, spot, hand)."""
    return {(x.seat, x.spot, x.hand): x.net for x in expected}

def _as_rules_pay(net: dict[tuple[int, str, int], float], ws: WagerSeen, amount: float) -> bool:
    """`amount` is exactly what the rules pay `ws` (`net` from `_rules_net`)."""
    return ws.key in net and abs(amount - net[ws.key]) < 0.005

def _read_surely_as_rules_pay(net: dict[tuple[int, str, int], float], ws: WagerSeen) -> bool:
    """`ws`'s payout was read confidently as exactly what the rules pay in frames too few to confirm
    (`ChipInstance.read_surely`)."""
    return ws.payout is not None and any(_as_rules_pay(net, ws, total) for total in ws.payout.read_surely)

def _as_rules_pay_on_raised(net: dict[tuple[int, str, int], float], ws: WagerSeen, on_table: float,
                            amount: float) -> bool:
    """`ws` was raised after its bets closed to `on_table`, and `amount` is exactly what the rules pay on that: their
    pay on the locked amount, scaled (a wager pays at fixed odds)."""
    return (ws.key in net and 0 < ws.wager.amount < on_table - 0.005
            and abs(amount - _rules_pay_on(net, ws, on_table)) < 0.005)

def _rules_pay_on(net: dict[tuple[int, str, int], float], ws: WagerSeen, on_table: float) -> float:
    """What the rules pay `ws` (in `net`, on its locked amount) on `on_table`: that pay, scaled, as a wager pays at
    fixed odds."""
    return net[ws.key] * on_table / ws.wager.amount

def _reaches_only_into_bare_spots(inst: ChipInstance, live: LiveRound) -> bool:
    """Each total of the stack read with doubt was doubted only because chips of it lay in other betting spots, and
    none of those held a stack of its own in the round before the stack was gone: no other stack could have been read
    with it. (A King High $18 Suit payout of six chips, laid beside its $6 wager, ran into the empty Suit spot next
    to it.) A stack there read as one with it would have been read on its own spot as it was laid."""
    frames = inst.doubtful_frames()
    if not frames or any(f not in inst.reached for f in frames):
        return False
    end = inst.end if inst.end is not None else live.last
    spots = {z for f in frames for z in inst.reached[f]}
    return not any(other.start <= end for z in spots if z in live.chips for other in live.chips[z].instances)


def _answered_by_rules_pay(note: str, ws: WagerSeen, payout: ChipInstance) -> bool:
    """`note` is a doubt on a payout's total that its being exactly what the rules pay answers
    (`SettlementDoubts._payouts_read_otherwise_as_rules_pay`)."""
    return (read_larger_briefly(note) or read_less_steadily(note) or note.endswith(UNSTEADY_STACK)
            or note.endswith(DOUBTFUL_READINGS)
            or (note.endswith(RESTLESS_CHIPS) and any(abs(t - ws.paid) < 0.005 for t in payout.read_surely)
                and max(payout.read_surely) <= ws.paid + 0.005))


def _paid_short_of_raise(net: dict[tuple[int, str, int], float], ws: WagerSeen) -> bool:
    """`ws` was read raised after its lock, before its payout was laid, and lay so when paid, and the payout is not
    what the rules pay on the raise: a past-post the dealer paid is paid on the raise, so a payout read as the pay on
    the locked amount may have a chip of it unseen (`SettlementDoubts._payouts_read_otherwise_as_rules_pay`)."""
    return _raised_before_paid(ws) and not _paid_on_raise(net, ws)


def _paid_on_raise(net: dict[tuple[int, str, int], float], ws: WagerSeen) -> bool:
    """`ws` was read raised after its lock, before its payout was laid, and lay so when paid, and the payout is
    exactly what the rules pay on the raise."""
    return _raised_before_paid(ws) and _as_rules_pay_on_raised(net, ws, ws.inst.value_at(ws.payout.start), ws.paid)


def _paid_as_rules_pay_as_laid(net: dict[tuple[int, str, int], float], ws: WagerSeen) -> bool:
    """The payout is exactly what the rules pay on the wager as it lay when paid: on the raise where it was raised
    before its payout was laid (`_paid_on_raise`), else on its locked amount."""
    return _paid_on_raise(net, ws) if _raised_before_paid(ws) else _as_rules_pay(net, ws, ws.paid)


def _raised_before_paid(ws: WagerSeen) -> bool:
    """`ws` was read raised after its lock, before its payout was laid, and lay so when paid."""
    p = ws.payout
    return (p is not None and any(f < p.start for f, _ in ws.rises())
            and ws.inst.value_at(p.start) > ws.wager.amount + 0.005)


def _paid_as_rules_pay(seen: list[WagerSeen], net: dict[tuple[int, str, int], float], live: LiveRound
                       ) -> Iterator[tuple[WagerSeen, ChipInstance, float]]:
    """(wager, payout, what the wager was read as when paid) of each winning wager the notes do not doubt, paid
    exactly what the rules pay (`net` from `_rules_net`) on its locked amount or on what lay there when paid
    (`_as_rules_pay_on_raised`). The notes are read as each is reached, so a caller's changes to them count for the
    wagers after."""
    for ws in seen:
        p = ws.payout
        if ws.outcome != "win" or p is None or _doubted(live, ws):
            continue
        on_table = ws.inst.value_at(p.start)
        if _as_rules_pay(net, ws, ws.paid) or _as_rules_pay_on_raised(net, ws, on_table, ws.paid):
            yield ws, p, on_table
