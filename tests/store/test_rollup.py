"""The report rollup equals the detail query after writes, a replayed round, late flags, dealer assignments,
changed shifts, a migration of existing data, and for windows that cut a grave shift in two."""

from __future__ import annotations

from datetime import datetime

import pytest

from pipelines.reconcile import Flag
from pipelines.reconcile.flag import FrameRange
from pipelines.store import reports, rollup
from pipelines.store.db import Store
from pipelines.store.imports import import_csv
from pipelines.store.shifts import ShiftConfig

from .test_store import CFG, ROUNDS, rnd, toygame

BYS = [[], ["table"], ["game"], ["shift"], ["dealer"], ["day"], ["table", "shift", "day"]]


def detail(store: Store) -> dict:
    """The rollup's rows recomputed from the detail tables, keyed by group."""
    rows = store.query(f"WITH {rollup.round_facts('TRUE')}, {rollup.GROUP_TOTALS} SELECT * FROM group_totals")
    return {tuple(r[k] for k in rollup.GROUP_KEYS): r for r in rows}


def stored(store: Store) -> dict:
    rows = store.query("SELECT * FROM round_rollup")
    return {tuple(r[k] for k in rollup.GROUP_KEYS): r for r in rows}


def assert_rollup_matches(store: Store) -> None:
    want, got = detail(store), stored(store)
    assert set(got) == set(want)
    for key, row in want.items():
        for col in rollup.COLUMNS:
            want = row[col]
            # Sums of floats compare approximately; dates, times and text exactly.
            expected = pytest.approx(want) if isinstance(want, (int, float)) and not isinstance(want, bool) else want
            assert got[key][col] == expected, (key, col)
    assert rollup.usable(store)


def assert_reports_match(store: Store, start: datetime | None = None, end: datetime | None = None) -> None:
    """Every grouping, read through the rollup, equals the same report forced onto the detail tables."""
    fast = {tuple(b): reports.hold_report(store, b, start, end) for b in BYS}
    dealers = reports.dealer_report(store, start, end)
    store.con.execute("CREATE OR REPLACE TEMP TABLE rollup_shifts AS SELECT * FROM main.rollup_shifts LIMIT 0")
    try:
        assert not rollup.usable(store)
        for b in BYS:
            assert fast[tuple(b)] == reports.hold_report(store, b, start, end), b
        assert dealers == reports.dealer_report(store, start, end)
    finally:
        store.con.execute("DROP TABLE temp.rollup_shifts")


def flag(fid: str, round_id: str, kind: str = "past_post") -> Flag:
    return Flag(flag_id=fid, type=kind, kind="hard", table_id="T1", round_id=round_id, game="pick-2-poker",
                started_at="2026-03-01T10:00:00", seat=1, spot="ante", severity="high", amount=10.0,
                frames=FrameRange(start=1, end=2), rule="a manual section", detail="test")


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "r.duckdb")
    s.write_rounds(ROUNDS, games=toygame.lookup, config=CFG)
    yield s
    s.close()


def test_rollup_equals_detail_after_writes_and_a_replayed_round(store):
    assert_rollup_matches(store)
    assert stored(store)  # there is something to compare
    # Round 2 replayed with a different payout, dealer and start (it moves to the grave shift).
    moved = rnd(2, "2026-03-01T22:30:00", "Ah", 10, dealer="D3")
    store.write_rounds([moved, *ROUNDS[2:]], games=toygame.lookup, config=CFG)
    assert_rollup_matches(store)
    groups = stored(store)
    assert ("T1", "pick-2-poker", "grave", datetime(2026, 3, 1).date(), "D3") in groups
    assert sum(r["n_rounds"] for r in groups.values()) == len(ROUNDS)
    assert_reports_match(store)


def test_late_flags_and_their_replacement_move_the_totals(store):
    before = reports.hold_report(store, ["dealer"])
    store.write_flags([flag("x1", "r1")])
    assert_rollup_matches(store)
    after = {r["dealer_id"]: r for r in reports.hold_report(store, ["dealer"])}
    d1 = {r["dealer_id"]: r for r in before}["D1"]
    assert after["D1"]["past_post"] == d1["past_post"] + 1
    store.write_flags([flag("x1", "r3", "pinch")])  # the same flag, now against another round
    assert_rollup_matches(store)
    assert_reports_match(store)


def test_dealer_assignments_and_shift_changes_recompute(store, tmp_path):
    store.write_rounds([rnd(9, "2026-03-01T12:00:00", "Kh", 10, dealer=None)], games=toygame.lookup,
                       config=CFG)
    assert "unassigned" in {k[4] for k in stored(store)}
    csv = tmp_path / "dealers.csv"
    csv.write_text("dealer,table,from,to\nD7,T1,2026-03-01T11:45:00,2026-03-01T13:00:00\n")
    import_csv(store, csv, "dealer-assignments")
    assert "D7" in {k[4] for k in stored(store)}
    assert_rollup_matches(store)
    store.set_shifts(ShiftConfig.parse("early=00-12,late=12-00"))
    assert {k[2] for k in stored(store)} == {"early", "late"}
    assert_rollup_matches(store)
    assert_reports_match(store)


@pytest.mark.parametrize("start, end", [
    ("2026-03-02T00:00:00", None),  # cuts the grave shift of 1 March in two
    (None, "2026-03-02T00:00:00"),
    ("2026-03-01T10:30:00", "2026-03-02T01:00:00"),
    ("2026-03-01T00:00:00", "2026-03-03T00:00:00"),
])
def test_windows_that_cut_a_group_read_its_rounds_inside(store, start, end):
    t0 = datetime.fromisoformat(start) if start else None
    t1 = datetime.fromisoformat(end) if end else None
    assert_reports_match(store, t0, t1)


def test_migration_fills_the_rollup_of_existing_data(store):
    # A store from before migration 003: no rollup tables and no record of the migration.
    store.con.execute("DROP TABLE round_rollup")
    store.con.execute("DROP TABLE rollup_shifts")
    store.con.execute("DELETE FROM schema_migrations WHERE version = 3")
    path = store.path
    store.close()
    with Store(path) as again:
        assert again.query("SELECT count(*) AS n FROM rounds")[0]["n"] == len(ROUNDS)
        assert_rollup_matches(again)


def test_rows_written_around_the_store_fall_back_to_detail(store):
    store.con.execute("INSERT INTO rounds SELECT 'zz' || round_id, table_id, game, started_at, ended_at, "
                      "dealer_id, status, n_wagers, handle, doc FROM rounds")
    assert not rollup.usable(store)
    slow = {tuple(b): reports.hold_report(store, b) for b in BYS}
    store.con.execute("BEGIN TRANSACTION")
    rollup.rebuild(store.con)
    store.con.execute("COMMIT")
    assert_rollup_matches(store)
    assert {tuple(b): reports.hold_report(store, b) for b in BYS} == slow
