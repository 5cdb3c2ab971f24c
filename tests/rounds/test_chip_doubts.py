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
