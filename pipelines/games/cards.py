"""Cards: a card is a two-character string, rank then suit ("Ah", "Td", "2c").

Strings keep round documents, ground truth and detector class names readable and identical;
integer codes (rank 2..14, suit 0..3) are used where evaluators need arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # clubs, diamonds, hearts, spades
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANK_VALUE = {r: i + 2 for i, r in enumerate(RANKS)}  # 2..14, ace high
DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
BACK_COLOURS = ("red", "blue")


class CardError(ValueError):
    """A card string that is not a rank followed by a suit."""


def parse_card(text: str) -> str:
    """Normalise "10h", "AH", "a♠" to the canonical form ("Th", "Ah", "As")."""
    t = text.strip().replace("♠", "s").replace("♥", "h").replace("♦", "d").replace("♣", "c")
    if t[:2] == "10":
        t = "T" + t[2:]
    if len(t) != 2:
        raise CardError(f"not a card: {text!r}")
    rank, suit = t[0].upper(), t[1].lower()
    if rank not in RANKS or suit not in SUITS:
        raise CardError(f"not a card: {text!r} (ranks {RANKS}, suits {SUITS})")
    return rank + suit


def rank(card: str) -> int:
    """Rank value 2..14 (ace high)."""
    return RANK_VALUE[card[0]]


def suit(card: str) -> str:
    return card[1]


def ranks(cards: Iterable[str]) -> list[int]:
    return [RANK_VALUE[c[0]] for c in cards]


def card_index(card: str) -> int:
    """0..51, used as the detector class id of a card face."""
    return RANKS.index(card[0]) * 4 + SUITS.index(card[1])
