"""The second card classifier: it looks again only at cards the first is unsure of, confirming or vetoing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from heldout import heldout_frames, score

from pipelines.vision.crops import card_crop
from pipelines.vision.detect import Detector, DetectorConfig, ModelError, _to_tensor
from pipelines.vision.paths import MODELS_DIR

SECOND = MODELS_DIR / "card_classifier_2.onnx"


def _card_crops(detector: Detector, n_frames: int = 6, half_covered: bool = False) -> np.ndarray:
    """Crops of every card face the detector finds on the held-out frames, as the classifiers' input; with
    `half_covered`, each also with its lower half greyed out, as under the dealer's hand, where the two
    classifiers are unsure and sometimes disagree."""
    crops = []
    for frame, _ in heldout_frames(n_frames):
        det = detector.detect(frame)
        crops += [card_crop(frame, box, detector.cls_size)
                  for box, name in zip(det.xyxy, det.data["class_name"], strict=True) if name == "card"]
    tensor = _to_tensor(crops)
    if not half_covered:
        return tensor
    covered = tensor.copy()
    covered[:, :, tensor.shape[2] // 2:, :] = 0.5
    return np.concatenate([tensor, covered])


def test_the_second_look_never_changes_a_reading_only_how_sure_it_is():
    first = Detector(DetectorConfig(second_classifier_path=None))
    second = Detector(DetectorConfig(classifier_path=SECOND, second_classifier_path=None))
    both = Detector()
    tensor = _card_crops(first, half_covered=True)
    best1, conf1 = first._read_cards(tensor)
    p2 = second._cls.run(None, {second._cls_input: tensor})[0]
    theirs = p2[np.arange(len(best1)), best1]  # the second's belief in the first's reading
    best, conf = both._read_cards(tensor)
    np.testing.assert_array_equal(best, best1)
    unsure = conf1 < both.config.second_look_below
    agree = p2.argmax(axis=1) == best1
    assert len(tensor) >= 80 and 0 < unsure.sum() < len(tensor)  # crowded frames: both kinds are there
    assert (unsure & agree).any() and (unsure & ~agree).any()
    np.testing.assert_allclose(conf[~unsure], conf1[~unsure], rtol=0, atol=1e-6)
    np.testing.assert_allclose(conf[unsure & agree], ((conf1 + theirs) / 2)[unsure & agree], rtol=0, atol=1e-6)
    np.testing.assert_allclose(conf[unsure & ~agree], np.minimum(conf1, theirs)[unsure & ~agree], rtol=0, atol=1e-6)


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
    from pipelines.games.layout import layout_for
    from pipelines.vision.pipeline import _detector_for

    cfg = load_table_config(Path(__file__).resolve().parents[2] / "infra" / "tables" / "king-high.yaml")
    assert _detector_for(cfg, layout_for(cfg.game))._cls2 is not None
    off = _detector_for(cfg.model_copy(update={"vision": cfg.vision.model_copy(update={"card_second_look": False})}),
                        layout_for(cfg.game))
    assert off._cls2 is None


def test_detections_stored_under_other_classifiers_read_as_those_classifiers_would_have_read_them():
    frame, _ = heldout_frames(1)[0]
    both, other = Detector(), Detector(DetectorConfig(classifier_path=SECOND, second_classifier_path=None))
    stored, fresh = both.detect(frame), other.detect(frame)
    again = other.read_cards(frame, stored)
    np.testing.assert_array_equal(again.xyxy, stored.xyxy)  # the same boxes: only the classifiers differ
    np.testing.assert_array_equal(fresh.xyxy, stored.xyxy)
    for key in ("card", "uncertain", "chip_value", "class_name"):
        assert list(again.data[key]) == list(fresh.data[key]), key
    np.testing.assert_allclose(again.data["card_confidence"], fresh.data["card_confidence"], atol=1e-6)
    assert not np.allclose(again.data["card_confidence"], stored.data["card_confidence"])  # really read again
    same = both.read_cards(frame, stored)
    assert list(same.data["card"]) == list(stored.data["card"])
    np.testing.assert_allclose(same.data["card_confidence"], stored.data["card_confidence"], atol=1e-6)


def test_the_benchmark_reads_stored_detections_again_when_only_the_classifiers_changed(tmp_path, load_benchmark):
    """benchmarks/reconstruction.py keeps each set's detections under a key without the classifiers too: new
    classifiers then read the stored cards again from the video instead of running the detector."""
    import pickle
    from types import SimpleNamespace

    bench = load_benchmark("reconstruction")
    frames = [SimpleNamespace(image=f) for f, _ in heldout_frames(2)]
    both, other = Detector(), Detector(DetectorConfig(classifier_path=SECOND, second_classifier_path=None))
    new, shared = tmp_path / "detections_new.pkl", tmp_path / "boxes_k.pkl"
    assert bench._stored(new, shared, lambda: frames, lambda: other) is None  # nothing stored: detect
    old = [both.detect(f.image) for f in frames]
    bench._store(old, tmp_path / "detections_old.pkl", shared)
    assert shared.is_symlink() and len(pickle.loads(shared.read_bytes())) == len(old)
    got = bench._stored(new, shared, lambda: frames, lambda: other)
    for g, f in zip(got, frames, strict=True):
        fresh = other.detect(f.image)
        assert list(g.data["card"]) == list(fresh.data["card"])
        np.testing.assert_allclose(g.data["card_confidence"], fresh.data["card_confidence"], atol=1e-6)
    # Stored for another video (a frame more or less than this one's): ignored, so the caller detects anew.
    for k, stored in enumerate(([*old, old[0]], old[:1])):
        elsewhere = tmp_path / f"elsewhere{k}"
        elsewhere.mkdir()
        bench._store(stored, elsewhere / "detections_old.pkl", elsewhere / "boxes_k.pkl")
        assert bench._stored(elsewhere / "detections_new.pkl", elsewhere / "boxes_k.pkl", lambda: frames,
                             lambda: other) is None
        assert not (elsewhere / "detections_new.pkl").exists()
    # Stored now: read back, with no frames and no detector needed.
    assert [list(d.data["card"]) for d in bench._stored(new, shared, lambda: iter(()), lambda: None)] == [
        list(d.data["card"]) for d in got]
