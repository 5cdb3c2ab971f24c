"""The queue, the round page, dispositions (CSRF, audit), notes and evidence bundles."""

from __future__ import annotations

import html
import io
import json
import re
import zipfile
from datetime import date

import pytest

from dashboards import audit, evidence, queries

from .conftest import csrf_in

SEV = {"critical": 4, "high": 3, "medium": 2, "low": 1}


def _flag(app, where: str = "TRUE") -> dict:
    return queries.rows(app.state.db.cursor(), f"SELECT * FROM flags WHERE {where} ORDER BY flag_id LIMIT 1")[0]


def test_queue_is_newest_day_then_most_severe(app):
    rows, total = queries.flag_queue(app.state.db.cursor(), queries.FlagFilter(status="all"), limit=10_000)
    stored = app.state.db.cursor().execute("SELECT count(*) FROM flags").fetchone()[0]
    assert total == stored == len(rows) > 0
    keys = [(r["started_at"].date(), SEV[r["severity"]], r["started_at"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    by_sev, _ = queries.flag_queue(app.state.db.cursor(), queries.FlagFilter(status="all", sort="severity"),
                                   limit=10_000)
    assert [SEV[r["severity"]] for r in by_sev] == sorted((SEV[r["severity"]] for r in by_sev), reverse=True)


@pytest.mark.parametrize("field,value", [("table", "BJ-2"), ("game", "pick-2-poker"), ("type", "procedure"),
                                         ("severity", "low")])
def test_queue_filters(app, field, value):
    rows, total = queries.flag_queue(app.state.db.cursor(), queries.FlagFilter(status="all", **{field: value}))
    column = {"table": "table_id"}.get(field, field)
    expected = app.state.db.cursor().execute(f"SELECT count(*) FROM flags WHERE {column} = ?", [value]).fetchone()[0]
    assert total == expected
    assert all(r[column] == value for r in rows)


def test_queue_date_filter_and_bad_date(app, client_for):
    day = app.state.db.cursor().execute("SELECT min(started_at)::DATE FROM flags").fetchone()[0]
    _, total = queries.flag_queue(app.state.db.cursor(), queries.FlagFilter(status="all", date_from=day,
                                                                            date_to=day))
    expected = app.state.db.cursor().execute("SELECT count(*) FROM flags WHERE started_at::DATE = ?",
                                             [day]).fetchone()[0]
    assert total == expected > 0
    _, none = queries.flag_queue(app.state.db.cursor(), queries.FlagFilter(status="all", date_from=date(2001, 1, 1),
                                                                           date_to=date(2001, 1, 2)))
    assert none == 0
    r = client_for("surv").get("/surveillance?date_from=31-12-2024")
    assert r.status_code == 400 and "field date_from: '31-12-2024'" in html.unescape(r.text)


def test_round_page_draws_cards_wagers_and_rule(app, client_for):
    flag = _flag(app, "type = 'payout_error'")
    html = client_for("surv").get(f"/surveillance/round/{flag['round_id']}?flag={flag['flag_id']}").text
    assert "<svg" in html and 'class="felt"' in html
    assert flag["rule"] in html.replace("&#39;", "'").replace("&amp;", "&")
    wagers = app.state.db.cursor().execute("SELECT count(*) FROM wagers WHERE round_id = ?",
                                           [flag["round_id"]]).fetchone()[0]
    assert html.count('class="chip bet') >= 1
    assert len(re.findall(r"<tr class=\"(?:bad)?\">", html.split("Expected against observed")[1])) == wagers
    assert 'name="disposition" value="false_alarm"' in html


def test_disposition_needs_csrf_and_is_audited(app, client_for):
    client = client_for("surv")
    flag = _flag(app)
    url = f"/surveillance/flag/{flag['flag_id']}/disposition"
    refused = client.post(url, data={"disposition": "confirmed", "comment": "x", "csrf": "nope"})
    assert refused.status_code == 403
    assert app.state.db.cursor().execute("SELECT count(*) FROM reviews").fetchone()[0] == 0
    page = client.get(f"/surveillance/round/{flag['round_id']}")
    ok = client.post(url, data={"disposition": "confirmed", "comment": "dealer paid 3 to 2",
                                "csrf": csrf_in(page.text)})
    assert ok.status_code == 200 and "dealer paid 3 to 2" in ok.text
    review = app.state.db.cursor().execute("SELECT reviewer, disposition, note FROM reviews").fetchall()
    assert review == [("surv", "confirmed", "dealer paid 3 to 2")]
    entry = audit.entries(app.state.db, target=flag["flag_id"])[0]
    assert (entry.username, entry.action, entry.detail["disposition"]) == ("surv", "disposition", "confirmed")
    # Reviewed flags leave the open queue.
    open_rows, _ = queries.flag_queue(app.state.db.cursor(), queries.FlagFilter(), limit=10_000)
    assert flag["flag_id"] not in {r["flag_id"] for r in open_rows}


def test_bad_disposition_value_is_rejected(app, client_for):
    client = client_for("surv")
    flag = _flag(app)
    page = client.get(f"/surveillance/round/{flag['round_id']}")
    r = client.post(f"/surveillance/flag/{flag['flag_id']}/disposition",
                    data={"disposition": "whatever", "comment": "", "csrf": csrf_in(page.text)})
    assert r.status_code == 400 and "'whatever'" in html.unescape(r.text)


def test_game_protection_may_read_rounds_but_not_dispose(app, client_for):
    client = client_for("prot")
    flag = _flag(app)
    page = client.get(f"/surveillance/round/{flag['round_id']}")
    assert page.status_code == 200 and 'name="disposition"' not in page.text
    r = client.post(f"/surveillance/flag/{flag['flag_id']}/disposition",
                    data={"disposition": "confirmed", "comment": "", "csrf": csrf_in(page.text)})
    assert r.status_code == 403


def test_notes_are_searchable(app, client_for):
    client = client_for("surv")
    flag = _flag(app)
    page = client.get(f"/surveillance/round/{flag['round_id']}")
    client.post(f"/surveillance/round/{flag['round_id']}/note",
                data={"text": "Player in seat 3 wore a red Cap", "csrf": csrf_in(page.text)})
    found = client.get("/surveillance/notes?q=red cap").text
    assert flag["round_id"] in found and "wore a red Cap" in found
    assert flag["round_id"] not in client.get("/surveillance/notes?q=blue hat").text
    assert "No note contains" in client.get("/surveillance/notes?q=r_d%25cap").text  # LIKE wildcards are literal


def test_evidence_bundle_contents_and_chain(app, client_for):
    flag = _flag(app, "snapshots <> '[]'")
    r = client_for("surv").get(f"/surveillance/round/{flag['round_id']}/evidence.zip")
    assert r.status_code == 200
    zf = zipfile.ZipFile(io.BytesIO(r.content))
    names = set(zf.namelist())
    assert {"round.json", "expected_settlement.json", "flags.json", "manifest.json", "audit.json"} <= names
    assert any(n.endswith(".png") for n in names) and any(n.endswith(".webm") for n in names)
    assert any(n.startswith("detections/") for n in names)
    assert json.loads(zf.read("round.json"))["round_id"] == flag["round_id"]
    stamp = json.loads(zf.read("audit.json"))
    assert int(r.headers["X-Audit-Seq"]) == stamp["seq"]
    assert evidence.verify_bundle(app.state.db, r.content).ok

    # Change one file: the manifest no longer matches.
    tampered = io.BytesIO()
    with zipfile.ZipFile(tampered, "w") as out:
        for n in zf.namelist():
            data = zf.read(n)
            out.writestr(n, data.replace(b'"lose"', b'"win"') if n == "expected_settlement.json" else data)
    check = evidence.verify_bundle(app.state.db, tampered.getvalue())
    assert not check.ok and "expected_settlement.json" in check.reason


def test_media_outside_allowed_roots_is_not_served(app, client_for, tmp_path):
    flag = _flag(app, "snapshots <> '[]'")
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG not for you")
    with app.state.db.write() as cur:
        cur.execute("UPDATE flags SET snapshots = ? WHERE round_id = ?", [json.dumps([str(secret)]), flag["round_id"]])
    r = client_for("surv").get(f"/surveillance/round/{flag['round_id']}/media/0")
    assert r.status_code == 404 and b"not for you" not in r.content
