"""A stack beside its seat's cards that goes from view as a card lands is under the card, not settled."""

from __future__ import annotations

import numpy as np

from pipelines.rounds.compare import compare_rounds
from pipelines.rounds.machine import spots_beside_cards
from pipelines.rounds.registry import machine_for
from pipelines.vision.track import ZoneTracker
from pipelines.vision.zones import ZoneMapper


def test_spots_beside_the_cards_come_from_the_layout():
    assert {"seat2.ante", "seat2.play"} <= spots_beside_cards("pick-2-poker")
    assert "seat2.play" in spots_beside_cards("3-card-monster")
    # High Tie's main circle is clear of the cards: a bust collected as the card lands stays a settlement.
    assert "seat2.main" not in spots_beside_cards("high-tie")
    assert not spots_beside_cards("king-high")  # no seat cards


def test_an_ante_lost_from_view_under_the_seats_cards_is_incomplete_not_settled(reconstruct):
    # Held-out Pick 2 video: the $5 ante against the cards' edge was missed from the seat's fourth card
    # on; read as collected then, the settlement order came out wrong.
    scripted, _, (layout, camera, settings) = reconstruct("pick-2-poker", 3, 10)
    truth = scripted[0].round
    seat = next(w.seat for w in truth.wagers if w.spot == "ante")
    covered_from = sorted(c.frame for c in truth.cards if c.owner == f"seat:{seat}")[1]
    mapper = ZoneMapper(layout, np.asarray(camera.H), frame_size=camera.size)
    tracker = ZoneTracker(stable_frames=3, removal_frames=3)
    machine = machine_for("pick-2-poker", "T1", settings, fps=10.0)
    got = []
    for frame, scene in enumerate(s for r in scripted for s in r.scenes):
        obs = mapper.observe_scene(scene)
        if covered_from <= frame <= truth.frames.end:
            obs.pop(f"seat{seat}.ante", None)
        got += machine.feed(tracker.update(frame, obs))
    got += machine.finish()
    rnd = next(r for r in got if r.round_id == truth.round_id)
    assert any(f"seat {seat} ante (hand 0): gone from view" in n for n in rnd.notes), rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == "incomplete"
