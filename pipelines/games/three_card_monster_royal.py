"""The 4 Card Royal Family Bonus lines: what a player's 4 cards can meet.

The manual names the wager but prints no paytable, so these line names are the vocabulary the example
paytable (and a casino's own, entered from its signage) is written in. The "royal family" is the king,
queen and jack. One vectorised definition serves settlement (one hand) and exact odds (every hand).
"""

from __future__ import annotations

import numpy as np

from .cards import DECK

# best first: a paytable lists a subset of these, in this order
ROYAL_LINES: tuple[str, ...] = (
    "akqj_suited",   # A, K, Q, J of one suit
    "kqj_suited",    # K, Q, J of one suit (any 4th card)
    "four_royals",   # all four cards kings, queens or jacks
    "akqj",          # an A, K, Q and J
    "kqj",           # a K, Q and J
    "three_royals",  # three or more kings, queens or jacks
    "two_royals",    # two or more kings, queens or jacks
)
_A, _K, _Q, _J = 12, 11, 10, 9  # rank indices of DECK ids (id // 4)


def royal_masks(hands: np.ndarray) -> dict[str, np.ndarray]:
    """For rows of 4 card ids, a boolean mask per line of whether the row meets it."""
    r = hands // 4
    s = hands % 4

    def has(rank: int) -> np.ndarray:
        return (r == rank).any(1)

    def suited(ranks: tuple[int, ...]) -> np.ndarray:
        out = np.zeros(len(hands), dtype=bool)
        for su in range(4):
            m = np.ones(len(hands), dtype=bool)
            for rank in ranks:
                m &= ((r == rank) & (s == su)).any(1)
            out |= m
        return out

    royals = ((r >= _J) & (r <= _K)).sum(1)
    kqj = has(_K) & has(_Q) & has(_J)
    return {
        "akqj_suited": suited((_A, _K, _Q, _J)),
        "kqj_suited": suited((_K, _Q, _J)),
        "four_royals": royals == 4,
        "akqj": kqj & has(_A),
        "kqj": kqj,
        "three_royals": royals >= 3,
        "two_royals": royals >= 2,
    }


def royal_lines_met(cards: list[str]) -> set[str]:
    """The lines one hand of 4 cards meets."""
    row = np.array([[DECK.index(c) for c in cards]])
    return {line for line, mask in royal_masks(row).items() if mask[0]}
