"""Chips read with doubt in a payout spot before its wager was placed are no payout, and the payout laid there later
is its own stack, not one with them."""

from __future__ import annotations

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs, ZoneObs

from .conftest import nearest_round, rounds_with_edited_observations, scripted_session

GAME = "3-card-monster"


def test_a_doubtful_reading_in_a_payout_spot_before_its_wager_was_placed_is_no_payout():
    # 3 Card Monster, video (set A17, seed 12963, round d8fd0f80): the Play payout spot read $5 for four frames at
    # 0.26-0.47 beside the seat's cards, forty frames before the Play was placed; the $75 the Play was paid was taken
    # for that stack come back, dated before the Play, and the Play was settled as a push, the $5 as a payout that
    # matched no wager.
    scripted, setup, _, _ = scripted_session(GAME, 2, 3)
    truth, settled = next((s.round, x) for s in scripted for x in s.round.settlements
                          if x.spot == "play" and x.outcome == "win" and x.paid > 0)
    placed = next(e.frame for e in truth.events if e.type == "wager_placed" and e.seat == settled.seat
                  and e.spot == "play")
    spot, shown = f"seat{settled.seat}.play.paid", range(placed - 40, placed - 32)

    def read(sure: bool):
        def stray_chip(frame: int, obs: FrameObs) -> None:
            if frame in shown:
                obs[spot] = ZoneObs(chips=[5], chips_uncertain=not sure, chips_doubt_other=not sure,
                                    chips_min_confidence=0.95 if sure else 0.3)

        return nearest_round(rounds_with_edited_observations(GAME, scripted, setup, stray_chip), truth)

    rnd = read(sure=False)
    assert any(n.startswith(f"inferred: the 5 read with doubt in {spot}") and "was no payout" in n
               for n in rnd.notes), rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == "exact", rnd.notes
    # read surely, the chip was there: a stack in a payout spot no wager explains is for review
    rnd = read(sure=True)
    assert any(n == f"a payout in {spot} at frame {shown[0]} matches no wager" for n in rnd.notes), rnd.notes
    play = next(x for x in rnd.settlements if (x.seat, x.spot) == (settled.seat, "play"))
    assert (play.outcome, play.paid) == ("win", settled.paid)  # the payout laid after the Play is still its own
