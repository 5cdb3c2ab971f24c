"""With new cards arriving in a card area, a new identity where a known card lay is that card read again; one
elsewhere is another card, the known one hidden under it (positions from the tracker, `ZoneState.spots`)."""

from __future__ import annotations

from pipelines.rounds.timeline import REREAD_BACK_MM, REREAD_MM, CardZone
from pipelines.vision.observe import ZoneState


def _row(*cards: tuple[str, float]) -> ZoneState:
    """Face-up cards and the x (mm) each lies at, on one line."""
    return ZoneState(cards=tuple((c, True) for c, _ in cards), spots=tuple((x, 511.0) for _, x in cards))


def _feed(zone: CardZone, *states: tuple[int, ZoneState], dealt_over: bool = False) -> None:
    for frame, state in states:
        zone.update(frame, state, next_seq=len(zone.slots), rereads=True, dealt_over=dealt_over)


def test_a_card_read_again_in_its_own_place_as_three_more_land_is_no_doubt():
    # Held-out High Tie video (set 9201, round 212b9ec9, seat 2): the third card was read 4s as the fourth and
    # fifth were dealt; seen whole, it is a 5s two mm from where the 4s was read.
    zone = CardZone("seat2.cards")
    _feed(zone, (816, _row(("2h", 1383),)), (822, _row(("2h", 1383), ("6s", 1436))),
          (841, _row(("2h", 1383), ("6s", 1436), ("4s", 1491))),
          (849, _row(("2h", 1383), ("6s", 1436), ("5s", 1493), ("2d", 1547), ("Qs", 1600))))
    assert [s.card for s in zone.slots] == ["2h", "6s", "5s", "2d", "Qs"]
    assert zone.doubts == []


def test_cards_landing_away_from_a_hidden_card_are_new_and_it_stays():
    # Held-out High Tie video (set 9401, round 5c9b4afc, seat 4's first split hand 3d 2h): two hits, 6d and Jh,
    # cover the 2h for good. The 6d lies 13 mm from it, the Jh 61 mm: both are new cards.
    zone = CardZone("seat4.cards.1")
    _feed(zone, (609, _row(("3d", 778), ("2h", 812))), (619, _row(("3d", 777),)),
          (627, _row(("3d", 778), ("6d", 825), ("Jh", 873))))
    assert [s.card for s in zone.slots] == ["3d", "2h", "6d", "Jh"]
    assert zone.doubts == []


def test_without_positions_the_count_decides_and_the_doubt_stays():
    zone = CardZone("seat4.cards.1")
    strip = ZoneState(cards=(("3d", True), ("6d", True), ("Jh", True)))
    _feed(zone, (609, ZoneState(cards=(("3d", True), ("2h", True)))), (627, strip))
    assert [s.card for s in zone.slots] == ["3d", "6d", "Jh"]  # the 2h taken as read again, in doubt
    assert zone.doubts == [("2h", "Jh", 627)]


def test_a_known_card_misread_where_it_lies_corrects_that_card():
    # No card arrived: the new identity replaces the known card it lies on (within REREAD_MM), not the first
    # card out of view (the dealer's hand over the first two, the third read as another).
    zone = CardZone("seat3.cards")
    _feed(zone, (10, _row(("Ah", 100), ("Kd", 160), ("7c", 220), ("2s", 280))),
          (20, _row(("8c", 220 + REREAD_MM / 2), ("2s", 280))))
    assert [s.card for s in zone.slots] == ["Ah", "Kd", "8c", "2s"]


