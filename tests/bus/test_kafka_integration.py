"""The Kafka bus against a real Kafka-protocol broker (Tansu, loopback only)."""

from __future__ import annotations

import time

import pytest

from pipelines.bus.admin import create_topics
from pipelines.bus.kafka_bus import KafkaBus
from pipelines.bus.tansu import TansuBroker

from .conftest import make_round

pytestmark = pytest.mark.integration

# Tansu's group coordinator waits one rebalance timeout before the first assignment: keep it short.
CONSUMER = {"max_poll_interval_ms": 3000, "session_timeout_ms": 3000, "heartbeat_interval_ms": 500,
            "request_timeout_ms": 3500, "fetch_max_wait_ms": 100}
PRODUCER = {"request_timeout_ms": 1000, "delivery_timeout_ms": 3000, "max_block_ms": 2000}


@pytest.fixture
def broker():
    with TansuBroker() as b:
        create_topics(b.bootstrap)
        yield b


@pytest.fixture
def bus(broker, tmp_path):
    b = KafkaBus(broker.bootstrap, spool_path=tmp_path / "spool.sqlite", consumer_config=CONSUMER,
                 drain_interval_s=0.2, **PRODUCER)
    yield b
    b.close(timeout=2)


def consume(consumer, want: int, timeout: float = 20.0) -> list:
    got: list = []
    deadline = time.monotonic() + timeout
    while len(got) < want and time.monotonic() < deadline:
        got += consumer.poll(0.2)
    return got


def test_every_round_consumed_once_in_order_per_table(bus):
    tables = ["T1", "T2", "T3"]
    for n in range(30):
        bus.publish("rounds", tables[n % 3], make_round(tables[n % 3], n))
    bus.flush()
    assert bus.spooled == 0
    consumer = bus.subscribe("rounds", "store")
    got = consume(consumer, 30)
    consumer.commit()
    assert len(got) == 30
    assert len({r.value.round_id for r in got}) == 30
    for t in tables:
        ns = [int(r.value.notes[0][2:]) for r in got if r.key == t]
        assert ns == sorted(ns) and len(ns) == 10
    assert consumer.poll(0.5) == []
    consumer.close()


def test_malformed_message_lands_in_dlq_with_reason(bus):
    bus.publish_raw("rounds", "T9", b'{"game": "king-high", "table_id": 5}')
    bus.publish("rounds", "T9", make_round("T9", 1))
    bus.flush()
    consumer = bus.subscribe("rounds", "store")
    got = consume(consumer, 1)
    consumer.commit()  # flushes the dead letter first
    consumer.close()
    assert [r.value.notes for r in got] == [["n=1"]]
    dlq = bus.subscribe("rounds.dlq", "ops")
    dead = consume(dlq, 1)
    dlq.close()
    assert len(dead) == 1
    letter = dead[0].value
    assert letter.topic == "rounds" and letter.key == "T9" and letter.stage == "consume"
    assert "table_id" in letter.reason and "round_id" in letter.reason
    assert letter.payload.startswith('{"game"')


def test_broker_outage_spools_then_drains_without_loss(broker, bus):
    sink: dict[str, int] = {}  # the store: upsert by round_id
    arrivals: list[tuple[str, int]] = []

    def store(records) -> None:
        for r in records:
            sink[r.value.round_id] = int(r.value.notes[0][2:])
            arrivals.append((r.key, int(r.value.notes[0][2:])))

    for n in range(10):
        bus.publish("rounds", f"T{n % 2}", make_round(f"T{n % 2}", n))
    bus.flush()
    consumer = bus.subscribe("rounds", "store")
    store(consume(consumer, 10))
    consumer.commit()
    consumer.close()
    assert len(sink) == 10

    broker.stop()
    for n in range(10, 30):
        bus.publish("rounds", f"T{n % 2}", make_round(f"T{n % 2}", n))
    bus.flush(timeout=5)
    assert bus.spooled == 20  # nothing lost while the broker is away

    broker.start()  # empty again: memory storage
    create_topics(broker.bootstrap)
    deadline = time.monotonic() + 15
    while bus.spooled and time.monotonic() < deadline:
        time.sleep(0.1)
    assert bus.spooled == 0

    consumer = bus.subscribe("rounds", "store")
    store(consume(consumer, 20))
    consumer.commit()
    consumer.close()
    assert sorted(sink.values()) == list(range(30))
    for t in ("T0", "T1"):
        drained = [n for key, n in arrivals if key == t and n >= 10]
        assert drained == sorted(drained) and len(set(drained)) == 10
