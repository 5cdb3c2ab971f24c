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


def test_sink_command_creates_its_store_and_writes_what_kafka_brings(tmp_path, monkeypatch):
    # The command once opened its store read-only: every batch failed and was redelivered, forever.
    import functools
    import os
    import signal

    import duckdb
    from click.testing import CliRunner

    import pipelines.bus
    from pipelines.cli import main

    scripted, _ = script_session("high-tie", 3, seed=22, fault_rate=0.0)
    db = tmp_path / "new.duckdb"  # not there yet: the writer creates it
    with TansuBroker() as broker:
        create_topics(broker.bootstrap)
        # Tansu assigns a group's partitions one rebalance timeout after the first join: keep it short.
        monkeypatch.setattr(pipelines.bus, "KafkaBus", functools.partial(KafkaBus, consumer_config=CONSUMER))
        producer = KafkaBus(broker.bootstrap, spool_path=tmp_path / "spool.sqlite")
        stored: list[int] = []

        def rounds_stored() -> int:
            """What the sink has written so far, through its own database instance (this process, this file)."""
            try:
                stored.append(duckdb.connect(str(db)).execute("select count(*) from rounds").fetchone()[0])
            except duckdb.Error:  # not created, or its schema not yet migrated
                stored.append(0)
            return stored[-1]

        def publish_then_stop() -> None:
            try:
                for s in scripted:
                    producer.publish("rounds", s.round.table_id, s.round)
                producer.flush(5)
                _wait(lambda: db.exists() and rounds_stored() == len(scripted), timeout=40)
            finally:
                os.kill(os.getpid(), signal.SIGINT)  # as Ctrl-C would stop it

        handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
        helper = threading.Thread(target=publish_then_stop)
        helper.start()
        try:
            res = CliRunner().invoke(main, ["sink", "--kafka", broker.bootstrap, "--db", str(db)])
        finally:
            helper.join(60)
            for sig, handler in handlers.items():
                signal.signal(sig, handler)
            producer.close(timeout=2)
    assert res.exit_code == 0, res.output
    assert stored and stored[-1] == 3
    assert '"rounds": 3' in res.output.strip().splitlines()[-1]


def test_the_dashboards_process_sinks_kafka_into_the_store_it_serves(tmp_path, monkeypatch):
    # DuckDB lets one process hold the file: `tablewatch serve --kafka` is the store's writer and its
    # pages' reader at once, and another process trying to read it is told why it cannot.
    import functools
    import subprocess
    import sys

    import pipelines.bus
    from dashboards.app import create_app
    from dashboards.background import serving
    from dashboards.cli import _store_sink

    path = tmp_path / "store.duckdb"
    scripted, _ = script_session("pick-2-poker", 3, seed=23, fault_rate=0.3)
    with TansuBroker() as broker:
        create_topics(broker.bootstrap)
        monkeypatch.setattr(pipelines.bus, "KafkaBus", functools.partial(KafkaBus, consumer_config=CONSUMER))
        app = create_app(path, secret="test", background=functools.partial(
            _store_sink, str(path), broker.bootstrap, "serve-test", None))  # as `serve --kafka` builds it
        producer = KafkaBus(broker.bootstrap, spool_path=tmp_path / "spool.sqlite")
        try:
            with serving(app) as url:
                for s in scripted:
                    producer.publish("rounds", s.round.table_id, s.round)
                producer.flush(5)
                pages = app.state.db.cursor()  # the dashboards' own connection sees what the sink wrote
                assert _wait(lambda: pages.execute("select count(*) from rounds").fetchone()[0] == 3)
                other = subprocess.run([sys.executable, "-c", "from pipelines.cli import main; main()", "flags",
                                        "--db", str(path)], capture_output=True, text=True, timeout=60)
                assert url.startswith("http://127.0.0.1:")
        finally:
            producer.close(timeout=2)
    assert other.returncode == 1
    assert f"--db {path}: {path}: cannot open the store" in other.stderr
    assert "One process at a time holds it" in other.stderr
    with Store(path, read_only=True) as store:  # stopped with the app: the file is free again, nothing lost
        assert _count(store, "select count(*) from rounds") == 3


def test_a_sink_started_before_its_broker_waits_for_it(tmp_path):
    # Once, a broker down at the start killed the sink: `tablewatch sink` with a traceback, and the
    # dashboards' sink thread for good, while the pages went on serving a store that no longer grew.
    from pipelines.bus.tansu import free_port
    from pipelines.store.sink import sinking

    port = free_port()
    scripted, _ = script_session("king-high", 2, seed=24, fault_rate=0.0)
    store = Store(tmp_path / "t.duckdb")
    bus = KafkaBus(f"127.0.0.1:{port}", spool_path=tmp_path / "spool.sqlite", consumer_config=CONSUMER)
    try:
        with sinking(store, bus, "late-broker") as totals:
            time.sleep(7)  # the sink tries a broker that is not there yet (it gives up bootstrapping after 5 s)
            with TansuBroker(port=port) as broker:
                create_topics(broker.bootstrap)
                for s in scripted:
                    bus.publish("rounds", s.round.table_id, s.round)
                bus.flush(5)
                assert _wait(lambda: totals.get("rounds", 0) >= 2, timeout=60), totals
    finally:
        bus.close(timeout=2)
    assert _count(store, "select count(*) from rounds") == 2
