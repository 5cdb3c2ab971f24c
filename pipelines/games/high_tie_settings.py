"""High Tie Blackjack table settings (RULES.md "High Tie Blackjack"), and paytable selection.

Side bet paytables live in `paytables/high-tie/side-v{V}.{name}[.decks-...].json`. The manual prints a
different version 1 table per deck group under the same heading ("Recommended Paytable for Two Deck
Games", ...), so a table is selected by (version, decks, name), not by file name alone.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .paytables import Paytable, bundled
from .settlement import TableLimits

GAME = "high-tie"


class HighTieConfigError(ValueError):
    """Settings or a round that High Tie Blackjack cannot settle."""


@cache
def _side_tables() -> tuple[Paytable, ...]:
    return tuple(p for p in bundled(GAME) if p.wager == "side")


def side_paytable_names(version: int, decks: int) -> list[str]:
    """Names of the side bet paytables the manual prints for this version and deck count."""
    return sorted({p.name for p in _side_tables() if p.version == version and decks in (p.decks or [])})


def side_paytable(version: int, decks: int, name: str) -> Paytable:
    for p in _side_tables():
        if p.version == version and p.name == name and decks in (p.decks or []):
            return p
    available = ", ".join(side_paytable_names(version, decks)) or "none"
    deck_counts = sorted({d for p in _side_tables() if p.version == version for d in p.decks or []})
    raise HighTieConfigError(
        f"high-tie settings: field paytable={name!r} does not exist for side_version={version} "
        f"with decks={decks} (available: {available}; version {version} is printed for decks "
        f"{', '.join(map(str, deck_counts)) or 'none'})"
    )


class Settings(BaseModel):
    """Defaults are RULES.md's: version 1, six decks, the recommended table, 3 to 2, dealer stands on
    soft 17, double after split, resplit (pairs other than aces), late surrender, insurance 2 to 1."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    side_version: Literal[1, 2, 3] = 1
    decks: Literal[1, 2, 4, 6, 8] = 6
    paytable: str = Field("recommended", description="recommended | additional-1 (version 1 only)")
    blackjack_pays: float = Field(1.5, gt=0, description="a player natural pays X to 1: 1.5 (3-2) or 1.2 (6-5)")
    dealer_hits_soft_17: bool = False
    double_after_split: bool = True
    resplit: bool = True
    surrender: bool = Field(True, description="late surrender (after the dealer checks for blackjack)")
    insurance_pays: float = Field(2.0, gt=0)
    limits: TableLimits = Field(default_factory=TableLimits)

    @model_validator(mode="after")
    def _paytable_exists(self) -> Settings:
        side_paytable(self.side_version, self.decks, self.paytable)
        return self

    def side_table(self) -> Paytable:
        return side_paytable(self.side_version, self.decks, self.paytable)
