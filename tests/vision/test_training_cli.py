from __future__ import annotations

import json

import pytest
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


def test_a_fine_tune_takes_small_steps_and_its_weights_load(tmp_path):
    """`--init-from models` end to end on a dozen rendered frames (needs the `train` extra): the detector is
    fine-tuned without warmup at a small learning rate, and what it writes runs in the Detector."""
    pytest.importorskip("ultralytics")
    import numpy as np
    import yaml

    from pipelines.vision.detect import Detector, DetectorConfig
    from pipelines.vision.paths import MODELS_DIR

    data = tmp_path / "data"
    result = CliRunner().invoke(train_detector, [
        "--data", str(data), "--images", "12", "--epochs", "1", "--cls-epochs", "1", "--imgsz", "128",
        "--hours", "0", "--init-from", str(MODELS_DIR), "--batch", "4", "--workers", "1"])
    assert result.exit_code == 0, result.output
    args = yaml.safe_load((data / "runs" / "det" / "args.yaml").read_text())
    assert (args["optimizer"], args["lr0"], args["warmup_epochs"]) == ("AdamW", 1e-4, 0)
    out = data / "weights"
    report, = json.loads((out / "training_report.json").read_text())["runs"]
    assert report["data"]["images"] == 12
    assert report["det_fine_tune"]["lr0"] == 1e-4 and report["det_init"].endswith("detector.pt")
    det = Detector(DetectorConfig(detector_path=out / "detector.onnx", classifier_path=out / "card_classifier.onnx",
                                  verifier_path=None))
    boxes = det.detect(np.zeros((720, 1280, 3), np.uint8))
    assert len(boxes.xyxy) == len(boxes.confidence)  # ran at the deployed shape


def test_a_training_run_is_added_to_the_weights_history_not_written_over_it(tmp_path):
    from pipelines.vision.training import _append_run

    report = tmp_path / "training_report.json"
    report.write_text(json.dumps({"runs": [{"epochs": 80, "device": "0"}]}))
    _append_run(report, {"epochs": 3, "tiles": {"scale": 0.75}})
    assert [r["epochs"] for r in json.loads(report.read_text())["runs"]] == [80, 3]
    report.write_text(json.dumps({"epochs": 40}))  # an older report: one run, unwrapped
    _append_run(report, {"epochs": 2})
    assert [r["epochs"] for r in json.loads(report.read_text())["runs"]] == [40, 2]
    report.write_text("{not json")
    _append_run(report, {"epochs": 1})
    assert json.loads(report.read_text()) == {"runs": [{"epochs": 1}]}


def test_the_card_classifier_fine_tunes_alone_on_the_scenes_it_is_given(tmp_path):
    """The GPU script's path (models/training/card_classifier_on_gpu.sh): scenes drawn by the mix it names,
    the classifier alone fine-tuned with its own small steps, and weights that read cards in the Detector."""
    pytest.importorskip("ultralytics")
    import numpy as np
    import yaml

    from pipelines.vision.detect import Detector, DetectorConfig
    from pipelines.vision.paths import MODELS_DIR
    from pipelines.vision.training import CLS_FINE_TUNE, build_training_sets, train_card_classifier

    scripted = build_training_sets(tmp_path / "scripted", images=6, seed=5, progress=False, mix=(1.0, 1.0))
    scattered = build_training_sets(tmp_path / "scattered", images=6, seed=5, progress=False, mix=(0.0, 0.0))
    assert scripted["mix"] == [1.0, 1.0]
    assert (scripted["labels"], scripted["card_crops"]) != (scattered["labels"], scattered["card_crops"])
    out = tmp_path / "weights"
    report = train_card_classifier(tmp_path / "scripted", tmp_path / "runs", cls_epochs=1, device="cpu", batch=4,
                                   workers=0, out_dir=out, cls_hours=None,
                                   cls_init=MODELS_DIR / "card_classifier.pt", fine_tune=CLS_FINE_TUNE)
    args = yaml.safe_load((tmp_path / "runs" / "cls" / "args.yaml").read_text())
    assert (args["optimizer"], args["lr0"], args["cos_lr"]) == ("AdamW", CLS_FINE_TUNE["lr0"], True)
    assert report["cls_fine_tune"] == CLS_FINE_TUNE and not (out / "detector.onnx").exists()
    det = Detector(DetectorConfig(classifier_path=out / "card_classifier.onnx", second_classifier_path=None,
                                  verifier_path=None))
    assert len(det.card_names) == 52
    det.detect(np.zeros((720, 1280, 3), np.uint8))


