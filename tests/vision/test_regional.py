"""Looking only where the table changed: the gate's changed box, the tile window, and the committed tile
model against the whole-frame detector on simulated frames."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipelines.config import load_table_config
from pipelines.games.layout import layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.render import render
from pipelines.sim.scene import ChipStack, Scene
from pipelines.sim.session import script_session
from pipelines.vision.capture import Frame
from pipelines.vision.detect import Detector
from pipelines.vision.motion import MotionConfig, MotionGate
from pipelines.vision.pipeline import VisionPipeline
from pipelines.vision.regional import RegionalDetector, union
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


def test_the_tile_window_holds_the_change_with_its_context_or_is_none(detector):
    regional = RegionalDetector(detector, context_px=48)
    assert regional.tile_size == (288, 480)
    # At the default model's scale (960/1280) a 480x288 tile covers 640x384 frame pixels.
    # Windows start on the whole frame's grid: multiples of 128 frame px (96 input px, three strides of 32).
    assert regional.window((1280, 720), (600, 300, 700, 380)) == (512, 128, 1152, 512)
    assert regional.window((1280, 720), (0, 500, 40, 560)) == (0, 256, 640, 640)  # kept inside the frame
    assert regional.window((1280, 720), (0, 650, 40, 720)) is None  # no window on the grid reaches the edge
    assert regional.window((1280, 720), (100, 100, 700, 300)) is None  # wider than a tile with its context


def test_regional_detections_read_the_zones_as_the_whole_frame_does(table, detector):
    layout, cam, new_bet, frames = table
    mapper = ZoneMapper(layout, cam.H)
    gate = MotionGate(mapper.zone_polygons_px(), cam.size, MotionConfig(refresh_every=100))
    regional = RegionalDetector(detector)
    gate.check(0, frames[0])
    regional.detect(frames[0], gate.changed_box)
    gate.check(2, frames[2])
    got = regional.detect(frames[2], gate.changed_box)
    assert vars(regional.counters) == {"whole": 1, "tile": 1, "reused": 0}

    def chips(obs):
        return {z: (sorted(o.chips), o.chips_uncertain) for z, o in obs.items() if o.chips}

    whole = chips(mapper.observe(detector.detect(frames[2])))
    assert chips(mapper.observe(got)) == whole
    assert sorted(whole[new_bet.name][0]) == [5, 25, 25]
    assert regional.detect(frames[2], (0, 0, 0, 0)) is got  # nothing changed: nothing to look at again


def test_regional_detection_needs_the_detector_that_runs_the_tile(table):
    layout, cam, _, _ = table

    class Stub:
        def detect(self, frame):
            raise AssertionError("not called")

    with pytest.raises(ValueError, match="regional detection needs a Detector"):
        VisionPipeline((layout, cam.H), Stub(), regional=True)


def test_union_of_boxes_keeps_whole_frame_and_empty_apart():
    assert union((10, 10, 20, 20), (15, 5, 30, 18)) == (10, 5, 30, 20)
    assert union((0, 0, 0, 0), (15, 5, 30, 18)) == (15, 5, 30, 18)  # nothing changed: the other box
    assert union((10, 10, 20, 20), None) is None  # the whole frame wins


def test_a_dealt_session_gives_the_same_zone_changes_looking_only_where_it_changed(detector):
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
    assert pipes["regional"].regional.counters.tile >= 5  # and it did look through the tile


def test_regional_detection_is_on_by_default_where_the_detector_can_run_the_tile(table, detector):
    layout, cam, _, _ = table
    assert VisionPipeline((layout, cam.H), detector).regional is not None
    assert VisionPipeline((layout, cam.H), detector, regional=False).regional is None
    assert VisionPipeline((layout, cam.H), detector, motion_gating=False).regional is None  # no changed box

    class Stored:  # a replay of stored detections: nothing to run the tile with
        def detect(self, frame):
            raise AssertionError("not called")

    assert VisionPipeline((layout, cam.H), Stored()).regional is None
    cfg = load_table_config(Path(__file__).resolve().parents[2] / "infra" / "tables" / "king-high.yaml")
    assert cfg.vision.regional
    off = cfg.model_copy(update={"vision": cfg.vision.model_copy(update={"regional": False})})
    assert VisionPipeline(off, detector).regional is None
    assert VisionPipeline(cfg, detector).regional is not None
