"""Settlements too close in time to order keep the manual's order; when the camera saw them the other
way round, the round says it is unsure instead of asserting the manual's order."""

from __future__ import annotations

import threading

from pipelines.games.round import Wager
from pipelines.games.settlement import Settlement
from pipelines.rounds.compare import compare_rounds
from pipelines.rounds.king_high import KingHighMachine
from pipelines.rounds.live import LiveRound, WagerSeen
from pipelines.rounds.timeline import ChipInstance
from pipelines.vision.cover import CoverLog
from pipelines.vision.observe import FrameObs

from .conftest import rounds_with_edited_observations


def _seen(seat: int, outcome: str, at: int) -> WagerSeen:
    w = Wager(seat=seat, spot="high", hand=1, amount=10.0)
    ws = WagerSeen(w, ChipInstance(f"seat{seat}.high", 0, [(0, 10.0)]), 0, f"seat{seat}.high.paid")
    ws.outcome, ws.settled_at = outcome, at
    return ws


def test_close_settlements_seen_against_the_manual_are_noted() -> None:
    m = KingHighMachine("T1")
    m._assumed_order = []
    manual = {(3, "high", 1): 1, (4, "high", 1): 2}
    # seat 4's loss seen 2 frames before seat 3's payout (a payout shows 8 frames late): too close
    out = m._in_dealer_order([_seen(4, "lose", 100), _seen(3, "win", 110)], manual)
    assert [ws.wager.seat for ws in out] == [3, 4]
    assert m._assumed_order == [((3, "high", 1), (4, "high", 1))]
    m._assumed_order = []
    out = m._in_dealer_order([_seen(3, "lose", 100), _seen(4, "win", 110)], manual)  # as the manual says
    assert [ws.wager.seat for ws in out] == [3, 4] and m._assumed_order == []
    out = m._in_dealer_order([_seen(4, "lose", 100), _seen(3, "win", 130)], manual)  # far apart: as seen
    assert [ws.wager.seat for ws in out] == [4, 3] and m._assumed_order == []


def _paid(spot: str, confirmed: int, first_read: int) -> WagerSeen:
    """Seat 6's won `spot` (hand 3), its payout confirmed from frame `confirmed` and first read at `first_read`."""
    w = Wager(seat=6, spot=spot, hand=3, amount=10.0)
    ws = WagerSeen(w, ChipInstance(f"seat6.{spot}", 0, [(0, 10.0)]), 0, f"seat6.{spot}.paid")
    payout = ChipInstance(f"seat6.{spot}.paid", confirmed, [(confirmed, 15.0)])
    payout.first_read[confirmed] = first_read
    ws.outcome, ws.settled_at, ws.payout = "win", confirmed, payout
    return ws


def test_a_payout_is_dated_from_when_it_was_first_read_as_it_confirmed() -> None:
    # King High, held-out video (set A26, seed 13331, round 5cee5136): seat 6's $10 High paid $15, read for two frames
    # as the hand left it (730), hidden by the hand again, read $20 with doubt for five frames as it reached into the
    # High's spot, then $15 for good from 740; the $500 Suit's payout, laid after it, showed from 735. Dated from 740,
    # the Suit was paid first.
    m = KingHighMachine("T1")
    m._assumed_order, m._unseen_order = [], []
    manual = {(6, "high", 3): 1, (6, "suit", 3): 2}
    out = m._in_dealer_order([_paid("high", 740, 730), _paid("suit", 735, 735)], manual)
    assert [ws.wager.spot for ws in out] == ["high", "suit"]
    # first read only as it confirmed: the order seen stands
    out = m._in_dealer_order([_paid("high", 740, 740), _paid("suit", 735, 735)], manual)
    assert [ws.wager.spot for ws in out] == ["suit", "high"]


def test_where_the_hand_lay_orders_settlements_too_close_in_time() -> None:
    # High Tie, perfect mode (c3d2dda3): seat 3's Main taken at 3330 under the hand (over its spot 3330-3332),
    # then seat 2's Main paid 0.4 s later, the payout laid under the hand over its paid spot 3336-3338 and first
    # seen at 3339; the manual pays seat 2 first. By the times alone (a payout shows up to 8 frames late) the two
    # are too close to order.
    def order(cover: CoverLog | None) -> tuple[list[int], list]:
        m = KingHighMachine("T1", cover=cover)
        m._assumed_order = []
        out = m._in_dealer_order([_seen(3, "lose", 3330), _seen(2, "win", 3339)],
                                 {(2, "high", 1): 1, (3, "high", 1): 2})
        return [ws.wager.seat for ws in out], m._assumed_order

    assert order(None) == ([2, 3], [((2, "high", 1), (3, "high", 1))])  # the manual's order, in doubt

    def hand_over(spells: dict[str, range]) -> CoverLog:
        """The hand over each zone in its frames; the two spots bare when nothing lies on them."""
        log = CoverLog()
        for f in range(3320, 3345):
            covered = {zone for zone, frames in spells.items() if f in frames}
            bare = {"seat3.high"} if f >= 3330 else set()  # its stack taken
            if f < 3339:
                bare.add("seat2.high.paid")  # the payout not laid yet
            log.add(f, covered, bare - covered)
        return log

    apart = hand_over({"seat3.high": range(3330, 3333), "seat2.high.paid": range(3336, 3339)})
    assert order(apart) == ([3, 2], [])  # the hand left seat 3 before it came over seat 2's paid spot
    # The hand over seat 2's paid spot already as seat 3's stack went: which came first is not known.
    together = hand_over({"seat3.high": range(3330, 3333), "seat2.high.paid": range(3329, 3339)})
    assert order(together) == ([2, 3], [((2, "high", 1), (3, "high", 1))])
    # Seat 3's stack gone at 3330 but its spot seen bare only from 3337: it may have been taken after the payout.
    late = hand_over({"seat3.high": range(3330, 3337), "seat2.high.paid": range(3336, 3339)})
    assert order(late) == ([2, 3], [((2, "high", 1), (3, "high", 1))])
    # A payout seen at once, its spot never covered: nothing said of when it was laid.
    assert order(hand_over({"seat3.high": range(3330, 3333)})) == ([2, 3], [((2, "high", 1), (3, "high", 1))])


