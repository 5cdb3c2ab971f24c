"""Table layouts: every game's felt, in millimetres, with named zones.

The simulator draws from a layout and the reconstruction maps detections into it, so a layout is defined
once (YAML files under `layouts/`, validated by this model) and shared.

Zone names (the contract between sim/, vision/ and rounds/):
- `seat{N}.{spot}`          a betting spot of seat N (spot = the wager name: ante, play, pokerpot, main ...)
- `seat{N}.{spot}.paid`     where the dealer places the payout beside that wager
- `seat{N}.cards`           the seat's card area (blackjack split hands: `seat{N}.cards.{H}`)
- `dealer.cards`            the dealer's card area; per-box games also `dealer.card{K}` (K from 1)
- `board.card{K}`           King High holding boxes 1-5; `board.action` the action-round card box
- `dealer.tray`, `dealer.discard`, `dealer.shoe`
Origin is the felt's top-left as the camera sees it; x to the right, y towards the players.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .round import GameId
from .validation import load_model_file

LAYOUT_DIR = Path(__file__).parent / "layouts"

ZoneKind = Literal["bet", "paid", "cards", "card_box", "tray", "discard", "shoe", "label"]


class LayoutError(ValueError):
    """A layout file that is missing or does not validate."""


class Zone(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    kind: ZoneKind
    seat: int | None = Field(None, ge=1, le=8)
    spot: str | None = None
    polygon: list[tuple[float, float]] = Field(min_length=3, description="vertices in mm")
    label: str | None = Field(None, description="text printed on the felt")

    @property
    def centre(self) -> tuple[float, float]:
        xs, ys = zip(*self.polygon, strict=True)
        return (sum(xs) / len(xs), sum(ys) / len(ys))


class Layout(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: GameId
    name: str
    width_mm: float = Field(gt=0)
    height_mm: float = Field(gt=0)
    seats: list[int] = Field(min_length=1)
    felt_colour: tuple[int, int, int] = (40, 110, 50)  # BGR
    zones: list[Zone]

    def zone(self, name: str) -> Zone:
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(f"layout {self.name}: no zone {name!r}")

    def zones_of(self, kind: ZoneKind) -> list[Zone]:
        return [z for z in self.zones if z.kind == kind]

    @property
    def has_split_hands(self) -> bool:
        """Whether a seat's hand may be split in two and dealt to in cascades (High Tie's `seatN.cards.1` and `.2`)."""
        return any(z.name.endswith(".cards.2") for z in self.zones)


def load_layout_file(path: Path) -> Layout:
    return load_model_file(path, Layout, LayoutError, "layout")


@cache
def layout_for(game: str) -> Layout:
    return load_layout_file(LAYOUT_DIR / f"{game}.yaml")
