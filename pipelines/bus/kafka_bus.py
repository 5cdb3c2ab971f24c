"""KafkaBus: the bus on a Kafka-protocol broker (kafka-python), with a disk spool for outages.

Producer settings favour order and durability over latency: acks="all", retries, one request in
flight per connection (a retried batch cannot overtake the next one), key = table_id (one table, one
partition, one order). kafka-python 3 has no `buffer_memory`; the memory the producer may hold is
bounded by `max_in_flight_messages` instead (publish waits for deliveries beyond it).

When the broker is unreachable or a send fails, the message goes to the DiskSpool and every newer
message follows it there, so nothing overtakes it. A background thread (and every publish/flush)
retries the spool in publish order once the broker accepts connections again; only then do new
messages go straight to the broker. Delivery is at-least-once: a message may be sent twice around an
outage, never lost; consumers deduplicate by round_id.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kafka import KafkaConsumer, KafkaProducer
from kafka.errors import KafkaError, KafkaTimeoutError
from pydantic import BaseModel

from .base import Bus, Consumer, Record, as_topic_list
from .errors import BrokerUnavailable, BusError, MessageInvalid, SpoolFull
from .spool import DiskSpool
from .topics import DLQ_SUFFIX, dead_letter, decode, dlq_topic, encode, model_for, validate

log = logging.getLogger(__name__)


def default_spool_path(bootstrap_servers: str) -> Path:
    state = os.environ.get("TABLEWATCH_STATE_DIR") or os.path.join(
        os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state"), "tablewatch"
    )
    return Path(state) / f"bus-spool-{re.sub(r'[^A-Za-z0-9.-]+', '_', bootstrap_servers)}.sqlite"


@dataclass
class _InFlight:
    seq: int
    topic: str
    key: str | None
    payload: bytes
    future: Any
    settled: bool = False  # set after its callback ran (a failed one is in the spool by then)


class KafkaBus(Bus):
    def __init__(
        self,
        bootstrap_servers: str | list[str],
        *,
        spool_path: str | Path | None = None,
        spool_max_bytes: int = 256 * 1024 * 1024,
        client_id: str = "tablewatch",
        request_timeout_ms: int = 10_000,
        delivery_timeout_ms: int = 30_000,
        max_block_ms: int = 5_000,
        max_in_flight_messages: int = 10_000,
        drain_interval_s: float = 1.0,
        producer_config: dict[str, Any] | None = None,
        consumer_config: dict[str, Any] | None = None,
    ) -> None:
        servers = [bootstrap_servers] if isinstance(bootstrap_servers, str) else list(bootstrap_servers)
        servers = [s.strip() for item in servers for s in item.split(",") if s.strip()]
        if not servers:
            raise ValueError("KafkaBus: bootstrap_servers is empty")
        for s in servers:
            host, _, port = s.rpartition(":")
            if not host or not port.isdigit():
                raise ValueError(f"KafkaBus: bootstrap server {s!r} is not host:port")
        self.bootstrap_servers = servers
        self.address = ",".join(servers)
        self.client_id = client_id
        self._producer_config: dict[str, Any] = {
            "bootstrap_servers": servers,
            "client_id": client_id,
            "acks": "all",
            "retries": 5,
            "max_in_flight_requests_per_connection": 1,
            "enable_idempotence": False,  # resends from the spool are app-level; keep semantics plain
            "linger_ms": 5,
            "request_timeout_ms": request_timeout_ms,
            "delivery_timeout_ms": delivery_timeout_ms,
            "max_block_ms": max_block_ms,
            "retry_backoff_ms": 100,
            "reconnect_backoff_max_ms": 1000,
            "bootstrap_timeout_ms": max_block_ms,
        }
        if "buffer_memory" in KafkaProducer.DEFAULT_CONFIG:  # kafka-python < 2.1 still has it
            self._producer_config["buffer_memory"] = 32 * 1024 * 1024
        self._producer_config.update(producer_config or {})
        self._consumer_config = dict(consumer_config or {})
        self.max_in_flight_messages = max_in_flight_messages
        self.drain_interval_s = drain_interval_s
        self._drain_timeout_s = max(delivery_timeout_ms / 1000, 1.0)

        self._spool = DiskSpool(spool_path or default_spool_path(self.address), spool_max_bytes)
        self._lock = threading.RLock()
        self._seq = self._spool.max_seq()
        self._seq_lock = threading.Lock()
        self._in_flight: list[_InFlight] = []
        self._producer: KafkaProducer | None = None
        self._down = len(self._spool) > 0  # a spool left by an earlier run drains before anything new
        self._next_drain_at = 0.0
        self._deferred_error: BusError | None = None
        self._stop = threading.Event()
        self._drainer: threading.Thread | None = None
        self._closed = False
        if self._down:
            self._start_drainer()

    # -- producing -------------------------------------------------------------------------------
    @property
    def spooled(self) -> int:
        """Messages waiting in the disk spool for the broker."""
        return len(self._spool)

    @property
    def spool_path(self) -> Path:
        return self._spool.path

    def publish(self, topic: str, key: str, message: BaseModel | dict[str, Any]) -> None:
        self._send(topic, key, encode(validate(topic, message)))

    def publish_raw(self, topic: str, key: str | None, payload: bytes) -> None:
        model_for(topic)
        self._send(topic, key, bytes(payload))

    def _next_seq(self) -> int:
        with self._seq_lock:
            self._seq += 1
            return self._seq

    def _send(self, topic: str, key: str | None, payload: bytes) -> None:
        with self._lock:
            if self._closed:
                raise BusError(f"KafkaBus for {self.address} is closed")
            self._raise_deferred()
            seq = self._next_seq()
            self._reap()
            if self._down or len(self._spool):
                self._try_drain()
            if self._down or len(self._spool):
                self._spool_one(seq, topic, key, payload)
                return
            producer = self._ensure_producer()
            if producer is None:
                self._spool_one(seq, topic, key, payload)
                return
            try:
                future = producer.send(topic, key=_key_bytes(key), value=payload)
            except KafkaError as e:  # metadata unavailable within max_block_ms, buffer full, ...
                self._mark_down(f"send to topic {topic!r} failed: {e}")
                self._spool_one(seq, topic, key, payload)
                return
            entry = _InFlight(seq, topic, key, payload, future)
            self._in_flight.append(entry)
            future.add_callback(self._on_sent, entry)
            future.add_errback(self._on_send_failed, entry)
            if len(self._in_flight) >= self.max_in_flight_messages:
                self._wait_in_flight(self._drain_timeout_s)

    def _spool_one(self, seq: int, topic: str, key: str | None, payload: bytes) -> None:
        self._spool.append(seq, topic, key, payload)  # SpoolFull propagates to the publisher
        self._start_drainer()

    def _on_sent(self, entry: _InFlight, _metadata: object) -> None:
        entry.settled = True

    def _on_send_failed(self, entry: _InFlight, exc: BaseException) -> None:
        # Runs on kafka-python's I/O thread: touch only the spool (its own lock), never self._lock,
        # which a publisher may hold while it waits on this very thread in producer.flush().
        self._down = True
        log.warning("Kafka broker %s: delivery to %r failed (%s); message spooled", self.address,
                    entry.topic, exc)
        try:
            self._spool.append(entry.seq, entry.topic, entry.key, entry.payload)
        except SpoolFull as e:
            log.critical("%s", e)
            self._deferred_error = e
        entry.settled = True
        self._start_drainer()

    def _raise_deferred(self) -> None:
        if self._deferred_error is not None:
            err, self._deferred_error = self._deferred_error, None
            raise err

    def _reap(self) -> None:
        self._in_flight = [e for e in self._in_flight if not e.settled]

    def _wait_in_flight(self, timeout: float) -> None:
        if self._producer is not None and self._in_flight:
            try:
                self._producer.flush(timeout=timeout)
            except KafkaTimeoutError:
                log.warning("Kafka broker %s: %d messages still unacknowledged after %.1fs",
                            self.address, len(self._in_flight), timeout)
        self._reap()

    def _mark_down(self, why: str) -> None:
        if not self._down:
            log.warning("Kafka broker %s unavailable (%s); spooling to %s", self.address, why,
                        self._spool.path)
        self._down = True

    def broker_reachable(self, timeout: float = 0.5) -> bool:
        """Whether any bootstrap server accepts a TCP connection (a cheap probe before draining)."""
        for server in self.bootstrap_servers:
            host, _, port = server.rpartition(":")
            try:
                socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
                return True
            except OSError:
                continue
        return False

    def _ensure_producer(self) -> KafkaProducer | None:
        if self._producer is not None:
            return self._producer
        if not self.broker_reachable():
            self._mark_down("no bootstrap server accepts connections")
            return None
        try:
            self._producer = KafkaProducer(**self._producer_config)
        except KafkaError as e:
            self._mark_down(f"producer could not connect: {e}")
            return None
        return self._producer

    def _try_drain(self, force: bool = False) -> bool:
        """Send spooled messages in publish order; True once the spool is empty. Caller holds _lock."""
        if not len(self._spool):
            self._down = False
            return True
        now = time.monotonic()
        if not force and now < self._next_drain_at:
            return False
        self._next_drain_at = now + self.drain_interval_s
        self._reap()
        if self._in_flight:  # their failures may still add older messages to the spool
            return False
        if not self.broker_reachable():
            self._mark_down("no bootstrap server accepts connections")
            return False
        producer = self._ensure_producer()
        if producer is None:
            return False
        while True:
            batch = self._spool.peek(500)
            if not batch:
                break
            futures = []
            try:
                for m in batch:
                    futures.append(producer.send(m.topic, key=_key_bytes(m.key), value=m.payload))
            except KafkaError as e:
                log.info("Kafka broker %s: spool drain paused: %s", self.address, e)
            with contextlib.suppress(KafkaTimeoutError):
                producer.flush(timeout=self._drain_timeout_s)
            # Forget only the acknowledged prefix: a later message of the same table is never
            # counted as delivered ahead of an earlier one that must be sent again.
            delivered = []
            for m, f in zip(batch, futures, strict=False):
                if not (f.is_done and f.succeeded()):
                    break
                delivered.append(m.seq)
            self._spool.remove(delivered)
            if len(delivered) < len(batch):
                self._mark_down(f"{len(batch) - len(delivered)} spooled messages not acknowledged")
                return False
        log.info("Kafka broker %s is back; spool drained", self.address)
        self._down = False
        return True

    def _start_drainer(self) -> None:
        if self._drainer is None or not self._drainer.is_alive():
            if self._stop.is_set():
                return
            self._drainer = threading.Thread(target=self._drain_loop, name="kafkabus-spool", daemon=True)
            self._drainer.start()

    def _drain_loop(self) -> None:
        while not self._stop.wait(self.drain_interval_s):
            if not len(self._spool) and not self._down:
                return
            try:
                with self._lock:
                    if self._closed:
                        return
                    self._try_drain()
            except Exception:  # the thread must outlive any one failure; the spool keeps the data
                log.exception("Kafka broker %s: spool drain failed", self.address)

    def flush(self, timeout: float | None = None) -> None:
        """Wait for in-flight deliveries, then try the spool. What cannot be delivered stays spooled."""
        t = self._drain_timeout_s if timeout is None else timeout
        with self._lock:
            self._wait_in_flight(t)
            if len(self._spool):
                self._try_drain(force=True)
            self._raise_deferred()

    # -- consuming -------------------------------------------------------------------------------
    def subscribe(self, topics: list[str] | tuple[str, ...] | str, group: str) -> KafkaBusConsumer:
        names = as_topic_list(topics)
        for t in names:
            model_for(t)
        return KafkaBusConsumer(self, names, group, self._consumer_config)

    def close(self, timeout: float = 5.0) -> None:
        if self._closed:
            return
        try:
            self.flush(timeout)
        except BusError as e:
            log.error("%s", e)
        with self._lock:
            self._closed = True
            self._stop.set()
            if self._producer is not None:
                try:
                    self._producer.close(timeout=timeout)
                except KafkaError as e:
                    log.warning("Kafka broker %s: producer close: %s", self.address, e)
                self._producer = None
        if self._drainer is not None:
            self._drainer.join(timeout=timeout)
        if len(self._spool):
            log.warning("%d messages remain in spool %s; they are sent when a bus opens it again",
                        len(self._spool), self._spool.path)
        self._spool.close()


class KafkaBusConsumer(Consumer):
    def __init__(self, bus: KafkaBus, topics: list[str], group: str, config: dict[str, Any]) -> None:
        self._bus = bus
        self.topics = topics
        self.group = group
        cfg: dict[str, Any] = {
            "bootstrap_servers": bus.bootstrap_servers,
            "client_id": bus.client_id,
            "group_id": group,
            "enable_auto_commit": False,  # commit only after the handler succeeded
            "auto_offset_reset": "earliest",
            "max_poll_records": 500,
            "bootstrap_timeout_ms": 5_000,
            "reconnect_backoff_max_ms": 1000,
        }
        cfg.update(config)
        try:
            self._consumer = KafkaConsumer(**cfg)
        except KafkaError as e:  # kafka-python 3 raises KafkaTimeoutError when it cannot bootstrap
            raise BrokerUnavailable(
                f"Kafka broker at {bus.address} unreachable: cannot subscribe group {group!r} to {topics}"
            ) from e
        self._consumer.subscribe(topics)
        self._dead_lettered = False

    def poll(self, timeout: float = 1.0) -> list[Record]:
        try:
            batches = self._consumer.poll(timeout_ms=int(timeout * 1000))
        except KafkaError as e:
            log.warning("Kafka broker %s: poll for group %r failed: %s", self._bus.address, self.group, e)
            return []
        out: list[Record] = []
        for tp in sorted(batches, key=lambda tp: (tp.topic, tp.partition)):
            for r in batches[tp]:
                key = r.key.decode("utf-8", errors="replace") if r.key is not None else None
                payload = r.value if r.value is not None else b""
                try:
                    value = decode(r.topic, payload)
                except MessageInvalid as e:
                    self._reject(r.topic, key, payload, e.reason, r.partition, r.offset)
                    continue
                out.append(Record(r.topic, key, value, r.partition, r.offset, r.timestamp, payload))
        return out

    def _reject(self, topic: str, key: str | None, payload: bytes, reason: str, partition: int,
                offset: int) -> None:
        if topic.endswith(DLQ_SUFFIX):
            log.error("invalid record in %s[%d]@%d dropped: %s", topic, partition, offset, reason)
            return
        letter = dead_letter(topic, key, payload, reason, "consume", partition, offset)
        self._bus.publish_raw(dlq_topic(topic), key, encode(letter))
        self._dead_lettered = True
        log.warning("record %s[%d]@%d sent to %s: %s", topic, partition, offset, dlq_topic(topic), reason)

    def commit(self) -> None:
        if self._dead_lettered:  # the dead letter must be safe before its offset is committed
            self._bus.flush()
            self._dead_lettered = False
        try:
            self._consumer.commit()
        except KafkaError as e:
            raise BusError(
                f"Kafka broker {self._bus.address}: commit for group {self.group!r} failed: {e}"
            ) from e

    def close(self) -> None:
        try:
            self._consumer.close()
        except KafkaError as e:
            log.warning("Kafka broker %s: consumer close: %s", self._bus.address, e)


def _key_bytes(key: str | None) -> bytes | None:
    return key.encode() if key is not None else None
