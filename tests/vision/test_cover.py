"""Where the dealer's hand lies: zones covered in rendered frames, and the spells a zone stayed covered."""

from __future__ import annotations

import numpy as np
import supervision as sv

from pipelines.games.layout import layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.render import render
from pipelines.sim.scene import ChipStack, Occluder, Scene
from pipelines.vision.cover import CoverLog, CoverMeter
from pipelines.vision.zones import ZoneMapper


def _boxes(labels) -> sv.Detections:
    xyxy = np.array([[lb.x1, lb.y1, lb.x2, lb.y2] for lb in labels], np.float32).reshape(-1, 4)
    return sv.Detections(xyxy=xyxy)


def test_the_zones_under_the_hand_are_covered_and_chips_a_box_explains_are_not() -> None:
    layout = layout_for("high-tie")
    rng = np.random.default_rng(3)
    cam = Camera.overhead(layout, rng)
    mapper = ZoneMapper(layout, cam.H, frame_size=cam.size)
    reference, _ = render(layout, Scene(), cam, rng)
    mains = layout.zones_of("bet")
    bet, under = mains[1], mains[4]
    hand = Occluder(*under.centre)
    scene = Scene(chips=[ChipStack([25, 25, 5], *bet.centre)], occluders=[hand])
    frame, labels = render(layout, scene, cam, rng)
    meter = CoverMeter(mapper.zone_polygons_px(), reference)
    covered = meter.covered(frame, _boxes(labels))
    assert under.name in covered
    assert bet.name not in covered  # chips differ from the empty felt, but the detector boxed them
    assert covered <= mapper.occluded_zones(scene, min_fraction=0.05)  # nowhere the hand is not
    assert bet.name in meter.covered(frame, _boxes([]))  # chips no box explains count as cover
    # The empty table again, under another exposure: nothing covered.
    assert meter.covered(render(layout, Scene(), cam, rng)[0], _boxes([])) == set()


def test_a_spell_ends_only_when_the_zone_is_seen_clear_twice_running() -> None:
    log = CoverLog()
    for frame, zones in [(10, {"a"}), (11, {"a"}), (12, set()), (13, {"a"}), (14, set()), (15, set()),
                         (16, set()), (20, {"a", "b"}), (30, {"a"})]:  # frames 21-29 never analysed
        log.add(frame, zones)
    assert log.spell_at("a", 12) == (10, 13)  # one frame seen clear does not split it
    assert log.spell_at("a", 14) == (10, 13)  # the first frame seen clear after it: it ended at that moment
    assert log.spell_at("a", 16) is None
    assert log.spell_at("a", 25) == (20, 30)  # frames not analysed do not end a spell
    assert log.spell_at("b", 20) == (20, 20)
    assert log.spell_at("b", 9) is None and log.spell_at("c", 20) is None
