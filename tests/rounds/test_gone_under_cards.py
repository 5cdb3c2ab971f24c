"""A stack beside its seat's cards that goes from view as a card lands is under the card, not settled."""

from __future__ import annotations

from pipelines.rounds.compare import compare_rounds
from pipelines.rounds.machine import spots_beside_cards
from pipelines.vision.observe import FrameObs

from .conftest import rounds_with_edited_observations


def test_spots_beside_the_cards_come_from_the_layout():
    assert {"seat2.ante", "seat2.play"} <= spots_beside_cards("pick-2-poker")
    assert "seat2.play" in spots_beside_cards("3-card-monster")
    # High Tie's main circle is clear of the cards: a bust collected as the card lands stays a settlement.
    assert "seat2.main" not in spots_beside_cards("high-tie")
    assert not spots_beside_cards("king-high")  # no seat cards


def test_an_ante_lost_from_view_under_the_seats_cards_is_incomplete_not_settled(reconstruct):
    # Held-out Pick 2 video: the $5 ante against the cards' edge was missed from the seat's fourth card
    # on; read as collected then, the settlement order came out wrong.
    scripted, _, setup = reconstruct("pick-2-poker", 3, 10)
    truth = scripted[0].round
    seat = next(w.seat for w in truth.wagers if w.spot == "ante")
    covered_from = sorted(c.frame for c in truth.cards if c.owner == f"seat:{seat}")[1]

    def under_the_cards(frame: int, obs: FrameObs) -> None:
        if covered_from <= frame <= truth.frames.end:
            obs.pop(f"seat{seat}.ante", None)

    got = rounds_with_edited_observations("pick-2-poker", scripted, setup, under_the_cards)
    rnd = next(r for r in got if r.round_id == truth.round_id)
    assert any(f"seat {seat} ante (hand 0): gone from view" in n for n in rnd.notes), rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == "incomplete"
