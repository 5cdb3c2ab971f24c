from __future__ import annotations

import threading

import pytest

from pipelines.bus import InProcessBus, MessageInvalid
from pipelines.games.round import Round

from .conftest import make_round


def drain(consumer, expected: int, rounds: int = 50) -> list:
    out: list = []
    for _ in range(rounds):
        out += consumer.poll(0.05)
        if len(out) >= expected:
            break
    return out


def test_per_key_order_and_exactly_once_per_group():
    bus = InProcessBus(partitions=3)
    consumer = bus.subscribe(["rounds"], "store")
    tables = ["T1", "T2", "T3", "T4"]
    for n in range(40):
        bus.publish("rounds", tables[n % 4], make_round(tables[n % 4], n))
    got = drain(consumer, 40)
    assert len(got) == 40
    for t in tables:
        ns = [int(r.value.notes[0][2:]) for r in got if r.key == t]
        assert ns == sorted(ns) and len(ns) == 10
    assert all(isinstance(r.value, Round) for r in got)
    assert consumer.poll(0.01) == []


def test_uncommitted_records_are_redelivered_to_the_next_member():
    bus = InProcessBus(partitions=2)
    for n in range(6):
        bus.publish("rounds", "T1", make_round("T1", n))
    c1 = bus.subscribe("rounds", "g")
    first = drain(c1, 6)
    assert len(first) == 6
    c1.commit()
    bus.publish("rounds", "T1", make_round("T1", 6))
    assert len(c1.poll(0.1)) == 1  # read, not committed
    c1.close()
    c2 = bus.subscribe("rounds", "g")
    again = drain(c2, 1)
    assert [r.value.notes for r in again] == [["n=6"]]


def test_groups_are_independent_and_members_share_partitions():
    bus = InProcessBus(partitions=4)
    a1, a2 = bus.subscribe("rounds", "a"), bus.subscribe("rounds", "a")
    assert set(a1.assignment).isdisjoint(a2.assignment)
    assert len(a1.assignment) + len(a2.assignment) == 4
    b = bus.subscribe("rounds", "b")
    for n in range(20):
        bus.publish("rounds", f"T{n}", make_round(f"T{n}", n))
    got_a = drain(a1, 20, 5) + drain(a2, 20, 5)
    got_b = drain(b, 20)
    assert sorted(r.key for r in got_a) == sorted(r.key for r in got_b)
    assert len(got_b) == 20


def test_malformed_message_goes_to_dlq_and_consumer_goes_on():
    bus = InProcessBus(partitions=1)
    c = bus.subscribe("rounds", "g")
    bus.publish_raw("rounds", "T1", b'{"game": "baccarat"}')
    bus.publish("rounds", "T1", make_round("T1", 1))
    got = drain(c, 1)
    assert [r.value.notes for r in got] == [["n=1"]]
    dead = drain(bus.subscribe("rounds.dlq", "ops"), 1)
    assert len(dead) == 1
    letter = dead[0].value
    assert letter.topic == "rounds" and letter.key == "T1" and letter.offset == 0
    assert "game" in letter.reason and "baccarat" in letter.reason and letter.stage == "consume"


def test_publish_refuses_invalid_messages():
    bus = InProcessBus()
    bad = make_round("T1", 1).model_dump(mode="json")
    del bad["table_id"]
    with pytest.raises(MessageInvalid, match="table_id"):
        bus.publish("rounds", "T1", bad)
    assert bus.end_offsets("rounds") == {0: 0, 1: 0, 2: 0}


def test_retention_drops_oldest_and_consumer_skips_ahead():
    bus = InProcessBus(partitions=1, retention=3)
    for n in range(5):
        bus.publish("table-events", "T1", {"seq": n, "type": "card_dealt", "frame": n})
    got = drain(bus.subscribe("table-events", "g"), 3)
    assert [r.value.seq for r in got] == [2, 3, 4] and [r.offset for r in got] == [2, 3, 4]


def test_concurrent_publishers_keep_each_keys_order():
    bus = InProcessBus(partitions=2)
    c = bus.subscribe("table-events", "g")

    def produce(table: str) -> None:
        for i in range(200):
            bus.publish("table-events", table, {"seq": i, "type": "card_dealt", "frame": i})

    threads = [threading.Thread(target=produce, args=(f"T{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got = drain(c, 800)
    assert len(got) == 800
    for i in range(4):
        assert [r.value.seq for r in got if r.key == f"T{i}"] == list(range(200))


def test_poll_wakes_up_when_a_message_arrives():
    bus = InProcessBus()
    c = bus.subscribe("table-events", "g")
    event = {"seq": 0, "type": "bets_closed", "frame": 1}
    timer = threading.Timer(0.05, bus.publish, args=("table-events", "T1", event))
    timer.start()
    got = c.poll(5.0)
    timer.join()
    assert len(got) == 1
