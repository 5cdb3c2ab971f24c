"""Real headless Chromium (Playwright) against a real uvicorn server on a free loopback port."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboards.app import create_app
from dashboards.background import CHROMIUM, CHROMIUM_ARGS, serving

from .conftest import PASSWORD

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def server(seeded_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("browser") / "s"
    shutil.copytree(seeded_dir, folder)
    app = create_app(folder / "store.duckdb", secret="browser-secret")
    with serving(app) as url:
        yield url
    app.state.db.close()


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium at /usr/bin/chromium")
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    yield pg
    context.close()


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state("domcontentloaded")


@pytest.mark.parametrize("username,home,heading", [
    ("surv", "/surveillance", "Flagged rounds"),
    ("prot", "/protection", "Dealer accuracy"),
    ("mgr", "/manager", "Hold report"),
    ("adm", "/surveillance", "Flagged rounds"),
])
def test_each_role_logs_in_to_its_home(server, page, username, home, heading):
    log_in(page, server, username)
    assert page.url.endswith(home)
    assert heading in page.locator("h1").inner_text()


def test_review_a_flag_and_see_the_audit_entry(server, page):
    log_in(page, server, "surv")
    page.select_option("select[name=status]", "open")  # submits the filter form
    page.wait_for_load_state("domcontentloaded")
    first = page.locator("table.queue tbody tr a").first
    first.click()
    page.wait_for_selector("svg.felt")
    assert page.locator("svg.felt .card").count() > 0
    flag = page.locator("article.flag.selected")
    flag.locator("input[value=false_alarm]").check()
    flag.locator("textarea[name=comment]").fill("chips were a colour-up, checked on camera 12")
    flag.locator("button[type=submit]").click()
    page.wait_for_selector("#history .audit-row")
    row = page.locator("#history .audit-row").first.inner_text()
    assert "surv" in row and "disposition" in row and "false_alarm" in row
    assert "false alarm by surv" in page.locator("article.flag.selected").inner_text()

    # An admin sees the same entry in the audit log, and the chain verifies.
    page.click("text=Log out")
    log_in(page, server, "adm")
    page.goto(f"{server}/admin/audit")
    assert "Chain verified" in page.locator("#chain-status").inner_text()
    assert "colour-up" in page.locator("table.audit").inner_text()


def test_a_role_is_refused_another_roles_page(server, page):
    log_in(page, server, "mgr")
    response = page.goto(f"{server}/surveillance")
    assert response.status == 403
    assert "Forbidden" in page.locator("h1").inner_text()
    assert page.locator("nav a", has_text="Surveillance").count() == 0
    response = page.goto(f"{server}/manager?by=shift")
    assert response.status == 200 and page.locator("svg.chart").count() == 2
