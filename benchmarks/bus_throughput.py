"""Messages per second through the bus: in-process, and through a real broker (Tansu on loopback).

    python benchmarks/bus_throughput.py [--messages 5000] [--tables 8] [--no-kafka] [--json]

Each message is a validated Round document (about 0.6 kB of JSON). Publish rate includes validation
and encoding; end-to-end rate runs from the first publish until a consumer group has received
(and validated) every message.
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path

from pipelines.bus import Bus, InProcessBus
from pipelines.games.round import Round, Wager, round_id_for


def make_rounds(n: int, tables: int) -> list[tuple[str, Round]]:
    out = []
    for i in range(n):
        table = f"T{i % tables}"
        started = f"2026-01-01T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}+00:00"
        out.append((table, Round(game="high-tie", table_id=table, round_id=round_id_for(table, started),
                                 started_at=started,
                                 wagers=[Wager(seat=s, spot="main", amount=25.0) for s in range(1, 5)])))
    return out


def measure(bus: Bus, rounds: list[tuple[str, Round]], group: str, timeout: float = 120.0) -> dict:
    consumer = bus.subscribe("rounds", group)
    consumer.poll(0.1)  # join the group before timing
    t0 = time.perf_counter()
    for table, r in rounds:
        bus.publish("rounds", table, r)
    bus.flush()
    t_pub = time.perf_counter() - t0
    got = 0
    deadline = time.monotonic() + timeout
    while got < len(rounds) and time.monotonic() < deadline:
        got += len(consumer.poll(0.5))
    t_all = time.perf_counter() - t0
    consumer.commit()
    consumer.close()
    return {"messages": len(rounds), "received": got, "publish_msgs_per_s": round(len(rounds) / t_pub),
            "end_to_end_msgs_per_s": round(got / t_all), "seconds": round(t_all, 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=5000)
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--no-kafka", action="store_true", help="skip the Tansu run")
    ap.add_argument("--json", action="store_true", help="end with one JSON object line")
    args = ap.parse_args()
    rounds = make_rounds(args.messages, args.tables)
    size = sum(len(r.model_dump_json()) for _, r in rounds) / len(rounds)
    results: dict = {"machine": f"{platform.machine()} {platform.system()} py{platform.python_version()}",
                     "message_bytes": round(size)}
    results["in_process"] = measure(InProcessBus(), rounds, "bench")
    if not args.no_kafka:
        from pipelines.bus.admin import create_topics
        from pipelines.bus.kafka_bus import KafkaBus
        from pipelines.bus.tansu import TansuBroker

        with TansuBroker() as broker, tempfile.TemporaryDirectory() as tmp:
            create_topics(broker.bootstrap, ["rounds", "rounds.dlq"])
            bus = KafkaBus(broker.bootstrap, spool_path=Path(tmp) / "spool.sqlite",
                           consumer_config={"max_poll_interval_ms": 3000, "session_timeout_ms": 3000,
                                            "heartbeat_interval_ms": 500, "request_timeout_ms": 3500,
                                            "fetch_max_wait_ms": 100})
            try:
                results["kafka_tansu"] = measure(bus, rounds, "bench")
            finally:
                bus.close()
    for name in ("in_process", "kafka_tansu"):
        if name in results:
            r = results[name]
            print(f"{name:12s} {r['messages']} msgs ({results['message_bytes']} B): publish "
                  f"{r['publish_msgs_per_s']}/s, end-to-end {r['end_to_end_msgs_per_s']}/s, "
                  f"received {r['received']}")
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
