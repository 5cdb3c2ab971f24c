"""A face read where a face-down card lay is that card turned over, though a box that is no card reads meanwhile as
one more unread card (`CardZone.update`): the count of cards still face down does not decide it then."""

from __future__ import annotations

import pytest

from pipelines.rounds.timeline import REREAD_BACK_MM, REREAD_MM, CardZone
from pipelines.vision.observe import ZoneState

Y = 511.0
XS = (1370.0, 1424.0, 1477.0, 1530.0)  # a packet of four, as 3 Card Monster deals a seat


def _state(*cards: tuple[str | None, bool, float]) -> ZoneState:
    """(identity, face up, x mm) of each card in view, on one line."""
    return ZoneState(cards=tuple((c, up) for c, up, _ in cards), spots=tuple((x, Y) for _, _, x in cards))


@pytest.mark.parametrize(("off_mm", "dealt_over", "turned"), [
    (12.6, False, True),  # held-out set A75, seed 15283, round cb66b4f8: the 9h read 12.6 mm from its back
    (REREAD_BACK_MM + 4, False, False),  # too far from any back: another card
    (12.6, True, False),  # where cards are dealt over one another, only `REREAD_MM` is in place
])
def test_a_face_where_a_back_lay_is_that_card_turned_beside_a_phantom_box(off_mm, dealt_over, turned):
    zone = CardZone("seat2.cards")
    states = [(51, _state(*((None, False, x) for x in XS))),
              (177, _state(("7d", True, XS[0]), ("5d", True, XS[1]), ("8h", True, XS[2]), (None, False, XS[3]))),
              # the sleeve beside the packet, read as an unread face, as the fourth card is turned over
              (185, _state((None, True, XS[0] - 45), ("7d", True, XS[0]), ("5d", True, XS[1]), ("8h", True, XS[2]),
                           ("9h", True, XS[3] + off_mm)))]
    for frame, state in states:
        zone.update(frame, state, next_seq=len(zone.slots), rereads=True, dealt_over=dealt_over)
    fourth = zone.slots[3]
    assert (fourth.card == "9h" and fourth.frame == 51 and fourth.exposed_frame == 185) == turned, zone.slots
    assert [s.card for s in zone.slots].count("9h") == 1
    assert len(zone.slots) == 5  # the box stays a slot of its own, for the round machine to weigh
    assert REREAD_MM < 12.6 < REREAD_BACK_MM
