"""Paytables as data: JSON files under `paytables/<game>/`, validated on load.

A file holds one wager's table: `{"game", "wager", "name", "source", "lines": [{"line", "pays"}]}` where
`pays` is "X to 1" as a number (3-2 is 1.5). Lines are listed best first; the first that a hand meets is
paid. A bad file is rejected with the file, the field and the reason.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from .round import GameId
from .validation import load_model_file

PAYTABLE_DIR = Path(__file__).parent / "paytables"


class PaytableError(ValueError):
    """A paytable file that is missing or does not validate."""


class PaytableLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    line: str = Field(min_length=1, description="outcome name, e.g. royal_flush, match, any_7")
    pays: float = Field(ge=0, description="X to 1")
    label: str | None = Field(None, description="as printed in the manual")


class Paytable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: GameId
    wager: str = Field(min_length=1)
    name: str = Field(min_length=1, description="e.g. recommended, additional-1, example")
    source: str = Field(description="where it comes from: the manual's section, or 'example' signage")
    example: bool = Field(False, description="not from the manual: must be replaced by the posted signage")
    decks: list[int] | None = Field(None, description="deck counts it applies to (High Tie)")
    version: int | None = Field(None, description="side bet version (High Tie 1-3)")
    lines: list[PaytableLine] = Field(min_length=1)

    def pays(self, line: str) -> float | None:
        for entry in self.lines:
            if entry.line == line:
                return entry.pays
        return None


def load_paytable_file(path: Path) -> Paytable:
    return load_model_file(path, Paytable, PaytableError, "paytable")


@cache
def paytable(game: str, wager: str, name: str) -> Paytable:
    """The bundled paytable `<game>/<wager>.<name>.json`."""
    return load_paytable_file(PAYTABLE_DIR / game / f"{wager}.{name}.json")


def bundled(game: str) -> list[Paytable]:
    return [load_paytable_file(p) for p in sorted((PAYTABLE_DIR / game).glob("*.json"))]
