"""A stack seen in an empty betting spot and gone again before the bets that would lock it closed (by
`GONE_BEFORE_CLOSE_S` or more) is no wager: nothing rode on it (placed and taken back, or another stack's chips
carried over the spot). The round leaves it out, with an inferred note, rather than saying a wager was made and lost."""

from __future__ import annotations

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs, ZoneObs

from .conftest import nearest_round, rounds_with_edited_observations, scripted_session, seat_without


def _read_with_a_passing_stack(game: str, spot: str, round_index: int, close_index: int, before_close: int) -> tuple:
    """The seed-4 session's round `round_index` read with a $5 chip in an empty `spot` of a wagering seat for six
    frames, ending `before_close` frames before the round's bets close for the `close_index`-th time (from 0); that
    round, its truth, and the zone."""
    session = scripted_session(game, 3, 4)
    truth = session.scripted[round_index].round
    closes = sorted(e.frame for e in truth.events if e.type == "bets_closed")
    assert len(closes) > close_index, closes
    last = closes[close_index] - before_close
    shown = range(last - 5, last + 1)
    assert shown.start > (closes[close_index - 1] if close_index else truth.frames.start), (shown, closes)
    zone = f"seat{seat_without(truth, spot)}.{spot}"

    def passing_chip(frame: int, obs: FrameObs) -> None:
        if frame in shown:
            obs[zone] = ZoneObs(chips=[5], chips_min_confidence=0.95)

    got = rounds_with_edited_observations(game, session.scripted, session.setup, passing_chip)
    return nearest_round(got, truth), truth, zone


@pytest.mark.parametrize("game, spot, round_index, close_index, before_close", [
    # King High, video (set A42, seed 13971, round 947e3e05): a High payout's chips read as $5 in the seat's empty
    # Seven spot for four frames as the dealer laid it, 24 frames before the next card's bets closed: the round said a
    # $5 Seven was wagered on that card and lost. (Set A41, seed 13951: a $25 Suit the same way.)
    ("king-high", "seven", 0, 1, 20),
    # Before the deal, as every game has it: a chip in the empty Royal Family Bonus spot, gone before the first card.
    ("3-card-monster", "royal", 1, 0, 12),
])
def test_a_stack_gone_before_bets_closed_is_no_wager(game, spot, round_index, close_index, before_close):
    rnd, truth, zone = _read_with_a_passing_stack(game, spot, round_index, close_index, before_close)
    assert any(n.startswith(f"inferred: the 5 seen in {zone}") and "no wager" in n for n in rnd.notes), rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == "exact", rnd.notes


@pytest.mark.parametrize("before_close", [-3, 3])
def test_a_stack_there_until_bets_closed_is_a_wager(before_close):
    # The same chip, still in the Seven spot as the card's bets closed, or gone too little before to tell from one
    # hidden as the card was dealt (`GONE_BEFORE_CLOSE_S`): a wager on that card, not left out.
    rnd, _, zone = _read_with_a_passing_stack("king-high", "seven", 0, 1, before_close)
    assert not any(n.startswith(f"inferred: the 5 seen in {zone}") for n in rnd.notes), rnd.notes
    seat = int(zone[4:zone.index(".")])
    assert any(w.seat == seat and w.spot == "seven" and w.hand == 2 for w in rnd.wagers), rnd.wagers
