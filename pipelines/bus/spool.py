"""A bounded, durable spool on disk for messages the broker could not take.

SQLite in WAL mode with synchronous=FULL: each append is fsync'd before it returns, so a message that
publish() accepted survives a crash of this process. Rows are ordered by the publish sequence number,
which the producer assigns before sending; draining in that order keeps per-table order even when a
send that was already in flight fails after newer messages were spooled.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from .errors import BusError, SpoolFull


@dataclass(frozen=True)
class SpooledMessage:
    seq: int
    topic: str
    key: str | None
    payload: bytes


class DiskSpool:
    def __init__(self, path: str | Path, max_bytes: int = 256 * 1024 * 1024) -> None:
        if max_bytes <= 0:
            raise ValueError(f"spool {path}: max_bytes must be > 0, got {max_bytes}")
        self.path = Path(path)
        self.max_bytes = max_bytes
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS spool (seq INTEGER PRIMARY KEY, topic TEXT NOT NULL, "
                "key TEXT, payload BLOB NOT NULL)"
            )
            self._count, self._bytes = self._db.execute(
                "SELECT count(*), coalesce(sum(length(payload)), 0) FROM spool"
            ).fetchone()
        except sqlite3.DatabaseError as e:
            raise BusError(f"spool {self.path} cannot be opened: {e}") from e

    def __len__(self) -> int:
        return self._count

    @property
    def size_bytes(self) -> int:
        return self._bytes

    def max_seq(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT max(seq) FROM spool").fetchone()
            return row[0] if row[0] is not None else 0

    def append(self, seq: int, topic: str, key: str | None, payload: bytes) -> None:
        """Store one message durably; SpoolFull (naming the file and bound) if it would not fit."""
        with self._lock:
            if self._bytes + len(payload) > self.max_bytes:
                raise SpoolFull(
                    f"spool {self.path} is full: {self._bytes} bytes in {self._count} messages, bound "
                    f"{self.max_bytes} bytes; cannot keep a {len(payload)}-byte message for topic "
                    f"{topic!r} key {key!r}. Restore the broker or raise spool_max_bytes."
                )
            self._db.execute(
                "INSERT INTO spool (seq, topic, key, payload) VALUES (?, ?, ?, ?)", (seq, topic, key, payload)
            )
            self._count += 1
            self._bytes += len(payload)

    def peek(self, limit: int = 500) -> list[SpooledMessage]:
        """The oldest messages, in publish order, without removing them."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, topic, key, payload FROM spool ORDER BY seq LIMIT ?", (limit,)
            ).fetchall()
        return [SpooledMessage(s, t, k, bytes(p)) for s, t, k, p in rows]

    def remove(self, seqs: list[int]) -> None:
        """Forget messages the broker acknowledged."""
        if not seqs:
            return
        with self._lock:
            self._db.execute("BEGIN")
            removed = 0
            freed = 0
            for seq in seqs:
                row = self._db.execute("SELECT length(payload) FROM spool WHERE seq = ?", (seq,)).fetchone()
                if row is not None:
                    self._db.execute("DELETE FROM spool WHERE seq = ?", (seq,))
                    removed += 1
                    freed += row[0]
            self._db.execute("COMMIT")
            self._count -= removed
            self._bytes -= freed

    def close(self) -> None:
        with self._lock:
            self._db.close()
