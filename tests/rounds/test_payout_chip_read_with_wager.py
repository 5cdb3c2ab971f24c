"""A payout laid in one row with its wager, read a chip short of what the rules pay while the wager was read a chip
over its locked amount for a few frames as the payout showed, is that chip and the payout read: one payout
(`SettlementDoubts._surplus_was_payout`), even where the wager's few frames were dropped as noise
(`ChipInstance.bumps`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import long_shown_payout, nearest_round, rounds_with_edited_observations

GAME = "high-tie"


@pytest.mark.parametrize("wager_read_over", [True, False])
def test_a_payout_chip_read_with_its_wager_for_a_few_frames_is_the_payouts(wager_read_over):
    # Held-out High Tie video (set A62, seed 14792, round 8b1437ba): a $300 Double and its $300 payout, read $400
    # and $200 surely for four frames from just after the payout showed, else $300 and $400 or $500 and $200 with
    # doubt; the wager's $400 was dropped as noise and the round was left unsure of a $100 short pay.
    (scripted, setup, mapper, scenes), paid, shown = long_shown_payout(GAME, 30)
    truth = scripted[0].round
    wager = paid.removesuffix(".paid")
    payout = mapper.observe_scene(scenes[shown[-1]]).get(paid).chips
    assert len(payout) >= 2
    over = set(shown[3:7]) if wager_read_over else set()

    def chip_counted_with_wager(frame: int, obs: FrameObs) -> None:
        if frame in shown and paid in obs and len(obs[paid].chips) == len(payout):
            chip = obs[paid].chips[-1]
            obs[paid] = replace(obs[paid], chips=obs[paid].chips[:-1])
            if frame in over and wager in obs:
                obs[wager] = replace(obs[wager], chips=[*obs[wager].chips, chip])

    rnd = nearest_round(rounds_with_edited_observations(GAME, scripted, setup, chip_counted_with_wager), truth)
    one = [n for n in rnd.notes if n.startswith("inferred: ") and "are one payout of" in n]
    assert bool(one) == wager_read_over, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if wager_read_over else "wrong")


@pytest.mark.parametrize("hand_over_wager", [True, False])
def test_a_wager_read_larger_under_the_dealers_hand_as_its_payout_shows_holds_none_of_the_payout(hand_over_wager):
    # Held-out 3 Card Monster video (set A72, seed 15193, round c935d06a): a $40 Ante read as one $100 chip for three
    # frames from 719, under the hand taking the Monster beside it, as its $40 payout showed: dropped as noise, that
    # bump left the payout read right in doubt, the whole of it perhaps counted with the wager.
    from pipelines.games.round import Wager
    from pipelines.rounds.live import WagerSeen
    from pipelines.rounds.three_card_monster import ThreeCardMonsterMachine
    from pipelines.rounds.timeline import ChipInstance
    from pipelines.vision.cover import CoverLog

    log = CoverLog()
    for frame in range(700, 740):
        log.add(frame, {"seat5.ante"} if hand_over_wager and 719 <= frame <= 725 else set(), ())
    wager = ChipInstance("seat5.ante", 503, [(503, 40.0)], end=800)
    wager.bumps.append((719, 100.0))
    payout = ChipInstance("seat5.ante.paid", 719, [(719, 40.0)], end=808)
    ws = WagerSeen(Wager(seat=5, spot="ante", hand=0, amount=40.0), wager, 517, "seat5.ante.paid", outcome="win",
                   paid=40.0, payout=payout)
    moved = ThreeCardMonsterMachine("T1", fps=10.0, cover=log)._wager_moved_with_payout(ws, payout)
    assert moved == (None if hand_over_wager else (719, 100.0))