def test_a_stack_read_gone_under_the_hand_that_went_on_to_another_box_was_taken_as_the_hand_left() -> None:
    # King High, held-out video (set A29, seed 13441, round e9f579b4): seat 8's $40 Seven read gone at 729 under the
    # hand (over its spot 729-731); the hand then paid seat 2's Low, its payout laid under the hand over that paid spot
    # 733-737 and first read at 738. The manual pays the Low first: the dealer did not. A neighbour's stack lay over
    # the Seven's corner, so its spot showed no bare felt until 788, and the order was left to the manual, in doubt.
    def hand_over(spells: dict[str, range], seven_bare_from: int) -> CoverLog:
        log = CoverLog()
        for f in range(720, 800):
            covered = {zone for zone, frames in spells.items() if f in frames}
            bare = {"seat8.seven"} if f >= seven_bare_from else set()
            if f < 738:
                bare.add("seat2.low.paid")
            log.add(f, covered, bare - covered)
        return log

    def order(cover: CoverLog) -> tuple[list[int], list]:
        m = KingHighMachine("T1", cover=cover)
        m._assumed_order, m._unseen_order = [], []
        seven, low = _seen(8, "lose", 729), _seen(2, "win", 738)
        seven.wager, seven.inst.zone = seven.wager.model_copy(update={"spot": "seven"}), "seat8.seven"
        low.wager, low.paid_zone = low.wager.model_copy(update={"spot": "low"}), "seat2.low.paid"
        out = m._in_dealer_order([seven, low], {(2, "low", 1): 1, (8, "seven", 1): 2})
        return [ws.wager.seat for ws in out], m._assumed_order

    hand = {"seat8.seven": range(729, 732), "seat2.low.paid": range(733, 738)}
    assert order(hand_over(hand, 788)) == ([8, 2], [])  # taken before the hand came over seat 2's payout
    assert order(hand_over(hand, 732)) == ([8, 2], [])  # as it is where the spot shows bare at once
    # The hand still over the Seven's spot as it came over the payout's: which came first is not known.
    late = {"seat8.seven": range(729, 736), "seat2.low.paid": range(733, 738)}
    assert order(hand_over(late, 788)) == ([2, 8], [((2, "low", 1), (8, "seven", 1))])


def test_two_stacks_taken_in_one_frame_with_no_hand_seen_are_ordered_by_neither() -> None:
    # King High, video (set UU, 12111, round cb66b4f8): two stacks read gone in the same frame, the hand seen over
    # neither, each spot bare from that frame: each was taken "within" that one frame, so by where the hand lay each
    # came before the other, and the two were swapped back and forth without end (the benchmark never finished).
    log = CoverLog()
    for f in range(95, 106):
        log.add(f, set(), {"seat5.high", "seat6.high"} if f >= 101 else set())
    m = KingHighMachine("T1", cover=log)
    m._assumed_order, m._unseen_order = [], []
    got: list = []
    ordering = threading.Thread(daemon=True, target=lambda: got.append(m._in_dealer_order(
        [_seen(5, "lose", 101), _seen(6, "lose", 101)], {(6, "high", 1): 1, (5, "high", 1): 2})))
    ordering.start()
    ordering.join(timeout=20)
    assert got, "ordering two settlements never ended"
    assert [ws.wager.seat for ws in got[0]] == [6, 5] and m._assumed_order == []  # too close: the manual's order


def test_one_boxes_settlements_keep_the_manual_order_without_doubt() -> None:
    m = KingHighMachine("T1")
    a, b = _seen(3, "lose", 100), _seen(3, "win", 110)
    b.wager = b.wager.model_copy(update={"spot": "suit"})
    out = m._in_dealer_order([a, b], {(3, "suit", 1): 1, (3, "high", 1): 2})
    assert [ws.wager.spot for ws in out] == ["suit", "high"] and m._assumed_order == []


