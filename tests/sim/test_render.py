from collections import Counter

import numpy as np
import pytest

from pipelines.games.layout import layout_for
from pipelines.games.round import GAME_IDS
from pipelines.sim.camera import Camera
from pipelines.sim.classes import CLASS_NAMES
from pipelines.sim.render import chip_positions, covered_fractions, render
from pipelines.sim.render_scenes import random_scene
from pipelines.sim.scene import CHIP_D_MM, ChipStack, Occluder, PlacedCard, Scene


def _expected(scene):
    want = Counter()
    for c in scene.cards:
        want[c.card if c.face_up and c.card else f"back_{c.back}"] += 1
    for s in scene.chips:
        for d in s.chips:
            want[f"chip_{d}"] += 1
    return want


@pytest.mark.parametrize("game", GAME_IDS)
def test_labels_match_scene_without_occluders(game):
    layout = layout_for(game)
    rng = np.random.default_rng(GAME_IDS.index(game))
    camera = Camera.overhead(layout, rng)
    scene = random_scene(layout, rng, occluders=0, occupancy=1.0)
    frame, labels = render(layout, scene, camera, rng)
    assert frame.shape == (720, 1280, 3) and frame.dtype == np.uint8
    assert Counter(lab.cls for lab in labels) == _expected(scene)
    assert all(lab.cls in CLASS_NAMES for lab in labels)
    for lab in labels:
        assert 0 <= lab.x1 < lab.x2 <= 1280 and 0 <= lab.y1 < lab.y2 <= 720


def test_label_box_sits_on_the_projected_card_and_the_card_is_drawn():
    layout = layout_for("high-tie")
    rng = np.random.default_rng(3)
    camera = Camera.overhead(layout, rng)
    x, y = layout.zone("dealer.cards").centre
    empty, _ = render(layout, Scene(), camera, rng, effects=False)
    frame, labels = render(layout, Scene(cards=[PlacedCard("Kd", x, y)]), camera, rng, effects=False)
    (lab,) = labels
    assert lab.cls == "Kd"
    cx, cy = camera.project([[x, y]])[0]
    assert abs((lab.x1 + lab.x2) / 2 - cx) < 1.5 and abs((lab.y1 + lab.y2) / 2 - cy) < 1.5
    patch = frame[int(lab.y1) + 2:int(lab.y2) - 2, int(lab.x1) + 2:int(lab.x2) - 2].astype(int)
    before = empty[int(lab.y1) + 2:int(lab.y2) - 2, int(lab.x1) + 2:int(lab.x2) - 2].astype(int)
    assert patch.mean() > before.mean() + 60  # a white card now lies on the felt
    outside = np.ones(frame.shape[:2], bool)
    outside[int(lab.y1) - 4:int(lab.y2) + 6, int(lab.x1) - 4:int(lab.x2) + 6] = False
    assert np.array_equal(frame[outside], empty[outside])


def test_occluded_objects_leave_the_labels():
    layout = layout_for("pick-2-poker")
    rng = np.random.default_rng(5)
    camera = Camera.overhead(layout, rng)
    x, y = layout.zone("dealer.cards").centre
    stack = ChipStack([25, 5], x + 300, y + 150)
    scene = Scene(cards=[PlacedCard("As", x, y), PlacedCard("2c", x + 200, y, face_up=False, back="blue")],
                  chips=[stack])
    _, labels = render(layout, scene, camera, rng)
    assert Counter(lab.cls for lab in labels) == Counter({"As": 1, "back_blue": 1, "chip_25": 1, "chip_5": 1})
    scene.occluders.append(Occluder(x, y, rx=70, ry=90))  # over the ace only
    _, labels = render(layout, scene, camera, rng)
    assert Counter(lab.cls for lab in labels) == Counter({"back_blue": 1, "chip_25": 1, "chip_5": 1})
    scene.occluders.append(Occluder(stack.x, stack.y, rx=80, ry=80))
    _, labels = render(layout, scene, camera, rng)
    assert [lab.cls for lab in labels] == ["back_blue"]


def test_covered_fractions_follow_the_labels_and_what_lies_over_them():
    layout = layout_for("high-tie")
    rng = np.random.default_rng(4)
    camera = Camera.overhead(layout, rng)
    x, y = layout.zone("dealer.cards").centre
    # The 9c under the edge of the dealer's hand; the Kd half under the Qs drawn after it; the 4d alone.
    scene = Scene(cards=[PlacedCard("9c", x - 250, y), PlacedCard("4d", x, y), PlacedCard("Kd", x + 250, y),
                         PlacedCard("Qs", x + 250 + 30, y)],
                  occluders=[Occluder(x - 250 - 45, y, rx=50, ry=80)])
    _, labels = render(layout, scene, camera, rng)
    covered = dict(zip((lab.cls for lab in labels), covered_fractions(layout, scene, camera), strict=True))
    assert set(covered) == {"9c", "4d", "Kd", "Qs"}
    assert covered["4d"] == 0 and covered["Qs"] == 0
    assert 0.1 < covered["9c"] <= 0.6 and 0.3 < covered["Kd"] <= 0.6


