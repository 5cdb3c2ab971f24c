"""The hash-chained audit log: appends verify, and any edit, deletion or insertion is caught."""

from __future__ import annotations

import json

import pytest

from dashboards import audit
from dashboards.db import Database


@pytest.fixture
def db(tmp_path):
    d = Database(tmp_path / "a.duckdb")
    for i in range(5):
        audit.record(d, f"user{i % 2}", "note", f"round{i}", {"text": f"note {i}"})
    yield d
    d.close()


def test_chain_links_each_row_to_the_previous(db):
    rows = db.cursor().execute("SELECT seq, prev_hash, hash FROM audit_log ORDER BY seq").fetchall()
    assert [r[0] for r in rows] == [1, 2, 3, 4, 5]
    assert rows[0][1] == audit.GENESIS
    assert all(rows[i][1] == rows[i - 1][2] for i in range(1, 5))
    check = audit.verify_chain(db)
    assert check.ok and check.rows == 5


def test_edited_row_is_detected(db):
    db.conn.execute("UPDATE audit_log SET detail = ? WHERE seq = 3", [json.dumps({"text": "innocent"})])
    check = audit.verify_chain(db)
    assert not check.ok and check.first_bad_seq == 3 and "content" in check.reason


def test_rehashed_edit_breaks_the_next_link(db):
    """A forger who also recomputes the edited row's hash still breaks the row after it."""
    seq, at, user, action, target, _, prev, _ = db.conn.execute("SELECT * FROM audit_log WHERE seq = 2").fetchone()
    forged_detail = json.dumps({"text": "forged"}, sort_keys=True, separators=(",", ":"))
    new_hash = audit.row_hash(prev, seq, at, user, action, target, forged_detail)
    db.conn.execute("UPDATE audit_log SET detail = ?, hash = ? WHERE seq = 2", [forged_detail, new_hash])
    check = audit.verify_chain(db)
    assert not check.ok and check.first_bad_seq == 3 and "previous-hash" in check.reason


def test_deleted_row_is_detected(db):
    db.conn.execute("DELETE FROM audit_log WHERE seq = 4")
    check = audit.verify_chain(db)
    assert not check.ok and check.first_bad_seq == 5


def test_deleting_the_newest_rows_is_not_caught_by_the_chain_alone(db):
    """Truncation at the end leaves a valid shorter chain: the exported bundles (which carry their row's
    hash) are what prove a later row existed. This test pins that limit so nobody relies on more."""
    db.conn.execute("DELETE FROM audit_log WHERE seq = 5")
    assert audit.verify_chain(db).ok


def test_entries_filter_by_target_and_user(db):
    assert [e.seq for e in audit.entries(db, target="round3")] == [4]
    assert {e.username for e in audit.entries(db, username="user1")} == {"user1"}
    assert [e.seq for e in audit.entries(db)] == [5, 4, 3, 2, 1]


def test_admin_page_reports_a_broken_chain(app, client_for):
    admin = client_for("adm")
    assert "Chain verified" in admin.get("/admin/audit").text
    app.state.db.conn.execute("UPDATE audit_log SET username = 'someone_else' WHERE seq = 1")
    page = admin.get("/admin/audit").text
    assert "Chain BROKEN at row 1" in page
