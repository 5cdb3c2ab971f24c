"""Game protection: dealer accuracy over a period, and each dealer's flagged rounds."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import Response

from . import charts, queries
from .web import Ctx, require

router = APIRouter(prefix="/protection")
ProtectionCtx = Annotated[Ctx, Depends(require("game_protection"))]


def period(ctx: Ctx, date_from: str, date_to: str) -> tuple[date | None, date | None] | Response:
    """The page's period, or a 400 page naming the field and value."""
    try:
        return queries.parse_day(date_from, "date_from"), queries.parse_day(date_to, "date_to")
    except ValueError as e:
        return ctx.render("error.html", status_code=400, status=400, heading="Bad period", detail=str(e))


@router.get("")
def dealers(ctx: ProtectionCtx, date_from: str = "", date_to: str = "") -> Response:
    days = period(ctx, date_from, date_to)
    if isinstance(days, Response):
        return days
    rows = queries.dealer_accuracy(ctx.cursor(), *queries.window(*days))
    chart = charts.bar_chart(
        [r["dealer_id"] for r in rows],
        {"errors per 100 rounds": [r["errors_per_100_rounds"] or 0.0 for r in rows]},
        title="Dealer errors per 100 rounds (payout errors, missed collections, procedure)",
    ) if rows else ""
    return ctx.render("protection.html", "protection", rows=rows, chart=chart, date_from=date_from,
                      date_to=date_to)


@router.get("/dealer/{dealer_id}")
def dealer(dealer_id: str, ctx: ProtectionCtx, date_from: str = "", date_to: str = "") -> Response:
    days = period(ctx, date_from, date_to)
    if isinstance(days, Response):
        return days
    flags = queries.dealer_flags(ctx.cursor(), dealer_id, *queries.window(*days))
    return ctx.render("dealer.html", "protection", dealer_id=dealer_id, flags=flags, date_from=date_from,
                      date_to=date_to)
