"""Rounds from simulator scenes through the perfect observation (no rendering, no detector).

`ZoneMapper.observe_scene` gives what the camera would label in each scene (objects hidden under the
dealer's hand or other objects are left out, as in the video), and `ZoneMapper.occluded_fractions` where the
hand lies (the video's `CoverMeter`); the `ZoneTracker` debounces it as it does the detector's output; the
game machine turns the changes into rounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from pipelines.games.layout import Layout
from pipelines.games.round import Round
from pipelines.sim.scene import Scene
from pipelines.vision.cover import BARE_BELOW, COVERED_FROM, CoverLog
from pipelines.vision.track import ZoneTracker
from pipelines.vision.zones import ZoneMapper

from .registry import machine_for

STABLE_FRAMES = 3


def taken(index: int, fps: float, analyse_fps: float | None) -> bool:
    """Whether a live camera analysed at `analyse_fps` takes frame `index` of a `fps` video: the first frame
    of each tick of 1/analyse_fps (every frame when None or not slower than the video)."""
    if not analyse_fps or analyse_fps >= fps:
        return True
    return index == 0 or int(index * analyse_fps / fps + 1e-9) > int((index - 1) * analyse_fps / fps + 1e-9)


def rounds_from_scenes(game: str, scenes: Iterable[Scene], layout: Layout, homography: Any, *,
                       table_id: str = "T1", settings: Any | None = None, fps: float = 10.0,
                       frame_size: tuple[int, int] = (1280, 720), stable_frames: int = STABLE_FRAMES,
                       analyse_fps: float | None = None, **machine_kw: Any) -> list[Round]:
    """`analyse_fps`: look only at the frames a live camera analysed at that rate would (`taken`)."""
    mapper = ZoneMapper(layout, np.asarray(homography, np.float64), frame_size=tuple(frame_size))
    # A pinched stack may show for only a few frames before the dealer's hand covers it: losses are
    # confirmed as fast as gains, and the machine itself discounts stacks that were only covered.
    tracker = ZoneTracker(stable_frames=stable_frames, removal_frames=stable_frames)
    cover = CoverLog()
    zones = set(mapper.zone_polygons_px())
    machine = machine_for(game, table_id, settings, fps=fps, cover=cover, **machine_kw)
    out: list[Round] = []
    frame = -1
    prev: Scene | None = None
    obs: dict = {}
    covered: set[str] = set()
    bare: set[str] = set()
    for frame, scene in enumerate(scenes):
        if not taken(frame, fps, analyse_fps):
            continue
        if scene is not prev:  # the scripts repeat one Scene object while nothing moves
            obs, shaded, prev = mapper.observe_scene(scene), mapper.occluded_fractions(scene), scene
            # Covered and bare as the video's `CoverMeter` reads them: a share of the zone under the hand; nothing
            # seen on it and (almost) none of it under the hand.
            covered = {z for z, share in shaded.items() if share >= COVERED_FROM}
            bare = zones - set(obs) - {z for z, share in shaded.items() if share >= BARE_BELOW}
        cover.add(frame, covered, bare)
        out += machine.feed(tracker.update(frame, obs, covered=covered))
    # Let pending contents settle on the last picture, then close what is still open.
    last = scenes[-1] if isinstance(scenes, list) and scenes else Scene()
    for extra in range(1, 2 * tracker.removal_frames + 1):
        out += machine.feed(tracker.update(frame + extra, mapper.observe_scene(last)))
    out += machine.finish()
    return out
