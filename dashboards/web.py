"""What every page shares: templates, the logged-in user, role checks and CSRF checks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import duckdb
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from . import queries
from .auth import Sessions, User, csrf_ok
from .db import Database

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
TEMPLATES.env.filters["money"] = lambda x: "" if x is None else f"{x:,.2f}"
TEMPLATES.env.filters["pager"] = lambda query, page: urlencode({**dict(query), "page": page})
TEMPLATES.env.filters["pct"] = lambda x: "" if x is None else f"{100 * x:.2f} %"


class LoginRequired(Exception):
    """No live session: the handler redirects to the login page."""


class Forbidden(Exception):
    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotFound(Exception):
    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


@dataclass(frozen=True)
class Ctx:
    """The request's user, their session's CSRF token and session id."""

    user: User
    csrf: str
    sid: str
    request: Request

    @property
    def db(self) -> Database:
        return self.request.app.state.db

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A read cursor that sees only the tables of the user's pit (all tables when not limited)."""
        cur = self.db.cursor()
        return queries.scoped_cursor(cur, queries.tables_for_user(cur, self.user.pit))

    def render(self, template: str, section: str = "", status_code: int = 200, **values: Any) -> HTMLResponse:
        return TEMPLATES.TemplateResponse(
            self.request, template,
            {"user": self.user, "csrf": self.csrf, "section": section, **values},
            status_code=status_code,
        )

    def check_csrf(self, token: str | None) -> None:
        if not csrf_ok(self.csrf, token):
            raise Forbidden("the form's CSRF token is missing or does not match your session; reload the page")


def session_of(request: Request) -> Ctx | None:
    sessions: Sessions = request.app.state.sessions
    found = sessions.resolve(request.cookies.get(Sessions.COOKIE))
    if not found:
        return None
    user, csrf, sid = found
    return Ctx(user, csrf, sid, request)


def require(*roles: str) -> Callable[[Request], Ctx]:
    """A dependency: the logged-in user, who must hold one of `roles` (admin holds them all)."""

    def dependency(request: Request) -> Ctx:
        ctx = session_of(request)
        if ctx is None:
            raise LoginRequired()
        if not any(ctx.user.may(r) for r in roles):
            raise Forbidden(f"{ctx.user.role.replace('_', ' ')} users may not open this page "
                            f"(it is for: {', '.join(r.replace('_', ' ') for r in roles)})")
        return ctx

    return dependency
