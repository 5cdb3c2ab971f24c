"""A payout read short of what the rules pay is in doubt, not a short pay, where a chip of it could lie unseen: the
detector misses chips lying over a card's edge (3 Card Monster's Play, Pick 2's Ante and Play) and under another
stack's chip (a 3 Card Monster Ante payout beside its Monster payout). With no such room, the short pay stands."""

from __future__ import annotations

from pipelines.games.round import Wager
from pipelines.games.settlement import Settlement
from pipelines.rounds.live import LiveRound, WagerSeen
from pipelines.rounds.machine import RoundMachine
from pipelines.rounds.pick2_poker import Pick2PokerMachine
from pipelines.rounds.three_card_monster import ThreeCardMonsterMachine
from pipelines.rounds.timeline import ChipInstance


def _short_payout(m: RoundMachine, spot: str, paid: float, rules_pay: float = 30.0,
                  room: bool = True, read_surely: set[float] | None = None) -> tuple[bool, list[str]]:
    """Seat 2's $30 `spot` wager won; its payout was read as `paid` and never moved its wager's reading; `room`:
    a chip of the payout missed could have lain unseen; `read_surely`: the totals it was read as confidently before
    it was confirmed."""
    w = Wager(seat=2, spot=spot, hand=0, amount=30.0)
    ws = WagerSeen(w, ChipInstance(f"seat2.{spot}", 0, [(0, 30.0)]), 5, f"seat2.{spot}.paid", outcome="win",
                   paid=paid)
    ws.payout = ChipInstance(f"seat2.{spot}.paid", 100, [(100, paid)], hidden_room=room,
                             read_surely=set(read_surely or ()))
    live = LiveRound(start=0)
    rule = Settlement(seat=2, spot=spot, hand=0, wagered=30.0, amount=30.0, outcome="win", net=rules_pay,
                      line=spot, order=1, rule="test")
    m._doubt_short_payouts([ws], [rule], live)
    return ws.uncertain, live.notes


def test_a_short_payout_where_a_chip_of_it_could_hide_is_in_doubt() -> None:
    doubt, notes = _short_payout(ThreeCardMonsterMachine("T1"), "play", paid=5.0)
    assert doubt and "payout read as 5" in notes[0] and "could lie unseen" in notes[0]
    doubt, notes = _short_payout(Pick2PokerMachine("T1"), "ante", paid=5.0)
    assert doubt and "seat 2 ante" in notes[0]
    # away from the cards too: a chip of it could lie under another stack's chip
    assert _short_payout(ThreeCardMonsterMachine("T1"), "ante", paid=5.0)[0]


def test_a_payout_as_the_rules_pay_or_with_nowhere_to_hide_a_chip_stands() -> None:
    # paid in full (or more: an overpay is seen whole), nothing to doubt
    assert _short_payout(ThreeCardMonsterMachine("T1"), "play", paid=30.0) == (False, [])
    assert _short_payout(ThreeCardMonsterMachine("T1"), "play", paid=35.0) == (False, [])
    # all of it in view: the short pay stands, to be flagged
    assert _short_payout(ThreeCardMonsterMachine("T1"), "ante", paid=5.0, room=False) == (False, [])
    assert _short_payout(Pick2PokerMachine("T1"), "play", paid=5.0, room=False) == (False, [])


def test_a_short_payout_read_surely_as_the_rules_pay_as_it_was_laid_is_that() -> None:
    # King High, fresh video (set 11821): a $3 High payout of three $1 chips read so surely as it was laid, then $2
    # for good, the third chip under another stack's; the round said it was unsure of a $1 short pay that was none.
    m = ThreeCardMonsterMachine("T1")
    w = Wager(seat=2, spot="ante", hand=0, amount=30.0)
    ws = WagerSeen(w, ChipInstance("seat2.ante", 0, [(0, 30.0)]), 5, "seat2.ante.paid", outcome="win", paid=25.0)
    ws.payout = ChipInstance("seat2.ante.paid", 100, [(100, 25.0)], read_surely={5.0, 25.0, 30.0})
    live = LiveRound(start=0)
    rule = Settlement(seat=2, spot="ante", hand=0, wagered=30.0, amount=30.0, outcome="win", net=30.0,
                      line="ante", order=1, rule="test")
    m._doubt_short_payouts([ws], [rule], live)
    assert ws.paid == 30.0 and not ws.uncertain
    assert live.notes[0].startswith("inferred: seat 2 ante") and "read surely as 30" in live.notes[0]
    # read surely only as other totals, or with nowhere for a chip to hide: as before
    assert _short_payout(ThreeCardMonsterMachine("T1"), "ante", paid=25.0, read_surely={25.0, 35.0})[0]
    assert _short_payout(ThreeCardMonsterMachine("T1"), "ante", paid=25.0, room=False,
                         read_surely={30.0}) == (False, [])


