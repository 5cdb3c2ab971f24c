"""A payout read surely as more, with no hand over its spot, before the hand came back over it and the payout was
confirmed as less, is in doubt: a chip of it was seen, then missed or taken back
(`RoundMachine._doubt_payouts_read_less_after_hand`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import FPS, long_shown_payout, nearest_round, rounds_with_edited_observations

GAME = "3-card-monster"
SEEN = 2  # frames the larger total is read (the cover log ends a hand's spell after two frames without it)
BACK = 4  # frames the hand is back over the payout after the larger reading


@pytest.mark.parametrize(("hand_back", "larger_under_hand", "doubted"), [
    (True, False, True),  # the case
    (False, False, False),  # the spot read empty in plain view between: the larger total was another stack
    (True, True, False),  # the larger total read under the hand: the hand read as chips
])
def test_a_payout_read_surely_as_more_before_the_hand_came_back_is_in_doubt(hand_back, larger_under_hand, doubted):
    # Held-out 3 Card Monster video (set TT, seed 12043, round 601081c7): a $250 Play overpaid $350, read $350 surely
    # in the one frame between the hand laying it and the hand coming back over it, then $250 surely for good: the
    # round said the dealer paid $250, what the rules pay.
    (scripted, setup, _, _), zone, shown = long_shown_payout(GAME, 2 * FPS)
    truth = scripted[0].round
    first = shown[0]
    larger, back = range(first, first + SEEN), range(first + SEEN, first + SEEN + BACK)

    def more_then_hidden(frame: int, obs: FrameObs) -> None:
        if frame in larger and zone in obs:
            obs[zone] = replace(obs[zone], chips=[*obs[zone].chips, 100])
        elif frame in back:
            obs.pop(zone, None)

    def hand(frame: int, covered: set[str]) -> None:
        covered.discard(zone)
        if frame < first or (frame in larger and larger_under_hand) or (frame in back and hand_back):
            covered.add(zone)

    got = rounds_with_edited_observations(GAME, scripted, setup, more_then_hidden, hand=hand)
    rnd = nearest_round(got, truth)
    notes = [n for n in rnd.notes if "once the hand had come back over it" in n]
    assert bool(notes) == doubted, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("incomplete" if doubted else "exact"), rnd.notes
