"""A wager confirmed whole, then read short of a chip once another stack lies against it where that chip could lie
under the other's (`ZoneObs.chips_under_room`), keeps the total it was confirmed as (`ZoneTracker._read_more`,
`RoundMachine._laid_as`): the chip went under, not back to the player."""

from __future__ import annotations

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs, ZoneObs

from .conftest import lock_frame, nearest_round, rounds_with_edited_observations, scripted_session

GAME = "king-high"


def _read_short(under: bool) -> tuple[object, object, str]:
    """The seed-4 King High session's first round, its first hand-0 wager of more than one chip read a chip short
    from a few frames after it was laid until the hand takes or pays it, `under` saying whether that chip could lie
    under a stack laid against it: (the round read, the truth, the wager's zone)."""
    session = scripted_session(GAME, 3, 4)
    truth = session.scripted[0].round
    wagers = {f"seat{w.seat}.{w.spot}": w for w in truth.wagers if w.hand == 0}
    zone, wager = next((z, w) for z, w in wagers.items()
                       if len(getattr(session.mapper.observe_scene(session.scenes[w.frames.start + 2]).get(z),
                                      "chips", ())) > 1)
    close = lock_frame(truth, wager.frames.start)
    short = range(wager.frames.start + 8, close + 30)

    def under_neighbour(frame: int, obs: FrameObs) -> None:
        read = obs.get(zone)
        if frame in short and read is not None and len(read.chips) > 1:
            obs[zone] = ZoneObs(chips=sorted(read.chips)[1:], chips_under_room=under, chips_min_confidence=0.95)

    got = rounds_with_edited_observations(GAME, session.scripted, session.setup, under_neighbour)
    return nearest_round(got, truth), truth, zone


def test_a_wager_read_a_chip_short_once_another_stack_lay_against_it_keeps_its_confirmed_total():
    # King High, held-out video (set A23, seed 13211): a $20 High Run of four $5 chips read whole for six frames,
    # then $15 for 23 as the seat's $40 Low was laid against it, a chip of it able to lie under the Low's. The fall
    # confirmed, the wager locked at $15, and read $20 again once the Low was taken, the round was in doubt.
    rnd, truth, zone = _read_short(under=True)
    assert compare_rounds([rnd], [truth])[0].result == "exact", rnd.notes
    assert any(n.startswith(f"inferred: {zone}") and "lies under that stack" in n for n in rnd.notes), rnd.notes


def test_a_wager_read_a_chip_short_with_nothing_to_hide_it_is_read_as_less() -> None:
    # no stack against it to hide the chip: the fewer chips are what lies there, and the round reads the wager short
    rnd, truth, zone = _read_short(under=False)
    assert compare_rounds([rnd], [truth])[0].result != "exact"
    assert not any(n.startswith(f"inferred: {zone}") for n in rnd.notes), rnd.notes
