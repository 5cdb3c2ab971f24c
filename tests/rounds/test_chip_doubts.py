"""A stack's doubt is about the totals its facts rest on: a doubtful dip read away as noise is no doubt."""

from __future__ import annotations

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


def _payout_reaching(paid: float, reaching: bool = True, also_unsure: bool = False) -> list[str]:
    """A King High $40 Suit wager won at 3-1, its payout's chips read, in every frame, reaching into the next
    spot (`reaching`), or also with a chip below the detector's confidence (`also_unsure`)."""
    from pipelines.games.round import Wager
    from pipelines.games.settlement import Settlement
    from pipelines.rounds.king_high import KingHighMachine
    from pipelines.rounds.machine import LiveRound, WagerSeen
    from pipelines.rounds.timeline import ChipInstance

    zone = ChipZone("seat5.suit_c.paid")
    zone.update(578, paid, uncertain=True, reaching=reaching)
    if also_unsure:
        zone.update(600, paid, uncertain=True)  # read again as much, with another doubt
    zone.settle_noise()
    w = Wager(seat=5, spot="suit", hand=1, amount=40.0)
    ws = WagerSeen(w, ChipInstance("seat5.suit_c", 0, [(0, 40.0)]), 5, zone.name, outcome="win", paid=paid)
    ws.payout = zone.instances[0]
    rule = Settlement(seat=5, spot="suit", hand=1, wagered=40.0, amount=40.0, outcome="win", net=120.0,
                      line="suit", order=1, rule="test")
    live = LiveRound(start=0)
    KingHighMachine("T1")._doubt_stacks_read_unsure([ws], [rule], live)
    return live.notes


def test_a_payout_reaching_into_another_spot_is_no_doubt_when_it_reads_as_the_rules_pay():
    # held-out King High set 9501: $100 + 4 x $5 laid beside a $40 Suit wager, the last $5 in the empty spot
    # next to it, read right but left in doubt
    assert _payout_reaching(120.0) == []
    # read as anything else, another stack may be in its reading (or a chip of it in another's)
    (note,) = _payout_reaching(125.0)
    assert "seat5.suit_c.paid read with doubt at frame 578" in note
    # a doubt of another kind stays, as does one whose kind was not said
    assert _payout_reaching(120.0, also_unsure=True)
    assert _payout_reaching(120.0, reaching=False)
