"""Topic names, the model each topic carries, and validation of messages on the way in and out.

`TOPIC_MODELS` is the one registry: a topic maps to the pydantic model its messages must validate
against, or to None while its model is not defined yet (any JSON object is then accepted). Another
stage plugs its model in with `register_topic_model` (e.g. reconcile registers its Flag model for
"flags"), so the bus never imports the stages that sit outside it.
"""

from __future__ import annotations

import importlib
import json
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipelines.games.round import Round, TableEvent

from .errors import MessageInvalid, UnknownTopic

TABLE_EVENTS = "table-events"
ROUNDS = "rounds"
FLAGS = "flags"
DLQ_SUFFIX = ".dlq"


class DeadLetter(BaseModel):
    """A message that did not validate, parked with the reason instead of crashing its consumer."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = 1
    topic: str = Field(description="the topic the message was meant for or read from")
    key: str | None = Field(None, description="the record key (table_id)")
    reason: str = Field(description="why it was rejected: the field and value that failed")
    stage: Literal["publish", "consume"] = Field(description="who rejected it")
    payload: str = Field(description="the message as received, decoded as UTF-8 (invalid bytes replaced)")
    partition: int | None = None
    offset: int | None = None
    rejected_at: str = Field(description="ISO 8601 UTC time of rejection")


def dlq_topic(topic: str) -> str:
    return topic + DLQ_SUFFIX


BASE_TOPICS: tuple[str, ...] = (TABLE_EVENTS, ROUNDS, FLAGS)

TOPIC_MODELS: dict[str, type[BaseModel] | None] = {
    TABLE_EVENTS: TableEvent,
    ROUNDS: Round,
    FLAGS: None,  # the reconcile stage's Flag, registered when pipelines.reconcile is imported
    **{dlq_topic(t): DeadLetter for t in BASE_TOPICS},
}

# Models owned by other stages, resolved on first use if that stage is installed, so the bus does
# not import them at start-up; register_topic_model() overrides.
LAZY_MODELS: dict[str, str] = {}


def all_topics() -> list[str]:
    return list(TOPIC_MODELS)


def register_topic_model(topic: str, model: type[BaseModel]) -> None:
    """Set the model a topic's messages must validate against (and add its dead-letter topic)."""
    TOPIC_MODELS[topic] = model
    LAZY_MODELS.pop(topic, None)
    TOPIC_MODELS.setdefault(dlq_topic(topic), DeadLetter)


def model_for(topic: str) -> type[BaseModel] | None:
    try:
        model = TOPIC_MODELS[topic]
    except KeyError:
        raise UnknownTopic(f"unknown topic {topic!r}; known topics: {', '.join(TOPIC_MODELS)}") from None
    if model is None and topic in LAZY_MODELS:
        module_name, _, attr = LAZY_MODELS.pop(topic).partition(":")
        try:
            model = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError):
            return None  # not built yet: any JSON object is accepted
        TOPIC_MODELS[topic] = model
    return model


def _describe(err: ValidationError) -> str:
    """'field.path: message (value=...)' for each error, so the reason names field and value."""
    parts = []
    for e in err.errors()[:5]:
        loc = ".".join(str(p) for p in e["loc"]) or "<message>"
        if e["type"] == "missing":
            parts.append(f"{loc}: field required (missing)")
            continue
        value = repr(e.get("input"))
        if len(value) > 80:
            value = value[:77] + "..."
        parts.append(f"{loc}: {e['msg']} (value={value})")
    more = err.error_count() - len(parts)
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def validate(topic: str, message: BaseModel | dict[str, Any]) -> BaseModel | dict[str, Any]:
    """The message as its topic's model (or as a dict where the topic has none); MessageInvalid if not."""
    model = model_for(topic)
    if model is None:
        if isinstance(message, BaseModel):
            return message
        if not isinstance(message, dict):
            raise MessageInvalid(topic, f"expected a JSON object, got {type(message).__name__}")
        return message
    if isinstance(message, model):
        # Re-validate: a model instance may have been mutated after construction.
        message = message.model_dump(mode="json")
    elif isinstance(message, BaseModel):
        message = message.model_dump(mode="json")
    if not isinstance(message, dict):
        raise MessageInvalid(topic, f"expected a JSON object, got {type(message).__name__}")
    try:
        return model.model_validate(message)
    except ValidationError as e:
        raise MessageInvalid(topic, _describe(e)) from None


def encode(message: BaseModel | dict[str, Any]) -> bytes:
    if isinstance(message, BaseModel):
        return message.model_dump_json(exclude_none=False).encode()
    return json.dumps(message, separators=(",", ":"), sort_keys=False).encode()


def decode(topic: str, payload: bytes) -> BaseModel | dict[str, Any]:
    """Bytes read from a topic, validated; MessageInvalid names what is wrong."""
    try:
        data = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise MessageInvalid(topic, f"not JSON: {e}") from None
    return validate(topic, data)


def dead_letter(
    topic: str,
    key: str | None,
    payload: bytes,
    reason: str,
    stage: Literal["publish", "consume"] = "consume",
    partition: int | None = None,
    offset: int | None = None,
) -> DeadLetter:
    return DeadLetter(
        topic=topic,
        key=key,
        reason=reason,
        stage=stage,
        payload=payload.decode("utf-8", errors="replace"),
        partition=partition,
        offset=offset,
        rejected_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
    )
