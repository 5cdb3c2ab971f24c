"""A payout read surely as one chip more for a moment, as its wager read one chip less, holds a chip that was counted
now with one, now with the other (`ZoneTracker._payout_read_larger_briefly`, `WAGER_READ_LESS`). Read otherwise as
exactly what the rules pay, the chip is its wager's (`RoundMachine._payouts_either_as_rules_pay`); read as another
amount, the round is unsure which."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import long_shown_payout, rounds_with_edited_observations

GAME = "3-card-monster"


@pytest.mark.parametrize("paid_short", [False, True])
def test_a_chip_read_now_with_the_payout_now_with_its_wager(paid_short):
    # Pick 2, video (set GG, seed 11564, round 03116e91): a $400 Play payout read $500 in one frame of 40 as its $400
    # wager read $300. High Tie, video (set UU, seed 12082, round fffecba3): an $84 Side payout read $83 but for one
    # frame, $84, as its wager read less; the round said $83 was paid.
    (scripted, setup, _, _), paid, shown = long_shown_payout(GAME, 20)
    wager = paid.removesuffix(".paid")
    switch = shown[len(shown) // 2]
    chip = 1

    def either(frame: int, obs: FrameObs) -> None:
        if frame not in shown or wager not in obs or paid not in obs:
            return
        p, w = obs[paid], obs[wager]
        if frame == switch:
            obs[paid] = replace(p, chips=[*p.chips, chip] if not paid_short else p.chips)
            obs[wager] = replace(w, chips=[*w.chips, -chip])  # a $1 of the wager read with the payout: $1 less
        elif paid_short:
            obs[paid] = replace(p, chips=[*p.chips, -chip])

    got = rounds_with_edited_observations(GAME, scripted, setup, either)
    truth = scripted[0].round
    rnd = min(got, key=lambda r: abs(r.frames.start - truth.frames.start))
    doubted = [n for n in rnd.notes if "may be either's" in n]
    assert bool(doubted) == paid_short, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("incomplete" if paid_short else "exact"), rnd.notes
