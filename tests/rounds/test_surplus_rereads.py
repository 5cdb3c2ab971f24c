"""Where a game deals a fixed number of cards to a seat, a card read with doubt as a second copy of one in
view, and never read surely, is that card read again once every dealt card is read surely."""

from __future__ import annotations

from dataclasses import replace

from pipelines.rounds.compare import compare_rounds
from pipelines.rounds.timeline import CardZone
from pipelines.vision.observe import FrameObs, ZoneState

from .conftest import rounds_with_edited_observations

DOWN = ZoneState(cards=((None, False),) * 4)


def _up(*cards: str, uncertain: bool = False) -> ZoneState:
    return ZoneState(cards=tuple((c, True) for c in cards), uncertain=uncertain)


def _turned_under_the_hand(zone: CardZone, middle: ZoneState) -> ZoneState:
    """Held-out 3 Card Monster video (round e4aa9ea3, seat 2): four cards face down; three turned while the
    dealer's hand still covers the fourth; the Qc read for a moment as a second Qs; then all four."""
    for frame, state in ((1971, DOWN), (2078, _up("7h", "Qs", "Qc")), (2079, middle),
                         (2085, _up("7h", "Qs", "Qc", "6s", uncertain=True))):
        zone.update(frame, state, next_seq=len(zone.slots))
    sure = _up("7h", "Qs", "Qc", "6s")
    zone.confirm(sure)  # frame 2091: the same four, read confidently
    return sure


def test_a_doubtful_second_copy_is_dropped_and_the_face_down_card_keeps_its_place():
    zone = CardZone("seat2.cards")
    sure = _turned_under_the_hand(zone, _up("7h", "Qs", "Qs", uncertain=True))
    assert [s.card for s in zone.slots] == ["7h", "Qs", "Qc", "Qs", "6s"]  # what the area alone concludes
    assert zone.drop_rereads(sure, dealt=4) == [("Qs", 2079)]
    assert [(s.card, s.face_up, s.frame, s.exposed_frame) for s in zone.slots] == [
        ("7h", False, 1971, 2078), ("Qs", False, 1971, 2078), ("Qc", False, 1971, 2078), ("6s", False, 1971, 2085)]


def test_a_second_copy_read_surely_stays_for_review():
    # A card really dealt twice (a misdeal) is read surely both times: nothing is taken away.
    zone = CardZone("seat2.cards")
    sure = _turned_under_the_hand(zone, _up("7h", "Qs", "Qs"))
    assert zone.drop_rereads(sure, dealt=4) == []
    assert len(zone.slots) == 5


def test_nothing_is_dropped_while_a_dealt_card_is_not_in_view():
    zone = CardZone("seat2.cards")
    _turned_under_the_hand(zone, _up("7h", "Qs", "Qs", uncertain=True))
    assert zone.drop_rereads(_up("7h", "Qs", "6s"), dealt=4) == []
    assert zone.drop_rereads(_up("7h", "Qs", "Qc", "6s"), dealt=5) == []  # a game dealing five: one is missing


def test_a_misread_while_the_last_card_is_covered_leaves_the_round_exact(reconstruct):
    scripted, _, setup = reconstruct("3-card-monster", 3, 21)
    truth = next(s.round for s in scripted if any(d.action == "play" for d in s.round.decisions))
    seat = next(d.seat for d in truth.decisions if d.action == "play")
    zone = f"seat{seat}.cards"
    cards = truth.cards_of(f"seat:{seat}")
    turned: list[int] = []
    misread: set[str] = set()

    def covered_and_misread(frame: int, obs: FrameObs) -> None:
        shown = obs.get(zone)
        if shown is None or len(shown.cards) != 4 or not all(c.face_up for c in shown.cards):
            return
        turned.append(frame)
        if len(turned) <= 6:  # the first frames the hand is still over the fourth card, the third misread
            row = sorted(shown.cards, key=lambda c: c.x_mm)
            shown.cards = [*row[:2], replace(row[2], card=row[1].card)]
            misread.add(row[1].card)

    got = rounds_with_edited_observations("3-card-monster", scripted, setup, covered_and_misread)
    rnd = next(r for r in got if r.round_id == truth.round_id)
    assert turned, "the seat's cards were never all face up"
    assert len(misread) == 1
    assert rnd.cards_of(f"seat:{seat}") == cards
    # The second copy lies where the third card lies: that card read again in its own place (`CardZone._fresh`),
    # not one more card to drop once all four are read surely.
    assert not [n for n in rnd.notes if n.startswith(f"inferred: {zone}: the ")]
    assert compare_rounds([rnd], [truth])[0].result == "exact"
