"""The second card classifier: it looks again only at cards the first is unsure of, and averages."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from heldout import heldout_frames, score

from pipelines.vision.crops import card_crop
from pipelines.vision.detect import Detector, DetectorConfig, ModelError, _to_tensor
from pipelines.vision.paths import MODELS_DIR

SECOND = MODELS_DIR / "card_classifier_2.onnx"


def _card_crops(detector: Detector, n_frames: int = 6) -> np.ndarray:
    """Crops of every card face the detector finds on the held-out frames, as the classifiers' input."""
    crops = []
    for frame, _ in heldout_frames(n_frames):
        det = detector.detect(frame)
        crops += [card_crop(frame, box, detector.cls_size)
                  for box, name in zip(det.xyxy, det.data["class_name"], strict=True) if name == "card"]
    return _to_tensor(crops)


def test_unsure_cards_get_both_classifiers_averaged_and_sure_ones_the_first_alone():
    first = Detector(DetectorConfig(second_classifier_path=None))
    second = Detector(DetectorConfig(classifier_path=SECOND, second_classifier_path=None))
    both = Detector()
    tensor = _card_crops(first)
    p1, p2, got = first._read_cards(tensor), second._read_cards(tensor), both._read_cards(tensor)
    unsure = p1.max(axis=1) < both.config.second_look_below
    assert len(tensor) >= 40 and 0 < unsure.sum() < len(tensor)  # crowded frames: both kinds are there
    np.testing.assert_allclose(got[~unsure], p1[~unsure], rtol=0, atol=1e-6)
    np.testing.assert_allclose(got[unsure], (p1[unsure] + p2[unsure]) / 2, rtol=0, atol=1e-6)
    always = Detector(DetectorConfig(second_look_below=1.01))._read_cards(tensor)
    np.testing.assert_allclose(always, (p1 + p2) / 2, rtol=0, atol=1e-6)


def test_the_second_look_reads_the_held_out_frames_at_least_as_well_as_the_first_alone():
    totals = {}
    for name, det in (("first", Detector(DetectorConfig(second_classifier_path=None))), ("both", Detector())):
        counts = [score(labels, det.detect(frame)) for frame, labels in heldout_frames(6)]
        totals[name] = sum(c["cards_ok"] for c in counts)
    assert totals["both"] >= totals["first"], totals


def test_a_second_classifier_of_other_classes_is_refused_by_name(tmp_path):
    with pytest.raises(ModelError, match=r"detector\.onnx"):
        Detector(DetectorConfig(second_classifier_path=MODELS_DIR / "detector.onnx"))
    with pytest.raises(ModelError, match=r"nowhere\.onnx"):
        Detector(DetectorConfig(second_classifier_path=tmp_path / "nowhere.onnx"))


def test_table_config_turns_the_second_look_off():
    from pipelines.config import load_table_config
    from pipelines.vision.pipeline import _detector_for

    cfg = load_table_config(Path(__file__).resolve().parents[2] / "infra" / "tables" / "king-high.yaml")
    assert _detector_for(cfg)._cls2 is not None
    off = _detector_for(cfg.model_copy(update={"vision": cfg.vision.model_copy(update={"card_second_look": False})}))
    assert off._cls2 is None
