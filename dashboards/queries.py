"""What the pages read: the store's tables (pipelines/store) and report queries, plus what they lack.

Pit limits are applied once, at the cursor: `scoped_cursor` shadows the store's `rounds`, `flags`,
`wagers` and `tables` with temporary views holding only the pit's tables, so every query below and
every report query of pipelines.store.reports sees only what the user may see.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import PurePath
from typing import Any, cast

import duckdb

from pipelines.games.round import Round
from pipelines.reconcile.flag import FLAG_TYPES, SEVERITIES
from pipelines.store import reports
from pipelines.store.db import Store

SEVERITY_RANK = "CASE f.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 ELSE 1 END"
IMAGE = {".png", ".jpg", ".jpeg", ".webp", ".gif"}
VIDEO = {".mp4", ".webm", ".ogv", ".mov"}
DETECTIONS = {".json", ".jsonl", ".parquet", ".csv"}


def rows(cur: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | dict[str, Any] | None = None
         ) -> list[dict[str, Any]]:
    res = cur.execute(sql, params or [])
    names = [d[0] for d in res.description]
    return [dict(zip(names, r, strict=True)) for r in res.fetchall()]


class _Reader:
    """The one method of `Store` the report queries use, on a request's (possibly scoped) cursor."""

    def __init__(self, cur: duckdb.DuckDBPyConnection) -> None:
        self.cur = cur

    def query(self, sql: str, params: list[Any] | dict[str, Any] | None = None) -> list[dict[str, Any]]:
        return rows(self.cur, sql, params)


def as_store(cur: duckdb.DuckDBPyConnection) -> Store:
    return cast(Store, _Reader(cur))


# -- pits and scope ------------------------------------------------------------------------------

def table_pits(cur: duckdb.DuckDBPyConnection) -> dict[str, str]:
    return dict(cur.execute("SELECT table_id, pit FROM dash_table_pits").fetchall())


def all_tables(cur: duckdb.DuckDBPyConnection) -> list[str]:
    return [r[0] for r in cur.execute("SELECT table_id FROM tables ORDER BY table_id").fetchall()]


def tables_for_user(cur: duckdb.DuckDBPyConnection, pit: str | None) -> list[str] | None:
    """None: every table. A user limited to a pit sees only the tables assigned to it."""
    if pit is None:
        return None
    return [r[0] for r in cur.execute(
        "SELECT table_id FROM dash_table_pits WHERE pit = ? ORDER BY table_id", [pit]).fetchall()]


def scoped_cursor(cur: duckdb.DuckDBPyConnection, tables: list[str] | None) -> duckdb.DuckDBPyConnection:
    """Shadow the store's tables with views of `tables` only (temp views are private to this cursor)."""
    if tables is None:
        return cur
    catalog = cur.execute("SELECT current_database()").fetchone()[0]  # type: ignore[index]
    main = f'"{catalog}".main'
    cur.execute("CREATE OR REPLACE TEMP TABLE _scope (table_id VARCHAR)")
    cur.executemany("INSERT INTO temp.main._scope VALUES (?)", [[t] for t in tables])
    in_scope = "(SELECT table_id FROM temp.main._scope)"
    for name in ("rounds", "flags", "tables", "round_rollup"):
        cur.execute(f"CREATE OR REPLACE TEMP VIEW {name} AS SELECT * FROM {main}.{name} WHERE table_id IN {in_scope}")
    cur.execute(f"CREATE OR REPLACE TEMP VIEW wagers AS SELECT w.* FROM {main}.wagers w "
                f"WHERE w.round_id IN (SELECT round_id FROM {main}.rounds WHERE table_id IN {in_scope})")
    return cur


# -- the surveillance queue ----------------------------------------------------------------------

def parse_day(text: str, field_name: str) -> date | None:
    if not text.strip():
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"filter: field {field_name}: {text!r} is not a date (YYYY-MM-DD)") from None


