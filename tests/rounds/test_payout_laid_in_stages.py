"""A payout first confirmed with doubt as its first chip, then surely as the whole payout within `STAGE_FRAMES`: the
doubtful reading was the payout being laid, no fact of what was paid (`machine._payout_laid_in_stages`). Confirmed
as the first chip for longer, the doubt on it stays."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.rounds.timeline import STAGE_FRAMES
from pipelines.vision.observe import FrameObs

from .conftest import nearest_round, perfect_path, rounds_with_edited_observations, session

GAME = "3-card-monster"


@pytest.mark.parametrize("laid_frames, answered", [(5, True), (STAGE_FRAMES + 4, False)])
def test_a_payout_read_with_doubt_as_it_was_laid(laid_frames, answered):
    # 3 Card Monster, video (set A37, seed 13763, round cb66b4f8): a $310 Play payout on a $300 Play (a $10 overpay)
    # read $5 with doubt at frame 208 as its first chip was laid, then, hidden by the hand for three frames, $310
    # surely from frame 215: left in doubt for the $5. Every payout whose amount is not the rules' keeps a doubt
    # on any reading of it with doubt (`SettlementDoubts._doubt_stacks_read_unsure`), so the case needs an overpay.
    scripted, _, setup = session(GAME, 3, 6, (("payout_error", 1.0),))
    truth = scripted[0].round
    fault = next(f for f in scripted[0].faults if f.type == "payout_error")
    zone = f"seat{fault.seat}.{fault.spot}.paid"
    mapper = perfect_path(GAME, setup)[0]
    scenes = [s for r in scripted for s in r.scenes]
    shown = [f for f in range(truth.frames.start, truth.frames.end) if zone in mapper.observe_scene(scenes[f])]
    assert len(shown) > laid_frames + 10, (zone, len(shown))
    laying, under_hand = set(shown[:laid_frames]), set(shown[laid_frames:laid_frames + 3])

    def first_chip_with_doubt(frame: int, obs: FrameObs) -> None:
        if frame in laying and zone in obs:
            obs[zone] = replace(obs[zone], chips=obs[zone].chips[:1], chips_uncertain=True, chips_doubt_other=True,
                                chips_min_confidence=0.45)
        elif frame in under_hand:
            obs.pop(zone, None)

    got = rounds_with_edited_observations(GAME, scripted, setup, first_chip_with_doubt)
    rnd = nearest_round(got, truth)
    assert any(n.startswith(f"inferred: {zone}: read with doubt as") for n in rnd.notes) == answered, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if answered else "incomplete"), rnd.notes
