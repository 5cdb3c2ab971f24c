"""InProcessBus: the default bus, with Kafka's semantics in one process and no broker.

Messages are stored encoded, as on the wire, so consumers validate exactly as they do with Kafka.
Each topic has `partitions` partitions; a key always maps to the same one (per-table order). Consumer
groups keep committed offsets per partition; members of a group share the partitions, and a member
joining or leaving rebalances the group: every member restarts from the committed offsets, so
uncommitted records are delivered again (at-least-once, as with Kafka).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from itertools import count
from typing import Any

from pydantic import BaseModel

from .base import Bus, Consumer, Record, as_topic_list, partition_for
from .errors import BusError, MessageInvalid
from .topics import DLQ_SUFFIX, dead_letter, decode, dlq_topic, encode, model_for, validate

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]


@dataclass
class _Stored:
    key: str | None
    payload: bytes
    timestamp_ms: int


@dataclass
class _Log:
    records: list[_Stored] = field(default_factory=list)
    start: int = 0  # offset of records[0]; rises when retention drops old records

    @property
    def end(self) -> int:
        return self.start + len(self.records)


@dataclass
class _Group:
    committed: dict[TopicPartition, int] = field(default_factory=dict)
    members: list[InProcessConsumer] = field(default_factory=list)


class InProcessBus(Bus):
    """Thread-safe in-memory bus. `retention` bounds the records kept per partition (oldest dropped)."""

    def __init__(self, partitions: int = 3, retention: int = 100_000, max_poll_records: int = 500) -> None:
        if partitions < 1:
            raise ValueError(f"InProcessBus: partitions must be >= 1, got {partitions}")
        if retention < 1:
            raise ValueError(f"InProcessBus: retention must be >= 1, got {retention}")
        self.partitions = partitions
        self.retention = retention
        self.max_poll_records = max_poll_records
        self._cond = threading.Condition(threading.RLock())
        self._logs: dict[TopicPartition, _Log] = {}
        self._groups: dict[str, _Group] = {}
        self._member_ids = count(1)
        self._closed = False

    # -- producing -------------------------------------------------------------------------------
    def publish(self, topic: str, key: str, message: BaseModel | dict[str, Any]) -> None:
        self._append(topic, key, encode(validate(topic, message)))

    def publish_raw(self, topic: str, key: str | None, payload: bytes) -> None:
        model_for(topic)  # unknown topics are refused here too
        self._append(topic, key, bytes(payload))

    def flush(self, timeout: float | None = None) -> None:
        """Nothing to wait for: publish() has stored the message when it returns."""

    def _append(self, topic: str, key: str | None, payload: bytes) -> None:
        with self._cond:
            if self._closed:
                raise BusError("InProcessBus is closed")
            log_ = self._log(topic, partition_for(key, self.partitions))
            log_.records.append(_Stored(key, payload, int(time.time() * 1000)))
            overflow = len(log_.records) - self.retention
            if overflow > 0:
                del log_.records[:overflow]
                log_.start += overflow
            self._cond.notify_all()

    def _log(self, topic: str, partition: int) -> _Log:
        tp = (topic, partition)
        if tp not in self._logs:
            self._logs[tp] = _Log()
        return self._logs[tp]

    # -- consuming -------------------------------------------------------------------------------
    def subscribe(self, topics: list[str] | tuple[str, ...] | str, group: str) -> InProcessConsumer:
        names = as_topic_list(topics)
        for t in names:
            model_for(t)
        with self._cond:
            consumer = InProcessConsumer(self, names, group, next(self._member_ids))
            self._groups.setdefault(group, _Group()).members.append(consumer)
            self._rebalance(group)
            return consumer

    def _rebalance(self, group: str) -> None:
        """Share each subscribed partition among the group's members; restart from committed offsets."""
        g = self._groups[group]
        for m in g.members:
            m._positions = {}
        for topic in sorted({t for m in g.members for t in m.topics}):
            members = [m for m in g.members if topic in m.topics]
            for p in range(self.partitions):
                owner = members[p % len(members)]
                owner._positions[(topic, p)] = g.committed.get((topic, p), self._log(topic, p).start)

    def _leave(self, consumer: InProcessConsumer) -> None:
        with self._cond:
            g = self._groups.get(consumer.group)
            if g and consumer in g.members:
                g.members.remove(consumer)
                self._rebalance(consumer.group)

    def committed(self, group: str) -> dict[TopicPartition, int]:
        """The group's committed offsets (for tests and lag reports)."""
        with self._cond:
            g = self._groups.get(group)
            return dict(g.committed) if g else {}

    def end_offsets(self, topic: str) -> dict[int, int]:
        with self._cond:
            return {p: self._log(topic, p).end for p in range(self.partitions)}

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()


class InProcessConsumer(Consumer):
    def __init__(self, bus: InProcessBus, topics: list[str], group: str, member_id: int) -> None:
        self._bus = bus
        self.topics = topics
        self.group = group
        self.member_id = member_id
        self._positions: dict[TopicPartition, int] = {}
        self._closed = False

    @property
    def assignment(self) -> list[TopicPartition]:
        with self._bus._cond:
            return sorted(self._positions)

    def poll(self, timeout: float = 1.0) -> list[Record]:
        deadline = time.monotonic() + max(timeout, 0.0)
        with self._bus._cond:
            while True:
                if self._closed or self._bus._closed:
                    return []
                records = self._take(self._bus.max_poll_records)
                remaining = deadline - time.monotonic()
                if records or remaining <= 0:
                    return records
                self._bus._cond.wait(remaining)

    def _take(self, limit: int) -> list[Record]:
        out: list[Record] = []
        for tp in sorted(self._positions):
            topic, partition = tp
            log_ = self._bus._log(topic, partition)
            pos = max(self._positions[tp], log_.start)
            while pos < log_.end and len(out) < limit:
                stored = log_.records[pos - log_.start]
                try:
                    value = decode(topic, stored.payload)
                except MessageInvalid as e:
                    self._reject(topic, partition, pos, stored, e.reason)
                else:
                    out.append(Record(topic, stored.key, value, partition, pos, stored.timestamp_ms,
                                      stored.payload))
                pos += 1
            self._positions[tp] = pos
            if len(out) >= limit:
                break
        return out

    def _reject(self, topic: str, partition: int, offset: int, stored: _Stored, reason: str) -> None:
        if topic.endswith(DLQ_SUFFIX):  # never dead-letter a dead letter: that would loop
            log.error("invalid record in %s[%d]@%d dropped: %s", topic, partition, offset, reason)
            return
        letter = dead_letter(topic, stored.key, stored.payload, reason, "consume", partition, offset)
        self._bus._append(dlq_topic(topic), stored.key, encode(letter))
        log.warning("record %s[%d]@%d sent to %s: %s", topic, partition, offset, dlq_topic(topic), reason)

    def commit(self) -> None:
        with self._bus._cond:
            g = self._bus._groups.get(self.group)
            if g is None or self not in g.members:
                raise BusError(f"consumer {self.member_id} of group {self.group!r} is closed; cannot commit")
            g.committed.update(self._positions)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._bus._leave(self)
