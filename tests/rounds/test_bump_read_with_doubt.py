"""A wager read as a chip more for a moment after its bets closed, mostly with doubt, then surely as it was again: the
round drops the bump as noise (`ChipZone.settle_noise`), so the tracker's doubt on the fall (`FALL_FROM_DOUBT`: a chip
read then may have been none) is answered (`machine._drop_bump_doubts`). Read as more for longer than a bump, the fall
stays a review item: that is where a pinch would be."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs
from pipelines.vision.track import FALL_FROM_DOUBT

from .conftest import lock_frame, nearest_round, rounds_with_edited_observations, scripted_session

GAME = "high-tie"


@pytest.mark.parametrize("frames, answered", [(6, True), (40, False)])
def test_a_chip_more_read_for_a_moment_mostly_with_doubt(frames, answered):
    # High Tie, video (set A17, seed 12972, round cb66b4f8): a $100 Main read $200 for six frames, at 0.60-0.74, as
    # the hand took the Side beside it, then $100 surely until its settlement: confirmed $200, then $100 with doubt.
    (scripted, setup, mapper, scenes) = scripted_session(GAME, 3, 4)
    truth = scripted[0].round
    wager = next(w for w in truth.wagers if w.spot == "main")
    zone = f"seat{wager.seat}.main"
    start = lock_frame(truth, wager.frames.start) + 5
    shown = [f for f in range(start, wager.frames.end) if zone in mapper.observe_scene(scenes[f])]
    bump = shown[:frames]
    assert len(bump) == frames and bump[-1] - bump[0] == frames - 1, bump

    def more(frame: int, obs: FrameObs) -> None:
        if frame in bump and zone in obs:
            chips = obs[zone].chips
            sure = frame < bump[0] + 4 or (frames > 10 and (frame - bump[0]) % 3 == 0)
            obs[zone] = replace(obs[zone], chips=[*chips, max(chips)], chips_uncertain=not sure,
                                chips_doubt_other=not sure, chips_min_confidence=0.7 if sure else 0.6)

    got = rounds_with_edited_observations(GAME, scripted, setup, more)
    rnd = nearest_round(got, truth)
    falls = [n for n in rnd.notes if n.startswith(f"uncertain observation in {zone}") and n.endswith(FALL_FROM_DOUBT)]
    assert bool(falls) != answered, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if answered else "incomplete"), rnd.notes