def test_a_card_under_another_is_not_labelled():
    layout = layout_for("king-high")
    rng = np.random.default_rng(9)
    camera = Camera.overhead(layout, rng)
    x, y = layout.zone("board.card1").centre
    scene = Scene(cards=[PlacedCard(None, x, y, face_up=False), PlacedCard("7h", x + 1, y + 1)])
    _, labels = render(layout, scene, camera, rng)
    assert [lab.cls for lab in labels] == ["7h"]


def test_chip_spread_offsets_forty_percent_of_a_diameter():
    pos = np.array(chip_positions(ChipStack([5, 5, 5], 500.0, 400.0)))
    steps = np.linalg.norm(np.diff(pos, axis=0), axis=1)
    assert np.allclose(steps, 0.4 * CHIP_D_MM)
    assert np.allclose(pos.mean(axis=0), [500.0, 400.0])
    assert len(chip_positions(ChipStack([1] * 12, 0, 0))) == 12


def test_frames_vary_between_sessions_and_frames():
    layout = layout_for("3-card-monster")
    rng = np.random.default_rng(11)
    cam_a, cam_b = Camera.overhead(layout, rng), Camera.overhead(layout, rng)
    assert not np.allclose(cam_a.H, cam_b.H)
    scene = random_scene(layout, rng, occluders=0)
    f1, l1 = render(layout, scene, cam_a, rng)
    f2, l2 = render(layout, scene, cam_a, rng)
    assert l1 == l2  # the same scene labels identically on the same camera
    assert np.abs(f1.astype(int) - f2.astype(int)).mean() > 0.5  # noise, light, compression differ


def test_camera_round_trip_and_fit():
    layout = layout_for("king-high")
    cam = Camera.overhead(layout, np.random.default_rng(2))
    pts = np.random.default_rng(0).uniform([0, 0], [layout.width_mm, layout.height_mm], size=(50, 2))
    px = cam.project(pts)
    assert np.allclose(cam.to_table(px), pts, atol=1e-6)
    assert (px >= 0).all() and (px[:, 0] < 1280).all() and (px[:, 1] < 720).all()
    with pytest.raises(ValueError, match="homography"):
        Camera(H=np.zeros((3, 3)))


def test_stacks_laid_over_card_edges_show_chips_half_on_a_card():
    """The training generator's blind-spot scenes (pipelines/sim/random_scenes.py): each added stack puts
    a chip over the edge of a card, and the labels say so."""
    from pipelines.sim.random_scenes import with_chips_on_card_edges
    from pipelines.vision.chip_boxes import over_cards

    layout = layout_for("pick-2-poker")
    rng = np.random.default_rng(21)
    camera = Camera.overhead(layout, rng)
    x, y = layout.zone("seat1.cards").centre
    scene = Scene(cards=[PlacedCard("Kd", x, y), PlacedCard("7s", x + 200, y, angle=90.0)])
    assert with_chips_on_card_edges(Scene(), rng).chips == []  # no card, nothing to lay over
    for _ in range(10):
        laid = with_chips_on_card_edges(scene, rng, stacks=2)
        assert laid.cards == scene.cards and len(laid.chips) == 2 and scene.chips == []
        for stack in laid.chips:
            _, labels = render(layout, Scene(cards=scene.cards, chips=[stack]), camera, rng, effects=False)
            boxes = np.array([[lab.x1, lab.y1, lab.x2, lab.y2] for lab in labels])
            assert over_cards(boxes, np.array([lab.cls.startswith("chip_") for lab in labels])).any()


def test_hands_laid_on_cards_cover_part_of_the_card_they_are_laid_on():
    """Generator 5's scenes (pipelines/sim/random_scenes.py): each added hand rests part over one face-up card,
    mostly a fifth to three fifths of it (a card hidden further goes unlabelled), and a face-down card is
    never the one chosen."""
    from pipelines.sim.random_scenes import with_hands_on_cards

    layout = layout_for("high-tie")
    rng = np.random.default_rng(59)
    camera = Camera.overhead(layout, rng)
    up = PlacedCard("Qd", *layout.zone("seat3.cards").centre)
    down = PlacedCard("9c", *layout.zone("seat6.cards").centre, face_up=False)
    assert with_hands_on_cards(Scene(cards=[down]), rng).occluders == []  # no face-up card, no hand
    covered = []
    for _ in range(40):
        laid = with_hands_on_cards(Scene(cards=[up, down]), rng, hands=1)
        assert laid.cards == [up, down] and len(laid.occluders) == 1
        _, labels = render(layout, laid, camera, rng, effects=False)
        share = dict(zip((lab.cls for lab in labels), covered_fractions(layout, laid, camera), strict=True))
        assert [v for k, v in share.items() if k != "Qd"] == [0.0]  # the face-down card, untouched
        covered.append(share.get("Qd", 1.0))  # unlabelled: hidden past the renderer's limit
    covered = np.array(covered)
    assert (covered > 0.0).mean() >= 0.9
    assert ((covered > 0.2) & (covered < 0.6)).mean() >= 0.3  # the cards the classifiers misread lie so
