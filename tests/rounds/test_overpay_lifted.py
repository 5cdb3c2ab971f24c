"""A payout confirmed as more than the rules pay from readings below the detector's confidence, its doubt lifted by a
few frames read confidently, is in doubt where it was read surely as exactly the rules' amount as it was laid
(`SettlementDoubts._doubt_overpays_lifted`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import FPS, long_shown_payout, nearest_round, rounds_with_edited_observations

GAME = "3-card-monster"
SURE_EVERY = 5  # one frame in this many reads the phantom chip confidently: too few to confirm, enough to lift


@pytest.mark.parametrize("read_as_rules_pay_first", [True, False])
def test_an_overpay_read_with_doubt_after_the_rules_amount_was_read_surely_is_in_doubt(read_as_rules_pay_first):
    # Held-out 3 Card Monster video (set A47, seed 14183, round 6ad01953): a $20 Ante payout read surely as $20 in the
    # two frames it was laid, then, the Monster payout laid against it, $40 with doubt, a $5 half under the Monster's
    # $25 read as a $25; sure in three scattered frames, the doubt was lifted and a $20 overpay claimed.
    (scripted, setup, mapper, scenes), zone, shown = long_shown_payout(GAME, 3 * FPS)
    truth = scripted[0].round
    seat, spot, _ = zone.split(".")
    rules_pay = next(s.paid for s in truth.settlements if f"seat{s.seat}" == seat and s.spot == spot)
    whole = [f for f in shown if abs(mapper.observe_scene(scenes[f])[zone].chip_total - rules_pay) < 0.005]
    phantom_from = whole[2] if read_as_rules_pay_first else whole[0]
    phantom = {f for f in shown if f >= phantom_from}

    def phantom_chip(frame: int, obs: FrameObs) -> None:
        if frame in phantom and zone in obs:
            sure = (frame - phantom_from) % SURE_EVERY == SURE_EVERY - 1
            obs[zone] = replace(obs[zone], chips=[*obs[zone].chips, 25], chips_uncertain=not sure,
                                chips_doubt_other=not sure, chips_min_confidence=1.0 if sure else 0.4)

    got = rounds_with_edited_observations(GAME, scripted, setup, phantom_chip, hand=lambda f, covered: None)
    rnd = nearest_round(got, truth)
    doubted = [n for n in rnd.notes if "the overpay may be a chip misread" in n]
    assert bool(doubted) == read_as_rules_pay_first, rnd.notes
    result = compare_rounds([rnd], [truth])[0].result
    assert result == ("incomplete" if read_as_rules_pay_first else "wrong"), (result, rnd.notes)
