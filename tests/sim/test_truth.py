"""Ground truth: JSON round trip, schema validation, a clear error for a bad file, committed schema fresh."""

import json

import jsonschema
import pytest

from pipelines.games.round import GAME_IDS
from pipelines.sim.session import simulate_session
from pipelines.sim.truth import SCHEMA_PATH, GroundTruth, GroundTruthError, schema


@pytest.mark.parametrize("game", GAME_IDS)
def test_round_trip_and_schema(game, tmp_path):
    truth = simulate_session(game, 3, seed=9, out_dir=tmp_path, fault_rate=0.5, render=False, progress=False)
    path = tmp_path / "ground_truth.json"
    loaded = GroundTruth.load(path)
    assert loaded == truth
    data = json.loads(path.read_text())
    jsonschema.validate(data, schema())
    assert data["faults"], "rate 0.5 over 3 rounds should inject something"
    ids = {r.round_id for r in loaded.rounds}
    assert all(f.round_id in ids for f in loaded.faults)
    assert loaded.frame_count == loaded.rounds[-1].frames.end + 1
    assert len(loaded.homography) == 3 and loaded.settings == truth.settings


def test_same_seed_identical_ground_truth(tmp_path):
    a = simulate_session("king-high", 2, seed=4, out_dir=tmp_path / "a", fault_rate=0.3, render=False)
    b = simulate_session("king-high", 2, seed=4, out_dir=tmp_path / "b", fault_rate=0.3, render=False)
    assert (tmp_path / "a" / "ground_truth.json").read_bytes() == (tmp_path / "b" / "ground_truth.json").read_bytes()
    assert a.homography == b.homography


def test_bad_file_names_file_and_field(tmp_path):
    truth = simulate_session("pick-2-poker", 1, seed=1, out_dir=tmp_path, render=False)
    data = truth.model_dump(mode="json")
    data["fps"] = -5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(GroundTruthError, match=r"bad\.json.*field fps.*-5"):
        GroundTruth.load(bad)
    with pytest.raises(GroundTruthError, match="no such"):
        GroundTruth.load(tmp_path / "missing.json")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema())


def test_committed_schema_is_current():
    committed = json.loads(SCHEMA_PATH.read_text())
    assert committed == schema(), "run `python -m pipelines.sim.truth` to regenerate the schema"
