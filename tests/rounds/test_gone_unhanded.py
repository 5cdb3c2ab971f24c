"""A wager gone from view with no hand over its spot was not seen taken."""

from __future__ import annotations

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import rounds_with_edited_observations, session


def _side_gone(hand_seen: bool, over_payout_spot: bool = False, came_after: int | None = None
               ) -> tuple[list[str], str]:
    """High Tie (seed 3): the first round's losing Side, collected at its frame, with the dealer's hand over its spot
    as the perfect observation has it, or not seen there (`hand_seen` False) nor over its payout spot, unless
    `over_payout_spot`, or until `came_after` frames after it went; the round's notes and result."""
    scripted, _, setup = session("high-tie", 3, 3)
    truth = scripted[0].round
    taken = next(e for e in truth.events if e.type == "wager_collected" and e.spot == "side")
    spot = f"seat{taken.seat}.side"

    def keep(frame: int, obs: FrameObs) -> None:
        pass

    def no_hand(frame: int, covered: set[str]) -> None:
        if not hand_seen and taken.frame - 20 <= frame <= taken.frame + 20:
            covered.discard(spot)
            covered.discard(f"{spot}.paid")
            if over_payout_spot:
                covered.add(f"{spot}.paid")
            if came_after is not None and frame >= taken.frame + came_after:
                covered.add(spot)

    got = rounds_with_edited_observations("high-tie", scripted, setup, keep, no_hand)
    rnd = next(r for r in got if r.round_id == truth.round_id)
    return rnd.notes, compare_rounds([rnd], [truth])[0].result


def test_a_wager_gone_with_no_hand_over_its_spot_is_not_taken_for_collected():
    # High Tie, held-out video (set YY, seed 12242): a losing $100 Side the dealer never collected, the seat's split
    # cards over it, read as gone with no hand near, then seen again in single frames until the clearing: it was
    # settled as collected, a missed collection passed over.
    notes, result = _side_gone(hand_seen=False)
    assert any("with no hand over its spot" in n and "not seen taken" in n for n in notes), notes
    assert result == "incomplete"
    # taken under the hand, as a collection is, it is settled as seen
    notes, result = _side_gone(hand_seen=True)
    assert not any("no hand over its spot" in n for n in notes), notes
    assert result == "exact"


def test_a_wager_gone_as_the_hand_came_over_its_payout_spot_was_taken():
    # 3 Card Monster, video (set A16, 12933): a losing $5 Monster gone as the dealer's hand came over its payout spot,
    # which lies in line with it on the dealer's side; the hand covered the spot itself two frames later. It was
    # said not seen taken.
    notes, result = _side_gone(hand_seen=False, over_payout_spot=True)
    assert not any("no hand over its spot" in n for n in notes), notes
    assert result == "exact"


def test_a_wager_gone_just_before_the_hand_came_over_its_spot_was_taken():
    # 3 Card Monster, held-out video (set A33, seed 13633 cb052fcf): a losing $20 Royal of four $5 chips read as one,
    # then gone, as the hand that had taken the Monster beside it reached for it; its spot read covered from the
    # next frame. It was said not seen taken, and the round, read right, was unsure.
    notes, result = _side_gone(hand_seen=False, came_after=1)
    assert not any("no hand over its spot" in n for n in notes), notes
    assert result == "exact"
    # a hand that comes half a second later came for something else
    notes, result = _side_gone(hand_seen=False, came_after=5)
    assert any("with no hand over its spot" in n for n in notes), notes
    assert result == "incomplete"
