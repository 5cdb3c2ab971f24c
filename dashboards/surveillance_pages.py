"""Surveillance: the queue of flagged rounds, the round page, dispositions, notes, evidence bundles."""

from __future__ import annotations

import mimetypes
from datetime import datetime
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Form
from fastapi.responses import FileResponse, RedirectResponse, Response

from . import audit, evidence, felt, queries
from .db import utc_now
from .web import Ctx, NotFound, require

router = APIRouter()
SurveillanceCtx = Annotated[Ctx, Depends(require("surveillance"))]
# Game protection drills down from a dealer into that dealer's rounds.
ReviewerCtx = Annotated[Ctx, Depends(require("surveillance", "game_protection"))]

DISPOSITIONS = ("confirmed", "false_alarm", "needs_follow_up")
PAGE_SIZE = 50


def _round_or_404(ctx: Ctx, round_id: str) -> queries.RoundView:
    view = queries.round_view(ctx.cursor(), round_id)
    if view is None:  # absent, or outside the user's pit: the same answer, so pits do not leak ids
        raise NotFound(f"round {round_id!r} is not in the store or not in your pit")
    return view


@router.get("/surveillance")
def queue(ctx: SurveillanceCtx, table: str = "", game: str = "", type: str = "",
          severity: str = "", date_from: str = "", date_to: str = "", status: str = "open",
          sort: str = "newest", page: int = 1) -> Response:
    cur = ctx.cursor()
    try:
        filt = queries.FlagFilter(table=table or None, game=game or None, type=type or None,
                                  severity=severity or None, date_from=queries.parse_day(date_from, "date_from"),
                                  date_to=queries.parse_day(date_to, "date_to"), status=status, sort=sort)
    except ValueError as e:
        return ctx.render("error.html", status_code=400, status=400, heading="Bad filter", detail=str(e))
    page = max(page, 1)
    rows, total = queries.flag_queue(cur, filt, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
    return ctx.render(
        "queue.html", "surveillance", flags=rows, total=total, page=page, pages=max(1, -(-total // PAGE_SIZE)),
        options=queries.filter_options(cur), f=filt, date_from=date_from, date_to=date_to,
    )


@router.get("/surveillance/round/{round_id}")
def round_page(round_id: str, ctx: ReviewerCtx, flag: str = "") -> Response:
    view = _round_or_404(ctx, round_id)
    layout, layout_problem = felt.layout_or_none(view.round.game)
    flagged = {(f["seat"], f["spot"]) for f in view.flags if f["seat"] is not None}
    svg = felt.felt_svg(view.round, layout, flagged) if layout else ""
    history = audit.entries(ctx.db, target=round_id, limit=100)
    return ctx.render(
        "round.html", "surveillance", v=view, felt=svg, layout_problem=layout_problem, history=history,
        dispositions=DISPOSITIONS, selected_flag=flag, may_dispose=ctx.user.may("surveillance"),
        media=[(p, queries.media_kind(p)) for p in view.media],
    )


@router.post("/surveillance/flag/{flag_id}/disposition")
def dispose(flag_id: str, ctx: SurveillanceCtx, csrf: str = Form(""), disposition: str = Form(""),
            comment: str = Form("")) -> Response:
    ctx.check_csrf(csrf)
    flag = queries.flag_by_id(ctx.cursor(), flag_id)
    if flag is None:
        raise NotFound(f"flag {flag_id!r} is not in the store or not in your pit")
    if disposition not in DISPOSITIONS:
        return ctx.render("error.html", status_code=400, status=400, heading="Bad disposition",
                          detail=f"disposition form: field disposition: {disposition!r} is not one of "
                                 f"{', '.join(DISPOSITIONS)}")
    with ctx.db.write() as cur:
        audit.append(cur, ctx.user.username, "disposition", flag_id,
                             {"round_id": flag["round_id"], "disposition": disposition, "comment": comment.strip()})
        # The store's reviews table, in its wall-clock convention; the audit row keeps UTC.
        cur.execute("INSERT INTO reviews VALUES (?, ?, ?, ?, ?)",
                    [flag_id, datetime.now(), ctx.user.username, disposition, comment.strip() or None])
    return RedirectResponse(f"/surveillance/round/{flag['round_id']}?flag={flag_id}#history", status_code=303)


@router.post("/surveillance/round/{round_id}/note")
def add_note(round_id: str, ctx: ReviewerCtx, csrf: str = Form(""), text: str = Form("")) -> Response:
    ctx.check_csrf(csrf)
    _round_or_404(ctx, round_id)
    if not text.strip():
        return ctx.render("error.html", status_code=400, status=400, heading="Empty note",
                          detail="note form: field text: the note is empty")
    with ctx.db.write() as cur:
        entry = audit.append(cur, ctx.user.username, "note", round_id,
                             {"round_id": round_id, "text": text.strip()})
        cur.execute("INSERT INTO dash_notes VALUES (?, ?, ?, ?, ?)",
                    [round_id, ctx.user.username, utc_now(), text.strip(), entry.seq])
    return RedirectResponse(f"/surveillance/round/{round_id}#notes", status_code=303)


@router.get("/surveillance/notes")
def notes(ctx: ReviewerCtx, q: str = "") -> Response:
    rows = queries.search_notes(ctx.cursor(), q) if q.strip() else []
    return ctx.render("notes.html", "notes", q=q, rows=rows)


@router.get("/surveillance/round/{round_id}/evidence.zip")
def evidence_zip(round_id: str, ctx: ReviewerCtx) -> Response:
    view = _round_or_404(ctx, round_id)
    found = {s: _resolve_media(ctx, s) for s in view.media + view.detections}
    data, entry = evidence.build_bundle(
        ctx.db,
        evidence.BundleContents(
            round_id, view.round.model_dump(mode="json"), view.expected_rows(), view.flags,
            media=[p for s in view.media if (p := found[s])],
            detections=[p for s in view.detections if (p := found[s])],
            missing=[s for s, p in found.items() if p is None],
        ),
        ctx.user.username,
    )
    return Response(data, media_type="application/zip", headers={
        "Content-Disposition": f'attachment; filename="evidence-{round_id}.zip"',
        "X-Audit-Seq": str(entry.seq),
    })


def _resolve_media(ctx: Ctx, stored: str) -> Path | None:
    """A path the store names, if it exists under one of the allowed media roots (never elsewhere)."""
    roots: list[Path] = ctx.request.app.state.media_roots
    p = Path(stored)
    for candidate in ([p] if p.is_absolute() else [r / p for r in roots]):
        try:
            resolved = candidate.resolve()
        except OSError:
            continue
        if resolved.is_file() and any(resolved.is_relative_to(r) for r in roots):
            return resolved
    return None


@router.get("/surveillance/round/{round_id}/media/{index}")
def media_file(round_id: str, index: int, ctx: ReviewerCtx) -> Response:
    view = _round_or_404(ctx, round_id)
    if not 0 <= index < len(view.media):
        raise NotFound(f"round {round_id} has no evidence file number {index}")
    path = _resolve_media(ctx, view.media[index])
    if path is None:
        return ctx.render("error.html", status_code=404, status=404, heading="Evidence file missing",
                          detail=f"{view.media[index]}: not on disk under the configured media folders")
    return FileResponse(path, media_type=mimetypes.guess_type(path.name)[0] or "application/octet-stream")
