"""Numbered SQL migrations, applied in order, each recorded in schema_migrations; data is kept.

The migration files are the one source of the DDL; `schemas/duckdb.sql` is generated from them
(`python -m pipelines.store.migrations --write`) and a test fails when it is stale."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import duckdb

from . import rollup

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
SCHEMA_FILE = Path(__file__).resolve().parents[2] / "schemas" / "duckdb.sql"
_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")
# Data steps that follow a migration's DDL in its transaction (they recompute derived tables).
AFTER = {3: rollup.rebuild}


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    out = []
    for p in sorted(MIGRATIONS_DIR.glob("*.sql")):
        m = _NAME.match(p.name)
        if not m:
            raise ValueError(f"{p}: migration files are named NNN_name.sql")
        out.append(Migration(int(m.group(1)), m.group(2), p.read_text()))
    versions = [m.version for m in out]
    if versions != list(range(1, len(out) + 1)):
        raise ValueError(f"{MIGRATIONS_DIR}: migration numbers must run 1..N without gaps, got {versions}")
    return out


def applied(con: duckdb.DuckDBPyConnection) -> list[int]:
    con.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
                "name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)")
    return [r[0] for r in con.execute("SELECT version FROM schema_migrations ORDER BY version").fetchall()]


def migrate(con: duckdb.DuckDBPyConnection, upto: int | None = None) -> list[int]:
    """Apply the migrations not yet applied (up to `upto`), each in its own transaction."""
    done = set(applied(con))
    ran = []
    for m in migrations():
        if m.version in done or (upto is not None and m.version > upto):
            continue
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(m.sql)
            if m.version in AFTER:
                AFTER[m.version](con)
            con.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)", [m.version, m.name])
            con.execute("COMMIT")
        except Exception:
            con.execute("ROLLBACK")
            raise
        ran.append(m.version)
    return ran


def schema_sql() -> str:
    """The DDL as one file: every migration in order."""
    parts = ["-- Generated from pipelines/store/migrations/ by `python -m pipelines.store.migrations "
             "--write`; do not edit.\n"]
    for m in migrations():
        parts.append(f"-- migration {m.version:03d}_{m.name}\n{m.sql.rstrip()}\n")
    return "\n".join(parts)


if __name__ == "__main__":
    if "--write" in sys.argv:
        SCHEMA_FILE.parent.mkdir(exist_ok=True)
        SCHEMA_FILE.write_text(schema_sql())
        print(f"wrote {SCHEMA_FILE}")
    else:
        print(schema_sql())
