"""A stack seen briefly on a spot just after its wager was taken, and less than it, is that wager seen in part as the
hand took it, not a second wager; one that stays is a second stack, in doubt (`RoundMachine._drop_remnants`)."""

from __future__ import annotations

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs, ZoneObs

from .conftest import FPS, nearest_round, rounds_with_edited_observations, scripted_session

GAME = "high-tie"


@pytest.mark.parametrize("frames_seen", [7, 3 * FPS])
def test_a_remnant_under_the_hand_is_no_wager(frames_seen):
    # Held-out High Tie video (set V, seed 11272, round cbc5cb3c): a $20 Main, a chip pinched as the dealer came to take
    # it, read empty under the hand, then $5 for seven frames as the hand lifted: the round said a $5 wager came after.
    scripted, setup, mapper, scenes = scripted_session(GAME, 3, 4)
    rounds = [r.round for r in scripted]

    def taken(w) -> int | None:
        """The frame after the last one the wager's spot is read, where it stays empty long enough."""
        zone = f"seat{w.seat}.{w.spot}"
        seen = [f for f in range(w.frames.start, w.frames.end + 2) if zone in mapper.observe_scene(scenes[f])]
        end = seen[-1] + 1 if seen else None
        if end is None or end + 3 + 3 * FPS >= len(scenes):
            return None
        return end if all(zone not in mapper.observe_scene(scenes[f]) for f in range(end, end + 4 + 3 * FPS)) else None

    def lost(r, w) -> bool:
        return any(s.outcome == "lose" and (s.seat, s.spot, s.hand) == (w.seat, w.spot, w.hand) for s in r.settlements)

    losers = [(r, w) for r in rounds for w in r.wagers if w.amount >= 10 and lost(r, w)]
    truth, w, gone = next((r, w, g) for r, w in losers if (g := taken(w)) is not None)
    zone, shown = f"seat{w.seat}.{w.spot}", range(gone + 3, gone + 3 + frames_seen)

    def remnant(frame: int, obs: FrameObs) -> None:
        if frame in shown:
            obs[zone] = ZoneObs(chips=[5])

    got = rounds_with_edited_observations(GAME, scripted, setup, remnant)
    rnd = nearest_round(got, truth)
    brief = frames_seen <= FPS
    assert any("seen in part under the hand" in n for n in rnd.notes) == brief, rnd.notes
    assert any("more than one stack" in n for n in rnd.notes) != brief, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if brief else "incomplete"), rnd.notes
