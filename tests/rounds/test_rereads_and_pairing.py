"""A half-covered card re-read as another identity is corrected, not added; rounds pair by shared frames."""

from __future__ import annotations

from pipelines.games.round import FrameRange, Round
from pipelines.rounds.compare import compare_rounds
from pipelines.rounds.timeline import CardZone
from pipelines.vision.observe import ZoneState


def _state(*cards: str | None) -> ZoneState:
    return ZoneState(cards=tuple((c, c is not None) for c in cards))


def _feed(zone: CardZone, states: list[ZoneState], rereads: bool) -> None:
    for i, st in enumerate(states):
        zone.update(10 * i, st, next_seq=len(zone.slots), rereads=rereads)


# Four cards dealt face down in a column, turned over; the second is half covered and read as 5c once.
TURNED = [_state(None, None, None, None), _state("2d", "Kh", "3s"), _state("2d", "5c", "3s"),
          _state("2d", "4c", "Kh", "3s")]


def test_a_reread_card_corrects_a_known_one_where_cards_stay():
    zone = CardZone("seat5.cards")
    _feed(zone, TURNED, rereads=True)
    assert [s.card for s in zone.slots] == ["2d", "4c", "Kh", "3s"]


def test_without_rereads_every_new_identity_is_a_new_card():
    zone = CardZone("seat5.cards")  # King High: cards move on, so a new identity may be a new card
    _feed(zone, TURNED, rereads=False)
    assert len(zone.slots) == 5


def test_a_card_dealt_while_all_are_in_view_is_still_added():
    zone = CardZone("seat1.cards")
    _feed(zone, [_state("Ah", "Kd"), _state("Ah", "Kd", "7c")], rereads=True)
    assert [s.card for s in zone.slots] == ["Ah", "Kd", "7c"]


def _round(rid: str, start: int, end: int) -> Round:
    return Round(game="pick-2-poker", table_id="T1", round_id=rid, started_at="2025-01-06T20:00:00+00:00",
                 frames=FrameRange(start=start, end=end))


def test_rounds_pair_by_shared_frames_when_the_start_differs():
    truth = [_round("a", 0, 99), _round("b", 100, 199)]
    got = [_round("x", 2, 99), _round("y", 150, 160), _round("z", 201, 260)]
    verdicts = {v.round_id: v.result for v in compare_rounds(got, truth)}
    assert verdicts["a"] == "exact"  # first seen two frames late: the same round
    assert verdicts["b"] == "missed"  # covers 11 of its 100 frames: not the same round
    assert verdicts["y"] == verdicts["z"] == "extra"


def test_a_new_identity_where_a_card_hid_as_others_arrived_is_a_doubt():
    # High Tie, held-out video: a split hand 3d 2h; two hits land at once and cover the 2h, so the area
    # shows 3d 6d Jh. Jh may be the 2h read again or the second hit over it: the deal cannot be told.
    zone = CardZone("seat4.cards.1")
    _feed(zone, [_state("3d", "2h"), _state("3d", "6d", "Jh")], rereads=True)
    assert zone.doubts == [("2h", "Jh", 10)]
    zone = CardZone("seat4.cards.1")  # the 2h shows again: Jh was a new card after all
    _feed(zone, [_state("3d", "2h"), _state("3d", "6d", "Jh"), _state("3d", "2h", "6d", "Jh")], rereads=True)
    assert not zone.doubts and sorted(s.card for s in zone.slots) == ["2h", "3d", "6d", "Jh"]
    zone = CardZone("seat5.cards")  # no card arrived with it: a re-read, sure
    _feed(zone, TURNED, rereads=True)
    assert not zone.doubts
