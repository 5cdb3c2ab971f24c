"""Admin pages: users and roles, which pit each table belongs to, and the audit log with its check."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form
from fastapi.responses import RedirectResponse, Response

from . import audit, auth, queries
from .db import utc_now
from .web import Ctx, require

router = APIRouter(prefix="/admin")
AdminCtx = Annotated[Ctx, Depends(require("admin"))]


def _users_page(ctx: Ctx, message: str = "", error: str = "", status_code: int = 200) -> Response:
    cur = ctx.db.cursor()
    return ctx.render("users.html", "users", status_code=status_code, users=auth.list_users(ctx.db),
                      roles=auth.ROLES, pits=queries.table_pits(cur), tables=queries.all_tables(cur),
                      message=message, error=error)


@router.get("/users")
def users(ctx: AdminCtx) -> Response:
    return _users_page(ctx)


@router.post("/users")
def create_user(ctx: AdminCtx, csrf: str = Form(""), username: str = Form(""),
                password: str = Form(""), role: str = Form(""), pit: str = Form("")) -> Response:
    ctx.check_csrf(csrf)
    try:
        auth.create_user(ctx.db, username.strip(), password, role, pit.strip() or None, by=ctx.user.username)
    except auth.AuthError as e:
        return _users_page(ctx, error=str(e), status_code=400)
    return _users_page(ctx, message=f"User {username} created.")


@router.post("/users/{username}/deactivate")
def deactivate(username: str, ctx: AdminCtx, csrf: str = Form("")) -> Response:
    ctx.check_csrf(csrf)
    if username == ctx.user.username:
        return _users_page(ctx, error="users: you cannot deactivate your own account", status_code=400)
    with ctx.db.write() as cur:
        cur.execute("UPDATE users SET active = FALSE WHERE username = ?", [username])
        cur.execute("UPDATE sessions SET ended_at = ? WHERE username = ? AND ended_at IS NULL",
                    [utc_now(), username])
        audit.append(cur, ctx.user.username, "user_deactivated", username)
    return RedirectResponse("/admin/users", status_code=303)


@router.post("/pits")
def set_pit(ctx: AdminCtx, csrf: str = Form(""), table_id: str = Form(""),
            pit: str = Form("")) -> Response:
    ctx.check_csrf(csrf)
    if not table_id.strip() or not pit.strip():
        return _users_page(ctx, error=f"pits: field table_id {table_id!r} and pit {pit!r} are both required",
                           status_code=400)
    with ctx.db.write() as cur:
        cur.execute("INSERT OR REPLACE INTO dash_table_pits VALUES (?, ?)", [table_id.strip(), pit.strip()])
        audit.append(cur, ctx.user.username, "table_pit_set", table_id.strip(), {"pit": pit.strip()})
    return RedirectResponse("/admin/users", status_code=303)


@router.get("/audit")
def audit_log(ctx: AdminCtx, user: str = "", target: str = "") -> Response:
    rows = audit.entries(ctx.db, username=user or None, target=target or None, limit=500)
    return ctx.render("audit.html", "audit", entries=rows, check=audit.verify_chain(ctx.db),
                      filter_user=user, filter_target=target)