def test_a_payout_read_surely_as_the_rules_pay_for_a_moment_answers_the_trackers_doubt() -> None:
    # King High, fresh video (set 11591): a $200 High payout of two $100 chips lying almost one on the other, read as
    # one box in five of its six frames and as two, surely, in one; the tracker doubted the $100 it confirmed.
    from pipelines.vision.track import PAYOUT_READ_LARGER

    m = ThreeCardMonsterMachine("T1")
    w = Wager(seat=8, spot="ante", hand=0, amount=200.0)
    ws = WagerSeen(w, ChipInstance("seat8.ante", 0, [(0, 200.0)]), 5, "seat8.ante.paid", outcome="win", paid=100.0)
    ws.payout = ChipInstance("seat8.ante.paid", 549, [(549, 100.0)], doubtful={553}, hidden_room=False,
                             read_surely={100.0, 200.0})
    live = LiveRound(start=0)
    live.note("uncertain observation in seat8.ante.paid at frame 553: " + PAYOUT_READ_LARGER.format(more="200"))
    rule = Settlement(seat=8, spot="ante", hand=0, wagered=200.0, amount=200.0, outcome="win", net=200.0,
                      line="ante", order=1, rule="test")
    m._doubt_short_payouts([ws], [rule], live)
    assert ws.paid == 200.0 and len(live.notes) == 1 and live.notes[0].startswith("inferred: seat 8 ante")
    # not in doubt and with nowhere for a chip to hide, the short pay it was read as stands
    ws.paid, ws.payout.doubtful = 100.0, set()
    m._doubt_short_payouts([ws], [rule], LiveRound(start=0))
    assert ws.paid == 100.0


def test_a_payout_read_at_its_largest_in_plain_view_is_seen_whole() -> None:
    # 3 Card Monster, held-out set A48 seed 14223, round cb66b4f8: a $5 Play paid $4 in four $1 chips (a true short
    # pay), read as $2 with room for a chip unseen for three frames as it was laid, then as $4 in plain view for
    # eighteen frames until it was taken. Room for a chip unseen at $2 says nothing of a fifth chip beside four.
    from pipelines.rounds.timeline import ChipZone

    def short_pay(room_at_peak: bool) -> tuple[float, bool]:
        zone = ChipZone("seat2.play.paid")
        zone.update(188, 2.0, False, hidden_room=True)
        zone.update(191, 4.0, False, hidden_room=room_at_peak)
        zone.update(209, 0.0, False)
        ws = WagerSeen(Wager(seat=2, spot="play", hand=0, amount=5.0), ChipInstance("seat2.play", 0, [(0, 5.0)]), 5,
                       "seat2.play.paid", outcome="win", paid=4.0)
        ws.payout = zone.instances[0]
        rule = Settlement(seat=2, spot="play", hand=0, wagered=5.0, amount=5.0, outcome="win", net=5.0, line="play",
                          order=1, rule="test")
        ThreeCardMonsterMachine("T1")._doubt_short_payouts([ws], [rule], LiveRound(start=0))
        return ws.paid, ws.uncertain

    assert short_pay(room_at_peak=False) == (4.0, False)  # the short pay stands, for reconciliation to flag
    assert short_pay(room_at_peak=True) == (4.0, True)  # read at $4 with room for a chip unseen: in doubt


def test_a_short_payout_confirmed_in_plain_view_is_not_lifted_by_a_later_sure_reading() -> None:
    # Pick 2, fresh video (set A70, seed 15084, round 0629d85b): a true short pay of $125 on a $150 Play, confirmed at
    # $125 with no room for a chip unseen, then read surely as $150 for three frames as the hand took the seat's
    # Bonus, a chip of the Ante's payout counted with the Play's (room at that later reading only, its row now off
    # its spot's centre); the round was wrong, the short pay lifted to the rules' $150.
    def read(payout: ChipInstance) -> tuple[float, bool, list[str]]:
        m = Pick2PokerMachine("T1")
        w = Wager(seat=2, spot="play", hand=0, amount=150.0)
        ws = WagerSeen(w, ChipInstance("seat2.play", 0, [(0, 150.0)]), 5, "seat2.play.paid", outcome="win",
                       paid=125.0)
        ws.payout = payout
        live = LiveRound(start=0)
        rule = Settlement(seat=2, spot="play", hand=0, wagered=150.0, amount=150.0, outcome="win", net=150.0,
                          line="play", order=1, rule="test")
        m._doubt_short_payouts([ws], [rule], live)
        return ws.paid, ws.uncertain, live.notes

    later_room = ChipInstance("seat2.play.paid", 406, [(406, 125.0)], hidden_room=True, room={406: False, 416: True},
                              read_surely={125.0, 150.0})
    assert read(later_room) == (125.0, False, [])  # the short pay stands, to be flagged
    # with room as the $125 was confirmed, the sure $150 answers it, as before
    laid_with_room = ChipInstance("seat2.play.paid", 406, [(406, 125.0)], hidden_room=True, room={406: True},
                                  read_surely={125.0, 150.0})
    paid, doubt, notes = read(laid_with_room)
    assert paid == 150.0 and not doubt and "read surely as 150" in notes[0]
