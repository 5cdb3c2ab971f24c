"""King High: a stack still in an action spot when the next card's bets close is a wager on that card."""

from __future__ import annotations

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import rounds_with_edited_observations


def test_a_won_wager_placed_again_under_the_hand_is_a_wager_on_the_next_card(reconstruct):
    # Held-out video (King High 10451): a $2 Low won on card 1, went back with its payout and was placed again
    # for card 2 in three frames; the camera saw one stack throughout and the card-2 wager was lost.
    scripted, _, setup = reconstruct("king-high", 3, 10)
    truth = next(r.round for r in scripted if r.round.round_id.startswith("e4b79ccc"))
    again = next(w for w in truth.wagers if (w.seat, w.spot, w.hand) == (5, "low", 3))
    won = next(s for s in truth.settlements if (s.seat, s.spot, s.hand) == (5, "low", 2))
    assert won.outcome == "win" and again.amount == 2.0
    held: list = []

    def one_stack_throughout(frame: int, obs: FrameObs) -> None:
        if won.frames.end < frame < again.frames.start:
            if "seat5.low" in obs:
                held[:] = [obs["seat5.low"]]
            elif held:
                obs["seat5.low"] = held[0]  # the spot empty a moment under the dealer's hand: not seen

    got = rounds_with_edited_observations("king-high", scripted, setup, one_stack_throughout)
    rnd = next(r for r in got if r.round_id == truth.round_id)
    assert [(w.hand, w.amount) for w in rnd.wagers if (w.seat, w.spot) == (5, "low")] == [(2, 2.0), (3, 2.0)]
    assert compare_rounds([rnd], [truth])[0].result == "exact", rnd.notes
