"""A stack read only with doubt in a paid spot, with the dealer's hand over the spot from the frame it showed to the
frame it was gone, is the hand read as chips, not a payout: a payout laid stays once the hand leaves it
(`RoundMachine._hand_read_as_chips`)."""

from __future__ import annotations

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs, ZoneObs

from .conftest import nearest_round, rounds_with_edited_observations, scripted_session

GAME = "3-card-monster"
SHOWN = 4  # frames the phantom payout is read


@pytest.mark.parametrize(("hand_stays", "doubtful", "phantom"), [
    (True, True, True),  # the case: read with doubt, under the hand throughout
    (False, True, False),  # the hand left while it was still read: it may be a payout
    (True, False, False),  # read surely: a payout the hand took back is for the flags to judge
])
def test_a_doubtful_stack_only_ever_under_the_hand_is_no_payout(hand_stays, doubtful, phantom):
    # Held-out 3 Card Monster video (set QQ, seed 11923, round 0e2d8112): a $5 Play returned, and as the dealer's hand
    # took the chip a $1 box read below the detector's confidence in the Play's paid spot for four frames, the hand
    # over the spot throughout and after: a $1 win was claimed with doubt. (Set RR, seed 11993: a $100 box so.)
    scripted, setup, mapper, scenes = scripted_session(GAME, 3, 4)
    rounds = [r.round for r in scripted]

    def unpaid(r, w) -> bool:  # no payout at the seat, so none is laid beside the phantom (`_laid_through`)
        return all(s.outcome != "win" for s in r.settlements if s.seat == w.seat)

    def gone(w) -> int | None:
        zone = f"seat{w.seat}.{w.spot}"
        seen = [f for f in range(w.frames.start, w.frames.end + 2) if zone in mapper.observe_scene(scenes[f])]
        return seen[-1] + 1 if seen and seen[-1] + 20 < len(scenes) else None

    truth, w, taken = next((r, w, g) for r in rounds for w in r.wagers if unpaid(r, w) and (g := gone(w)) is not None)
    paid = f"seat{w.seat}.{w.spot}.paid"
    shown = range(taken, taken + SHOWN)

    def box(frame: int, obs: FrameObs) -> None:
        if frame in shown:
            obs[paid] = ZoneObs(chips=[100], chips_uncertain=doubtful, chips_min_confidence=0.4 if doubtful else 0.9)

    def hand(frame: int, covered: set[str]) -> None:  # the scene's own hand, taking the wager, is replaced
        covered.discard(paid)
        if taken - 2 <= frame <= (taken + SHOWN + 3 if hand_stays else taken + 1):
            covered.add(paid)

    got = rounds_with_edited_observations(GAME, scripted, setup, box, hand=hand)
    rnd = nearest_round(got, truth)
    # Under the hand throughout, the spot's empty readings do not end the phantom's run (`ZoneTracker._brief_payout`),
    # so the tracker may not confirm it at all; where it does, the machine names it the hand read as chips.
    hand_note = any("was the hand read as chips" in n for n in rnd.notes)
    assert not hand_note or phantom, rnd.notes
    result = compare_rounds([rnd], [truth])[0].result
    assert (result == "exact") == phantom, (result, rnd.notes)
