from __future__ import annotations

from pathlib import Path

import yaml

from pipelines.bus import BASE_TOPICS, dlq_topic

INFRA = Path(__file__).resolve().parents[2] / "infra"


def test_topic_definitions_match_the_bus_topics():
    spec = yaml.safe_load((INFRA / "kafka" / "topics.yaml").read_text())
    names = [t["name"] for t in spec["topics"]]
    expected = {*BASE_TOPICS, *(dlq_topic(t) for t in BASE_TOPICS)}
    assert set(names) == expected and len(names) == len(expected)
    assert spec["defaults"]["replication_factor"] == 3
    for t in spec["topics"]:
        assert t["partitions"] >= 1 and int(t["config"]["retention.ms"]) > 0


def test_compose_runs_three_kraft_nodes():
    compose = yaml.safe_load((INFRA / "kafka" / "compose.yaml").read_text())
    nodes = [s for name, s in compose["services"].items() if name.startswith("kafka")]
    assert len(nodes) == 3
    ids = sorted(n["environment"]["KAFKA_NODE_ID"] for n in nodes)
    assert ids == [1, 2, 3]
    for n in nodes:
        env = n["environment"]
        assert env["KAFKA_PROCESS_ROLES"] == "broker,controller"
        assert env["KAFKA_DEFAULT_REPLICATION_FACTOR"] == 3