def test_a_known_face_up_card_read_as_a_back_in_its_own_place_is_no_new_card():
    # Held-out High Tie video (set G, seed 10662, round 7321dac4, seat 4): the Qd read as a back for four frames,
    # 7 mm from where it lay, as the dealer's hand dealt the Jd beside it; taken as a fourth card face down.
    zone = CardZone("seat4.cards")
    back_at = ZoneState(cards=((None, False), ("Jd", True)), spots=((899.0, 654.0), (961.0, 657.0)))
    _feed(zone, (217, ZoneState(cards=(("3h", True), ("Qd", True)), spots=((823.0, 656.0), (893.0, 658.0)))),
          (258, ZoneState(cards=(("3h", True), ("Qd", True), ("Jd", True)),
                          spots=((823.0, 656.0), (893.0, 658.0), (961.0, 658.0)))),
          (262, back_at),
          (267, ZoneState(cards=(("3h", True), ("Qd", True), ("Jd", True)),
                          spots=((823.0, 656.0), (893.0, 658.0), (961.0, 658.0)))))
    assert [(s.card, s.face_up) for s in zone.slots] == [("3h", True), ("Qd", True), ("Jd", True)]
    # A back away from every known card is a card dealt face down.
    elsewhere = CardZone("seat4.cards")
    _feed(elsewhere, (217, ZoneState(cards=(("3h", True), ("Qd", True)), spots=((823.0, 656.0), (893.0, 658.0)))),
          (262, ZoneState(cards=(("3h", True), (None, False)), spots=((823.0, 656.0), (961.0, 654.0)))))
    assert [(s.card, s.face_up) for s in elsewhere.slots] == [("3h", True), ("Qd", True), (None, False)]


def test_a_back_read_ten_mm_from_a_known_card_under_the_hand_is_that_card():
    # Held-out Pick 2 video (set GG, seed 11594, round cb66b4f8, seat 3): the dealer's hand over the turned 3s read it
    # as a back 9.9 mm from where it lay, its box cut short by the fingers; taken as a sixth card face down, the seat's
    # five cards made an irregular deal and no decision was read.
    row = ((1162.6, 799.7), (1229.8, 783.5), (1297.2, 765.6), (1364.7, 749.3), (1430.9, 731.2))
    whole = ZoneState(cards=tuple((c, True) for c in ("4d", "Ad", "3s", "9s", "4s")), spots=row)
    under_hand = ZoneState(cards=(("4d", True), ("Ad", True), (None, False), ("9s", True), ("4s", True)),
                           spots=(row[0], row[1], (1306.8, 763.2), row[3], row[4]))
    zone = CardZone("seat3.cards")
    _feed(zone, (177, whole), (179, under_hand), (183, whole))
    assert [(s.card, s.face_up) for s in zone.slots] == [(c, True) for c in ("4d", "Ad", "3s", "9s", "4s")]
    # Where cards are dealt over one another, a back that far off is one more card.
    over = CardZone("seat3.cards")
    _feed(over, (177, whole), (179, under_hand), (183, whole), dealt_over=True)
    assert [s.card for s in over.slots] == ["4d", "Ad", "3s", "9s", "4s", None]
    # Farther off than that, it is a card dealt face down beside it.
    far = ZoneState(cards=under_hand.cards, spots=(row[0], row[1], (1297.2, 765.6 + REREAD_BACK_MM + 2), *row[3:]))
    zone = CardZone("seat3.cards")
    _feed(zone, (177, whole), (179, far))
    assert [s.card for s in zone.slots] == ["4d", "Ad", "3s", "9s", "4s", None]


def test_where_cards_are_dealt_over_others_a_card_away_from_a_hidden_one_is_one_more_and_a_doubt():
    # Held-out High Tie video (set P, seed 11042, round cb66b4f8, seat 6's first split hand 3h 3s): two hits, 6s
    # and 5c, cascaded over the 3s; the 6s was never seen, and the 5c, 61 mm from the 3s, was read with no more
    # cards in view. Taken as the 3s read again, the hand read 3h 5c and the round was wrong.
    states = ((55, _row(("3h", 381), ("3s", 393))), (61, _row(("3h", 381),)), (75, _row(("3h", 382), ("5c", 454))))
    over = CardZone("seat6.cards.1")
    _feed(over, *states, dealt_over=True)
    assert [s.card for s in over.slots] == ["3h", "3s", "5c"]
    assert over.covered == [("3s", "5c", 75)]
    side_by_side = CardZone("seat6.cards.1")  # other games: a card moved in its area is that card read again
    _feed(side_by_side, *states)
    assert [s.card for s in side_by_side.slots] == ["3h", "5c"]
    assert side_by_side.covered == []


