"""The store's live sink against a real Kafka-protocol broker (Tansu on loopback)."""

from __future__ import annotations

import threading
import time

import pytest

from pipelines.bus.admin import create_topics
from pipelines.bus.kafka_bus import KafkaBus
from pipelines.bus.tansu import TansuBroker
from pipelines.sim.session import script_session
from pipelines.store.db import Store
from pipelines.store.sink import run_sink

pytestmark = pytest.mark.integration

CONSUMER = {"max_poll_interval_ms": 3000, "session_timeout_ms": 3000, "heartbeat_interval_ms": 500,
            "request_timeout_ms": 3500, "fetch_max_wait_ms": 100}


def _count(store: Store, sql: str) -> int:
    return int(next(iter(store.query(sql)[0].values())))


def _wait(pred, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.2)
    return False


def test_sink_stores_each_round_once_even_when_redelivered(tmp_path):
    scripted, _ = script_session("3-card-monster", 4, seed=21, fault_rate=0.3)
    rounds = [s.round for s in scripted]
    store = Store(tmp_path / "t.duckdb")
    with TansuBroker() as broker:
        create_topics(broker.bootstrap)
        bus = KafkaBus(broker.bootstrap, spool_path=tmp_path / "spool.sqlite", consumer_config=CONSUMER)
        stop = threading.Event()
        totals: dict = {}  # updated by the sink as it goes; the store is only read once it has stopped
        worker = threading.Thread(target=run_sink, args=(store, bus, "store-test", stop), kwargs={"totals": totals})
        worker.start()
        try:
            for _ in range(2):  # the second pass is a redelivery: it must change nothing
                for r in rounds:
                    bus.publish("rounds", r.table_id, r)
                bus.flush(5)
            assert _wait(lambda: totals.get("rounds", 0) >= 8), totals
        finally:
            stop.set()
            worker.join(timeout=20)
            bus.close(timeout=2)
    assert _count(store, "select count(*) from rounds") == 4
    stored = {row["round_id"] for row in store.query("select round_id from rounds")}
    assert stored == {r.round_id for r in rounds}
    assert totals["rounds"] == 8  # both copies were consumed, one row each survived
    assert _count(store, "select count(*) from flags") > 0  # faulted rounds were reconciled on the way in