def test_two_losers_of_one_box_gone_close_together_keep_the_manual_order() -> None:
    # King High, held-out video: seat 7's $1 Suit went under the dealer's sleeve three frames before the $2 High
    # left view, though the dealer took the High first (frame 57) and the Suit after (61), as the manual says.
    def order(suit_gone: int, high_seat: int = 7) -> list[str]:
        m = KingHighMachine("T1")
        m._assumed_order = []
        high, suit = _seen(high_seat, "lose", 55), _seen(7, "lose", suit_gone)
        suit.wager = suit.wager.model_copy(update={"spot": "suit"})
        out = m._in_dealer_order([suit, high], {(high_seat, "high", 1): 0, (7, "suit", 1): 1})
        assert m._assumed_order == []
        return [f"{ws.wager.seat}{ws.wager.spot}" for ws in out]

    assert order(52) == ["7high", "7suit"]
    assert order(45) == ["7suit", "7high"]  # a second apart: as seen (a procedure fault to flag)
    assert order(52, high_seat=6) == ["7suit", "6high"]  # two boxes: the hand moved from one to the other


def test_a_loser_gone_as_the_hand_came_to_pay_its_box_leaves_the_order_unknown() -> None:
    # King High, held-out video: seat 4's $10 Low paid before its losing $1 Suit was taken (a procedure fault;
    # the manual takes losers first). The Suit went from view the frame the hand came over the Low, and the
    # payout showed before the hand left: taken under the hand, not before it went from view, so after the payout
    # (which shows 8 frames after it is laid).
    def box(suit_gone: int, paid_at: int = 496, pay_first: bool = False) -> tuple[list[str], list]:
        m = KingHighMachine("T1")
        m._assumed_order, m._unseen_order = [], []
        low, suit = _seen(4, "win", paid_at), _seen(4, "lose", suit_gone)
        low.wager = low.wager.model_copy(update={"spot": "low"})
        low.inst = ChipInstance("seat4.low", 0, [(0, 10.0)], hidden=[(492, 499)])
        suit.wager = suit.wager.model_copy(update={"spot": "suit"})
        manual = {(4, "low", 1): 0, (4, "suit", 1): 1} if pay_first else {(4, "suit", 1): 0, (4, "low", 1): 1}
        out = m._in_dealer_order([low, suit], manual)
        return [ws.wager.spot for ws in out], m._assumed_order + m._unseen_order

    assert box(492) == (["suit", "low"], [((4, "suit", 1), (4, "low", 1))])  # the manual's order, in doubt
    # ... and so where the payout, dated back from when it showed, comes at the very frame the Suit went (King High,
    # A43 14031 cb66b4f8: a $250 Seven covered as the hand came to pay the High beside it, taken after the payout;
    # the times seen said neither first, and the round said the manual's order without doubt)
    assert box(492, paid_at=500) == (["suit", "low"], [((4, "suit", 1), (4, "low", 1))])
    assert box(490) == (["suit", "low"], [])  # taken before the hand covered the Low: one sweep, as the manual says
    # a manual that pays first (3 Card Monster: the Ante paid, then the Monster taken), the loser covered just
    # before the payout: taken then or later, as the manual says
    assert box(492, paid_at=501, pay_first=True) == (["low", "suit"], [])



def test_a_payout_read_whole_before_it_confirmed_short_is_dated_from_that_reading() -> None:
    from pipelines.rounds.three_card_monster import ThreeCardMonsterMachine

    # 3 Card Monster, held-out video (set A45, seed 14083, round 2a97e64c): seat 2's $20 Play payout laid at 561, read
    # whole in single frames between the hand's passes (567, 573, 579), confirmed at $10 at 580 as the hand lay over
    # half of it, then $20; the Ante's, laid at 567, read whole from 573 and confirmed at 583. Dated from its $10
    # confirming, the Play's came after the Ante's, against the manual and the dealer.
    manual = {(2, "play", 0): 1, (2, "ante", 0): 2}

    def paid(spot: str, steps: list[tuple[int, float]], first_read: dict[int, int]) -> WagerSeen:
        ws = WagerSeen(Wager(seat=2, spot=spot, amount=20.0), ChipInstance(f"seat2.{spot}", 0, [(0, 20.0)]), 0,
                       f"seat2.{spot}.paid", outcome="win", paid=steps[-1][1])
        ws.payout, ws.settled_at = ChipInstance(f"seat2.{spot}.paid", steps[0][0], steps), steps[0][0]
        ws.payout.first_read.update(first_read)
        return ws

    m = ThreeCardMonsterMachine("T1")
    m._assumed_order, m._unseen_order = [], []
    ante = paid("ante", [(583, 20.0)], {583: 573})
    out = m._in_dealer_order([ante, paid("play", [(580, 10.0), (583, 20.0)], {580: 580, 583: 567})], manual)
    assert [ws.wager.spot for ws in out] == ["play", "ante"]
    # its whole first read only as it confirmed: the order seen stands
    out = m._in_dealer_order([ante, paid("play", [(580, 10.0), (583, 20.0)], {580: 580, 583: 583})], manual)
    assert [ws.wager.spot for ws in out] == ["ante", "play"]


