"""A losing wager seen paid as another of its seat's payouts, laid at the same time, was read short by at least as
much is in doubt, and so is that short payout: the two may be one payout read apart
(`SettlementDoubts._doubt_losers_paid_beside_short_payouts`)."""

from __future__ import annotations

import pytest

from pipelines.games.round import Wager
from pipelines.games.settlement import Settlement
from pipelines.rounds.king_high import KingHighMachine
from pipelines.rounds.live import LiveRound, WagerSeen
from pipelines.rounds.timeline import ChipInstance

FPS = 10.0


def _notes(seven_paid: float, pokerpot_paid: float, pokerpot_laid: int, seat: int = 8) -> list[str]:
    """King High seat 8: a $400 Seven won at 11 to 1, paid `seven_paid` from frame 648; a $15 Pokerpot (at `seat`)
    that lost by the rules, seen paid `pokerpot_paid` from `pokerpot_laid`."""
    seven = WagerSeen(Wager(seat=8, spot="seven", hand=5, amount=400.0),
                      ChipInstance("seat8.seven", 598, [(598, 400.0)], end=654), 600, "seat8.seven.paid",
                      outcome="win", paid=seven_paid,
                      payout=ChipInstance("seat8.seven.paid", 648, [(648, seven_paid)], end=654))
    pokerpot = WagerSeen(Wager(seat=seat, spot="pokerpot", hand=0, amount=15.0),
                         ChipInstance(f"seat{seat}.pokerpot", 379, [(379, 15.0)], end=680), 400,
                         f"seat{seat}.pokerpot.paid", outcome="win", paid=pokerpot_paid,
                         payout=ChipInstance(f"seat{seat}.pokerpot.paid", pokerpot_laid,
                                             [(pokerpot_laid, pokerpot_paid)], end=pokerpot_laid + 6))
    rules = [Settlement(seat=8, spot="seven", hand=5, wagered=400.0, amount=400.0, outcome="win", net=4400.0,
                        line="seven", order=1, rule="test"),
             Settlement(seat=seat, spot="pokerpot", hand=0, wagered=15.0, amount=15.0, outcome="lose", net=-15.0,
                        line="pokerpot", order=2, rule="test")]
    live = LiveRound(start=0, last=700)
    KingHighMachine("T1", fps=FPS)._doubt_losers_paid_beside_short_payouts([seven, pokerpot], rules, live)
    return live.notes


def test_a_loser_paid_as_a_payout_beside_it_was_read_short_is_in_doubt_with_it():
    # King High, held-out set A48, seed 14231, round ea5d93f2: a $4,400 Seven payout read $4,100, a $100 of it read in
    # the losing Pokerpot's paid spot for the six frames it lay there: a paid loser was claimed.
    pokerpot, seven = _notes(4100.0, 100.0, 648)
    assert pokerpot.startswith("seat 8 pokerpot (hand 0): paid 100 though the rules say it lost")
    assert seven.startswith("seat 8 seven (hand 5): paid 4100, short of the rules' 4400")


@pytest.mark.parametrize(("seven_paid", "pokerpot_paid", "laid", "seat"), [
    (4400.0, 100.0, 648, 8),  # the other payout whole: the loser's payout is its own
    (4350.0, 100.0, 648, 8),  # short by less than the loser was paid
    (4100.0, 100.0, 700, 8),  # laid long after
    (4100.0, 100.0, 648, 7),  # another seat's
])
def test_a_loser_paid_is_not_doubted_so_otherwise(seven_paid, pokerpot_paid, laid, seat):
    assert _notes(seven_paid, pokerpot_paid, laid, seat) == []
