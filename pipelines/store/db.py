"""The DuckDB store: one writer, readers open read_only. Writes are idempotent: a round replayed or
redelivered replaces its own rows (rounds upserted by round_id, flags by flag_id, child rows deleted
and reinserted in the same transaction), so the database ends the same whatever the order."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from pipelines.games.registry import game_module
from pipelines.games.round import Round
from pipelines.reconcile import Flag, ReconcileConfig, Reconciled, reconcile_detailed
from pipelines.reconcile.expected import GameLookup

from . import rollup
from .migrations import migrate
from .shifts import ShiftConfig

WAGER_COLUMNS = ["round_id", "seat", "spot", "hand", "amount", "settled_amount", "exp_outcome", "exp_net",
                 "exp_order", "line", "house_edge", "var_per_unit", "obs_outcome", "obs_paid", "obs_net",
                 "obs_seq", "diff", "uncertain"]
FLAG_COLUMNS = ["flag_id", "type", "kind", "table_id", "round_id", "game", "started_at", "seat", "spot",
                "hand", "severity", "amount", "expected", "observed", "frame_start", "frame_end", "snapshots",
                "rule", "detail", "uncertain"]
CHILD_TABLES = ("wagers", "cards", "events")


def wall_time(ts: str | None) -> datetime | None:
    """ISO 8601 -> the table's local wall-clock time (offset dropped: shifts are local)."""
    if ts is None:
        return None
    return datetime.fromisoformat(ts).replace(tzinfo=None)


class StoreBusy(OSError):
    """The store's file is held by another process: DuckDB lets one process open it for writing, and none
    read-only beside it."""