def test_a_payout_revealed_in_stages_may_have_been_laid_after_those_seen_whole_just_then() -> None:
    from pipelines.rounds.three_card_monster import ThreeCardMonsterMachine

    # 3 Card Monster seat 3 (held-out set 9603): Play and Ante payouts laid, then the Monster's; the hand over
    # them until the Monster's first chip showed ($5 at 902) and all three whole at 907
    manual = {(3, "play", 0): 1, (3, "ante", 0): 2, (3, "monster", 0): 3}

    def seen(spot: str, steps: list[tuple[int, float]]) -> WagerSeen:
        ws = WagerSeen(Wager(seat=3, spot=spot, amount=15.0), ChipInstance(f"seat3.{spot}", 0, [(0, 15.0)]), 0,
                       f"seat3.{spot}.paid", outcome="win", paid=steps[-1][1])
        ws.payout, ws.settled_at = ChipInstance(f"seat3.{spot}.paid", steps[0][0], steps), steps[0][0]
        return ws

    m = ThreeCardMonsterMachine("T1")
    play, ante = seen("play", [(907, 15.0)]), seen("ante", [(907, 15.0)])
    out = m._in_dealer_order([seen("monster", [(902, 5.0), (907, 60.0)]), play, ante], manual)
    assert [ws.wager.spot for ws in out] == ["play", "ante", "monster"]
    # first seen whole at 902, or grown long after: seen first, it was laid first
    out = m._in_dealer_order([seen("monster", [(902, 60.0)]), play, ante], manual)
    assert [ws.wager.spot for ws in out] == ["monster", "play", "ante"]
    out = m._in_dealer_order([seen("monster", [(892, 5.0), (907, 60.0)]), play, ante], manual)
    assert [ws.wager.spot for ws in out] == ["monster", "play", "ante"]


def _payout_beside(wager_steps: list[tuple[int, float]], payout_at: int, paid: float = 10.0,
                   rules_pay: float = 20.0) -> tuple[bool, list[str]]:
    ws, live = _settled_beside(wager_steps, payout_at, paid, rules_pay)
    return ws.uncertain, live.notes


def _settled_beside(wager_steps: list[tuple[int, float]], payout_at: int, paid: float,
                    rules_pay: float) -> tuple[WagerSeen, LiveRound]:
    """A $15 wager, a payout the dealer lays in line with it; the rules pay `rules_pay`."""
    m = KingHighMachine("T1")  # 10 frames a second: a payout shows 8 frames after it is laid
    w = Wager(seat=7, spot="low", hand=1, amount=15.0)
    ws = WagerSeen(w, ChipInstance("seat7.low", 0, wager_steps), 5, "seat7.low.paid", outcome="win", paid=paid)
    ws.payout = payout = ChipInstance("seat7.low.paid", payout_at, [(payout_at, paid)], hidden_room=False)  # in view
    ws.moved_at, ws.moved_to = m._wager_moved_with_payout(ws, payout) or (None, 0.0)
    ws.hidden_at = m._wager_hidden_by_payout(ws, payout)
    live = LiveRound(start=0)
    rule = Settlement(seat=7, spot="low", hand=1, wagered=15.0, amount=15.0, outcome="win", net=rules_pay,
                      line="low", order=1, rule="test")
    m._doubt_short_payouts([ws], [rule], live)
    return ws, live


def test_a_payout_short_of_the_rules_while_its_wager_reads_more_is_in_doubt() -> None:
    # chips read in the wager's zone as the $20 payout was laid, and one more missed: 10 seen, not a short pay
    doubt, notes = _payout_beside([(0, 15.0), (92, 20.0)], payout_at=100)
    assert doubt and "frame 92" in notes[0] and "payout read as 10" in notes[0] and "more than it is" in notes[0]
    # the payout as the rules pay it (chips counted with the wager only make it look short)
    assert _payout_beside([(0, 15.0), (92, 17.0)], payout_at=100, paid=20.0) == (False, [])
    # ... unless the wager read more by as much as the payout read: the whole payout may be in the wager's
    # reading, and what was read as the payout another stack's chips (an overpay read as the rules pay)
    doubt, notes = _payout_beside([(0, 15.0), (92, 35.0)], payout_at=100, paid=20.0)
    assert doubt and "payout read as 20" in notes[0] and "frame 92" in notes[0]
    # the wager's reading moved long before the payout (a past-post, flagged elsewhere), or not at all, or
    # was back at its own amount by then: the short payout stands, to be flagged
    assert _payout_beside([(0, 15.0), (40, 25.0)], payout_at=100) == (False, [])
    assert _payout_beside([(0, 15.0)], payout_at=100) == (False, [])
    assert _payout_beside([(0, 15.0), (60, 10.0), (95, 15.0)], payout_at=100) == (False, [])
    # read as less as the payout is laid, and back as locked before it is taken: the dealer's hand over it, which
    # hides chips and moves none
    assert _payout_beside([(0, 15.0), (92, 5.0), (110, 15.0)], payout_at=100) == (False, [])


