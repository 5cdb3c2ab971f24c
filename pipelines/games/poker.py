"""Poker hand evaluators: five-card (with five of a kind for multi-deck shoes) and three-card.

An evaluation is a tuple `(category, *tiebreak_ranks)`; tuples compare as hands do, so `max`, `sorted`
and `==` work directly. Suits never break ties. Aces play high or low in straights (A-2-3-4-5 is the
lowest five-card straight, A-2-3 the lowest three-card straight).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations

from .cards import rank


class Hand5(IntEnum):
    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    FIVE_OF_A_KIND = 10  # only from multi-deck shoes


class Hand3(IntEnum):
    """Three-card ranking: a straight beats a flush, trips beat a straight."""

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    STRAIGHT_FLUSH = 5
    MINI_ROYAL = 6  # A-K-Q suited


Eval = tuple[int, ...]


def _straight_high(values: Sequence[int], n: int) -> int | None:
    """High card of a straight among n distinct ranks, or None. A-2-3(-4-5) plays the ace low."""
    distinct = sorted(set(values), reverse=True)
    if len(distinct) != n:
        return None
    if distinct[0] - distinct[-1] == n - 1:
        return distinct[0]
    if distinct[0] == 14 and distinct[1:] == list(range(n, 1, -1)):
        return n  # wheel: ace plays low
    return None


def _grouped(values: Sequence[int]) -> list[int]:
    """Ranks ordered by (multiplicity, rank), highest first: the tiebreak order of paired hands."""
    counts = Counter(values)
    return sorted(counts, key=lambda r: (counts[r], r), reverse=True)


def evaluate5(cards: Sequence[str]) -> Eval:
    """Evaluate exactly five cards. With several decks a hand can meet several categories
    (a one-suit hand holding a pair); it takes the single highest."""
    if len(cards) != 5:
        raise ValueError(f"evaluate5 needs 5 cards, got {len(cards)}")
    values = [rank(c) for c in cards]
    flush = len({c[1] for c in cards}) == 1
    counts = sorted(Counter(values).values(), reverse=True)
    order = _grouped(values)
    high = _straight_high(values, 5)
    if counts[0] == 5:
        return (Hand5.FIVE_OF_A_KIND, values[0])
    if flush and high is not None:
        return (Hand5.ROYAL_FLUSH, 14) if high == 14 else (Hand5.STRAIGHT_FLUSH, high)
    if counts[0] == 4:
        return (Hand5.FOUR_OF_A_KIND, *order)
    if counts[:2] == [3, 2]:
        return (Hand5.FULL_HOUSE, *order)
    if flush:
        return (Hand5.FLUSH, *sorted(values, reverse=True))
    if high is not None:
        return (Hand5.STRAIGHT, high)
    if counts[0] == 3:
        return (Hand5.THREE_OF_A_KIND, *order)
    if counts[:2] == [2, 2]:
        return (Hand5.TWO_PAIR, *order)
    if counts[0] == 2:
        return (Hand5.PAIR, *order)
    return (Hand5.HIGH_CARD, *sorted(values, reverse=True))


def evaluate3(cards: Sequence[str]) -> Eval:
    """Evaluate exactly three cards in three-card poker ranking."""
    if len(cards) != 3:
        raise ValueError(f"evaluate3 needs 3 cards, got {len(cards)}")
    values = [rank(c) for c in cards]
    flush = len({c[1] for c in cards}) == 1
    counts = sorted(Counter(values).values(), reverse=True)
    order = _grouped(values)
    high = _straight_high(values, 3)
    if flush and high is not None:
        return (Hand3.MINI_ROYAL, 14) if high == 14 else (Hand3.STRAIGHT_FLUSH, high)
    if counts[0] == 3:
        return (Hand3.THREE_OF_A_KIND, values[0])
    if high is not None:
        return (Hand3.STRAIGHT, high)
    if flush:
        return (Hand3.FLUSH, *sorted(values, reverse=True))
    if counts[0] == 2:
        return (Hand3.PAIR, *order)
    return (Hand3.HIGH_CARD, *sorted(values, reverse=True))


def best3(cards: Sequence[str]) -> tuple[Eval, tuple[str, ...]]:
    """Best three-card hand from any 3 or more cards: (evaluation, the three cards)."""
    if len(cards) < 3:
        raise ValueError(f"best3 needs at least 3 cards, got {len(cards)}")
    return max(((evaluate3(c), c) for c in combinations(cards, 3)), key=lambda t: t[0])


def best5(cards: Sequence[str]) -> tuple[Eval, tuple[str, ...]]:
    """Best five-card hand from 5 or more cards."""
    if len(cards) < 5:
        raise ValueError(f"best5 needs at least 5 cards, got {len(cards)}")
    return max(((evaluate5(c), c) for c in combinations(cards, 5)), key=lambda t: t[0])


def category_name(ev: Eval, three_card: bool = False) -> str:
    """The paytable line name of an evaluation, e.g. "flush", "straight_flush"."""
    enum = Hand3 if three_card else Hand5
    return enum(ev[0]).name.lower()
