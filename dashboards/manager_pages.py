"""Managers: the hold report per table, game, shift, day or dealer, with charts and CSV export."""

from __future__ import annotations

import csv
import io
from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import Response

from . import charts, queries
from .protection_pages import Period, period
from .web import Ctx, require

router = APIRouter(prefix="/manager")
ManagerCtx = Annotated[Ctx, Depends(require("manager"))]
GROUPS = ("table", "game", "shift", "day", "dealer")
CSV_COLUMNS = ["rounds", "wagers", "drop_vision", "win_vision", "hold_pct", "theo_win", "theo_hold_pct",
               "band_lo", "band_hi", "outside_band", "hours", "hands_per_hour", "avg_bet", "overpaid",
               "underpaid", "payout_error", "past_post", "pinch", "missed_collection", "misdeal", "procedure",
               "void_handling", "drop_count", "win_count", "hold_pct_count"]


def _report(ctx: Ctx, by: str, date_from: str, date_to: str, span: str) -> tuple[list[dict], Period] | Response:
    if by not in GROUPS:
        return ctx.render("error.html", status_code=400, status=400, heading="Bad grouping",
                          detail=f"hold report: field by: {by!r} is not one of {', '.join(GROUPS)}")
    p = period(ctx, date_from, date_to, span)
    if isinstance(p, Response):
        return p
    return queries.hold_report(ctx.cursor(), by, *p.window), p


def _key(by: str) -> str:
    return {"table": "table_id", "dealer": "dealer_id", "day": "shift_date"}.get(by, by)


@router.get("")
def hold(ctx: ManagerCtx, by: str = "table", date_from: str = "", date_to: str = "", span: str = "") -> Response:
    found = _report(ctx, by, date_from, date_to, span)
    if isinstance(found, Response):
        return found
    rows, p = found
    key = _key(by)
    labels = [str(r[key]) for r in rows]
    hold_chart = charts.bar_chart(
        labels, {"hold %": [100 * (r["hold_pct"] or 0) for r in rows],
                 "theoretical hold %": [100 * (r["theo_hold_pct"] or 0) for r in rows]},
        title=f"Hold % against theoretical, per {by}", unit=" %") if rows else ""
    win_chart = charts.bar_chart(
        labels, {"win": [r["win_vision"] or 0 for r in rows], "theoretical win": [r["theo_win"] or 0 for r in rows]},
        title=f"Win against theoretical win, per {by}") if rows else ""
    totals = {k: sum((r[k] or 0) for r in rows) for k in ("rounds", "drop_vision", "win_vision", "theo_win")}
    return ctx.render("manager.html", "manager", rows=rows, by=by, key=key, groups=GROUPS, hold_chart=hold_chart,
                      win_chart=win_chart, totals=totals, **p.form())


@router.get("/hold.csv")
def hold_csv(ctx: ManagerCtx, by: str = "table", date_from: str = "", date_to: str = "", span: str = ""
             ) -> Response:
    found = _report(ctx, by, date_from, date_to, span)
    if isinstance(found, Response):
        return found
    rows, _ = found
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=[_key(by), *CSV_COLUMNS], extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    return Response(buf.getvalue(), media_type="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="hold-by-{by}.csv"'})
