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


def _payout_read_unsure(paid: float, twice: bool = False) -> list[str]:
    """A King High $40 Suit wager won at 3-1, its payout read with doubt as `paid` (`twice`: confirmed again, as
    much, with doubt again)."""
    from pipelines.games.round import Wager
    from pipelines.games.settlement import Settlement
    from pipelines.rounds.king_high import KingHighMachine
    from pipelines.rounds.machine import LiveRound, WagerSeen
    from pipelines.rounds.timeline import ChipInstance

    zone = ChipZone("seat5.suit_c.paid")
    zone.update(578, paid, uncertain=True)
    if twice:
        zone.update(600, paid, uncertain=True)
    zone.settle_noise()
    w = Wager(seat=5, spot="suit", hand=1, amount=40.0)
    ws = WagerSeen(w, ChipInstance("seat5.suit_c", 0, [(0, 40.0)]), 5, zone.name, outcome="win", paid=paid)
    ws.payout = zone.instances[0]
    rule = Settlement(seat=5, spot="suit", hand=1, wagered=40.0, amount=40.0, outcome="win", net=120.0,
                      line="suit", order=1, rule="test")
    live = LiveRound(start=0)
    KingHighMachine("T1")._doubt_stacks_read_unsure([ws], [rule], live)
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
