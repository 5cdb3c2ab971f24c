"""Exact odds results: the distribution of one wager's paytable lines and its house edge."""

from __future__ import annotations

from pydantic import BaseModel, Field


class OddsLine(BaseModel):
    line: str
    probability: float
    pays: float = Field(description="net result per unit wagered: X for X to 1, -1 lose, 0 push")
    combinations: int | None = Field(None, description="count of outcomes, when enumerated")


class WagerOdds(BaseModel):
    game: str
    wager: str
    paytable: str
    house_edge: float = Field(description="fraction of the wager the house keeps: 0.06191 for 6.191 %")
    lines: list[OddsLine]
    total_combinations: int | None = None
    settings: dict = Field(default_factory=dict, description="the settings the figure was computed under")
    note: str = ""

    @property
    def variance(self) -> float:
        mean = sum(x.probability * x.pays for x in self.lines)
        return sum(x.probability * (x.pays - mean) ** 2 for x in self.lines)


def edge_from_lines(lines: list[OddsLine]) -> float:
    return -sum(x.probability * x.pays for x in lines)
