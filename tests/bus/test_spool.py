from __future__ import annotations

import pytest

from pipelines.bus import SpoolFull
from pipelines.bus.kafka_bus import KafkaBus
from pipelines.bus.spool import DiskSpool
from pipelines.bus.tansu import free_port

from .conftest import make_round


def test_spool_keeps_publish_order_not_arrival_order(tmp_path):
    spool = DiskSpool(tmp_path / "s.sqlite")
    spool.append(5, "rounds", "T1", b"five")
    spool.append(3, "rounds", "T1", b"three")  # an in-flight send that failed late
    spool.append(7, "rounds", "T2", b"seven")
    assert [m.seq for m in spool.peek()] == [3, 5, 7]
    spool.remove([3, 5])
    assert [m.payload for m in spool.peek()] == [b"seven"]
    assert len(spool) == 1 and spool.size_bytes == 5


def test_spool_survives_reopening(tmp_path):
    spool = DiskSpool(tmp_path / "s.sqlite")
    spool.append(1, "rounds", "T1", b"x" * 10)
    spool.close()
    again = DiskSpool(tmp_path / "s.sqlite")
    assert len(again) == 1 and again.size_bytes == 10 and again.max_seq() == 1


def test_full_spool_names_file_and_bound(tmp_path):
    spool = DiskSpool(tmp_path / "s.sqlite", max_bytes=100)
    spool.append(1, "rounds", "T1", b"x" * 60)
    with pytest.raises(SpoolFull) as e:
        spool.append(2, "rounds", "T1", b"x" * 60)
    assert "s.sqlite" in str(e.value) and "100" in str(e.value)
    assert len(spool) == 1


def test_kafka_bus_without_broker_spools_and_keeps_it_across_restarts(tmp_path):
    address = f"127.0.0.1:{free_port()}"  # nothing listens there
    path = tmp_path / "spool.sqlite"
    bus = KafkaBus(address, spool_path=path, drain_interval_s=0.05)
    for n in range(3):
        bus.publish("rounds", "T1", make_round("T1", n))
    assert bus.spooled == 3
    bus.close(timeout=0.5)
    reopened = KafkaBus(address, spool_path=path, drain_interval_s=0.05)
    assert reopened.spooled == 3
    reopened.publish("rounds", "T1", make_round("T1", 3))
    assert [m.seq for m in reopened._spool.peek()] == [1, 2, 3, 4]
    reopened.close(timeout=0.5)


def test_kafka_bus_raises_spool_full_when_the_bound_is_reached(tmp_path):
    bus = KafkaBus(f"127.0.0.1:{free_port()}", spool_path=tmp_path / "s.sqlite", spool_max_bytes=1500)
    with pytest.raises(SpoolFull, match=r"s\.sqlite"):
        for n in range(10):
            bus.publish("rounds", "T1", make_round("T1", n))
    assert 0 < bus.spooled < 10
    bus.close(timeout=0.5)


def test_bad_bootstrap_address_is_named():
    with pytest.raises(ValueError, match="'localhost'"):
        KafkaBus("localhost")