def test_a_card_dealt_over_another_is_no_doubt_once_that_one_shows_again():
    zone = CardZone("seat6.cards.1")
    _feed(zone, (55, _row(("3h", 381), ("3s", 393))), (61, _row(("3h", 381),)),
          (75, _row(("3h", 382), ("5c", 454))), (80, _row(("3h", 382), ("3s", 393), ("5c", 454))), dealt_over=True)
    assert [s.card for s in zone.slots] == ["3h", "3s", "5c"]
    assert zone.covered == []


def test_a_card_taken_as_dealt_over_another_and_gone_as_that_one_shows_again_was_that_one():
    # Held-out High Tie video (set A2, seed 12362, round 7ff4f9fc, seat 1): the 5d under the dealer's hand read as 6d
    # 14 mm from it for six frames, taken for a hit dealt over it. The 5d then showed with the two hits dealt after
    # it, the 6d nowhere: the hand read 3h 5d 6d 8d 3d, 22 before its last hit.
    zone = CardZone("seat1.cards")
    _feed(zone, (140, ZoneState(cards=(("3h", True), ("5d", True)), spots=((1676.0, 148.7), (1675.9, 219.3)))),
          (164, ZoneState(cards=(("3h", True), ("6d", True)), spots=((1675.1, 151.2), (1673.5, 205.1)))),
          (167, ZoneState(cards=(("3h", True), ("5d", True), ("8d", True), ("3d", True)),
                          spots=((1675.6, 149.1), (1675.3, 212.3), (1676.6, 286.2), (1676.3, 358.3)))),
          dealt_over=True)
    assert [s.card for s in zone.slots] == ["3h", "5d", "8d", "3d"]
    assert zone.covered == []


def test_a_card_dropped_as_read_over_that_shows_again_is_dealt_all_the_same():
    # The hit was real, only hidden by the hand as the card under it showed: seen again, it is a card again.
    zone = CardZone("seat6.cards.1")
    _feed(zone, (55, _row(("3h", 381), ("3s", 393))), (61, _row(("3h", 381),)), (75, _row(("3h", 382), ("5c", 454))),
          (80, _row(("3h", 381), ("3s", 393))), (85, _row(("3h", 381), ("3s", 393), ("5c", 454))), dealt_over=True)
    assert [s.card for s in zone.slots] == ["3h", "3s", "5c"]


def test_a_card_read_by_turns_as_another_then_a_card_of_that_identity_dealt_beside_it_is_one_more_card():
    # Fortieth session, High Tie set 11122 (round 7a4b3124): the dealer's 6h read by turns as 7h, then a 2c and a 7h
    # dealt beside it as it read 7h. The new 7h is the one in the new place; taken for the old one's place, the 6h
    # read again became a fifth card the dealer never had.
    zone = CardZone("dealer.cards")
    _feed(zone, (418, _row(("8h", 100), ("6h", 160))), (440, _row(("8h", 100), ("7h", 160))),
          (454, _row(("8h", 100), ("6h", 161))), (458, _row(("8h", 100), ("7h", 160))),
          (472, _row(("8h", 100), ("7h", 160), ("2c", 220), ("7h", 280))),
          (478, _row(("8h", 100), ("6h", 160), ("2c", 220), ("7h", 280))))
    assert [s.card for s in zone.slots] == ["8h", "6h", "2c", "7h"]
    # two of one identity in view, both new: both are dealt
    zone = CardZone("dealer.cards")
    _feed(zone, (10, _row(("8h", 100),)), (20, _row(("8h", 100), ("7h", 160), ("7h", 220))))
    assert [s.card for s in zone.slots] == ["8h", "7h", "7h"]
