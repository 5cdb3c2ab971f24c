"""The append-only audit log, hash-chained so that tampering shows.

Each row stores the hash of the row before it and the SHA-256 of (that hash + its own content), so
editing, deleting or inserting a row breaks the chain at that row. The app only ever INSERTs here;
`verify_chain` re-derives every hash from the stored content.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import duckdb

from .db import Database

GENESIS = "0" * 64


def _content(seq: int, at: str, username: str, action: str, target: str | None, detail: str) -> str:
    return json.dumps(
        {"seq": seq, "at": at, "username": username, "action": action, "target": target, "detail": detail},
        sort_keys=True,
        separators=(",", ":"),
    )


def row_hash(prev_hash: str, seq: int, at: str, username: str, action: str, target: str | None,
             detail: str) -> str:
    return hashlib.sha256((prev_hash + _content(seq, at, username, action, target, detail)).encode()).hexdigest()


@dataclass(frozen=True)
class AuditEntry:
    seq: int
    at: str
    username: str
    action: str
    target: str | None
    detail: dict[str, Any]
    prev_hash: str
    hash: str


def append(cur: duckdb.DuckDBPyConnection, username: str, action: str, target: str | None = None,
           detail: dict[str, Any] | None = None) -> AuditEntry:
    """Append one row inside the caller's write transaction (`Database.write`)."""
    last = cur.execute("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1").fetchone()
    seq, prev = (last[0] + 1, last[1]) if last else (1, GENESIS)
    at = datetime.now(UTC).isoformat(timespec="microseconds")
    detail_text = json.dumps(detail or {}, sort_keys=True, separators=(",", ":"))
    digest = row_hash(prev, seq, at, username, action, target, detail_text)
    cur.execute(
        "INSERT INTO audit_log VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [seq, at, username, action, target, detail_text, prev, digest],
    )
    return AuditEntry(seq, at, username, action, target, detail or {}, prev, digest)


def record(db: Database, username: str, action: str, target: str | None = None,
           detail: dict[str, Any] | None = None) -> AuditEntry:
    """Append one row in its own transaction."""
    with db.write() as cur:
        return append(cur, username, action, target, detail)


def _entry(row: tuple) -> AuditEntry:
    seq, at, username, action, target, detail, prev, digest = row
    return AuditEntry(seq, at, username, action, target, json.loads(detail), prev, digest)


def entries(db: Database, *, target: str | None = None, username: str | None = None,
            limit: int = 200) -> list[AuditEntry]:
    """Newest first, optionally for one target (a round id, a flag id) or one user."""
    where, params = [], []
    if target is not None:
        where.append("(target = ? OR detail LIKE ?)")
        params += [target, f'%"{target}"%']
    if username is not None:
        where.append("username = ?")
        params.append(username)
    sql = "SELECT * FROM audit_log" + (" WHERE " + " AND ".join(where) if where else "")
    rows = db.cursor().execute(sql + " ORDER BY seq DESC LIMIT ?", [*params, limit]).fetchall()
    return [_entry(r) for r in rows]


@dataclass(frozen=True)
class ChainCheck:
    ok: bool
    rows: int
    first_bad_seq: int | None = None
    reason: str = ""


def verify_chain(db: Database) -> ChainCheck:
    """Walk the log in order and re-derive every hash."""
    prev, expected_seq, n = GENESIS, 1, 0
    cur = db.cursor().execute("SELECT * FROM audit_log ORDER BY seq")
    while batch := cur.fetchmany(10_000):
        for seq, at, username, action, target, detail, stored_prev, digest in batch:
            n += 1
            if seq != expected_seq:
                return ChainCheck(False, n, seq, f"sequence jumps from {expected_seq - 1} to {seq}")
            if stored_prev != prev:
                return ChainCheck(False, n, seq, "previous-hash link does not match the row before")
            if row_hash(prev, seq, at, username, action, target, detail) != digest:
                return ChainCheck(False, n, seq, "content does not match its hash")
            prev, expected_seq = digest, seq + 1
    return ChainCheck(True, n)
