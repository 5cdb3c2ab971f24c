"""King High: chips read in an action spot after the last card's bets closed ride on no card. Read only with doubt,
they are a stack beside them read apart, and no wager (`KingHighMachine._drop_unsure_beyond_last_card`); read surely,
they stay for review."""

from __future__ import annotations

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs, ZoneObs

from .conftest import nearest_round, rounds_with_edited_observations, scripted_session

GAME = "king-high"


@pytest.mark.parametrize("read_surely", [False, True])
def test_chips_read_in_an_action_spot_after_the_last_card_ride_on_nothing(read_surely):
    # Held-out King High video (set A63, seed 14801, round 5e61026d): a $400 Pokerpot, paid, read as three $100 and
    # its fourth $100 in the Seven spot beside it, below the detector's confidence, until taken; the round said a $100
    # Seven rode on a sixth card, and could not be settled.
    scripted, setup, _, _ = scripted_session(GAME, 3, 4)
    truth = scripted[0].round
    last_close = max(e.frame for e in truth.events if e.type == "bets_closed")
    seat = next(w.seat for w in truth.wagers if w.spot == "pokerpot")
    zone = f"seat{seat}.seven"
    frames = range(last_close + 5, last_close + 25)
    assert truth.frames.end > frames[-1]

    def chip_read_apart(frame: int, obs: FrameObs) -> None:
        if frame in frames and zone not in obs:
            obs[zone] = ZoneObs(chips=[100], chips_uncertain=not read_surely, chips_doubt_other=not read_surely,
                                chips_under_room=True)

    rnd = nearest_round(rounds_with_edited_observations(GAME, scripted, setup, chip_read_apart), truth)
    dropped = [n for n in rnd.notes if n.startswith("inferred: ") and f"read in {zone}" in n and "no wager" in n]
    assert bool(dropped) != read_surely, rnd.notes
    assert not any(w.spot == "seven" and w.seat == seat and w.hand > 5 for w in rnd.wagers) or read_surely
    assert compare_rounds([rnd], [truth])[0].result == ("incomplete" if read_surely else "exact")