def test_an_overpay_read_while_its_wager_reads_more_is_in_doubt() -> None:
    # 3 Card Monster, held-out video: a $250 Ante overpaid $200, its $450 payout laid in line with it, read $350
    # while the wager read $525: a $100 overpay was claimed, and the rest of it was in the wager's reading
    doubt, notes = _payout_beside([(0, 15.0), (92, 27.0)], payout_at=100, paid=25.0)
    assert doubt and "payout read as 25" in notes[0] and "frame 92" in notes[0]
    # read over by no more than the overpay claimed: a past-post paid at least on the raise (a $15 raised to
    # $17 and paid $25 where the rules pay $20)
    assert _payout_beside([(0, 15.0), (92, 17.0)], payout_at=100, paid=25.0) == (False, [])
    # a past-post: the wager raised to $30 as the payout came, and paid what the rules pay on $30; read right,
    # also where it was first read part-way up ($15 raised to $21, then $24 as the payout showed, paid $32)
    assert _payout_beside([(0, 15.0), (92, 30.0)], payout_at=100, paid=40.0) == (False, [])
    assert _payout_beside([(0, 15.0), (92, 21.0), (99, 24.0)], payout_at=100, paid=32.0) == (False, [])
    # an overpay beside a wager whose reading never moved stands, to be flagged
    assert _payout_beside([(0, 15.0)], payout_at=100, paid=25.0) == (False, [])


def test_a_payout_short_by_just_what_its_wager_reads_over_is_paid_in_full() -> None:
    # two of the $20 payout's chips read in the wager's zone as the payout was laid: $10 + $10 is the $20 paid
    ws, live = _settled_beside([(0, 15.0), (92, 25.0)], payout_at=100, paid=10.0, rules_pay=20.0)
    assert ws.paid == 20.0 and not ws.uncertain
    (note,) = live.notes
    assert note.startswith("inferred: seat 7 low (hand 1): the payout read as 10 and the 10 ") and "frame 92" in note
    # a real short pay ($10 of $20, all of it read) beside a wager that read more long before (a past-post) stands
    assert _payout_beside([(0, 15.0), (40, 25.0)], payout_at=100) == (False, [])


def test_a_short_payout_whose_wager_reads_less_from_the_moment_it_was_laid_is_in_doubt() -> None:
    # King High, held-out video: a $400 Low and its $400 payout laid over the wager's top chip, read $300 and $300
    # until both were taken, sure of both: the two chips where they meet read as none, and a short pay was claimed.
    doubt, notes = _payout_beside([(0, 15.0), (96, 10.0)], payout_at=100)
    assert doubt and "payout read as 10" in notes[0] and "read as 10 from frame 96" in notes[0]
    # paid as the rules pay: nothing hidden from the payout, nothing to doubt
    assert _payout_beside([(0, 15.0), (96, 10.0)], payout_at=100, paid=20.0) == (False, [])
    # the wager fell long before its payout came (a pinch, flagged elsewhere): the short payout stands
    assert _payout_beside([(0, 15.0), (40, 10.0)], payout_at=100) == (False, [])


def _regrouped(wager_steps: list[tuple[int, float]], payout_steps: list[tuple[int, float]]) -> int | None:
    """A $250 Pick 2 Ante won, its payout laid in line with it (10 frames a second)."""
    from pipelines.rounds.pick2_poker import Pick2PokerMachine

    m = Pick2PokerMachine("T1")
    ws = WagerSeen(Wager(seat=2, spot="ante", amount=250.0), ChipInstance("seat2.ante", 0, wager_steps), 5,
                   "seat2.ante.paid")
    return m._payout_regrouped(ws, ChipInstance("seat2.ante.paid", payout_steps[0][0], payout_steps))


def test_a_payout_that_grows_as_its_wager_changes_is_a_regrouping_not_a_payout() -> None:
    # held-out sample: $150 laid (a short pay of $250), read $250 from the frame the wager read $225
    assert _regrouped([(0, 250.0), (136, 225.0)], [(113, 150.0), (136, 250.0)]) == 136
    # the payout grows while the wager stands (laid in two moves, or first half under the hand): a payout
    assert _regrouped([(0, 250.0)], [(113, 150.0), (120, 250.0)]) is None
    # the wager changed, but long before or after the payout grew; or the payout never grew
    assert _regrouped([(0, 250.0), (60, 225.0)], [(113, 150.0), (136, 250.0)]) is None
    assert _regrouped([(0, 250.0), (136, 225.0)], [(113, 250.0), (136, 150.0)]) is None
    # the wager fell before its payout was seen at all (its top chip under the hand laying the payout, then under
    # the payout's first chip), and the payout grew as the hand left it: no chip went from one reading to the other
    assert _regrouped([(0, 250.0), (112, 225.0)], [(113, 225.0), (116, 250.0)]) is None
    # (3 Card Monster, video, set A20, seed 13083) the wager read less under the hand laying the payout, then more,
    # if still short of locked, as the payout grew: both came out from under the hand, no chip went between them
    assert _regrouped([(0, 250.0), (130, 150.0), (136, 225.0)], [(133, 25.0), (136, 250.0)]) is None
    # fell again as the payout grew, from a reading already short: chips may have gone from one to the other
    assert _regrouped([(0, 250.0), (130, 240.0), (136, 225.0)], [(133, 25.0), (136, 250.0)]) == 136


