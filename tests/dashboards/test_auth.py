"""Passwords, sessions, login CSRF, roles and pits, through the real app."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from dashboards import audit, auth
from dashboards.auth import Sessions

from .conftest import PASSWORD, csrf_in, login

PAGE_ROLES = {  # page: roles that may open it besides admin
    "/surveillance": {"surveillance"},
    "/surveillance/notes": {"surveillance", "game_protection"},
    "/protection": {"game_protection"},
    "/manager": {"manager"},
    "/manager/hold.csv": {"manager"},
    "/admin/users": set(),
    "/admin/audit": set(),
}
USER_OF_ROLE = {"surveillance": "surv", "game_protection": "prot", "manager": "mgr", "admin": "adm"}


def test_password_hash_is_salted_and_checked():
    a, b = auth.hash_password("hunter2hunter2", n=2**10), auth.hash_password("hunter2hunter2", n=2**10)
    assert a != b  # per-user salt
    assert "hunter2" not in a
    assert auth.check_password("hunter2hunter2", a) and auth.check_password("hunter2hunter2", b)
    assert not auth.check_password("hunter2hunter3", a)
    assert not auth.check_password("hunter2hunter2", "garbage")


def test_bad_user_data_names_field_and_value(app):
    with pytest.raises(auth.AuthError, match="field role: 'boss'"):
        auth.create_user(app.state.db, "x1", "longenough", "boss")
    with pytest.raises(auth.AuthError, match="field username: 'surv' already exists"):
        auth.create_user(app.state.db, "surv", "longenough", "manager")
    with pytest.raises(auth.AuthError, match="at least 8"):
        auth.create_user(app.state.db, "x2", "short", "manager")


def test_login_success_and_failure_are_audited(app):
    client = TestClient(app)
    page = client.get("/login")
    bad = client.post("/login", data={"username": "surv", "password": "wrong password", "csrf": csrf_in(page.text)})
    assert bad.status_code == 401 and "wrong password" in bad.text
    login(client, "surv")
    actions = [(e.username, e.action) for e in audit.entries(app.state.db, username="surv")]
    assert actions[:2] == [("surv", "login"), ("surv", "login_failed")]
    assert all(e.at for e in audit.entries(app.state.db, username="surv"))


def test_login_without_its_csrf_token_is_refused(app):
    client = TestClient(app)
    client.get("/login")
    r = client.post("/login", data={"username": "surv", "password": PASSWORD, "csrf": "forged"})
    assert r.status_code == 403
    assert Sessions.COOKIE not in client.cookies


def test_unauthenticated_request_goes_to_login(app):
    r = TestClient(app).get("/manager?by=game", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/login?next=/manager")


def test_login_does_not_redirect_off_site(app):
    client = TestClient(app)
    page = client.get("/login?next=//evil.example/")
    r = client.post("/login", data={"username": "mgr", "password": PASSWORD, "csrf": csrf_in(page.text),
                                    "next": "//evil.example/"}, follow_redirects=False)
    assert r.headers["location"] == "/manager"


@pytest.mark.parametrize("role", list(USER_OF_ROLE))
def test_each_role_sees_only_its_pages(client_for, role):
    client = client_for(USER_OF_ROLE[role])
    for url, roles in PAGE_ROLES.items():
        code = client.get(url).status_code
        assert code == (200 if role == "admin" or role in roles else 403), (role, url)


def test_tampered_or_ended_session_is_not_accepted(app, client_for):
    client = client_for("surv")
    cookie = client.cookies[Sessions.COOKIE]
    forged = TestClient(app, cookies={Sessions.COOKIE: cookie[:-2] + ("AA" if cookie[-2:] != "AA" else "BB")})
    assert forged.get("/surveillance", follow_redirects=False).status_code == 303
    page = client.get("/surveillance")
    client.post("/logout", data={"csrf": csrf_in(page.text)})
    replay = TestClient(app, cookies={Sessions.COOKIE: cookie})
    assert replay.get("/surveillance", follow_redirects=False).status_code == 303
    assert audit.entries(app.state.db, username="surv")[0].action == "logout"


def test_deactivated_user_loses_access(app, client_for):
    victim = client_for("mgr")
    admin = client_for("adm")
    page = admin.get("/admin/users")
    assert admin.post("/admin/users/mgr/deactivate", data={"csrf": csrf_in(page.text)}).status_code == 200
    assert victim.get("/manager", follow_redirects=False).status_code == 303
    assert auth.authenticate(app.state.db, "mgr", PASSWORD) is None


def test_pit_limited_user_sees_only_pit_tables(app, client_for):
    cur = app.state.db.cursor()
    pit_b = {t for (t,) in cur.execute("SELECT table_id FROM dash_table_pits WHERE pit = 'B'").fetchall()}
    outside = cur.execute("SELECT round_id FROM flags WHERE table_id NOT IN (SELECT table_id FROM dash_table_pits "
                          "WHERE pit = 'B') LIMIT 1").fetchone()[0]
    inside = cur.execute("SELECT round_id FROM flags WHERE table_id IN (SELECT table_id FROM dash_table_pits "
                         "WHERE pit = 'B') LIMIT 1").fetchone()[0]
    client = client_for("pitb")
    queue = client.get("/surveillance?status=all").text
    shown = set(__import__("re").findall(r"<td>((?:KH|BJ|CM|P2)-\d)</td>", queue))
    assert shown and shown <= pit_b
    assert client.get(f"/surveillance/round/{outside}").status_code == 404
    assert client.get(f"/surveillance/round/{outside}/evidence.zip").status_code == 404
    assert client.get(f"/surveillance/round/{inside}").status_code == 200
    # The unrestricted officer sees the other pit's round.
    assert client_for("surv").get(f"/surveillance/round/{outside}").status_code == 200
