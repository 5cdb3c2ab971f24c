"""A screenshot of every dashboard page, taken by headless Chromium from a demo store.

    python benchmarks/screenshots.py [--out DIR] [--db DEMO.duckdb] [--rounds 30] [--json]

Without --db a small demo shift is simulated first (about half a minute). Prints each file and its
load time; with --json the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from dashboards import auth, demo
from dashboards.app import create_app
from dashboards.background import CHROMIUM, CHROMIUM_ARGS, serving

PASSWORD = "screenshots-only"
USERS = {"shot_surv": "surveillance", "shot_prot": "game_protection", "shot_mgr": "manager", "shot_adm": "admin"}


def build_store(folder: Path, rounds: int) -> Path:
    path = folder / "demo.duckdb"
    demo.simulate_shift(path, rounds_per_table=rounds, evidence_flags=6, fault_rate=0.1)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "tablewatch-screenshots")
    ap.add_argument("--db", type=Path, help="an existing store (copied, never written)")
    ap.add_argument("--rounds", type=int, default=30, help="rounds per table when simulating")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="tw-shots-"))
    if args.db:
        shutil.copytree(args.db.parent, work / "s")
        path = work / "s" / args.db.name
    else:
        path = build_store(work, args.rounds)
    app = create_app(path)
    demo.assign_pits(app.state.db)
    for name, role in USERS.items():
        if auth.get_user(app.state.db, name) is None:
            auth.create_user(app.state.db, name, PASSWORD, role)
    cur = app.state.db.cursor()
    media_round = cur.execute("SELECT round_id, flag_id FROM flags WHERE snapshots <> '[]' "
                              "ORDER BY started_at LIMIT 1").fetchone()
    dealer = cur.execute("SELECT r.dealer_id FROM flags f JOIN rounds r USING (round_id) "
                         "GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
    args.out.mkdir(parents=True, exist_ok=True)
    shots: list[dict] = []
    with serving(app) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

        def session(username: str):
            ctx = browser.new_context(viewport={"width": 1440, "height": 1000})
            page = ctx.new_page()
            page.goto(f"{base}/login")
            page.fill("input[name=username]", username)
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_load_state("networkidle")
            return ctx, page

        def shoot(page, name: str, url: str, prepare=None) -> None:
            t0 = time.perf_counter()
            response = page.goto(f"{base}{url}", wait_until="load")
            ms = 1000 * (time.perf_counter() - t0)  # to the load event: HTML, CSS, script and images
            if prepare:
                prepare(page)
            file = args.out / f"{name}.png"
            page.screenshot(path=str(file), full_page=True)
            shots.append({"page": name, "url": url, "status": response.status, "load_ms": round(ms, 1),
                          "file": str(file)})
            print(f"{name:22s} {response.status}  {ms:7.1f} ms  {file}")

        ctx = browser.new_context(viewport={"width": 1440, "height": 900})
        shoot(ctx.new_page(), "login", "/login")
        ctx.close()

        ctx, page = session("shot_surv")
        shoot(page, "surveillance_queue", "/surveillance")
        shoot(page, "surveillance_round", f"/surveillance/round/{media_round[0]}?flag={media_round[1]}")
        note_url = f"/surveillance/round/{media_round[0]}"
        page.goto(f"{base}{note_url}")
        page.fill("#notes textarea", "Camera 12 angle confirms the payout; see clip")
        page.click("#notes button")
        shoot(page, "notes_search", "/surveillance/notes?q=camera")
        shoot(page, "forbidden", "/manager")
        ctx.close()

        ctx, page = session("shot_prot")
        shoot(page, "protection_dealers", "/protection")
        shoot(page, "protection_dealer", f"/protection/dealer/{dealer}")
        ctx.close()

        ctx, page = session("shot_mgr")
        for by in ("table", "shift", "dealer"):
            shoot(page, f"manager_hold_by_{by}", f"/manager?by={by}")
        ctx.close()

        ctx, page = session("shot_adm")
        shoot(page, "admin_users", "/admin/users")
        shoot(page, "admin_audit", "/admin/audit")
        ctx.close()
        browser.close()
    app.state.db.close()
    shutil.rmtree(work, ignore_errors=True)
    if args.json:
        print(json.dumps({"benchmark": "screenshots", "out": str(args.out), "pages": shots}))


if __name__ == "__main__":
    main()