@dataclass
class FlagFilter:
    table: str | None = None
    game: str | None = None
    type: str | None = None
    severity: str | None = None
    date_from: date | None = None
    date_to: date | None = None  # inclusive
    status: str = "open"  # open | reviewed | all
    sort: str = "newest"  # newest: day, then severity, then time; severity: severity, then time

    def __post_init__(self) -> None:
        for name, value, allowed in (("type", self.type, FLAG_TYPES), ("severity", self.severity, SEVERITIES),
                                     ("status", self.status, ("open", "reviewed", "all")),
                                     ("sort", self.sort, ("newest", "severity"))):
            if value is not None and value not in allowed:
                raise ValueError(f"filter: field {name}: {value!r} is not one of {', '.join(allowed)}")

    def where(self) -> tuple[str, list[Any]]:
        cond, params = ["TRUE"], []
        for col, value in (("f.table_id", self.table), ("f.game", self.game), ("f.type", self.type),
                           ("f.severity", self.severity)):
            if value:
                cond.append(f"{col} = ?")
                params.append(value)
        if self.date_from:
            cond.append("f.started_at >= ?")
            params.append(datetime.combine(self.date_from, datetime.min.time()))
        if self.date_to:
            cond.append("f.started_at < ?")
            params.append(datetime.combine(self.date_to + timedelta(days=1), datetime.min.time()))
        if self.status == "open":
            cond.append("(rv.disposition IS NULL OR rv.disposition = 'needs_follow_up')")
        elif self.status == "reviewed":
            cond.append("rv.disposition IS NOT NULL")
        return " AND ".join(cond), params

    def order(self) -> str:
        if self.sort == "severity":
            return f"{SEVERITY_RANK} DESC, f.started_at DESC NULLS LAST, f.flag_id"
        return f"f.started_at::DATE DESC NULLS LAST, {SEVERITY_RANK} DESC, f.started_at DESC NULLS LAST, f.flag_id"


LATEST_REVIEW = """(SELECT flag_id, arg_max(disposition, reviewed_at) AS disposition,
                           arg_max(reviewer, reviewed_at) AS reviewer, max(reviewed_at) AS reviewed_at
                    FROM reviews GROUP BY flag_id) rv"""


def flag_queue(cur: duckdb.DuckDBPyConnection, filt: FlagFilter, limit: int = 50, offset: int = 0
               ) -> tuple[list[dict[str, Any]], int]:
    where, params = filt.where()
    base = f"FROM flags f LEFT JOIN {LATEST_REVIEW} USING (flag_id) WHERE {where}"
    total = cur.execute(f"SELECT count(*) {base}", params).fetchone()[0]  # type: ignore[index]
    found = rows(cur, f"""SELECT f.flag_id, f.type, f.kind, f.severity, f.table_id, f.round_id, f.game,
        f.started_at, f.seat, f.spot, f.hand, f.amount, f.expected, f.observed, f.rule, f.detail, f.uncertain,
        rv.disposition, rv.reviewer, rv.reviewed_at
        {base} ORDER BY {filt.order()} LIMIT ? OFFSET ?""", [*params, limit, offset])
    return found, total


