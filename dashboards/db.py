"""The dashboards' DuckDB connection and their own tables.

The app process is the one writer of the dashboards' own tables (users, sessions, audit log, notes,
table pits) and of dispositions (the store's `reviews` table); all live in the store's database file.
Every page reads through a cursor of the same connection; writes go through `Database.write`,
serialised by one lock so the audit chain (each row hashes the row before it) never forks.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from pipelines.store.db import Store

DDL = """
CREATE TABLE IF NOT EXISTS users (
    username      VARCHAR PRIMARY KEY,
    role          VARCHAR NOT NULL,
    password_hash VARCHAR NOT NULL,
    pit           VARCHAR,
    active        BOOLEAN NOT NULL DEFAULT TRUE,
    created_at    TIMESTAMP NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    sid        VARCHAR PRIMARY KEY,
    username   VARCHAR NOT NULL,
    csrf       VARCHAR NOT NULL,
    created_at TIMESTAMP NOT NULL,
    ended_at   TIMESTAMP
);
CREATE TABLE IF NOT EXISTS audit_log (
    seq       BIGINT PRIMARY KEY,
    ts        VARCHAR NOT NULL,
    username  VARCHAR NOT NULL,
    action    VARCHAR NOT NULL,
    target    VARCHAR,
    detail    VARCHAR NOT NULL,
    prev_hash VARCHAR NOT NULL,
    hash      VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS dash_notes (
    round_id  VARCHAR NOT NULL,
    username  VARCHAR NOT NULL,
    noted_at  TIMESTAMP NOT NULL,
    text      VARCHAR NOT NULL,
    audit_seq BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS dash_table_pits (
    table_id VARCHAR PRIMARY KEY,
    pit      VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS dash_settings (
    key   VARCHAR PRIMARY KEY,
    value VARCHAR NOT NULL
);
"""


def utc_now() -> datetime:
    """Naive UTC: the dashboards' own timestamps (DuckDB returns TIMESTAMPTZ only with pytz installed)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Database:
    """One read-write connection to the store file, shared by the app's threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self.conn = duckdb.connect(self.path)
        except duckdb.IOException as e:
            raise RuntimeError(
                f"{self.path}: cannot open the database for the dashboards' own writes ({e}); "
                "stop the process holding it or serve a copy"
            ) from e
        self._lock = threading.Lock()
        if not self.has_table("rounds"):  # a new file: the store creates its schema and default shifts
            self.conn.close()
            Store(self.path).close()
            self.conn = duckdb.connect(self.path)
        self.conn.execute(DDL)

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A cursor for reading; one per request (a cursor must not be shared between threads)."""
        return self.conn.cursor()

    @contextmanager
    def write(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A transaction on the app's own tables, one writer at a time."""
        with self._lock:
            cur = self.conn.cursor()
            cur.execute("BEGIN TRANSACTION")
            try:
                yield cur
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            else:
                cur.execute("COMMIT")
            finally:
                cur.close()

    def setting(self, key: str) -> str | None:
        row = self.cursor().execute("SELECT value FROM dash_settings WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_setting(self, key: str, value: str) -> None:
        with self.write() as cur:
            cur.execute("INSERT OR REPLACE INTO dash_settings VALUES (?, ?)", [key, value])

    def has_table(self, name: str) -> bool:
        row = self.cursor().execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name]
        ).fetchone()
        return bool(row and row[0])

    def close(self) -> None:
        self.conn.close()
