"""A zone read with doubt and then read again as it was, with nothing dealt meanwhile, raises no doubt."""

from __future__ import annotations

from dataclasses import replace

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs
from pipelines.vision.track import DOUBTFUL_READINGS

from .conftest import rounds_with_edited_observations


def _unreadable_spell(scripted, length: int):
    """An edit that shows the dealer's face-down second card as an unreadable face for `length` frames,
    from 6 frames after it is first seen (held-out 3 Card Monster video: the dealer's hand over it)."""
    truth = scripted[0].round
    seen_at: list[int] = []

    def edit(frame: int, obs: FrameObs) -> None:
        zo = obs.get("dealer.card2")
        if zo is None or not zo.cards or frame > truth.frames.end:
            return
        if not seen_at:
            seen_at.append(frame)
        if seen_at[0] + 6 <= frame < seen_at[0] + 6 + length:
            zo.cards = [replace(c, card=None, face_up=True, back=None, confidence=0.07, uncertain=True)
                        for c in zo.cards]
    return truth, edit


def test_a_face_down_card_read_as_an_unreadable_face_for_a_while_is_no_doubt(reconstruct):
    scripted, perfect, setup = reconstruct("3-card-monster", 2, 11)
    truth, edit = _unreadable_spell(scripted, 15)
    assert compare_rounds([r for r in perfect if r.round_id == truth.round_id], [truth])[0].result == "exact"
    got = rounds_with_edited_observations("3-card-monster", scripted, setup, edit)
    rnd = next(r for r in got if r.round_id == truth.round_id)
    assert not any("dealer.card2" in n for n in rnd.notes), rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == "exact"


def test_a_doubt_that_lasts_until_the_card_is_turned_stays(reconstruct):
    scripted, _, setup = reconstruct("3-card-monster", 2, 11)
    truth, edit = _unreadable_spell(scripted, 10_000)  # never read as it was again
    got = rounds_with_edited_observations("3-card-monster", scripted, setup, edit)
    rnd = next(r for r in got if r.round_id == truth.round_id)
    assert any("uncertain observation in dealer.card2" in n for n in rnd.notes), rnd.notes
    note = next(n for n in rnd.notes if "uncertain observation in dealer.card2" in n)
    assert note.endswith(f": {DOUBTFUL_READINGS}"), note  # it says why, for the reviewer
    assert compare_rounds([rnd], [truth])[0].result == "incomplete"
