"""The store's consumer: "rounds" and "flags" messages from the bus into DuckDB, idempotently.

Coded against a plain iterable of messages (topic, key, value); `bus_messages` adapts a Bus consumer
(`bus.subscribe(topics, group).poll()`). A message that does not validate goes to dead_letters with the
reason; the sink never stops on one."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from pipelines.games.round import Round
from pipelines.reconcile.flag import Flag

from .db import Store

TOPICS = ("rounds", "flags")
log = logging.getLogger(__name__)


@dataclass
class Message:
    topic: str
    key: str | None
    value: Any  # dict, JSON text or bytes


def bus_messages(bus: Any, group: str = "store", max_polls: int | None = None) -> Iterator[Message]:
    """Adapter: messages from a Bus consumer, in the order it delivers them."""
    consumer = bus.subscribe(list(TOPICS), group)
    polls = 0
    while max_polls is None or polls < max_polls:
        polls += 1
        for m in consumer.poll() or []:
            yield Message(getattr(m, "topic", None) or m["topic"], getattr(m, "key", None),
                          getattr(m, "value", m))


def _payload(value: Any) -> Any:
    if isinstance(value, bytes):
        value = value.decode()
    return json.loads(value) if isinstance(value, str) else value


def consume(store: Store, messages: Iterable[Message], settings_by_table: dict[str, Any] | None = None,
            batch_size: int = 500, games: Any = None, config: Any = None) -> dict[str, int]:
    """Write messages in batches; returns counts of rounds, flags and dead letters."""
    counts = {"rounds": 0, "flags": 0, "dead_letters": 0}
    rounds: list[Round] = []
    flags: list[Flag] = []

    def flush() -> None:
        if rounds:
            kw: dict[str, Any] = {"config": config}
            if games:
                kw["games"] = games
            store.write_rounds(rounds, settings_by_table, **kw)
            counts["rounds"] += len(rounds)
            rounds.clear()
        if flags:
            counts["flags"] += store.write_flags(flags)
            flags.clear()

    for m in messages:
        try:
            data = _payload(m.value)
            if m.topic == "rounds":
                rounds.append(Round.model_validate(data))
            elif m.topic == "flags":
                flags.append(Flag.model_validate(data))
            else:
                raise ValueError(f"topic {m.topic!r} is not one the store consumes ({', '.join(TOPICS)})")
        except (ValidationError, ValueError) as e:
            text = m.value.decode(errors="replace") if isinstance(m.value, bytes) else str(m.value)
            reason = str(e).splitlines()[0] if not isinstance(e, ValidationError) else "; ".join(
                f"field {'.'.join(map(str, x['loc']))}: {x['msg']}" for x in e.errors()[:5])
            store.dead_letter(m.topic, m.key, reason, text)
            counts["dead_letters"] += 1
            continue
        if len(rounds) + len(flags) >= batch_size:
            flush()
    flush()
    return counts


def run_sink(store: Store, bus: Any, group: str, stop: Any, settings_by_table: dict[str, Any] | None = None,
             totals: dict[str, int] | None = None) -> dict[str, int]:
    """Live sink: each record written (idempotently) before its offset is committed, until `stop` is set.
    `totals` (updated as records arrive) lets a supervisor watch progress."""
    from pipelines.bus import consume_forever

    totals = totals if totals is not None else {}
    for key in ("rounds", "flags", "dead_letters"):
        totals.setdefault(key, 0)

    def handle(record: Any) -> None:
        value = record.value.model_dump(mode="json") if hasattr(record.value, "model_dump") else record.value
        for k, v in consume(store, [Message(record.topic, record.key, value)], settings_by_table).items():
            totals[k] += v

    consume_forever(bus, list(TOPICS), group, handle, stop)
    return totals


@contextmanager
def sinking(store: Store, bus: Any, group: str = "store", settings_by_table: dict[str, Any] | None = None
            ) -> Iterator[dict[str, int]]:
    """`run_sink` in a background thread of this process, stopped and joined on exit; yields its running
    totals. DuckDB lets one process hold the store for writing and none read it beside that one, so the
    dashboards, which write their own tables, run the sink this way (`tablewatch serve --kafka`)."""
    stop = threading.Event()
    totals: dict[str, int] = {}

    def work() -> None:
        try:
            run_sink(store, bus, group, stop, settings_by_table, totals)
        except Exception:  # said in the log; the pages go on serving what is stored
            log.exception("the store's Kafka sink stopped")

    thread = threading.Thread(target=work, name="store-sink", daemon=True)
    thread.start()
    try:
        yield totals
    finally:
        stop.set()
        thread.join(30)