class Store:
    def __init__(self, path: str | Path, *, read_only: bool = False, shifts: ShiftConfig | None = None,
                 migrate_upto: int | None = None) -> None:
        self.path = str(path)
        self.read_only = read_only
        if read_only and not Path(self.path).exists():
            raise FileNotFoundError(f"{self.path}: no such database")
        try:
            self.con = duckdb.connect(self.path, read_only=read_only)
        except duckdb.IOException as e:
            raise StoreBusy(f"{self.path}: cannot open the store: {e}. One process at a time holds it (the "
                            "dashboards, which also sink Kafka with --kafka, or tablewatch sink): stop it "
                            "first, or read a copy of the file") from e
        if not read_only:
            migrate(self.con, upto=migrate_upto)
            if migrate_upto is None:
                self.set_shifts(shifts or ShiftConfig())

    # -- plumbing --------------------------------------------------------------------------------
    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def query(self, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
        cur = self.con.execute(sql, params or [])
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]

    def _insert_frame(self, table: str, df: pl.DataFrame, *, replace: bool = False) -> None:
        """Bulk insert through a Parquet file (DuckDB reads polars' Parquet without pyarrow)."""
        if df.is_empty():
            return
        with tempfile.TemporaryDirectory() as tmp:
            f = Path(tmp) / "batch.parquet"
            df.write_parquet(f)
            cols = ", ".join(f'"{c}"' for c in df.columns)
            verb = "INSERT OR REPLACE INTO" if replace else "INSERT INTO"
            self.con.execute(f"{verb} {table} ({cols}) SELECT {cols} FROM read_parquet('{f}')")

    def _transaction(self) -> _Tx:
        return _Tx(self.con)

    # -- configuration tables ----------------------------------------------------------------------
    def set_shifts(self, cfg: ShiftConfig) -> None:
        new = sorted((s.name, s.starts, s.ends) for s in cfg.shifts)
        if sorted(self.con.execute("SELECT shift, starts, ends FROM shifts").fetchall()) == new:
            return  # every writer opens with its shifts: unchanged ones need no rollup rebuild
        with self._transaction():
            self.con.execute("DELETE FROM shifts")
            for s in cfg.shifts:
                self.con.execute("INSERT INTO shifts VALUES (?, ?, ?)", [s.name, s.starts, s.ends])
            rollup.rebuild(self.con)  # every round's shift and shift date may have moved

    def upsert_table(self, table_id: str, game: str, name: str | None = None) -> None:
        self.con.execute("INSERT OR REPLACE INTO tables VALUES (?, ?, ?)", [table_id, game, name])

    def upsert_dealer(self, dealer_id: str, name: str | None = None) -> None:
        self.con.execute("INSERT OR REPLACE INTO dealers VALUES (?, ?)", [dealer_id, name])

    # -- rounds and flags -------------------------------------------------------------------------
    def write_rounds(self, rounds: Iterable[Round], settings_by_table: dict[str, Any] | None = None, *,
                     games: GameLookup = game_module, reconciled: Reconciled | None = None,
                     config: ReconcileConfig | None = None) -> Reconciled:
        """Reconcile and store a batch: rounds, wagers (expected beside observed), cards, events and
        the batch's flags, replacing whatever those rounds had stored before."""
        by_id = {r.round_id: r for r in rounds}  # last copy of a redelivered round wins
        batch = sorted(by_id.values(), key=lambda r: r.round_id)
        rec = reconciled or reconcile_detailed(batch, settings_by_table, games=games, config=config)
        if not batch:
            return rec
        ids = [r.round_id for r in batch]
        rounds_df = pl.DataFrame({
            "round_id": ids,
            "table_id": [r.table_id for r in batch],
            "game": [r.game for r in batch],
            "started_at": [wall_time(r.started_at) for r in batch],
            "ended_at": [wall_time(r.ended_at) for r in batch],
            "dealer_id": [r.dealer_id for r in batch],
            "status": [r.status for r in batch],
            "n_wagers": [len(r.wagers) for r in batch],
            "handle": [round(sum(w.amount for w in r.wagers), 2) for r in batch],
            "doc": [r.model_dump_json() for r in batch],
        }, schema_overrides={"started_at": pl.Datetime("us"), "ended_at": pl.Datetime("us"),
                             "dealer_id": pl.Utf8, "n_wagers": pl.Int32})
        cards = pl.DataFrame(
            [(r.round_id, c.seq, c.owner, c.card, c.face_up, c.back, c.frame, c.uncertain)
             for r in batch for c in r.cards],
            schema=["round_id", "seq", "owner", "card", "face_up", "back", "frame", "uncertain"], orient="row")
        events = pl.DataFrame(
            [(r.round_id, e.seq, e.type, e.frame, e.seat, e.spot, e.hand, e.before, e.after, e.card, e.owner,
              e.uncertain) for r in batch for e in r.events],
            schema={"round_id": pl.Utf8, "seq": pl.Int64, "type": pl.Utf8, "frame": pl.Int64, "seat": pl.Int64,
                    "spot": pl.Utf8, "hand": pl.Int64, "before": pl.Float64, "after": pl.Float64,
                    "card": pl.Utf8, "owner": pl.Utf8, "uncertain": pl.Boolean}, orient="row")
        wagers = rec.wagers.filter(pl.col("round_id").is_in(ids)).select(WAGER_COLUMNS)
        ids_df = pl.DataFrame({"round_id": ids})
        with self._transaction():
            self.con.execute("CREATE OR REPLACE TEMP TABLE _batch_ids (round_id VARCHAR)")
            self._insert_frame("_batch_ids", ids_df)
            keys = rollup.keys_of_rounds(self.con, "_batch_ids")  # where the replaced rounds counted
            for t in (*CHILD_TABLES, "flags"):
                self.con.execute(f"DELETE FROM {t} WHERE round_id IN (SELECT round_id FROM _batch_ids)")
            self._insert_frame("rounds", rounds_df, replace=True)
            self._insert_frame("wagers", wagers)
            self._insert_frame("cards", cards)
            self._insert_frame("events", events)
            self._write_flags([f for f in rec.flags if f.round_id in by_id])
            for r in batch:
                self.con.execute("INSERT OR IGNORE INTO tables (table_id, game) VALUES (?, ?)",
                                 [r.table_id, r.game])
                if r.dealer_id:
                    self.con.execute("INSERT OR IGNORE INTO dealers (dealer_id) VALUES (?)", [r.dealer_id])
            rollup.refresh(self.con, keys | rollup.keys_of_rounds(self.con, "_batch_ids"))
        return rec

    def write_flags(self, flags: Iterable[Flag]) -> int:
        """Upsert flags by flag_id (a redelivered flag replaces itself)."""
        flags = list({f.flag_id: f for f in flags}.values())
        if not flags:
            return 0
        with self._transaction():
            # The rounds a flag counted against before (a replaced flag may have moved) and after.
            self.con.execute("CREATE OR REPLACE TEMP TABLE _flag_rounds (round_id VARCHAR)")
            self.con.executemany("INSERT INTO _flag_rounds VALUES (?)", [[f.round_id] for f in flags])
            self.con.execute("INSERT INTO _flag_rounds SELECT round_id FROM flags WHERE flag_id IN "
                             f"({', '.join('?' for _ in flags)})", [f.flag_id for f in flags])
            self._write_flags(flags)
            rollup.refresh(self.con, rollup.keys_of_rounds(self.con, "_flag_rounds"))
        return len(flags)

    def _write_flags(self, flags: list[Flag]) -> None:
        if not flags:
            return
        rows = []
        for f in flags:
            d = f.model_dump()
            d["started_at"] = wall_time(f.started_at)
            d["frame_start"] = f.frames.start if f.frames else None
            d["frame_end"] = f.frames.end if f.frames else None
            d["snapshots"] = json.dumps(f.snapshots)
            rows.append({k: d[k] for k in FLAG_COLUMNS})
        df = pl.DataFrame(rows, schema_overrides={"started_at": pl.Datetime("us"), "seat": pl.Int64,
                                                  "expected": pl.Float64, "observed": pl.Float64,
                                                  "frame_start": pl.Int64, "frame_end": pl.Int64})
        self._insert_frame("flags", df, replace=True)

    def add_review(self, flag_id: str, reviewer: str, disposition: str, note: str | None = None,
                   at: datetime | None = None) -> None:
        self.con.execute("INSERT OR REPLACE INTO reviews VALUES (?, ?, ?, ?, ?)",
                         [flag_id, at or datetime.now(), reviewer, disposition, note])

    def dead_letter(self, topic: str, key: str | None, reason: str, payload: str) -> None:
        self.con.execute("INSERT INTO dead_letters VALUES (?, ?, ?, ?)", [topic, key, reason, payload])

    def stored_rounds(self, start: datetime | None = None, end: datetime | None = None) -> list[Round]:
        sql, params = "SELECT doc FROM rounds WHERE 1=1", []
        if start:
            sql, params = sql + " AND started_at >= ?", [*params, start]
        if end:
            sql, params = sql + " AND started_at < ?", [*params, end]
        rows = self.con.execute(sql + " ORDER BY started_at, round_id", params).fetchall()
        return [Round.model_validate_json(r[0]) for r in rows]


class _Tx:
    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con

    def __enter__(self) -> None:
        self.con.execute("BEGIN TRANSACTION")

    def __exit__(self, exc_type: object, *_: object) -> None:
        self.con.execute("ROLLBACK" if exc_type else "COMMIT")
