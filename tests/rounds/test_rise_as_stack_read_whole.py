"""Two stacks laid against each other, each read a chip short from then: the one read whole as it was laid is what it
was laid as (`RoundMachine._laid_as`). When both are read whole again in the same frame, the other's rise is a chip
that lay hidden where they met coming back into view, or chips added: the round is unsure, not a past-post. Read
whole again at another time, the rise is what a past-post looks like, and stays one
(`RoundMachine._doubt_rises_as_stack_read_whole`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import FPS, lock_frame, nearest_round, rounds_with_edited_observations, scripted_session

GAME = "king-high"


@pytest.mark.parametrize("together", [True, False])
def test_a_rise_as_the_stack_beside_it_is_read_whole_again_is_in_doubt(together):
    # Held-out King High video (set KK, seed 11701, round 78bb3e31): a $300 Suit laid against a $40 High read $200
    # surely from then while the High read $35; both read whole again in the same frame, six frames before the Suit
    # was taken. The High was taken as laid ($40); the Suit's rise was claimed as a $100 past-post.
    scripted, setup, mapper, scenes = scripted_session(GAME, 3, 4)
    truth = scripted[0].round

    def chips(w) -> int:
        obs = mapper.observe_scene(scenes[w.frames.start + 1]).get(f"seat{w.seat}.{w.spot}")
        return len(obs.chips) if obs is not None else 0

    stacks = [w for w in truth.wagers if chips(w) >= 2]
    beside, raised = stacks[0], stacks[1]
    whole = max(lock_frame(truth, w.frames.start) for w in (beside, raised)) + 2 * FPS
    assert whole < min(beside.frames.end, raised.frames.end) - 2 * FPS
    raised_whole = whole if together else whole + FPS
    short_until = {f"seat{beside.seat}.{beside.spot}": (beside.frames.start + 1, whole),
                   f"seat{raised.seat}.{raised.spot}": (raised.frames.start, raised_whole)}

    def a_chip_short_against_the_other(frame: int, obs: FrameObs) -> None:
        for zone, (first, until) in short_until.items():
            if first <= frame < until and zone in obs and len(obs[zone].chips) >= 2:
                obs[zone] = replace(obs[zone], chips=obs[zone].chips[1:], chips_under_room=True)

    got = rounds_with_edited_observations(GAME, scripted, setup, a_chip_short_against_the_other)
    rnd = nearest_round(got, truth)
    doubted = [n for n in rnd.notes if "beside it was read whole again" in n]
    assert bool(doubted) == together, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("incomplete" if together else "wrong")
