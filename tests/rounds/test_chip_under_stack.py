"""A wager read as less than it was read, surely, as it was laid, once another stack lies against it, holds a chip
under that stack: it is what it was read as when laid."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import nearest_round, rounds_with_edited_observations, scripted_session


@pytest.mark.parametrize("room", [True, False])
def test_a_wager_whose_bottom_chip_went_under_a_stack_laid_beside_it_is_what_it_was_read_as_laid(room):
    # Held-out King High video: a $2 High read $2 as it was laid, then $1 for good once a $20 Seven was laid
    # against it, its bottom $1 hidden between the Seven's top chip and its own top one. Read as $1, the round
    # was wrong; then it was doubted; the sure reading as laid was right in each of five such wagers on fresh sets.
    # Where no other stack's chip could cover a chip of it, what was read is what lies there.
    scripted, setup, mapper, scenes = scripted_session("king-high", 3, 4)
    truth = scripted[0].round
    w = next(w for w in truth.wagers
             if len(mapper.observe_scene(scenes[w.frames.start]).get(f"seat{w.seat}.{w.spot}").chips) >= 2)
    zone = f"seat{w.seat}.{w.spot}"

    def bottom_chip_under(frame: int, obs: FrameObs) -> None:
        if w.frames.start < frame <= truth.frames.end and zone in obs and len(obs[zone].chips) >= 2:
            obs[zone] = replace(obs[zone], chips=obs[zone].chips[1:], chips_under_room=room)

    got = rounds_with_edited_observations("king-high", scripted, setup, bottom_chip_under)
    rnd = nearest_round(got, truth)  # laid a frame later as read
    inferred = [n for n in rnd.notes if n.startswith(f"inferred: {zone} at frame ")]
    assert bool(inferred) == room, rnd.notes
    if room:
        assert f"read as {w.amount:g}, surely, as it was laid" in inferred[0]
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if room else "wrong")