def _shrank(payout_steps: list[tuple[int, float]], end: int | None) -> int | None:
    """A 3 Card Monster Ante payout (10 frames a second), taken at `end` (None: still there)."""
    from pipelines.rounds.three_card_monster import ThreeCardMonsterMachine

    p = ChipInstance("seat2.ante.paid", payout_steps[0][0], payout_steps, end=end)
    return ThreeCardMonsterMachine("T1")._payout_shrank(p, LiveRound(start=0, last=900))


def test_a_payout_read_higher_only_briefly_before_a_lower_total_is_in_doubt() -> None:
    # held-out set: a $75 payout read $100 for three frames as the hand left it, then $50 until taken
    assert _shrank([(701, 100.0), (704, 50.0)], end=760) == 704
    # still there when the round's record ends: the lower total held longer all the same
    assert _shrank([(701, 100.0), (704, 50.0)], end=None) == 704
    # laid and held, then taken in stages: the last stage is shorter than the payout was held
    assert _shrank([(701, 75.0), (750, 25.0)], end=755) is None
    # grown under the hand to what it stays at: no fall at all
    assert _shrank([(701, 25.0), (704, 75.0)], end=760) is None
    # back to its peak after a lower spell that was not held longer than the peak
    assert _shrank([(701, 75.0), (720, 50.0), (725, 75.0)], end=760) is None


def test_a_stack_seen_again_after_a_gap_is_the_same_stack_only_if_it_reads_as_much() -> None:
    from pipelines.rounds.timeline import ChipZone

    def instances(second: float) -> list[tuple[int, int | None, list]]:
        z = ChipZone("seat6.play")
        for frame, total in [(1500, 30.0), (1561, 0.0), (1575, second), (1578, 0.0)]:
            z.update(frame, total, False)
        z.merge_gaps(float("inf"))
        return [(i.start, i.end, i.hidden) for i in z.instances]

    # 3 Card Monster, held-out video (set 9603): a $1 chip read for three frames in the Play spot after its
    # $30 was taken is another stack; merged, the Play looked taken at 1578, after the Royal
    assert instances(1.0) == [(1500, 1561, []), (1575, 1578, [])]
    # the $30 seen again (the hand had only covered it), or half of it showing: one stack, hidden for a while
    assert instances(30.0) == [(1500, 1578, [(1561, 1575)])]
    assert instances(15.0) == [(1500, 1578, [(1561, 1575)])]


def test_a_stack_covered_as_its_neighbour_is_taken_keeps_the_manuals_order_in_its_box(reconstruct):
    # Pick 2 seat 3 loses its Ante, 3-5 Bonus and 5 Card Bonus, taken in that order. The hand taking the Ante
    # covers the 5 Card Bonus until it takes it: gone from view with the Ante, it was once ordered before
    # the 3-5 Bonus (with fewer frames analysed, the moment it showed again between was missed).
    scripted, _, setup = reconstruct("pick-2-poker", 3, 1)
    truth = scripted[0].round
    ante = next(s for s in truth.settlements if s.seat == 3 and s.spot == "ante")

    def covered_with_the_ante(frame: int, obs: FrameObs) -> None:
        if frame >= ante.frames.start:
            obs.pop("seat3.bonus5", None)

    got = rounds_with_edited_observations("pick-2-poker", scripted, setup, covered_with_the_ante)
    rnd = next(r for r in got if r.round_id == truth.round_id)
    seat3 = [s.spot for s in sorted(rnd.settlements, key=lambda s: s.seq) if s.seat == 3]
    assert seat3 == ["ante", "bonus35", "bonus5"]
    assert compare_rounds([rnd], [truth])[0].result == "exact"


def test_a_short_payout_is_in_doubt_only_where_a_chip_of_it_could_hide() -> None:
    # The detector misses chips over a card's edge and under another stack's chip. A Pick 2 Ante payout read $15 of
    # the $20 the rules pay (set 10331): if a chip of it could lie over the seat's cards, the round is unsure; if
    # its rows' next place is clear of every card and every other stack, all of it was seen and the short pay
    # stands.
    from pipelines.rounds.pick2_poker import Pick2PokerMachine

    def doubted(room: bool) -> tuple[bool, list[str]]:
        ws = WagerSeen(Wager(seat=4, spot="ante", amount=20.0), ChipInstance("seat4.ante", 0, [(0, 20.0)]), 5,
                       "seat4.ante.paid", outcome="win", paid=15.0)
        ws.payout = ChipInstance("seat4.ante.paid", 100, [(100, 15.0)], hidden_room=room)
        live = LiveRound(start=0)
        rule = Settlement(seat=4, spot="ante", hand=0, wagered=20.0, amount=20.0, outcome="win", net=20.0,
                          line="ante", order=1, rule="test")
        Pick2PokerMachine("T1")._doubt_short_payouts([ws], [rule], live)
        return ws.uncertain, live.notes

    doubt, notes = doubted(True)
    assert doubt and notes == ["seat 4 ante (hand 0): payout read as 15, less than the rules pay, where a chip of it "
                               "could lie unseen (over a card's edge, under another stack's chip, or at the end of a "
                               "stack lying off its spot's centre)"]
    assert doubted(False) == (False, [])


