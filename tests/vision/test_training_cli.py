from __future__ import annotations

from click.testing import CliRunner

from pipelines.vision.cli import train_detector


def test_fine_tuning_from_a_folder_without_weights_fails_before_any_work(tmp_path):
    """`--init-from` names the weights it could not find, and nothing is rendered or trained."""
    (tmp_path / "weights").mkdir()
    (tmp_path / "weights" / "detector.pt").write_bytes(b"")
    data = tmp_path / "data"
    result = CliRunner().invoke(train_detector, ["--data", str(data), "--init-from", str(tmp_path / "weights")])
    assert result.exit_code != 0
    assert "card_classifier.pt" in result.output and "--init-from" in result.output
    assert "detector.pt," not in result.output  # the detector's weights are there
    assert not data.exists()


def test_a_negative_time_budget_is_refused(tmp_path):
    result = CliRunner().invoke(train_detector, ["--data", str(tmp_path / "d"), "--hours", "-1"])
    assert result.exit_code != 0 and "--hours" in result.output
    assert not (tmp_path / "d").exists()
