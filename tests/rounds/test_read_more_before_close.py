"""A wager read surely as more, never confirmed so, between the frame it was laid and the close that locked it is in
doubt: a chip of it may go unseen in its other frames, so the amount locked is not certain
(`SettlementDoubts._doubt_read_more_before_close`). Read so only after the close, it is no such doubt: a payout laid
against a wager reads with it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import lock_frame, nearest_round, rounds_with_edited_observations, scripted_session

GAME = "king-high"


@pytest.mark.parametrize("whole_before_close", [True, False])
def test_a_wager_read_surely_as_more_before_the_close_is_in_doubt(whole_before_close):
    # King High, video (set A42, seed 13991, round fd27dc01): a $40 High, a $25 under three $5 chips, the $25 read in
    # one frame as it was laid and now and then after, locked at $15: the round said a $15 High was wagered.
    scripted, setup, mapper, scenes = scripted_session(GAME, 3, 4)
    truth = scripted[0].round
    w = next(w for w in truth.wagers if w.frames.end - lock_frame(truth, w.frames.start) > 20
             and len(mapper.observe_scene(scenes[w.frames.start + 1]).get(f"seat{w.seat}.{w.spot}").chips) >= 2)
    zone, locked = f"seat{w.seat}.{w.spot}", lock_frame(truth, w.frames.start)
    whole_at = w.frames.start + 1 if whole_before_close else locked + 10
    assert whole_at < locked if whole_before_close else whole_at > locked

    def a_chip_missed(frame: int, obs: FrameObs) -> None:
        if zone in obs and len(obs[zone].chips) >= 2 and frame != whole_at:
            obs[zone] = replace(obs[zone], chips=obs[zone].chips[:-1])

    rnd = nearest_round(rounds_with_edited_observations(GAME, scripted, setup, a_chip_missed), truth)
    doubted = [n for n in rnd.notes if n.startswith(f"seat {w.seat} {w.spot}") and "before bets closed" in n]
    assert bool(doubted) == whole_before_close, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("incomplete" if whole_before_close else "wrong"), rnd.notes


@pytest.mark.parametrize("against_another", [True, False])
def test_a_wager_read_surely_as_more_only_against_another_stack_is_no_doubt(against_another):
    # A box where stacks meet may be a chip of the stack beside it, or no chip: a King High $100 High read $200 in two
    # frames as it was laid, only where it lay against the seat's Pokerpot, read right (set A49, seed 14241, round
    # cb66b4f8). Read so in a frame it lay clear of every other stack, the larger total stays a doubt.
    scripted, setup, mapper, scenes = scripted_session(GAME, 3, 4)
    truth = scripted[0].round
    w = next(w for w in truth.wagers if w.frames.end - lock_frame(truth, w.frames.start) > 20
             and mapper.observe_scene(scenes[w.frames.start + 1]).get(f"seat{w.seat}.{w.spot}").chips)
    zone, phantom_at = f"seat{w.seat}.{w.spot}", w.frames.start + 1
    assert phantom_at < lock_frame(truth, w.frames.start)

    def a_box_more(frame: int, obs: FrameObs) -> None:
        if frame == phantom_at and zone in obs:
            o = obs[zone]
            obs[zone] = replace(o, chips=[*o.chips, o.chips[-1]], chips_under_room=against_another)

    rnd = nearest_round(rounds_with_edited_observations(GAME, scripted, setup, a_box_more), truth)
    doubted = [n for n in rnd.notes if n.startswith(f"seat {w.seat} {w.spot}") and "before bets closed" in n]
    assert bool(doubted) != against_another, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if against_another else "incomplete"), rnd.notes


@pytest.mark.parametrize("as_laid_beside", [True, False])
def test_a_surplus_laid_in_another_spot_just_after_is_no_doubt(as_laid_beside):
    # Chips on their way to another spot of the seat pass over the wager's: a King High $25 High Run read $125 surely
    # for one frame, two frames before the seat's $100 High was laid beside it (set A66, seed 14931, round 800005b9).
    # A surplus that is not what was laid there stays a doubt.
    scripted, setup, mapper, scenes = scripted_session(GAME, 3, 4)
    truth = scripted[0].round
    w, beside = next((w, o) for w in truth.wagers for o in truth.wagers
                     if o.seat == w.seat and o.spot != w.spot and w.frames.start + 2 <= o.frames.start
                     < lock_frame(truth, w.frames.start))
    zone, other = f"seat{w.seat}.{w.spot}", f"seat{beside.seat}.{beside.spot}"
    phantom_at = beside.frames.start - 1
    laid = mapper.observe_scene(scenes[lock_frame(truth, w.frames.start)])[other].chips
    surplus = list(laid) if as_laid_beside else [*laid, laid[-1]]

    def carried_over(frame: int, obs: FrameObs) -> None:
        if frame == phantom_at and zone in obs:
            o = obs[zone]
            obs[zone] = replace(o, chips=[*o.chips, *surplus], chips_under_room=False)

    rnd = nearest_round(rounds_with_edited_observations(GAME, scripted, setup, carried_over), truth)
    doubted = [n for n in rnd.notes if n.startswith(f"seat {w.seat} {w.spot}") and "before bets closed" in n]
    assert bool(doubted) != as_laid_beside, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if as_laid_beside else "incomplete"), rnd.notes
