"""Flags raised for a table reach topic "flags", validated, keyed by the table."""

from __future__ import annotations

from pipelines.bus import InProcessBus
from pipelines.reconcile import reconcile
from pipelines.reconcile.flag import Flag
from pipelines.rounds.run import publish_flags
from pipelines.sim.session import script_session


def test_flags_are_published_per_table():
    scripted, settings = script_session("pick-2-poker", 6, seed=33, fault_rate=0.5)
    rounds = [s.round for s in scripted]
    _, flags = reconcile(rounds, {"T1": settings})
    assert flags, "a fault rate of 0.5 must raise flags"
    bus = InProcessBus()
    consumer = bus.subscribe(["flags"], "test")
    publish_flags(bus, "T1", flags)
    bus.flush()
    got = []
    for _ in range(10):
        got += consumer.poll(0.1)
    assert len(got) == len(flags)
    assert all(isinstance(r.value, Flag) and r.key == "T1" for r in got)
    assert {r.value.flag_id for r in got} == {f.flag_id for f in flags}
