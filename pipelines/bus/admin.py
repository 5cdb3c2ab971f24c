"""Creating the bus topics on a broker (tests, local runs; production uses infra/kafka/topics.yaml)."""

from __future__ import annotations

import time

from kafka import KafkaAdminClient
from kafka.admin import NewTopic
from kafka.errors import KafkaError, TopicAlreadyExistsError

from .errors import BrokerUnavailable
from .topics import all_topics


def create_topics(
    bootstrap_servers: str | list[str],
    topics: list[str] | None = None,
    partitions: int = 3,
    replication_factor: int = 1,
    timeout_s: float = 10.0,
) -> list[str]:
    """Create the topics that do not exist yet (all bus topics by default); return the created ones."""
    names = topics if topics is not None else all_topics()
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            admin = KafkaAdminClient(bootstrap_servers=bootstrap_servers, client_id="tablewatch-admin",
                                     request_timeout_ms=int(timeout_s * 1000),
                                     bootstrap_timeout_ms=int(timeout_s * 1000))
            break
        except KafkaError as e:  # kafka-python 3 raises KafkaTimeoutError when it cannot bootstrap
            if time.monotonic() > deadline:
                raise BrokerUnavailable(f"Kafka broker at {bootstrap_servers} unreachable: {e}") from e
            time.sleep(0.1)
    try:
        existing = set(admin.list_topics())
        missing = [t for t in names if t not in existing]
        if missing:
            try:
                admin.create_topics([NewTopic(t, partitions, replication_factor) for t in missing])
            except TopicAlreadyExistsError:
                pass  # another process created them between list and create
            except KafkaError as e:
                raise BrokerUnavailable(
                    f"Kafka broker at {bootstrap_servers}: creating topics {missing} failed: {e}"
                ) from e
        return missing
    finally:
        admin.close()
