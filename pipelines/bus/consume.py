"""The consumer loop: handle each record, commit only after the handler succeeded (at-least-once)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from .base import Bus, Record
from .errors import BusError

log = logging.getLogger(__name__)


MAX_BACKOFF_S = 30.0


def consume_forever(
    bus: Bus,
    topics: list[str] | tuple[str, ...] | str,
    group: str,
    handler: Callable[[Record], None],
    stop_event: threading.Event,
    poll_timeout: float = 0.5,
    retry_delay: float = 1.0,
) -> int:
    """Poll until `stop_event` is set; return how many records were handled.

    Offsets are committed after the whole polled batch was handled. If the handler raises, nothing
    of that batch is committed: the consumer is closed and resubscribed after `retry_delay`, so the
    group redelivers from the last commit. Handlers must therefore be idempotent (upsert by round_id).
    Invalid messages never reach the handler: the consumer has sent them to '<topic>.dlq'.
    A broker that cannot be reached (at the start, or after a resubscription) is waited for, with back-off
    up to `MAX_BACKOFF_S`: a sink started before its broker, or outliving an outage, goes on by itself.
    """
    handled = 0
    backoff = retry_delay
    while not stop_event.is_set():
        try:
            consumer = bus.subscribe(topics, group)
        except BusError as e:
            log.warning("group %r: %s; trying again in %.1f s", group, e, backoff)
            stop_event.wait(backoff)
            backoff = min(max(2 * backoff, 1.0), MAX_BACKOFF_S)
            continue
        backoff = retry_delay
        try:
            while not stop_event.is_set():
                records = consumer.poll(poll_timeout)
                if not records:
                    continue
                for record in records:
                    handler(record)
                consumer.commit()
                handled += len(records)
        except BusError as e:
            log.warning("group %r on %s: %s; resubscribing", group, topics, e)
            stop_event.wait(retry_delay)
        except Exception:
            log.exception("group %r: handler failed; the batch will be redelivered", group)
            stop_event.wait(retry_delay)
        finally:
            consumer.close()
    return handled