def test_a_winner_read_more_after_its_bets_closed_with_no_payout_seen_is_in_doubt() -> None:
    # King High, held-out video: a $2 Pokerpot won $4, laid against it and read with it ($5; its fourth chip read as a
    # $1 Low Run beside it). With no payout seen it read as a push: an unpaid winner claimed that was paid.
    def notes(steps: list[tuple[int, float]], outcome: str | None = None, rules: str = "win") -> list[str]:
        live = LiveRound(start=0, last=400)
        ws = WagerSeen(Wager(seat=6, spot="pokerpot", amount=2.0), ChipInstance("seat6.pokerpot", 7, steps), 100,
                       "seat6.pokerpot.paid")
        ws.outcome = outcome
        KingHighMachine("T1")._doubt_payout_read_with_wager([ws], {ws.key: rules}, live)
        return live.notes

    assert notes([(7, 2.0), (345, 5.0)]) == [
        "seat 6 pokerpot (hand 0): won by the rules, no payout seen, and read as 5 from frame 345: its payout may "
        "have been read with it"]
    assert notes([(7, 2.0), (345, 5.0)], outcome="removed")  # taken with it
    assert notes([(7, 2.0)]) == []  # as locked to the end: an unpaid winner, for reconciliation to flag
    assert notes([(7, 2.0), (60, 5.0)]) == []  # grown before its bets closed: a wager changed in time
    assert notes([(7, 2.0), (345, 5.0)], rules="push") == []
    assert notes([(7, 2.0), (345, 5.0)], outcome="win") == []  # a payout seen: the past-post's to judge


def test_a_winner_read_with_doubt_only_once_its_payout_showed_as_the_rules_pay_is_no_doubt() -> None:
    # King High, held-out video: a $20 High read $15 and $10 by turns, with doubt, once its $20 payout lay over its
    # top chip; the payout was read surely as the rules pay.
    def settle(doubt_at: int, paid: float = 20.0, payout_doubted: bool = False,
               steps: tuple[tuple[int, float], ...] = ((392, 20.0), (443, 15.0))) -> tuple[bool, list[str]]:
        w = Wager(seat=7, spot="high", hand=2, amount=20.0)
        inst = ChipInstance("seat7.high", 392, list(steps), doubtful={443})
        ws = WagerSeen(w, inst, 402, "seat7.high.paid", outcome="win", paid=paid, uncertain=True)
        ws.payout = ChipInstance("seat7.high.paid", 438, [(438, paid)], doubtful={438} if payout_doubted else set())
        live = LiveRound(start=0, last=460)
        live.note(f"uncertain observation in seat7.high at frame {doubt_at}: its stack read confidently as other "
                  "totals in most of the last 20 frames")
        rule = Settlement(seat=7, spot="high", hand=2, wagered=20.0, amount=20.0, outcome="win", net=20.0,
                          line="high", order=1, rule="test")
        KingHighMachine._paid_wagers_read_later([ws], [rule], live)
        return ws.uncertain, [n for n in live.notes if not n.startswith("inferred")]

    assert settle(447) == (False, [])
    uncertain, notes = settle(420)  # in doubt before its payout showed: its amount may rest on it
    assert uncertain and notes and "frame 420" in notes[0]
    uncertain, notes = settle(447, paid=15.0)  # a payout short of the rules: what lay beside it still counts
    assert uncertain and notes
    # The payout read with doubt, but as the rules pay (V 11261 1773d6a2, a $40 Suit and its $120 payout): a misreading
    # would have to make up for a payout error to the chip, as `_doubt_stacks_read_unsure` has it.
    assert settle(447, payout_doubted=True) == (False, [])
    uncertain, notes = settle(447, paid=15.0, payout_doubted=True)
    assert uncertain and notes
    # Past-posted to $22 before its payout and paid on that (Pick 2 set 11594, 26311a29: read $21 surely and $22 with
    # doubt by turns under the payout's chip): the payout is what the rules pay on what lay there.
    posted = ((392, 20.0), (420, 22.0), (443, 21.0))
    assert settle(447, paid=22.0, steps=posted) == (False, [])
    uncertain, notes = settle(447, paid=21.0, steps=posted)
    assert uncertain and notes


def test_a_stack_read_gone_as_the_hand_left_its_box_was_taken_during_the_hands_stay() -> None:
    from pipelines.rounds.three_card_monster import ThreeCardMonsterMachine

    # 3 Card Monster, held-out video (set PP, 11913, round 19ff96e3): seat 6's $25 Play returned at 605 under the
    # hand, which lay over the Play's spot until 609; the spot read empty for good only from 612. The Ante's payout,
    # laid 609-611, showed at 614, so by the times seen it came first (a payout shows up to 8 frames late).
    def order(play_covered: range | None) -> list[str]:
        log = CoverLog()
        for f in range(590, 620):
            log.add(f, {"seat6.play"} if play_covered is not None and f in play_covered else set(), set())
        m = ThreeCardMonsterMachine("T1", cover=log)
        m._assumed_order, m._unseen_order = [], []
        play = WagerSeen(Wager(seat=6, spot="play", amount=25.0), ChipInstance("seat6.play", 0, [(0, 25.0)]), 0,
                         "seat6.play.paid", outcome="returned", settled_at=612)
        ante = WagerSeen(Wager(seat=6, spot="ante", amount=25.0), ChipInstance("seat6.ante", 0, [(0, 25.0)]), 0,
                         "seat6.ante.paid", outcome="win", paid=25.0, settled_at=614)
        out = m._in_dealer_order([ante, play], {(6, "play", 0): 0, (6, "ante", 0): 1})
        assert m._assumed_order == []  # one box: one sweep of the hand, no doubt
        return [ws.wager.spot for ws in out]

    assert order(range(598, 610)) == ["play", "ante"]  # taken under the hand, up to 8 frames before it read gone
    assert order(None) == ["ante", "play"]  # the spot in view all along: gone when read gone, after the payout
    assert order(range(598, 605)) == ["ante", "play"]  # the hand had left it well before it read gone


