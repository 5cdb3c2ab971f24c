"""A wager read as a chip more with doubt for longer than a bump (`NOISE_FRAMES`), its doubt never lifted, then surely
as it was again: the more was no chip, so no rise is claimed on it and the round is read as it was
(`machine._drop_unsure_bump`). Read surely as more in enough frames to lift its doubt, the rise stays a review
item."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.rounds.timeline import NOISE_FRAMES
from pipelines.vision.observe import FrameObs

from .conftest import lock_frame, nearest_round, rounds_with_edited_observations, scripted_session

GAME = "3-card-monster"
BUMP = 31  # frames read as more: longer than `NOISE_FRAMES`, so `ChipZone.settle_noise` keeps it
assert BUMP > NOISE_FRAMES + 5


@pytest.mark.parametrize("sure_at, answered", [((), True), ((11,), True), ((5, 9, 13, 17, 21, 25, 29), False)])
def test_a_chip_more_read_long_with_doubt(sure_at, answered):
    # 3 Card Monster, video (set A36, seed 13743, round a9439303): a $300 Royal of three $100 chips read $400 for 31
    # frames after the close, a fourth box at 0.37-0.56, then $300 surely to the clearing: left in doubt for the rise.
    # (Set A38, seed 13823, round a9439303: a $150 Ante read $250 for 26 frames, surely in one of them at 0.86.)
    (scripted, setup, mapper, scenes) = scripted_session(GAME, 3, 4)
    truth = scripted[0].round
    close = lock_frame(truth, min(w.frames.start for w in truth.wagers))

    def shown_after_close(w) -> list[int]:
        zone = f"seat{w.seat}.{w.spot}"
        return [f for f in range(close + 10, w.frames.end) if zone in mapper.observe_scene(scenes[f])]

    wager = max(truth.wagers, key=lambda w: len(shown_after_close(w)))
    zone = f"seat{wager.seat}.{wager.spot}"
    shown = shown_after_close(wager)
    assert len(shown) > BUMP + 30, (zone, len(shown))
    bump = shown[:BUMP]
    assert bump[-1] - bump[0] == BUMP - 1, bump

    def more(frame: int, obs: FrameObs) -> None:
        if frame in bump and zone in obs:
            chips = obs[zone].chips
            sure = frame - bump[0] in sure_at
            obs[zone] = replace(obs[zone], chips=[*chips, max(chips)], chips_uncertain=not sure,
                                chips_doubt_other=not sure, chips_min_confidence=0.9 if sure else 0.45)

    got = rounds_with_edited_observations(GAME, scripted, setup, more)
    rnd = nearest_round(got, truth)
    rises = [e for e in rnd.events if e.type == "wager_changed" and e.seat == wager.seat and e.spot == wager.spot]
    assert bool(rises) != answered, (rnd.events, rnd.notes)
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if answered else "incomplete"), rnd.notes
