from __future__ import annotations

import numpy as np

from pipelines.games.layout import layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.render import render
from pipelines.sim.scene import ChipStack, Scene
from pipelines.vision.motion import MotionConfig, MotionGate
from pipelines.vision.zones import ZoneMapper


def test_static_frames_are_skipped_a_change_is_caught_and_refresh_happens():
    layout = layout_for("pick-2-poker")
    rng = np.random.default_rng(5)
    cam = Camera.overhead(layout, rng, size=(640, 360))
    bet = layout.zones_of("bet")[2]
    empty, with_bet = Scene(), Scene(chips=[ChipStack([25, 5], *bet.centre)])
    frames = [render(layout, empty, cam, rng)[0] for _ in range(6)]  # noise, brightness, JPEG vary
    frames += [render(layout, with_bet, cam, rng)[0] for _ in range(3)]
    gate = MotionGate(ZoneMapper(layout, cam.H).zone_polygons_px(), cam.size, MotionConfig(refresh_every=100))
    analysed, where = [], {}
    for i, f in enumerate(frames):
        if gate.check(i, f):
            analysed.append(i)
            where[i] = set(gate.changed_zones)
    assert analysed == [0, 6]  # the first frame, then the bet; the same bet again is static
    assert bet.name in where[6]
    refresh = MotionGate(ZoneMapper(layout, cam.H).zone_polygons_px(), cam.size, MotionConfig(refresh_every=3))
    assert [i for i, f in enumerate(frames[:6]) if refresh.check(i, f)] == [0, 3]
