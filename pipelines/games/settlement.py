"""Settlement types shared by the four games: one `Settlement` per wager, in the manual's order."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from .round import Outcome


class TableLimits(BaseModel):
    """Minimum and maximum per wager spot; a spot not listed uses `default`."""

    model_config = ConfigDict(extra="forbid")
    default: tuple[float, float] = (5.0, 500.0)
    spots: dict[str, tuple[float, float]] = Field(default_factory=dict)

    def for_spot(self, spot: str) -> tuple[float, float]:
        return self.spots.get(spot, self.default)


class Settlement(BaseModel):
    """The expected result of one wager.

    `net` is the player's result: +amount × odds on a win, -amount on a loss, 0 on a push or return.
    `amount` is the amount settled, after table limits (over the maximum settles as the maximum).
    """

    model_config = ConfigDict(extra="forbid")
    seat: int
    spot: str
    hand: int = 0
    wagered: float
    amount: float
    outcome: Outcome
    net: float
    line: str = Field(description="the paytable line or reason: flush, dealer_not_qualified, ...")
    order: int = Field(description="position in the manual's settlement sequence, from 0")
    rule: str = Field(description="the manual's section that decides it")
    limit_violation: str | None = Field(None, description="below_minimum | above_maximum")

    @property
    def paid(self) -> float:
        """Chips the dealer places beside the wager (0 unless it wins)."""
        return self.net if self.outcome == "win" else 0.0


def apply_limits(amount: float, spot: str, limits: TableLimits) -> tuple[float, str | None]:
    """King High manual, Permissible Wagers: under the minimum settles at the amount wagered,
    over the maximum settles as the maximum. Both are reported so a procedure flag can be raised."""
    lo, hi = limits.for_spot(spot)
    if amount > hi:
        return hi, "above_maximum"
    if amount < lo:
        return amount, "below_minimum"
    return amount, None


def win(amount: float, odds: float) -> float:
    """Net win of "odds to 1" on `amount`, rounded to cents."""
    return round(amount * odds, 2)
