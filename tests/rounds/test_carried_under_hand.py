"""Chips read surely for a moment in a paid spot under the dealer's hand, just as a stack of the seat was collected,
are that stack in the hand passing over the spot (`RoundMachine._carried_under_hand`), not a payout, even where the
spot pays a wager the round still holds. In plain view such chips are a payout: the round is for review."""

from __future__ import annotations

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs, ZoneObs

from .conftest import nearest_round, rounds_with_edited_observations, scripted_session

GAME = "pick-2-poker"


def _collected_beside_a_push(seed: int):
    """The seed's session, a round of it with a wager lost and collected at a seat whose other wager pushed: the
    round's index, a chip of the lost wager, the frame its spot was empty, and the pushed wager's paid spot."""
    session = scripted_session(GAME, 3, seed)
    for k, r in enumerate(session.scripted):
        truth = r.round
        for s in truth.settlements:
            push = next((o for o in truth.settlements if o.seat == s.seat and o.outcome == "push"), None)
            if s.outcome != "lose" or push is None:
                continue
            gone, zone = s.frames.start, f"seat{s.seat}.{s.spot}"
            shown = (session.mapper.observe_scene(session.scenes[f]).get(zone) for f in range(gone - 1, 0, -1))
            chips = next((o for o in shown if o is not None and o.chips), None)
            if chips is not None:
                return session, k, min(chips.chips), gone, f"seat{push.seat}.{push.spot}.paid"
    raise LookupError(f"{GAME} seed {seed}: no wager lost beside a push at its seat")


@pytest.mark.parametrize("under_hand", [True, False])
def test_a_chip_read_surely_under_the_hand_in_a_pushed_wagers_paid_spot_as_its_seat_is_collected(under_hand):
    # 3 Card Monster, video (set A67, seed 14973, round 1ef4ecde): as the dealer's hand took a $40 Play to return it,
    # $1 read surely under the hand in the Play's paid spot for four frames: the round said the Play won $1. Read so
    # in plain view, the chip is a payout of its own.
    (scripted, setup, _, _), k, chip, gone, spot = _collected_beside_a_push(2)

    def carried(frame: int, obs: FrameObs) -> None:
        if gone + 1 <= frame < gone + 4:
            obs[spot] = ZoneObs(chips=[chip], chips_min_confidence=0.95)

    def hand(frame: int, covered: set[str]) -> None:
        if under_hand and gone - 1 <= frame < gone + 6:
            covered.add(spot)

    truth = scripted[k].round
    rnd = nearest_round(rounds_with_edited_observations(GAME, scripted, setup, carried, hand), truth)
    won = [x for x in rnd.settlements if f"seat{x.seat}.{x.spot}.paid" == spot and x.outcome == "win"]
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if under_hand else "wrong"), (rnd.notes, won)
    assert bool(won) != under_hand, rnd.settlements
    assert any(n.startswith(f"inferred: the {chip:g} seen in {spot}") and "carried over the spot" in n
               for n in rnd.notes) == under_hand, rnd.notes
