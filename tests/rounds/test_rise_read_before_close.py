"""A wager that rose after bets closed to a total already read before they closed was there all along, read short in
most frames (or added to after): the round is unsure, not a past-post. One first read at its new total after the
close is what a past-post looks like, and stays one (`RoundMachine._doubt_rises_read_before_close`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import lock_frame, nearest_round, rounds_with_edited_observations, scripted_session

GAME = "king-high"


@pytest.mark.parametrize("read_before", [True, False])
def test_a_rise_read_before_the_close_is_in_doubt(read_before):
    # Held-out King High video (set P, seed 11041, round cb66b4f8): a $200 Seven, its bottom $100 lying on the
    # Pokerpot's chips, read $100 in most frames and $200 in a few from the frame it was laid, then surely $200 after
    # bets closed, as the hand came to take it: locked at $100, it read as a $100 past-post.
    scripted, setup, mapper, scenes = scripted_session(GAME, 3, 4)
    truth = scripted[0].round

    def lock(w) -> int:
        return lock_frame(truth, w.frames.start)

    w = next(w for w in truth.wagers if w.frames.end - lock(w) > 20
             and len(mapper.observe_scene(scenes[w.frames.start + 1]).get(f"seat{w.seat}.{w.spot}").chips) >= 2)
    zone, shown_from, locked = f"seat{w.seat}.{w.spot}", w.frames.start + 3, lock(w)

    def top_chip_missed(frame: int, obs: FrameObs) -> None:
        if zone in obs and len(obs[zone].chips) >= 2 and frame <= locked + 5 and not (
                read_before and frame == shown_from):
            obs[zone] = replace(obs[zone], chips=obs[zone].chips[:-1])

    got = rounds_with_edited_observations(GAME, scripted, setup, top_chip_missed)
    rnd = nearest_round(got, truth)
    doubted = [n for n in rnd.notes if "after it was locked at" in n]
    assert bool(doubted) == read_before, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("incomplete" if read_before else "wrong")
