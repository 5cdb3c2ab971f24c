"""A small seeded store, built once per session and copied for each test that writes to it."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dashboards import auth, demo
from dashboards.app import create_app

PASSWORD = "correct horse battery"
USERS = {  # username: (role, pit)
    "surv": ("surveillance", None),
    "prot": ("game_protection", None),
    "mgr": ("manager", None),
    "adm": ("admin", None),
    "pitb": ("surveillance", "B"),
}


@pytest.fixture(scope="session")
def seeded_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five tables (every game), ten rounds each, many faults; two flags with rendered evidence."""
    folder = tmp_path_factory.mktemp("seeded")
    demo.simulate_shift(folder / "store.duckdb", rounds_per_table=10, fault_rate=0.3, evidence_flags=2, seed=11)
    app = create_app(folder / "store.duckdb", secret="test-secret")
    demo.assign_pits(app.state.db)
    for name, (role, pit) in USERS.items():
        auth.create_user(app.state.db, name, PASSWORD, role, pit)
    app.state.db.close()
    return folder


@pytest.fixture
def store_path(seeded_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the seeded store and its evidence files."""
    shutil.copytree(seeded_dir, tmp_path / "s")
    return tmp_path / "s" / "store.duckdb"


@pytest.fixture
def app(store_path: Path):
    application = create_app(store_path, secret="test-secret")
    yield application
    application.state.db.close()


def csrf_in(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "page has no CSRF field"
    return found.group(1)


def login(client: TestClient, username: str, password: str = PASSWORD) -> TestClient:
    page = client.get("/login")
    r = client.post("/login", data={"username": username, "password": password, "csrf": csrf_in(page.text),
                                    "next": "/"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return client


@pytest.fixture
def client_for(app) -> Callable[[str], TestClient]:
    """A logged-in client per user name (each with its own cookies)."""

    def make(username: str) -> TestClient:
        return login(TestClient(app), username)

    return make
