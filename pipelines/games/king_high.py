"""King High: settlement, paytables and exact odds (manual seeds/000_67516621c67563b3.txt).

Five cards are drawn one at a time from 6 decks. Each card is an action round for High (8-K), Low
(A-6), Suit and Any 7 wagers (`hand` = card number 1-5, a suit bet names its suit in `choice`);
High Run, Low Run and the Pokerpot (the five cards as a poker hand) are round-of-play wagers (`hand`
0). Decisions where the manual is silent or contradicts itself are in RULES.md "King High"; each is a
`Settings` field.

Worked example: box 3 bets $10 Pokerpot, $5 High Run and $5 High on the first card. The cards run
K♠ Q♥ 9♦ 3♣ K♦: the king wins High at 3-2, the run reaches three high cards and is paid 3-1 when the
3♣ breaks it, and the two kings are a qualifying pair, paid 1-1 after the fifth card.

>>> from pipelines.games.round import DealtCard, Round, Wager
>>> board = ["Ks", "Qh", "9d", "3c", "Kd"]
>>> rnd = Round(game="king-high", table_id="KH1", round_id="r1", started_at="2026-01-01T20:00:00",
...     wagers=[Wager(seat=3, spot="pokerpot", amount=10), Wager(seat=3, spot="high_run", amount=5),
...             Wager(seat=3, spot="high", amount=5, hand=1)],
...     cards=[DealtCard(seq=i, owner="board", card=c) for i, c in enumerate(board)])
>>> for s in settle(rnd, Settings()):
...     print(s.order, s.seat, s.spot, s.hand, s.outcome, s.net, s.line)
0 3 high 1 win 7.5 king
1 3 high_run 0 win 15.0 run_3
2 3 pokerpot 0 win 10.0 qualifying_pair
"""

from __future__ import annotations

from .king_high_odds import house_edges, odds, pokerpot_counts, run_counts
from .king_high_rules import (
    ACTION_SPOTS,
    ROUND_SPOTS,
    SPOTS,
    KingHighError,
    PaytableNames,
    Settings,
    pokerpot_level_made,
    pokerpot_line,
)
from .king_high_settle import action_wagers_without_pokerpot, board_cards, settle

__all__ = [
    "ACTION_SPOTS",
    "ROUND_SPOTS",
    "SPOTS",
    "KingHighError",
    "PaytableNames",
    "Settings",
    "action_wagers_without_pokerpot",
    "board_cards",
    "house_edges",
    "odds",
    "pokerpot_counts",
    "pokerpot_level_made",
    "pokerpot_line",
    "run_counts",
    "settle",
]
