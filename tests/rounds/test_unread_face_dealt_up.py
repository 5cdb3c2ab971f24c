"""A card first seen as a face the classifier could not read, then read, was dealt face up: not a face-down card
turned over. A back seen for it since makes it a face-down card again (`CardZone.update`, `Slot.face_unread`)."""

from __future__ import annotations

from pipelines.rounds.timeline import CardZone
from pipelines.vision.observe import ZoneState


def _feed(zone: CardZone, *states: tuple[int, tuple]) -> None:
    for frame, cards in states:
        zone.update(frame, ZoneState(cards=cards, uncertain=any(c is None for c, _ in cards)),
                    next_seq=len(zone.slots))


def _dealt(zone: CardZone) -> list[tuple[str | None, bool, int | None]]:
    return [(s.card, s.face_up, s.exposed_frame) for s in zone.slots]


def test_an_unread_face_read_later_was_dealt_face_up():
    # Held-out High Tie video (set 10992, round 96bba7ce, seat 6): the third card, under the dealer's hand, was
    # read as a face for a few frames before the classifier read it as 7h; it was taken for a card dealt face
    # down and turned over, and the round read wrong.
    zone = CardZone("seat6.cards")
    _feed(zone, (193, (("Ad", True),)), (205, (("Ad", True), ("5s", True))),
          (250, (("Ad", True), (None, True))), (261, (("Ad", True), ("5s", True), ("7h", True))))
    assert _dealt(zone) == [("Ad", True, None), ("5s", True, None), ("7h", True, None)]


def test_a_back_read_later_is_a_card_turned_over():
    zone = CardZone("dealer.cards")
    _feed(zone, (10, (("9h", True), (None, False))), (90, (("9h", True), ("Kd", True))))
    assert _dealt(zone) == [("9h", True, None), ("Kd", False, 90)]


def test_an_unread_face_seen_as_a_back_since_is_a_face_down_card():
    # A hand over a face-down card can read as a face for a frame or two; the back seen after it decides.
    zone = CardZone("dealer.cards")
    _feed(zone, (10, (("9h", True), (None, True))), (14, (("9h", True), (None, False))),
          (90, (("9h", True), ("Kd", True))))
    assert _dealt(zone) == [("9h", True, None), ("Kd", False, 90)]


def test_the_unread_face_is_the_card_read_beside_a_back():
    # A face-down card and an unread face in one area: the identity read is the face's, the back stays down.
    zone = CardZone("dealer.cards")
    _feed(zone, (10, ((None, False),)), (20, ((None, True), (None, False))), (30, (("9h", True), (None, False))))
    assert _dealt(zone) == [(None, False, None), ("9h", True, None)]
