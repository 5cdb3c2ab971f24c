"""Game protection: dealer accuracy over a period, and each dealer's flagged rounds."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import Response

from . import charts, queries
from .web import Ctx, require

router = APIRouter(prefix="/protection")
ProtectionCtx = Annotated[Ctx, Depends(require("game_protection"))]


DEFAULT_DAYS = 7  # reports open on the last week of play: all-time totals over a big store are slow


@dataclass(frozen=True)
class Period:
    date_from: date | None
    date_to: date | None
    whole: bool  # all time

    @property
    def window(self) -> tuple[datetime | None, datetime | None]:
        return queries.window(self.date_from, self.date_to)

    def form(self) -> dict[str, str]:
        return {"date_from": self.date_from.isoformat() if self.date_from else "",
                "date_to": self.date_to.isoformat() if self.date_to else "", "whole": self.whole}


def period(ctx: Ctx, date_from: str, date_to: str, span: str) -> Period | Response:
    """The page's period (no dates: the last DEFAULT_DAYS days with play; span=all: all time), or a 400
    page naming the field and value."""
    try:
        start, end = queries.parse_day(date_from, "date_from"), queries.parse_day(date_to, "date_to")
    except ValueError as e:
        return ctx.render("error.html", status_code=400, status=400, heading="Bad period", detail=str(e))
    if span == "all":
        return Period(None, None, True)
    if start is None and end is None:
        end = queries.latest_day(ctx.cursor())
        start = end - timedelta(days=DEFAULT_DAYS - 1) if end else None
    return Period(start, end, False)


@router.get("")
def dealers(ctx: ProtectionCtx, date_from: str = "", date_to: str = "", span: str = "") -> Response:
    p = period(ctx, date_from, date_to, span)
    if isinstance(p, Response):
        return p
    rows = queries.dealer_accuracy(ctx.cursor(), *p.window)
    chart = charts.bar_chart(
        [r["dealer_id"] for r in rows],
        {"errors per 100 rounds": [r["errors_per_100_rounds"] or 0.0 for r in rows]},
        title="Dealer errors per 100 rounds (payout errors, missed collections, procedure)",
    ) if rows else ""
    return ctx.render("protection.html", "protection", rows=rows, chart=chart, **p.form())


@router.get("/dealer/{dealer_id}")
def dealer(dealer_id: str, ctx: ProtectionCtx, date_from: str = "", date_to: str = "", span: str = ""
           ) -> Response:
    p = period(ctx, date_from, date_to, span)
    if isinstance(p, Response):
        return p
    flags = queries.dealer_flags(ctx.cursor(), dealer_id, *p.window)
    return ctx.render("dealer.html", "protection", dealer_id=dealer_id, flags=flags, **p.form())
