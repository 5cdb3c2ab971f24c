"""A payout read as more than it was first confirmed as, with no hand over its spot just before, is in doubt: chips
are laid by a hand, so the growth is a box that is no chip. Grown as a hand leaves it, it is what was laid
(`RoundMachine._doubt_payouts_grown_unhanded`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import FPS, rounds_with_edited_observations, scripted_session

GAME = "3-card-monster"


@pytest.mark.parametrize("hand_over_it", [False, True])
def test_a_payout_grown_with_no_hand_over_it_is_in_doubt(hand_over_it):
    # Held-out 3 Card Monster video (set LL, seed 11743, round cb66b4f8): a $402 Ante payout read so for 24 frames,
    # then $902 surely for 20 until it was taken, a second box 0.8 of a step off its bottom $100 chip read as a
    # $500, the hand over other spots of the seat: a $500 overpay was claimed.
    scripted, setup, mapper, scenes = scripted_session(GAME, 3, 4)
    truth = scripted[0].round
    zones = [mapper.observe_scene(scene) for scene in scenes]

    def shown(zone: str, start: int) -> list[int]:
        return [f for f in range(start, truth.frames.end) if zone in zones[f]]

    paid = next(s for s in truth.settlements if s.outcome == "win"
                and len(shown(f"seat{s.seat}.{s.spot}.paid", s.frames.start)) > 3 * FPS)
    zone = f"seat{paid.seat}.{paid.spot}.paid"
    grown = shown(zone, paid.frames.start)[2 * FPS]

    def phantom_chip(frame: int, obs: FrameObs) -> None:
        if frame >= grown and zone in obs:
            obs[zone] = replace(obs[zone], chips=[*obs[zone].chips, 500])

    def hand(frame: int, covered: set[str]) -> None:
        if hand_over_it and grown - 3 <= frame < grown:
            covered.add(zone)

    got = rounds_with_edited_observations(GAME, scripted, setup, phantom_chip, hand=hand)
    rnd = min(got, key=lambda r: abs(r.frames.start - truth.frames.start))
    doubted = [n for n in rnd.notes if "with no hand over it" in n and n.startswith(f"seat {paid.seat} {paid.spot}")]
    assert bool(doubted) != hand_over_it, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("wrong" if hand_over_it else "incomplete")
