from __future__ import annotations

import numpy as np
import supervision as sv

from pipelines.games.layout import layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.render import render
from pipelines.sim.scene import PlacedCard, Scene
from pipelines.vision.card_boxes import parts_of_cards
from pipelines.vision.zones import ZoneMapper


def test_a_strip_inside_a_more_confident_card_box_is_part_of_that_card():
    # set A77, Pick 2 seed 15364, frame 436: Ts boxed at 0.94, a strip of its left half at 0.67
    boxes = np.array([[843, 384, 900, 443], [846, 387, 870, 441], [869, 355, 924, 415]])
    assert parts_of_cards(boxes, np.array([0.94, 0.67, 0.93])).tolist() == [False, True, False]
    # the strip more confident than the card it lies in: the whole box is the doubtful one, not it
    assert not parts_of_cards(boxes, np.array([0.6, 0.67, 0.93])).any()
    # a box as large as the one it lies in is a card of its own (card suppression weighs those)
    square = np.array([[843, 384, 900, 443], [845, 386, 899, 442]])
    assert not parts_of_cards(square, np.array([0.94, 0.67])).any()
    # a card of a cascade: its strip reaches out of the card beneath (a third of it lies beyond)
    cascade = np.array([[0, 0, 60, 90], [40, 0, 70, 90], [60, 0, 120, 90]])
    assert not parts_of_cards(cascade, np.array([0.95, 0.6, 0.95])).any()
    assert parts_of_cards(np.zeros((1, 4)), np.ones(1)).tolist() == [False]


def test_a_card_boxed_again_in_part_is_read_as_one_card(oracle):
    layout = layout_for("pick-2-poker")
    cam = Camera.overhead(layout, np.random.default_rng(0))
    mapper = ZoneMapper(layout, cam.H)
    x, y = layout.zone("seat2.cards").centre
    _, labels = render(layout, Scene(cards=[PlacedCard("Ts", x, y)]), cam, np.random.default_rng(0), effects=False)
    det = oracle(labels)
    (x0, y0, x1, y1), = det.xyxy
    strip = sv.Detections(xyxy=np.array([[x0 + 2, y0 + 2, (x0 + x1) / 2, y1 - 2]], np.float32),
                          confidence=np.array([0.67], np.float32),
                          data={"class_name": np.array(["card"], object), "card": np.array(["Ac"], object),
                                "chip_value": np.zeros(1, np.int32), "card_confidence": np.array([0.5], np.float32),
                                "uncertain": np.ones(1, bool)})
    det.confidence[:] = 0.94
    both = sv.Detections.merge([det, strip])
    assert [c.card for c in mapper.observe(both)["seat2.cards"].cards] == ["Ts"]
    # the same strip on its own is a card seen in part: carried, with its doubt
    alone = mapper.observe(strip)["seat2.cards"].cards
    assert [(c.card, c.uncertain) for c in alone] == [("Ac", True)]
