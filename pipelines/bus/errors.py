"""Errors raised by the bus. Each names what failed: topic, field and value, or the broker address."""

from __future__ import annotations


class BusError(RuntimeError):
    """Base class for every bus failure."""


class MessageInvalid(BusError, ValueError):
    """A message does not validate against its topic's model."""

    def __init__(self, topic: str, reason: str) -> None:
        super().__init__(f"message for topic {topic!r} is invalid: {reason}")
        self.topic = topic
        self.reason = reason


class UnknownTopic(BusError, KeyError):
    """A topic that is not in TOPIC_MODELS (a typo would otherwise create a stray topic)."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the sentence readable
        return str(self.args[0])


class BrokerUnavailable(BusError, ConnectionError):
    """The Kafka broker cannot be reached."""


class SpoolFull(BusError):
    """The on-disk spool for broker outages reached its size bound."""
