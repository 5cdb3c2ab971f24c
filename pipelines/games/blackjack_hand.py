"""Blackjack hand totals: hard and soft totals, naturals, busts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def card_points(card: str) -> int:
    """Ace counts 1 here; `total` promotes one ace to 11 when that does not bust."""
    r = card[0]
    if r == "A":
        return 1
    if r in "TJQK":
        return 10
    return int(r)


@dataclass(frozen=True)
class Total:
    value: int
    soft: bool  # an ace is counted as 11

    @property
    def bust(self) -> bool:
        return self.value > 21


def total(cards: Sequence[str]) -> Total:
    hard = sum(card_points(c) for c in cards)
    if any(c[0] == "A" for c in cards) and hard + 10 <= 21:
        return Total(hard + 10, True)
    return Total(hard, False)


def is_natural(cards: Sequence[str]) -> bool:
    """Two cards totalling 21 (an ace and a ten-value card)."""
    return len(cards) == 2 and total(cards).value == 21
