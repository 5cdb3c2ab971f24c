"""The card-edge chip finder: where it looks, which of its chips count, and its training windows."""

import json

import numpy as np
import supervision as sv

from pipelines.vision.edge_chips import (
    CLEAR_OF_CHIPS,
    EDGE_IMGSZ,
    EDGE_WINDOW,
    card_windows,
    chips_to_add,
    window_origin,
)
from pipelines.vision.edge_chips_data import build_edge_set

SEAT = [[600.0, 400.0, 636.0, 450.0], [640.0, 400.0, 676.0, 450.0], [680.0, 400.0, 716.0, 450.0]]  # three cards
CARD = [600.0, 400.0, 636.0, 450.0]


def test_a_seats_cards_share_one_window_and_a_far_seat_gets_its_own() -> None:
    far = [100.0, 100.0, 136.0, 150.0]
    origins = card_windows(np.array([*SEAT, far]), (1280, 720))
    assert len(origins) == 2
    for x1, y1, x2, y2 in [*SEAT, far]:  # every card with its margin inside a window
        assert any(ox <= x1 - 24 and oy <= y1 - 24 and x2 + 24 <= ox + EDGE_WINDOW and y2 + 24 <= oy + EDGE_WINDOW
                   for ox, oy in origins)


def test_a_window_is_centred_on_its_group_of_cards() -> None:
    (ox, oy), = card_windows(np.array(SEAT), (1280, 720))
    assert (ox + EDGE_WINDOW / 2, oy + EDGE_WINDOW / 2) == (658, 425)  # the middle of the three cards


def test_cards_too_far_apart_for_one_window_get_two() -> None:
    wide = [[600.0, 400.0, 636.0, 450.0], [800.0, 400.0, 836.0, 450.0]]  # 236 px across, with margins 284
    assert len(card_windows(np.array(wide), (1280, 720))) == 2


def test_windows_stay_inside_the_frame() -> None:
    corner = [1250.0, 690.0, 1279.0, 719.0]
    (ox, oy), = card_windows(np.array([corner]), (1280, 720))
    assert (ox, oy) == (1280 - EDGE_WINDOW, 720 - EDGE_WINDOW)
    assert window_origin((1280, 720), (5.0, 5.0)) == (0, 0)


def test_a_chip_over_a_card_edge_clear_of_the_detectors_chips_counts() -> None:
    on_edge = [625.0, 440.0, 646.0, 461.0]  # half on the card's lower edge
    assert chips_to_add(np.array([on_edge]), np.array([0.8]), np.array([CARD]), np.zeros((0, 4))) == [0]


def test_a_chip_away_from_cards_or_on_a_detector_chip_does_not_count() -> None:
    on_felt = [300.0, 300.0, 321.0, 321.0]
    on_edge = [625.0, 440.0, 646.0, 461.0]
    detector_chip = [627.0, 441.0, 648.0, 462.0]  # the detector saw that one
    got = chips_to_add(np.array([on_felt, on_edge]), np.array([0.9, 0.9]), np.array([CARD]),
                       np.array([detector_chip]))
    assert got == []


def test_one_chip_found_from_two_windows_counts_once_at_its_best() -> None:
    a, b = [625.0, 440.0, 646.0, 461.0], [626.0, 441.0, 647.0, 462.0]
    assert CLEAR_OF_CHIPS < 0.9  # the two boxes overlap far more than that
    assert chips_to_add(np.array([a, b]), np.array([0.5, 0.7]), np.array([CARD]), np.zeros((0, 4))) == [1]


def test_training_windows_hold_chips_over_card_edges_with_their_labels(tmp_path) -> None:
    meta = build_edge_set(tmp_path, frames=6, seed=3, progress=False, val_every=3)
    images = sorted((tmp_path / "images").rglob("*.jpg"))
    assert meta["windows"] == len(images) > 0
    assert meta["val"] > 0 and meta["train"] > 0
    assert meta["chips_on_cards"] > 0
    import cv2

    assert cv2.imread(str(images[0])).shape == (EDGE_IMGSZ, EDGE_IMGSZ, 3)
    rows = [line.split() for p in (tmp_path / "labels").rglob("*.txt") for line in p.read_text().splitlines()]
    xywh = np.array([[float(v) for v in r[1:]] for r in rows])
    assert ((xywh[:, :2] - xywh[:, 2:] / 2 >= -1e-6) & (xywh[:, :2] + xywh[:, 2:] / 2 <= 1 + 1e-6)).all()
    assert json.loads((tmp_path / "meta.json").read_text())["imgsz"] == EDGE_IMGSZ


def _edge_chips_frames():
    """Held-out Pick 2 frames as dealt (seed never used in training), each with two small stacks laid over a
    card's edge (as a player's wager or a payout pushed against the cards lies), and those chips' labels."""
    from pipelines.games.layout import layout_for
    from pipelines.sim.camera import Camera
    from pipelines.sim.random_scenes import with_chips_on_card_edges
    from pipelines.sim.render import render
    from pipelines.sim.session import sampled_scenes
    from pipelines.vision.chip_boxes import over_cards

    layout = layout_for("pick-2-poker")
    rng = np.random.default_rng([90_417, 0])
    camera = Camera.overhead(layout, rng)
    for scene in sampled_scenes("pick-2-poker", 4, 90_417, 24):
        frame, labels = render(layout, with_chips_on_card_edges(scene, rng, stacks=2), camera, rng)
        boxes = np.array([lb[1:] for lb in labels]).reshape(-1, 4)
        on = over_cards(boxes, np.array([lb[0].startswith("chip_") for lb in labels]))
        yield frame, [labels[i] for i in np.flatnonzero(on)], [lb for lb in labels if lb[0].startswith("chip_")]


def _reads(det, name: str, box: list[float]) -> bool:
    """Whether `det` holds a box of class `name` on `box` (IoU 0.5 or more)."""
    iou = sv.box_iou_batch(np.array([box], np.float64), np.asarray(det.xyxy, np.float64))[0]
    return any(iou[k] >= 0.5 and det.data["class_name"][k] == name for k in range(len(det)))


def test_the_committed_finder_reads_chips_over_card_edges_the_detector_misses():
    """Regression of models/edge_chips.onnx: on held-out Pick 2 frames with stacks over the cards' edges, it
    reads (with their denomination) chips lying there that the detector alone misses (14 of 77 in these 24
    frames), and most of what it adds is a chip of the denomination it says (14 of 23)."""
    from pipelines.vision.detect import Detector, DetectorConfig
    from pipelines.vision.paths import MODELS_DIR

    alone = Detector(DetectorConfig(edge_chips_path=None))
    both = Detector(DetectorConfig(edge_chips_path=MODELS_DIR / "edge_chips.onnx"))
    rescued = added = true_adds = 0
    for frame, on_edge, chips in _edge_chips_frames():
        before, after = alone.detect(frame), both.detect(frame)
        new = after[len(before):]
        added += len(new)
        true_adds += sum(any(_reads(new[k:k + 1], name, box) for name, *box in chips) for k in range(len(new)))
        for name, *box in on_edge:
            rescued += _reads(new, name, box) and not _reads(before, name, box)
    assert rescued >= 10
    assert true_adds > added / 2
