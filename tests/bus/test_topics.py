from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from pipelines.bus import topics
from pipelines.bus.errors import MessageInvalid, UnknownTopic
from pipelines.bus.schemas import BUS_SCHEMAS, SCHEMA_DIR, render
from pipelines.games.round import Round

from .conftest import make_round


def test_every_base_topic_has_a_dead_letter_topic():
    for t in topics.BASE_TOPICS:
        assert topics.TOPIC_MODELS[topics.dlq_topic(t)] is topics.DeadLetter


def test_validate_returns_the_topic_model():
    r = make_round("T1", 3)
    out = topics.validate("rounds", r.model_dump(mode="json"))
    assert isinstance(out, Round) and out == r


def test_invalid_message_names_field_and_value():
    bad = make_round("T1", 1).model_dump(mode="json")
    bad["wagers"][0]["amount"] = -7
    with pytest.raises(MessageInvalid) as e:
        topics.validate("rounds", bad)
    assert "wagers.0.amount" in str(e.value) and "-7" in str(e.value) and "'rounds'" in str(e.value)


def test_mutated_model_instance_is_revalidated():
    r = make_round("T1", 1)
    r.wagers[0].seat = 99  # models are not validate-on-assignment; publish must still catch it
    with pytest.raises(MessageInvalid, match=r"wagers\.0\.seat"):
        topics.validate("rounds", r)


def test_unknown_topic_is_refused():
    with pytest.raises(UnknownTopic, match="round'"):
        topics.validate("round", {})


def test_decode_rejects_non_json_and_non_objects():
    with pytest.raises(MessageInvalid, match="not JSON"):
        topics.decode("table-events", b"\xff\xfe")
    with pytest.raises(MessageInvalid, match="JSON object"):
        topics.decode("table-events", b"[1, 2]")


def test_register_topic_model_plugs_in_a_model(monkeypatch):
    class Thing(BaseModel):
        x: int

    monkeypatch.setitem(topics.TOPIC_MODELS, "things", None)
    assert topics.validate("things", {"anything": 1}) == {"anything": 1}
    topics.register_topic_model("things", Thing)
    try:
        assert topics.validate("things", {"x": 2}) == Thing(x=2)
        with pytest.raises(MessageInvalid):
            topics.validate("things", {"x": "no"})
        assert topics.TOPIC_MODELS["things.dlq"] is topics.DeadLetter
    finally:
        topics.TOPIC_MODELS.pop("things.dlq", None)


def test_committed_schemas_are_current():
    for name, model in BUS_SCHEMAS.items():
        path = SCHEMA_DIR / name
        assert path.exists(), f"{path} missing: run python -m pipelines.bus.schemas"
        assert path.read_text() == render(model), f"{path} is stale: run python -m pipelines.bus.schemas"
        json.loads(path.read_text())