def filter_options(cur: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    return {
        "tables": all_tables(cur),
        "games": [r[0] for r in cur.execute("SELECT DISTINCT game FROM tables ORDER BY 1").fetchall()],
        "types": list(FLAG_TYPES),
        "severities": list(reversed(SEVERITIES)),
    }


def flag_by_id(cur: duckdb.DuckDBPyConnection, flag_id: str) -> dict[str, Any] | None:
    found = rows(cur, "SELECT * FROM flags WHERE flag_id = ?", [flag_id])
    return found[0] if found else None


# -- one round -----------------------------------------------------------------------------------

def media_kind(path: str) -> str:
    suffix = PurePath(path).suffix.lower()
    return "image" if suffix in IMAGE else "video" if suffix in VIDEO else "file"


@dataclass
class RoundView:
    round: Round
    flags: list[dict[str, Any]]
    wagers: list[dict[str, Any]]  # expected beside observed, one row per wager, in settlement order
    reviews: list[dict[str, Any]]
    notes: list[dict[str, Any]]
    media: list[str] = field(default_factory=list)  # snapshot frames and clips
    detections: list[str] = field(default_factory=list)

    def expected_rows(self) -> list[dict[str, Any]]:
        """The rule computation, as the evidence bundle carries it."""
        keys = ("seat", "spot", "hand", "amount", "settled_amount", "exp_outcome", "exp_net", "exp_order",
                "line", "house_edge", "obs_outcome", "obs_paid", "obs_net", "diff")
        return [{k: w.get(k) for k in keys} for w in self.wagers]


def round_view(cur: duckdb.DuckDBPyConnection, round_id: str) -> RoundView | None:
    found = cur.execute("SELECT doc FROM rounds WHERE round_id = ?", [round_id]).fetchone()
    if not found:
        return None
    rnd = Round.model_validate_json(found[0])
    flags = rows(cur, f"""SELECT f.*, rv.disposition, rv.reviewer, rv.reviewed_at FROM flags f
        LEFT JOIN {LATEST_REVIEW} USING (flag_id) WHERE f.round_id = ?
        ORDER BY {SEVERITY_RANK} DESC, f.type, f.seat""", [round_id])
    wagers = rows(cur, "SELECT * FROM wagers WHERE round_id = ? ORDER BY exp_order NULLS LAST, seat, spot, hand",
                  [round_id])
    reviews = rows(cur, """SELECT r.* FROM reviews r JOIN flags f USING (flag_id) WHERE f.round_id = ?
        ORDER BY r.reviewed_at DESC""", [round_id])
    notes = rows(cur, "SELECT * FROM dash_notes WHERE round_id = ? ORDER BY noted_at DESC", [round_id])
    media: list[str] = []
    detections: list[str] = []
    for f in flags:
        for p in json.loads(f["snapshots"] or "[]"):
            target = detections if PurePath(p).suffix.lower() in DETECTIONS else media
            if p not in target:
                target.append(p)
    return RoundView(rnd, flags, wagers, reviews, notes, media, detections)


def search_notes(cur: duckdb.DuckDBPyConnection, q: str, limit: int = 200) -> list[dict[str, Any]]:
    """Notes and disposition comments containing `q` (case-insensitive), newest first."""
    pattern = "%" + q.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    return rows(cur, r"""
        SELECT * FROM (
            SELECT n.round_id, r.table_id, r.game, n.username AS author, n.noted_at::TIMESTAMP AS noted_at,
                   'note' AS kind, n.text
            FROM dash_notes n JOIN rounds r USING (round_id)
            UNION ALL
            SELECT f.round_id, f.table_id, f.game, v.reviewer, v.reviewed_at, 'disposition: ' || v.disposition,
                   v.note
            FROM reviews v JOIN flags f USING (flag_id) WHERE v.note IS NOT NULL AND v.note <> ''
        ) WHERE text ILIKE ? ESCAPE '\' ORDER BY noted_at DESC LIMIT ?""", [pattern, limit])


# -- game protection and managers ----------------------------------------------------------------

def latest_day(cur: duckdb.DuckDBPyConnection) -> date | None:
    """The last day with play (reports open on the days before it)."""
    return cur.execute("SELECT max(started_at)::DATE FROM rounds").fetchone()[0]  # type: ignore[index]


def window(date_from: date | None, date_to: date | None) -> tuple[datetime | None, datetime | None]:
    start = datetime.combine(date_from, datetime.min.time()) if date_from else None
    end = datetime.combine(date_to + timedelta(days=1), datetime.min.time()) if date_to else None
    return start, end


PROCEDURE_KIND = """CASE
    WHEN fl.detail LIKE '%out of the manual''s order%' THEN 'settlement order'
    WHEN fl.detail LIKE '%without the required%' THEN 'action wager without base wager'
    WHEN fl.detail LIKE '%below_minimum%' OR fl.detail LIKE '%above_maximum%' THEN 'outside table limits'
    ELSE 'other' END"""


def _window_params(start: datetime | None, end: datetime | None) -> dict[str, datetime]:
    """The named parameters ROUND_FACTS takes: an open window when a bound is not given."""
    return {"start": start or datetime(1900, 1, 1), "end": end or datetime(9999, 1, 1)}


def dealer_accuracy(cur: duckdb.DuckDBPyConnection, start: datetime | None, end: datetime | None
                    ) -> list[dict[str, Any]]:
    """Per dealer: the store's dealer report (with flagged rounds) plus flagged-round rate and procedure
    violations by kind."""
    report = reports.dealer_report(as_store(cur), start, end)
    kinds: dict[str, dict[str, int]] = {}
    for dealer, kind, n in cur.execute(f"""WITH {reports.FLAGGED_ROUND_FACTS}
            SELECT rf.dealer_id, {PROCEDURE_KIND}, count(*) FROM flags fl JOIN round_facts rf USING (round_id)
            WHERE fl.type = 'procedure' GROUP BY ALL ORDER BY 3 DESC""", _window_params(start, end)).fetchall():
        kinds.setdefault(dealer, {})[kind] = n
    for r in report:
        r["flagged_rate"] = r["flagged_rounds"] / r["rounds"] if r["rounds"] else None
        r["procedure_kinds"] = kinds.get(r["dealer_id"], {})
    return sorted(report, key=lambda r: -(r["errors_per_100_rounds"] or 0))


def dealer_flags(cur: duckdb.DuckDBPyConnection, dealer_id: str, start: datetime | None,
                 end: datetime | None, limit: int = 500) -> list[dict[str, Any]]:
    return rows(cur, f"""WITH {reports.FLAGGED_ROUND_FACTS}
        SELECT f.flag_id, f.type, f.severity, f.table_id, f.round_id, f.game, f.started_at, f.seat, f.spot,
               f.amount, f.expected, f.observed, f.detail, rv.disposition
        FROM flags f JOIN round_facts rf USING (round_id) LEFT JOIN {LATEST_REVIEW} USING (flag_id)
        WHERE rf.dealer_id = $dealer
        ORDER BY f.started_at DESC, {SEVERITY_RANK} DESC LIMIT $limit""",
                {**_window_params(start, end), "dealer": dealer_id, "limit": limit})


def hold_report(cur: duckdb.DuckDBPyConnection, by: str, start: datetime | None, end: datetime | None
                ) -> list[dict[str, Any]]:
    return reports.hold_report(as_store(cur), [by], start, end)
