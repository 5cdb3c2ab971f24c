"""The one bus interface: publish, flush, subscribe; consumers poll and commit."""

from __future__ import annotations

import abc
import zlib
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel


@dataclass(frozen=True)
class Record:
    """One consumed message. `value` is validated: the topic's model, or a dict where it has none."""

    topic: str
    key: str | None
    value: BaseModel | dict[str, Any]
    partition: int
    offset: int
    timestamp_ms: int | None = None
    raw: bytes = field(default=b"", repr=False)


class Consumer(abc.ABC):
    """A member of a consumer group. Messages that do not validate go to '<topic>.dlq' and are skipped."""

    @abc.abstractmethod
    def poll(self, timeout: float = 1.0) -> list[Record]:
        """Valid records received within `timeout` seconds (possibly none)."""

    @abc.abstractmethod
    def commit(self) -> None:
        """Mark everything returned by poll() so far as processed for this group."""

    @abc.abstractmethod
    def close(self) -> None:
        """Leave the group (uncommitted records are redelivered to the next member)."""

    def __enter__(self) -> Consumer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Bus(abc.ABC):
    """Publish validated messages keyed by table; subscribe consumer groups."""

    @abc.abstractmethod
    def publish(self, topic: str, key: str, message: BaseModel | dict[str, Any]) -> None:
        """Validate `message` for `topic` (MessageInvalid if not) and publish it under `key` (table_id)."""

    @abc.abstractmethod
    def publish_raw(self, topic: str, key: str | None, payload: bytes) -> None:
        """Publish bytes without validation: bridges and replays (consumers still validate)."""

    @abc.abstractmethod
    def flush(self, timeout: float | None = None) -> None:
        """Wait until what was published is delivered (or safely spooled)."""

    @abc.abstractmethod
    def subscribe(self, topics: list[str] | tuple[str, ...] | str, group: str) -> Consumer:
        """A new member of consumer group `group` reading `topics`."""

    def close(self) -> None:  # noqa: B027 - optional hook, a no-op by default
        """Release connections and threads."""

    def __enter__(self) -> Bus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def partition_for(key: str | None, partitions: int) -> int:
    """Stable key -> partition, so one table's messages stay in order on one partition."""
    if key is None or partitions <= 1:
        return 0
    return zlib.crc32(key.encode()) % partitions


def as_topic_list(topics: list[str] | tuple[str, ...] | str) -> list[str]:
    return [topics] if isinstance(topics, str) else list(topics)
