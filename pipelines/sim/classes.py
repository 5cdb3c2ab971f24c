"""Detector classes, in one place: the renderer labels with them, the detector trains on them.

Order: the 52 card faces in `cards.DECK` order (class id = `cards.card_index`), the two card backs,
then the six chip denominations in ascending value.
"""

from __future__ import annotations

from pipelines.games.cards import BACK_COLOURS, DECK, card_index

from .scene import DENOMINATIONS

CARD_CLASSES: tuple[str, ...] = tuple(sorted(DECK, key=card_index))
BACK_CLASSES: tuple[str, ...] = tuple(f"back_{c}" for c in BACK_COLOURS)
CHIP_CLASSES: tuple[str, ...] = tuple(f"chip_{d}" for d in DENOMINATIONS)
CLASS_NAMES: tuple[str, ...] = CARD_CLASSES + BACK_CLASSES + CHIP_CLASSES
CLASS_ID: dict[str, int] = {name: i for i, name in enumerate(CLASS_NAMES)}


def back_class(colour: str) -> str:
    if colour not in BACK_COLOURS:
        raise ValueError(f"card back colour {colour!r} is not one of {BACK_COLOURS}")
    return f"back_{colour}"


def chip_class(denomination: int) -> str:
    if denomination not in DENOMINATIONS:
        raise ValueError(f"chip denomination {denomination!r} is not one of {DENOMINATIONS}")
    return f"chip_{denomination}"
