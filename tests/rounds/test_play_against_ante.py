"""3 Card Monster's Play is a set multiple of the Ante: a Play read otherwise sends the round to review."""

from __future__ import annotations

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import rounds_with_edited_observations


def test_a_play_read_as_twice_the_ante_makes_its_round_incomplete_not_wrong(reconstruct):
    # Held-out 3 Card Monster video (seed 9303): a $500 Play beside its cards read as two $500 chips with
    # confidence (a second box half on the chip) was a Play of $1,000 against a $500 Ante: a wrong round.
    scripted, clean, setup = reconstruct("3-card-monster", 2, 11)  # shared with other tests (cached)
    truth = next(r.round for r in scripted if any(w.spot == "play" for w in r.round.wagers))
    play = next(w for w in truth.wagers if w.spot == "play")
    zone = f"seat{play.seat}.play"

    def duplicate_chip(frame: int, obs: FrameObs) -> None:
        if zone in obs and truth.frames.start <= frame <= truth.frames.end:
            obs[zone].chips = obs[zone].chips * 2

    got = rounds_with_edited_observations("3-card-monster", scripted, setup, duplicate_chip)
    rnd = next(r for r in got if r.round_id == truth.round_id)
    assert rnd.wager(play.seat, "play").amount == 2 * play.amount
    ante = truth.wager(play.seat, "ante").amount
    assert f"seat {play.seat}: Play {2 * play.amount:g} is not 1x the Ante {ante:g}" in rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == "incomplete"
    # Read right, the same round has no such note.
    same = next(r for r in clean if r.round_id == truth.round_id)
    assert not any("is not 1x the Ante" in n for n in same.notes)