def _window_finder_trained(command, data, model: str):
    """Run a window finder's training `command` on four rendered frames into `data`: the ONNX weights it wrote and
    its run in the training report, fine-tuned from the detector's weights."""
    result = CliRunner().invoke(command, ["--data", str(data), "--frames", "4", "--epochs", "1", "--hours", "0",
                                          "--workers", "1"])
    assert result.exit_code == 0, result.output
    out = data / "weights" / f"{model}.onnx"
    report, = json.loads((out.parent / "training_report.json").read_text())["runs"]
    assert report["model"] == model and report["init"].endswith("detector.pt")
    return out, report


def test_the_card_edge_finder_trains_from_the_detector_and_its_weights_load(tmp_path):
    """`tablewatch train-edge-chips` end to end on a few rendered frames (needs the `train` extra): what it
    writes loads as the Detector's card-edge finder, which only ever adds chips to the detector's reading,
    and only over a card's edge."""
    pytest.importorskip("ultralytics")
    import numpy as np

    from pipelines.vision.cli import train_edge_chips
    from pipelines.vision.detect import Detector, DetectorConfig

    out, report = _window_finder_trained(train_edge_chips, tmp_path / "edge", "edge_chips")
    assert report["data"]["windows"] > 0
    from heldout import heldout_frames

    from pipelines.vision.chip_boxes import over_cards

    det = Detector(DetectorConfig(edge_chips_path=out, verifier_path=None))
    alone = Detector(DetectorConfig(verifier_path=None, edge_chips_path=None))
    for frame, _ in heldout_frames(4):
        before, after = alone.detect(frame), det.detect(frame)
        assert np.allclose(after.xyxy[:len(before)], before.xyxy)  # the detector's own boxes, unchanged
        is_chip = np.asarray(after.data["chip_value"]) > 0
        assert is_chip[len(before):].all() and over_cards(after.xyxy, is_chip)[len(before):].all()


def test_the_card_finder_trains_from_the_detector_and_its_weights_load(tmp_path):
    """`tablewatch train-card-finder` end to end on a few rendered frames (needs the `train` extra): what it
    writes loads as the Detector's card finder, which only ever adds cards, each in doubt and lying on one of the
    detector's cards."""
    pytest.importorskip("ultralytics")
    import numpy as np
    import supervision as sv

    from pipelines.vision.cli import train_card_finder
    from pipelines.vision.detect import Detector, DetectorConfig

    out, report = _window_finder_trained(train_card_finder, tmp_path / "cascades", "card_finder")
    assert report["data"]["split_hands"] > 0
    from heldout import heldout_frames

    det = Detector(DetectorConfig(card_finder_path=out, edge_chips_path=None, verifier_path=None))
    alone = Detector(DetectorConfig(card_finder_path=None, edge_chips_path=None, verifier_path=None))
    for frame, _ in heldout_frames(4):
        before, after = alone.detect(frame), det.detect(frame)
        assert np.allclose(after.xyxy[:len(before)], before.xyxy)  # the detector's own boxes, unchanged
        new = after[len(before):]
        assert (np.asarray(new.data["chip_value"]) == 0).all() and np.asarray(new.data["uncertain"]).all()
        if len(new):
            assert (sv.box_iou_batch(new.xyxy, before.xyxy).max(axis=1) > 0).all()
