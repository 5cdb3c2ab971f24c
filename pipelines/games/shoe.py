"""A shoe of 1 to 8 decks: draw without replacement, burn, cut card, reshuffle."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from .cards import DECK

ALLOWED_DECKS = (1, 2, 4, 6, 8)


class ShoeExhausted(RuntimeError):
    """More cards were drawn than the shoe holds."""


@dataclass
class Shoe:
    """Cards in dealing order. `cut_fraction` is how deep the cut card sits (0.75 = three quarters)."""

    decks: int = 1
    seed: int | None = None
    cut_fraction: float = 0.75
    cards: list[str] = field(default_factory=list)
    position: int = 0
    burned: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.decks not in ALLOWED_DECKS:
            raise ValueError(f"decks must be one of {ALLOWED_DECKS}, got {self.decks}")
        if not 0.0 < self.cut_fraction <= 1.0:
            raise ValueError(f"cut_fraction must be in (0, 1], got {self.cut_fraction}")
        self._rng = random.Random(self.seed)
        self.shuffle()

    def shuffle(self) -> None:
        self.cards = list(DECK) * self.decks
        self._rng.shuffle(self.cards)
        self.position = 0
        self.burned = []

    @property
    def remaining(self) -> int:
        return len(self.cards) - self.position

    @property
    def cut_card_reached(self) -> bool:
        return self.position >= int(len(self.cards) * self.cut_fraction)

    def draw(self, n: int = 1) -> list[str]:
        if n > self.remaining:
            raise ShoeExhausted(f"asked for {n} cards, {self.remaining} left in a {self.decks}-deck shoe")
        out = self.cards[self.position : self.position + n]
        self.position += n
        return out

    def burn(self, n: int = 1) -> list[str]:
        cards = self.draw(n)
        self.burned.extend(cards)
        return cards

    def composition(self) -> Counter[str]:
        """Cards still undealt, by card."""
        return Counter(self.cards[self.position :])


def full_composition(decks: int) -> Counter[str]:
    return Counter({c: decks for c in DECK})
