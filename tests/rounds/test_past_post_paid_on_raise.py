"""A payout read as the rules' pay on a wager's locked amount, where the wager was read raised before it was paid,
is no answer to the doubts on its reading: a past-post the dealer paid is paid on the raise, and the chip read with
doubt may be the raise's pay (`_raised_before_paid` in `pipelines/rounds/settlement_doubts.py`)."""

from __future__ import annotations

from dataclasses import replace

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import nearest_round, perfect_path, rounds_with_edited_observations, session

GAME = "3-card-monster"


def test_a_past_posted_wager_paid_on_the_raise_read_with_doubt_is_not_said_paid_on_the_locked_amount():
    # King High, held-out set A48, seed 14231, round cb66b4f8: a $2 Low past-posted to $3 and paid $3, the payout's
    # third $1 read at 0.26-0.47 in most frames and missed, surely, in a few: the round said $2 was paid, the rules'
    # pay on the $2 locked. Here a $15 Monster past-posted to $25 and paid $50 at 2 to 1, read $50 with doubt in three
    # frames of four and $30 (a $25 and a $5: the pay on $15) surely in the fourth.
    scripted, _, setup = session(GAME, 5, 31, (("past_post", 1.0), ("pinch", 1.0)))
    mapper = perfect_path(GAME, setup)[0]
    scenes = [s for r in scripted for s in r.scenes]
    s, fault = next((s, f) for s in scripted for f in s.faults if f.type == "past_post" and f.amount == 10.0)
    truth = s.round
    zone = f"seat{fault.seat}.{fault.spot}.paid"
    shown = [i for i in range(fault.frames.start, truth.frames.end) if zone in mapper.observe_scene(scenes[i])]
    on_locked = [25, 5]

    def raise_pay_read_with_doubt(frame: int, obs: FrameObs) -> None:
        if frame in shown and zone in obs:
            if shown.index(frame) % 4 == 3:
                obs[zone] = replace(obs[zone], chips=on_locked)
            else:
                obs[zone] = replace(obs[zone], chips_uncertain=True, chips_doubt_other=True, chips_min_confidence=0.4)

    got = rounds_with_edited_observations(GAME, scripted, setup, raise_pay_read_with_doubt, hand=lambda f, c: None)
    rnd = nearest_round(got, truth)
    paid = next(x.paid for x in rnd.settlements if (x.seat, x.spot) == (fault.seat, fault.spot))
    assert paid != sum(on_locked), rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == "incomplete", rnd.notes
