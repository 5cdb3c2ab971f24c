"""A payout read surely as one chip more for a moment, as its wager read one chip less, holds a chip that was counted
now with one, now with the other (`ZoneTracker._payout_read_larger_briefly`, `WAGER_READ_LESS`). Read otherwise as
exactly what the rules pay, the chip is its wager's (`RoundMachine._payouts_read_otherwise_as_rules_pay`); read as
another amount, the round is unsure which. So too a payout read one chip more for a moment with no time left to read it
as confirmed again: as the rules pay, it is what it was confirmed as."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import long_shown_payout, nearest_round, rounds_with_edited_observations

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
    rnd = nearest_round(got, truth)
    doubted = [n for n in rnd.notes if "may be either's" in n]
    assert bool(doubted) == paid_short, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("incomplete" if paid_short else "exact"), rnd.notes


@pytest.mark.parametrize("paid_more", [False, True])
def test_a_payout_read_a_chip_more_just_before_it_was_taken(paid_more):
    # Pick 2, video (set UU, seed 12114, round 248c3fa9): a $50 Ante payout, what the rules pay, read $75 surely in one
    # frame as the player's hand came to gather the stacks, too late to be read as $50 again before it was taken. For
    # the chip to be the payout's, the dealer would have had to overpay by just that chip and the detector to miss it
    # in every other frame. Confirmed as another amount (here one chip over), the doubt stays.
    (scripted, setup, _, _), paid, shown = long_shown_payout(GAME, 20)
    chip = 1

    def more_at_the_end(frame: int, obs: FrameObs) -> None:
        if frame in shown and paid in obs:
            extra = [chip] * (paid_more + (frame == shown[-2]))
            obs[paid] = replace(obs[paid], chips=[*obs[paid].chips, *extra])

    got = rounds_with_edited_observations(GAME, scripted, setup, more_at_the_end)
    truth = scripted[0].round
    rnd = nearest_round(got, truth)
    doubted = [n for n in rnd.notes if "more than it was confirmed as" in n and not n.startswith("inferred")]
    assert bool(doubted) == paid_more, rnd.notes
    if not paid_more:
        assert compare_rounds([rnd], [truth])[0].result == "exact", rnd.notes
