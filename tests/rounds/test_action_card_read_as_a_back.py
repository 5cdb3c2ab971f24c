"""King High: a back read in a holding box after its action card moved on there, the card read face up there again
after, was that card read as a back, not a burn (`KingHighMachine._burns`). Read so until the end, it may be the burn
under the card, shown as the dealer lifted it, and stays a burn."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs, ZoneObs

from .conftest import nearest_round, rounds_with_edited_observations, scripted_session

GAME = "king-high"
BOX = "board.card1"
_EMPTY = ZoneObs()


@pytest.mark.parametrize("read_again", [True, False])
def test_an_action_card_read_as_a_back_on_its_holding_box_is_no_burn(read_again):
    # King High, video (set A43, seed 14031, round bd4d67c7): action card 1, Qh, on its holding box, read as a back at
    # 0.8 for three frames as the dealer gathered the cards, then as Qh again: the round said a card was burned before
    # card 1.
    session = scripted_session(GAME, 3, 4)
    truth = session.scripted[0].round
    assert not any(c.owner == "burn" for c in truth.cards)
    shown = [f for f in range(truth.frames.start, truth.frames.end)
             if any(c.face_up for c in session.mapper.observe_scene(session.scenes[f]).get(BOX, _EMPTY).cards)]
    assert len(shown) > 30, len(shown)
    as_back = set(shown[-15:-11]) if read_again else set(shown[-15:])

    def card_read_as_a_back(frame: int, obs: FrameObs) -> None:
        if frame in as_back:
            obs[BOX] = replace(obs[BOX], cards=[replace(c, card=None, face_up=False, back="red", confidence=0.8)
                                                for c in obs[BOX].cards])

    rnd = nearest_round(rounds_with_edited_observations(GAME, session.scripted, session.setup, card_read_as_a_back),
                        truth)
    inferred = any(n.startswith(f"inferred: the back read in {BOX}") for n in rnd.notes)
    assert inferred == read_again, rnd.notes
    assert any(c.owner == "burn" for c in rnd.cards) != read_again, rnd.cards
    if read_again:
        assert compare_rounds([rnd], [truth])[0].result == "exact", rnd.notes
