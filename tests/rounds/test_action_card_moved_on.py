"""A King High action card carried onto its holding box over a burn, read with doubt on its way and then surely as
that card, leaves no doubt: the burn beneath, read surely before, stays out of view until the clearing."""

from __future__ import annotations

from dataclasses import replace

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import rounds_with_edited_observations, session

BOX = "board.card3"  # seed 11's misdeal burns one card onto holding box 3 before card 3


def _carried_over(read_as: str | None = None):
    """An edit reading the action card on `BOX` as an unreadable face, in doubt, for its first 15 frames there
    (held-out King High video, set A7: box confidence 0.3 as the dealer laid it over the burn); then, with `read_as`,
    surely as that card instead of the one it is."""
    laid: list[int] = []

    def edit(frame: int, obs: FrameObs) -> None:
        zo = obs.get(BOX)
        if zo is None:
            return
        if not any(c.face_up for c in zo.cards):
            return
        if not laid:
            laid.append(frame)
        spell = frame < laid[0] + 15
        zo.cards = [c if not c.face_up else replace(c, card=None, uncertain=True, confidence=0.01) if spell
                    else replace(c, card=read_as or c.card) for c in zo.cards]
    return edit


def _round(read_as: str | None = None):
    scripted, perfect, setup = session("king-high", 1, 11, faults=(("misdeal", 1.0),))
    truth = scripted[0].round
    assert any(c.owner == "burn" for c in truth.cards)
    assert compare_rounds(perfect, [truth])[0].result == "exact"
    (rnd,) = rounds_with_edited_observations("king-high", scripted, setup, _carried_over(read_as))
    return rnd, truth


def test_an_action_card_read_with_doubt_as_it_is_laid_over_the_burn_then_surely_leaves_no_doubt():
    rnd, truth = _round()
    assert any(n.startswith(f"inferred: {BOX}") and "moved on over the burn" in n for n in rnd.notes), rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == "exact", rnd.notes


def test_a_card_read_surely_on_the_box_that_is_not_the_action_card_keeps_the_doubt():
    rnd, truth = _round(read_as="2c")
    assert any(f"uncertain observation in {BOX}" in n for n in rnd.notes), rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == "incomplete"

