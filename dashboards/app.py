"""The dashboards' FastAPI application: `create_app(db_path)`."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractContextManager, asynccontextmanager, nullcontext
from pathlib import Path
from urllib.parse import quote

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from . import admin_pages, auth, manager_pages, protection_pages, surveillance_pages
from .db import Database
from .web import TEMPLATES, Forbidden, LoginRequired, NotFound, session_of

HOME = {"surveillance": "/surveillance", "game_protection": "/protection", "manager": "/manager",
        "admin": "/surveillance"}


def _secret(db: Database, given: str | None) -> str:
    """The cookie-signing key: given, or kept in the database so sessions survive a restart."""
    if given:
        return given
    stored = db.setting("session_secret")
    if stored is None:
        stored = secrets.token_urlsafe(32)
        db.set_setting("session_secret", stored)
    return stored


def _safe_next(target: str | None) -> str:
    # Only same-site paths: never an absolute URL an attacker could plant in ?next=.
    return target if target and target.startswith("/") and not target.startswith("//") else "/"


def create_app(db_path: str | Path, *, secret: str | None = None,
               media_roots: list[Path] | None = None, secure_cookies: bool = False,
               background: Callable[[], AbstractContextManager] | None = None) -> FastAPI:
    """`media_roots`: folders evidence files may be served from (besides the database's own folder).
    `background`: work that lives as long as the app serves (the store's Kafka sink), entered at startup
    and left at shutdown, before the database closes."""
    db = Database(db_path)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        with background() if background is not None else nullcontext():
            yield
        db.close()

    app = FastAPI(title="tablewatch dashboards", docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=lifespan)
    app.state.db = db
    app.state.sessions = auth.Sessions(db, _secret(db, secret))
    app.state.media_roots = [Path(db_path).resolve().parent, *(Path(p).resolve() for p in media_roots or [])]
    app.state.secure_cookies = secure_cookies
    app.mount("/static", StaticFiles(directory=str(Path(__file__).parent / "static")), name="static")

    @app.exception_handler(LoginRequired)
    async def _login(request: Request, exc: LoginRequired) -> Response:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"/login?next={quote(target)}", status_code=303)

    def _error_page(request: Request, status: int, heading: str, detail: str) -> Response:
        ctx = session_of(request)
        return TEMPLATES.TemplateResponse(
            request, "error.html",
            {"user": ctx.user if ctx else None, "csrf": ctx.csrf if ctx else "", "section": "",
             "status": status, "heading": heading, "detail": detail},
            status_code=status,
        )

    @app.exception_handler(Forbidden)
    async def _forbidden(request: Request, exc: Forbidden) -> Response:
        return _error_page(request, 403, "Forbidden", exc.detail)

    @app.exception_handler(NotFound)
    async def _not_found(request: Request, exc: NotFound) -> Response:
        return _error_page(request, 404, "Not found", exc.detail)

    @app.get("/", response_model=None)
    def home(request: Request) -> Response:
        ctx = session_of(request)
        if ctx is None:
            return RedirectResponse("/login", status_code=303)
        return RedirectResponse(HOME[ctx.user.role], status_code=303)

    @app.get("/login", response_class=HTMLResponse)
    def login_page(request: Request, next: str = "/") -> Response:
        token = app.state.sessions.login_token()
        resp = TEMPLATES.TemplateResponse(request, "login.html", {"user": None, "login_csrf": token,
                                                                  "next": _safe_next(next)})
        resp.set_cookie("tw_login", token, httponly=True, samesite="strict", secure=secure_cookies)
        return resp

    @app.post("/login", response_model=None)
    def login(request: Request, username: str = Form(""), password: str = Form(""),
              csrf: str = Form(""), next: str = Form("/")) -> Response:
        sessions: auth.Sessions = app.state.sessions
        if not sessions.login_token_ok(request.cookies.get("tw_login"), csrf):
            raise Forbidden("the login form's CSRF token is missing or stale; reload the login page")
        user = auth.authenticate(db, username.strip(), password)
        if user is None:
            token = sessions.login_token()
            resp = TEMPLATES.TemplateResponse(
                request, "login.html",
                {"user": None, "login_csrf": token, "next": _safe_next(next),
                 "error": "Unknown user name or wrong password."},
                status_code=401,
            )
            resp.set_cookie("tw_login", token, httponly=True, samesite="strict", secure=secure_cookies)
            return resp
        cookie, _ = sessions.start(user)
        target = _safe_next(next)
        resp = RedirectResponse(HOME[user.role] if target == "/" else target, status_code=303)
        resp.set_cookie(auth.Sessions.COOKIE, cookie, httponly=True, samesite="lax", secure=secure_cookies,
                        max_age=auth.SESSION_MAX_AGE_S)
        resp.delete_cookie("tw_login")
        return resp

    @app.post("/logout", response_model=None)
    def logout(request: Request, csrf: str = Form("")) -> Response:
        ctx = session_of(request)
        if ctx is not None:
            ctx.check_csrf(csrf)
            app.state.sessions.end(ctx.sid, ctx.user.username)
        resp = RedirectResponse("/login", status_code=303)
        resp.delete_cookie(auth.Sessions.COOKIE)
        return resp

    for module in (surveillance_pages, protection_pages, manager_pages, admin_pages):
        app.include_router(module.router)

    return app
