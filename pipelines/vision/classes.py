"""Detector and card-classifier class lists.

Identity is two-stage (chosen by measurement, see models/MODEL_CARD.md): the detector finds card faces,
card backs and chips by denomination at a small input size; a crop classifier reads the rank and suit of
each face from the full-resolution frame, where the corner indices are large enough to read.
"""

from __future__ import annotations

from pipelines.games.cards import DECK

CHIP_VALUES: tuple[int, ...] = (1, 5, 25, 100, 500, 1000)
DET_CLASSES: tuple[str, ...] = ("card", "back_red", "back_blue", *(f"chip_{v}" for v in CHIP_VALUES))
CARD_CLASSES: tuple[str, ...] = DECK


def chip_value(class_name: str) -> int | None:
    return int(class_name[5:]) if class_name.startswith("chip_") else None


def det_class_of(render_class: str) -> str:
    """Map a renderer label ("Ah", "back_red", "chip_25") to a detector class."""
    return "card" if render_class in DECK else render_class
