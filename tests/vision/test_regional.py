"""Looking only where the table changed: the gate's changed box, the window around it, and the committed
window model against the whole-frame detector on simulated frames."""

from __future__ import annotations

import numpy as np
import pytest

from pipelines.games.layout import layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.render import render
from pipelines.sim.scene import ChipStack, Scene
from pipelines.vision.detect import Detector
from pipelines.vision.motion import MotionConfig, MotionGate
from pipelines.vision.pipeline import VisionPipeline
from pipelines.vision.regional import RegionalDetector
from pipelines.vision.zones import ZoneMapper


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector()


@pytest.fixture(scope="module")
def table():
    """Pick 2 at 1280x720: two wagers down, then a third put down in another spot."""
    layout = layout_for("pick-2-poker")
    rng = np.random.default_rng(11)
    cam = Camera.overhead(layout, rng)
    bets = layout.zones_of("bet")
    before = Scene(chips=[ChipStack([25, 5], *bets[0].centre), ChipStack([100], *bets[4].centre)])
    after = Scene(chips=[*before.chips, ChipStack([25, 25, 5], *bets[5].centre)])
    frames = [render(layout, before, cam, rng)[0] for _ in range(2)] + [render(layout, after, cam, rng)[0]]
    return layout, cam, bets[5], frames


def test_the_gate_says_where_the_frame_changed(table):
    layout, cam, new_bet, frames = table
    gate = MotionGate(ZoneMapper(layout, cam.H).zone_polygons_px(), cam.size, MotionConfig(refresh_every=100))
    assert gate.check(0, frames[0]) and gate.changed_box is None  # the first frame is looked at whole
    assert not gate.check(1, frames[1]) and gate.changed_box == (0, 0, 0, 0)  # camera noise only
    assert gate.check(2, frames[2])
    x0, y0, x1, y1 = gate.changed_box
    cx, cy = cam.project(np.array([new_bet.centre]))[0]
    assert x0 < cx < x1 and y0 < cy < y1
    assert (x1 - x0) * (y1 - y0) < 0.05 * cam.size[0] * cam.size[1]  # the new stack, not the table


def test_the_window_holds_the_change_with_its_context_on_the_grid_or_is_none(detector):
    regional = RegionalDetector(detector, context_px=48)
    # Windows of the detector's 960x544 input (the 1280x720 frame at 0.75, 2 rows of padding above and
    # below) on its stride grid (multiples of 32 input px); 48 frame px of context are 36 input px.
    assert regional.window((1280, 720), (600, 300, 700, 380)) == (384, 160, 576, 352)
    assert regional.window((1280, 720), (0, 500, 40, 560)) == (0, 320, 96, 480)  # kept inside the input
    assert regional.window((1280, 720), (1200, 650, 1280, 720)) == (864, 448, 960, 544)  # to the corner
    assert regional.window((1280, 720), (0, 0, 1280, 400)) is None  # too much of the frame: look at it whole


def test_a_window_reads_the_pixels_the_whole_look_reads(table, detector):
    """Away from the window's edges it finds what the whole look finds, where it finds it. Not to the pixel,
    nor to the same confidence: the detector's attention layer sees the whole input, so what lies outside
    the window moves a reading inside it (here a $100 chip at the change's corner, 0.82 whole, 0.64)."""
    from pipelines.vision.detect import letterbox

    _, cam, new_bet, frames = table
    regional = RegionalDetector(detector)
    image, scale, pad = letterbox(frames[2], detector.config.imgsz)
    cx, cy = cam.project(np.array([new_bet.centre]))[0].astype(int)
    x0, y0, x1, y1 = window = regional.window((1280, 720), (cx - 60, cy - 60, cx + 60, cy + 60))
    assert (x1 - x0) % 32 == 0 and (y1 - y0) % 32 == 0
    got = detector.detect_input(frames[2], image[y0:y1, x0:x1], scale, pad, window[:2], regional._session)
    whole = detector.detect(frames[2])
    inner = (cx - 120, cy - 120, cx + 120, cy + 120)  # the window holds at least 160 px more around the box

    def inside(det):
        b = det.xyxy
        keep = (b[:, 0] > inner[0]) & (b[:, 2] < inner[2]) & (b[:, 1] > inner[1]) & (b[:, 3] < inner[3])
        return det[keep]

    t, w = inside(got), inside(whole)
    assert len(t) == len(w) >= 3
    order_t, order_w = np.lexsort(t.xyxy.T[:2]), np.lexsort(w.xyxy.T[:2])
    assert np.abs(t.xyxy[order_t] - w.xyxy[order_w]).max() < 3.0  # a chip is about 20 px across
    assert np.abs(t.confidence[order_t] - w.confidence[order_w]).max() < 0.25
    assert list(t.data["class_name"][order_t]) == list(w.data["class_name"][order_w])


