from __future__ import annotations

import threading
import time

from pipelines.bus import InProcessBus, consume_forever

from .conftest import make_round


def test_handler_failure_is_redelivered_and_commit_follows_success():
    bus = InProcessBus(partitions=1)
    for n in range(5):
        bus.publish("rounds", "T1", make_round("T1", n))
    seen: list[str] = []
    stored: dict[str, int] = {}
    failed = {"once": False}
    stop = threading.Event()

    def handler(record) -> None:
        seen.append(record.value.round_id)
        if record.offset == 2 and not failed["once"]:
            failed["once"] = True
            raise RuntimeError("database busy")
        stored[record.value.round_id] = record.offset  # upsert: idempotent
        if len(stored) == 5:
            stop.set()

    worker = threading.Thread(target=consume_forever, args=(bus, ["rounds"], "store", handler, stop),
                              kwargs={"poll_timeout": 0.05, "retry_delay": 0.01})
    worker.start()
    worker.join(10)
    assert not worker.is_alive()
    assert len(stored) == 5
    assert len(seen) > 5  # the failed batch was handled again
    deadline = time.monotonic() + 1
    while bus.committed("store").get(("rounds", 0)) != 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert bus.committed("store")[("rounds", 0)] == 5


def test_nothing_is_committed_while_the_handler_keeps_failing():
    bus = InProcessBus(partitions=1)
    bus.publish("rounds", "T1", make_round("T1", 0))
    stop = threading.Event()
    calls = []

    def handler(record) -> None:
        calls.append(record.offset)
        if len(calls) >= 3:
            stop.set()
        raise ValueError("bad handler")

    consume_forever(bus, "rounds", "g", handler, stop, poll_timeout=0.02, retry_delay=0.0)
    assert calls == [0, 0, 0]
    assert bus.committed("g") == {}
