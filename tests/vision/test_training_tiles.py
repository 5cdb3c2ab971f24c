from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from pipelines.sim.render import Label
from pipelines.vision.cli import train_detector
from pipelines.vision.training import build_training_sets
from pipelines.vision.training_tiles import TILE_IMGSZ, TILE_SCALE, TILE_WINDOW, cut_tile, tile_origin


def _frame_with_square(x0: int, y0: int, side: int, size: tuple[int, int] = (1280, 720)) -> np.ndarray:
    frame = np.full((size[1], size[0], 3), 40, np.uint8)
    frame[y0:y0 + side, x0:x0 + side] = (0, 0, 255)
    return frame


def test_a_tile_is_the_window_at_the_deployed_scale_with_its_labels_on_the_same_pixels():
    frame = _frame_with_square(500, 300, 40)
    tile, labels = cut_tile(frame, [Label("chip_25", 500, 300, 540, 340)], (400, 40))
    assert tile.shape == (TILE_IMGSZ, TILE_IMGSZ, 3) and round(TILE_WINDOW * TILE_SCALE) == TILE_IMGSZ
    (name, a, b, c, d), = labels
    assert name == "chip_25"
    assert (a, b, c, d) == pytest.approx(((500 - 400) * TILE_SCALE, (300 - 40) * TILE_SCALE,
                                          (540 - 400) * TILE_SCALE, (340 - 40) * TILE_SCALE))
    red = tile[..., 2] > 200
    ys, xs = np.nonzero(red)
    assert abs(xs.min() - a) <= 1 and abs(xs.max() + 1 - c) <= 1
    assert abs(ys.min() - b) <= 1 and abs(ys.max() + 1 - d) <= 1


def test_objects_mostly_outside_the_window_are_left_out_and_the_rest_clipped():
    frame = _frame_with_square(0, 0, 1)
    labels = [Label("card", 380, 100, 440, 180),  # two thirds inside a window starting at x=400: kept, clipped
              Label("card", 380, 300, 415, 380),  # less than half inside: left out
              Label("chip_5", 2000, 0, 2040, 40)]  # not in the frame at all
    _, got = cut_tile(frame, labels, (400, 0))
    assert len(got) == 1
    assert got[0].x1 == 0 and got[0].x2 == pytest.approx(40 * TILE_SCALE)


def test_a_frame_shorter_than_the_window_is_padded_below_not_stretched():
    frame = _frame_with_square(100, 560, 40, size=(1280, 600))
    tile, labels = cut_tile(frame, [Label("chip_1", 100, 560, 140, 600)], (0, 0))
    assert tile.shape == (TILE_IMGSZ, TILE_IMGSZ, 3)
    assert not tile[round(600 * TILE_SCALE) + 1:].any()  # black below the frame
    assert labels[0].y2 == pytest.approx(600 * TILE_SCALE)


def test_the_window_lies_inside_the_frame_and_near_a_chip():
    rng = np.random.default_rng(0)
    chip = [Label("chip_100", 1000, 400, 1020, 420)]
    for _ in range(50):
        x0, y0 = tile_origin((1280, 720), chip, rng, jitter_px=0)
        assert 0 <= x0 <= 1280 - TILE_WINDOW and 0 <= y0 <= 720 - TILE_WINDOW
        assert x0 <= 1000 and x0 + TILE_WINDOW >= 1020  # the chip is in view
    x0, y0 = tile_origin((1280, 720), [], rng)
    assert 0 <= x0 <= 1280 - TILE_WINDOW and 0 <= y0 <= 720 - TILE_WINDOW


def test_a_tile_set_is_rendered_deterministically_without_card_crops(tmp_path):
    metas = [build_training_sets(tmp_path / name, images=4, seed=5, workers=1, progress=False, tiles=True)
             for name in ("a", "b")]
    assert metas[0] == metas[1] and metas[0]["tiles"]["imgsz"] == TILE_IMGSZ and metas[0]["card_crops"] == 0
    assert not (tmp_path / "a" / "cls").exists()
    images = sorted((tmp_path / "a" / "det" / "images").rglob("*.jpg"))
    assert len(images) == 4
    for img in images:
        assert cv2.imread(str(img)).shape == (TILE_IMGSZ, TILE_IMGSZ, 3)
        twin = tmp_path / "b" / img.relative_to(tmp_path / "a")
        label = img.parent.parent.parent / "labels" / img.parent.name / f"{img.stem}.txt"
        rows = np.loadtxt(label, ndmin=2)
        assert len(rows) and (rows[:, 1:] >= 0).all() and (rows[:, 1:] <= 1).all()
        assert label.read_text() == (twin.parent.parent.parent / "labels" / img.parent.name
                                     / f"{img.stem}.txt").read_text()
    assert json.loads((tmp_path / "a" / "meta.json").read_text())["tiles"]["scale"] == TILE_SCALE


def test_a_folder_of_tiles_is_not_taken_for_whole_frames_nor_the_other_way(tmp_path):
    build_training_sets(tmp_path / "t", images=2, seed=5, workers=1, progress=False, tiles=True)
    result = CliRunner().invoke(train_detector, ["--data", str(tmp_path / "t")])
    assert result.exit_code != 0 and "holds tiles, not whole frames" in result.output
    (tmp_path / "f" / "det").mkdir(parents=True)
    (tmp_path / "f" / "det" / "data.yaml").write_text("path: x\n")
    (tmp_path / "f" / "meta.json").write_text("{not json")
    result = CliRunner().invoke(train_detector, ["--data", str(tmp_path / "f"), "--tiles"])
    assert result.exit_code != 0 and "meta.json" in result.output


def test_a_tile_fine_tune_trains_the_detector_only_at_the_tile_size(tmp_path):
    """`--tiles --init-from models` end to end on a few tiles (needs the `train` extra)."""
    pytest.importorskip("ultralytics")
    import yaml

    from pipelines.vision.detect import Detector, DetectorConfig
    from pipelines.vision.paths import MODELS_DIR

    data = tmp_path / "data"
    result = CliRunner().invoke(train_detector, [
        "--data", str(data), "--images", "8", "--epochs", "1", "--tiles", "--hours", "0",
        "--init-from", str(MODELS_DIR), "--batch", "4", "--workers", "1"])
    assert result.exit_code == 0, result.output
    args = yaml.safe_load((data / "runs" / "det" / "args.yaml").read_text())
    assert (args["imgsz"], args["optimizer"], args["lr0"]) == (TILE_IMGSZ, "AdamW", 1e-4)
    out = data / "weights"
    report, = json.loads((out / "training_report.json").read_text())["runs"]
    assert report["tiles"]["scale"] == TILE_SCALE and "cls_epochs" not in report
    assert report["data"]["tiles"]["imgsz"] == TILE_IMGSZ
    # No card classifier, and no fast profile: tile weights lose its half scale.
    assert not (out / "card_classifier.onnx").exists() and not (out / "detector_fast.onnx").exists()
    assert (out / "detector_tile.onnx").exists()
    det = Detector(DetectorConfig(detector_path=out / "detector.onnx", verifier_path=None))
    boxes = det.detect(np.zeros((720, 1280, 3), np.uint8))
    assert len(boxes.xyxy) == len(boxes.confidence)