def test_regional_detections_read_the_zones_as_the_whole_frame_does(table, detector):
    layout, cam, new_bet, frames = table
    mapper = ZoneMapper(layout, cam.H)
    gate = MotionGate(mapper.zone_polygons_px(), cam.size, MotionConfig(refresh_every=100))
    regional = RegionalDetector(detector)
    gate.check(0, frames[0])
    regional.detect(frames[0], gate.changed_box)
    gate.check(2, frames[2])
    got = regional.detect(frames[2], gate.changed_box)
    c = regional.counters
    assert (c.whole, c.window, c.reused) == (1, 1, 0) and 0 < c.window_share < 0.25

    def chips(obs):
        return {z: (sorted(o.chips), o.chips_uncertain) for z, o in obs.items() if o.chips}

    whole = chips(mapper.observe(detector.detect(frames[2])))
    assert chips(mapper.observe(got)) == whole
    assert sorted(whole[new_bet.name][0]) == [5, 25, 25]
    assert regional.detect(frames[2], (0, 0, 0, 0)) is got  # nothing changed: nothing to look at again


def test_regional_detection_needs_the_detector_that_runs_the_window(table):
    layout, cam, _, _ = table

    class Stub:
        def detect(self, frame):
            raise AssertionError("not called")

    with pytest.raises(ValueError, match="regional detection needs a Detector"):
        VisionPipeline((layout, cam.H), Stub(), regional=True)


def test_union_of_boxes_keeps_whole_frame_and_empty_apart():
    from pipelines.vision.regional import union

    assert union((10, 10, 20, 20), (15, 5, 30, 18)) == (10, 5, 30, 20)
    assert union((0, 0, 0, 0), (15, 5, 30, 18)) == (15, 5, 30, 18)  # nothing changed: the other box
    assert union((10, 10, 20, 20), None) is None  # the whole frame wins


def test_a_dealt_session_gives_the_same_zone_changes_looking_only_where_it_changed(detector):
    from pipelines.sim.session import script_session
    from pipelines.vision.capture import Frame

    layout = layout_for("king-high")
    rounds, _ = script_session("king-high", 2, seed=777)
    scenes = [s for r in rounds for s in r.scenes][:40]
    rng = np.random.default_rng(777)
    cam = Camera.overhead(layout, rng)
    images = [render(layout, s, cam, rng)[0] for s in scenes]
    changes, pipes = {}, {}
    for name, gated in (("whole", False), ("regional", True)):
        pipe = VisionPipeline((layout, cam.H), detector, motion_gating=gated, regional=gated)
        changes[name] = [(c.zone, c.frame, c.after) for _, _, ch in
                         pipe.run(Frame(i, i / 10, im) for i, im in enumerate(images)) for c in ch]
        pipes[name] = pipe
    assert changes["regional"] == changes["whole"]
    assert len(changes["whole"]) >= 10
    assert pipes["regional"].regional.counters.window >= 5  # and it did look through windows

