"""A payout first confirmed from readings never alike long enough (`RESTLESS_CHIPS`), then as exactly what the rules
pay, is no doubt where it was also read surely as that amount: the restless spell was the detector failing to settle
on a stack it had read right (`SettlementDoubts._payouts_read_otherwise_as_rules_pay`). Never read surely as the rules'
amount, the doubt stays: a chip read with doubt, of just the shortfall, is what a short pay would look like."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs
from pipelines.vision.track import RESTLESS_CHIPS

from .conftest import nearest_round, rounds_with_edited_observations
from .test_payout_read_with_doubt import GAME, _payout_of_chips


@pytest.mark.parametrize("sure_as_laid", [True, False])
def test_a_payout_read_surely_as_laid_then_by_turns_short_and_whole(sure_as_laid):
    # 3 Card Monster, video (set A34, seed 13653, round e2a36c48): a $40 Play payout ($25 and three $5) read $40
    # surely for two frames as it was laid, then under the hand for three (a chip of it read with doubt, then none),
    # then $15 surely (the $25 at the card's edge missed) and $40 with doubt by turns until taken: confirmed $15 from
    # restless readings, then $40. Read surely only as $15 as it was laid, the doubt stays.
    (scripted, setup, _, _), paid, shown = _payout_of_chips(GAME, 4, 40)
    laid = shown[next(k for k in range(len(shown)) if shown[k + 9] - shown[k] == 9):]  # its frames as laid for good

    def restless(frame: int, obs: FrameObs) -> None:
        if frame not in shown or paid not in obs:
            return
        chips = sorted(obs[paid].chips)
        if frame < laid[2]:  # as the hand lays it
            if not sure_as_laid:
                obs[paid] = replace(obs[paid], chips=chips[:-1])
            return
        i = laid.index(frame)
        if i < 4:  # under the hand, a chip of it read with doubt
            obs[paid] = replace(obs[paid], chips=chips[:1], chips_uncertain=True, chips_doubt_other=True,
                                chips_min_confidence=0.3)
            return
        if i == 4:
            del obs[paid]
            return
        if i in (10, 14) or (i > 16 and i % 7 == 0):
            obs[paid] = replace(obs[paid], chips=chips[:-1])  # the top chip missed, surely
            return
        if i == 8:  # the top chip read as another
            obs[paid] = replace(obs[paid], chips=[*chips, chips[0]], chips_uncertain=True, chips_doubt_other=True,
                                chips_min_confidence=0.45)
            return
        obs[paid] = replace(obs[paid], chips_uncertain=True, chips_doubt_other=True, chips_min_confidence=0.45)

    def hand(frame: int, covered: set[str]) -> None:
        if frame in laid[2:5]:
            covered.add(paid)  # read empty under the hand: it hides the chips, it did not take them

    got = rounds_with_edited_observations(GAME, scripted, setup, restless, hand)
    truth = scripted[0].round
    rnd = nearest_round(got, truth)
    kept = [n for n in rnd.notes if n.startswith(f"uncertain observation in {paid}") and n.endswith(RESTLESS_CHIPS)]
    assert bool(kept) != sure_as_laid, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if sure_as_laid else "incomplete"), rnd.notes