def test_a_payout_shown_while_its_spot_is_still_under_the_hand_was_laid_at_an_unseen_moment() -> None:
    from pipelines.rounds.three_card_monster import ThreeCardMonsterMachine

    # 3 Card Monster, held-out video (set A14, 12863, round cb66b4f8): seat 3's $500 Play paid at 142-144 and its
    # $500 Ante at 148-150, the hand over the Play's paid spot from 137 (bare before) to past 161; the Ante's payout
    # showed at 153, the Play's only at 161, so by the times seen the Ante was paid first: an order the manual does
    # not give, claimed.
    def order(play_paid_covered: range) -> tuple[list[str], list]:
        log = CoverLog()
        for f in range(130, 170):
            covered = {"seat3.play.paid"} if f in play_paid_covered else set()
            log.add(f, covered, {"seat3.play.paid"} - covered if f < play_paid_covered.start else set())
        m = ThreeCardMonsterMachine("T1", cover=log)
        m._assumed_order, m._unseen_order = [], []
        play = WagerSeen(Wager(seat=3, spot="play", amount=500.0), ChipInstance("seat3.play", 0, [(0, 500.0)]), 0,
                         "seat3.play.paid", outcome="win", paid=500.0, settled_at=161)
        ante = WagerSeen(Wager(seat=3, spot="ante", amount=500.0), ChipInstance("seat3.ante", 0, [(0, 500.0)]), 0,
                         "seat3.ante.paid", outcome="win", paid=500.0, settled_at=153)
        out = m._in_dealer_order([ante, play], {(3, "play", 0): 0, (3, "ante", 0): 1})
        return [ws.wager.spot for ws in out], m._unseen_order

    # Laid at some moment of the hand's stay, up to 161: which came first is not known; the manual's order, in doubt.
    assert order(range(137, 170)) == (["play", "ante"], [((3, "play", 0), (3, "ante", 0))])
    # The hand gone from the Play's paid spot long before its payout showed: laid after the Ante's, as seen.
    assert order(range(137, 141)) == (["ante", "play"], [])
    # The hand over it from 155 only: shown no later than a payout laid as the hand came shows anyway (set A5 12511,
    # King High: seat 4's Pokerpot payout shown 5 frames after the hand came, before seat 1's), as seen.
    assert order(range(155, 170)) == (["ante", "play"], [])


def test_a_loser_gone_while_the_hand_lay_over_its_box_paying_leaves_the_order_unknown() -> None:
    # King High, held-out set A55 (seed 14481, round 4698f69e): seat 2's $20 Low paid at 521-523, then its losing $1
    # Suit taken at 527, against the manual (losers first), under a hand over the whole box from 520 to 528. The Suit
    # read gone from 522, the payout first at 529 (so laid from 521 on): which came first no frame shows, and the
    # round said the manual's order without doubt. The Low's own stack stayed in view in part: not hidden.
    def box(suit_gone: int, paid_spot_covered_from: int) -> tuple[list[str], list]:
        log = CoverLog()
        for f in range(505, 540):
            covered = {"seat2.suit"} if 520 <= f <= 528 else set()
            if paid_spot_covered_from <= f <= 528:
                covered.add("seat2.low.paid")
            bare = {"seat2.low.paid"} if f < paid_spot_covered_from else set()
            log.add(f, covered, bare | ({"seat2.suit"} if f > 528 else set()))
        m = KingHighMachine("T1", cover=log)
        m._assumed_order, m._unseen_order = [], []
        low = WagerSeen(Wager(seat=2, spot="low", hand=5, amount=20.0), ChipInstance("seat2.low", 0, [(0, 20.0)]),
                        0, "seat2.low.paid", outcome="win", paid=30.0, settled_at=529)
        suit = WagerSeen(Wager(seat=2, spot="suit", hand=5, amount=1.0), ChipInstance("seat2.suit", 0, [(0, 1.0)]),
                         0, "seat2.suit.paid", outcome="lose", settled_at=suit_gone)
        out = m._in_dealer_order([low, suit], {(2, "suit", 5): 0, (2, "low", 5): 1})
        return [ws.wager.spot for ws in out], m._assumed_order + m._unseen_order

    # gone while the hand lay over the Low's paid spot, the payout maybe laid by then: the manual's order, in doubt
    assert box(522, 520) == (["suit", "low"], [((2, "suit", 5), (2, "low", 5))])
    # gone before the hand came over the paid spot to lay the payout: taken first, as the manual says
    assert box(522, 523) == (["suit", "low"], [])
