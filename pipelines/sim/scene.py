"""What the camera sees at one instant: cards, chip stacks and the dealer's hands on the felt.

Positions are in table millimetres (the layout's coordinates); the renderer projects them. The round
scripts build a timeline of scenes; the renderer turns each into a frame plus detector labels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Card size of a standard poker card, in mm.
CARD_W_MM = 63.5
CARD_H_MM = 88.9
CHIP_D_MM = 39.0

# Common US chip colours (BGR) by denomination; a casino's own chip set is configuration.
CHIP_COLOURS: dict[int, tuple[int, int, int]] = {
    1: (235, 235, 235),  # white
    5: (40, 40, 200),  # red
    25: (50, 150, 40),  # green
    100: (30, 30, 30),  # black
    500: (150, 50, 130),  # purple
    1000: (0, 140, 255),  # orange
}
DENOMINATIONS: tuple[int, ...] = tuple(sorted(CHIP_COLOURS))


@dataclass
class PlacedCard:
    card: str | None  # "Ah"; None for a card whose face is not known (always drawn as a back)
    x: float
    y: float
    face_up: bool = True
    back: str = "red"
    angle: float = 0.0  # degrees, 90 = turned sideways (a discard, a double-down card)


@dataclass
class ChipStack:
    """A wager or payout: chips laid as a spread stack so every chip shows (how the simulator draws them)."""

    chips: list[int]  # denominations, bottom first
    x: float
    y: float

    @property
    def value(self) -> float:
        return float(sum(self.chips))


@dataclass
class Occluder:
    """The dealer's hand or arm passing over the felt: an ellipse in mm."""

    x: float
    y: float
    rx: float = 60.0
    ry: float = 90.0
    angle: float = 0.0


@dataclass
class Scene:
    cards: list[PlacedCard] = field(default_factory=list)
    chips: list[ChipStack] = field(default_factory=list)
    occluders: list[Occluder] = field(default_factory=list)


def chips_for(
    amount: float, denominations: tuple[int, ...] = DENOMINATIONS, max_chips: int = 12
) -> list[int]:
    """Greedy chip breakdown of an amount, largest first (a dealer's usual colouring up)."""
    if amount != round(amount):
        raise ValueError(f"{amount} is not a whole number of the smallest chip")
    left = round(amount)
    out: list[int] = []
    for d in sorted(denominations, reverse=True):
        while left >= d and len(out) < max_chips:
            out.append(d)
            left -= d
    if left:
        raise ValueError(f"{amount} cannot be made from {denominations} within {max_chips} chips")
    return out
