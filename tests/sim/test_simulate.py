"""`tablewatch simulate` writes a video OpenCV can read, with the frame count the ground truth claims."""

import json

from click.testing import CliRunner

from pipelines.cli import main
from pipelines.sim.truth import GroundTruth
from pipelines.sim.video import read_video


def test_simulate_writes_video_truth_and_dataset(tmp_path):
    out = tmp_path / "kh"
    result = CliRunner().invoke(main, ["simulate", "--game", "king-high", "--rounds", "2", "--seed", "7",
                                       "--out", str(out), "--faults", "0.5", "--width", "320",
                                       "--height", "180", "--dataset-every", "40", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    truth = GroundTruth.load(out / "ground_truth.json")
    assert summary["frames"] == truth.frame_count and len(truth.rounds) == 2
    frames, fps, size = read_video(out / truth.video)
    assert frames == truth.frame_count
    assert size == truth.frame_size == (320, 180) and round(fps) == truth.fps
    images = list((out / "dataset" / "images").rglob("*.jpg"))
    assert len(images) == -(-truth.frame_count // 40)
    assert (out / "dataset" / "data.yaml").exists()


def test_simulate_rejects_unknown_game(tmp_path):
    result = CliRunner().invoke(main, ["simulate", "--game", "baccarat", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "baccarat" in result.output
