"""Simulated sessions through the perfect observation, cached per (game, rounds, seed, faults)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import NamedTuple

import numpy as np
import pytest

from pipelines.games.layout import layout_for
from pipelines.games.round import Round
from pipelines.rounds.perfect import rounds_from_scenes
from pipelines.rounds.registry import machine_for
from pipelines.sim.camera import Camera
from pipelines.sim.session import script_session
from pipelines.vision.cover import COVERED_FROM, CoverLog
from pipelines.vision.observe import FrameObs
from pipelines.vision.track import ZoneTracker
from pipelines.vision.zones import ZoneMapper

FPS = 10  # analysed frames per second of the test machines (`perfect_path`)


@cache
def session(game: str, rounds: int, seed: int, faults: float | tuple = 0.0):
    rates = dict(faults) if isinstance(faults, tuple) else faults
    scripted, settings = script_session(game, rounds, seed, rates)
    layout = layout_for(game)
    camera = Camera.overhead(layout, np.random.default_rng([seed, 1]))
    got = rounds_from_scenes(game, [s for r in scripted for s in r.scenes], layout, camera.H,
                             settings=settings, frame_size=camera.size)
    return scripted, got, (layout, camera, settings)


@pytest.fixture
def reconstruct():
    return session


class ScriptedSession(NamedTuple):
    """A cached session's script as the tests that edit its observations read it."""

    scripted: list  # the scripted rounds, in order
    setup: tuple  # (layout, camera, settings), as `session` gives it
    mapper: ZoneMapper  # the perfect path's (`perfect_path`)
    scenes: list  # every frame's scene, in order


def scripted_session(game: str, rounds: int, seed: int) -> ScriptedSession:
    scripted, _, setup = session(game, rounds, seed)
    return ScriptedSession(scripted, setup, perfect_path(game, setup)[0], [s for r in scripted for s in r.scenes])


def long_shown_payout(game: str, frames: int) -> tuple[ScriptedSession, str, list[int]]:
    """The seed-4 session of `game` (3 rounds), the paid spot of the first round's first win whose payout shows for
    more than `frames` frames, and the frames it shows in (the perfect observation of the scripted scenes)."""
    session = scripted_session(game, 3, 4)
    scripted, _, mapper, scenes = session
    truth = scripted[0].round
    for s in truth.settlements:
        zone = f"seat{s.seat}.{s.spot}.paid"
        shown = [f for f in range(s.frames.start, truth.frames.end) if zone in mapper.observe_scene(scenes[f])]
        if s.outcome == "win" and len(shown) > frames:
            return session, zone, shown
    raise LookupError(f"{game}: no payout shows for more than {frames} frames")


def lock_frame(truth: Round, placed: int) -> int:
    """The frame bets closed on a wager laid at frame `placed`: the round's first close from then on."""
    return min(e.frame for e in truth.events if e.type == "bets_closed" and e.frame >= placed)


def perfect_path(game: str, setup, cover: CoverLog | None = None) -> tuple[ZoneMapper, ZoneTracker, object]:
    """The mapper, tracker and round machine `rounds_from_scenes` reads a session with, to feed by hand; the machine
    knows where the dealer's hand lay from `cover`, where given."""
    layout, camera, settings = setup
    mapper = ZoneMapper(layout, np.asarray(camera.H), frame_size=camera.size)
    tracker = ZoneTracker(stable_frames=3, removal_frames=3)  # as rounds_from_scenes
    return mapper, tracker, machine_for(game, "T1", settings, fps=float(FPS), cover=cover)


def seat_without(truth: Round, empty: str, wagered: str | None = None) -> int:
    """A seat with a wager in the round (on `wagered`, if given) and none on its `empty` spot."""
    return next(w.seat for w in truth.wagers if wagered in (None, w.spot)
                and not any(o.seat == w.seat and o.spot == empty for o in truth.wagers))


def nearest_round(got: list, truth: Round):
    """The round read whose start lies nearest the scripted `truth`'s: the one to compare with it."""
    return min(got, key=lambda r: abs(r.frames.start - truth.frames.start))


def rounds_with_edited_observations(game: str, scripted, setup, edit: Callable[[int, FrameObs], None],
                                    hand: Callable[[int, set[str]], None] | None = None) -> list:
    """The session's rounds through the perfect observation, each frame's observation first passed to
    `edit(frame, obs)` to change in place (a misread card, a chip gone under a card), as the video has it. With
    `hand`, the machine also knows where the dealer's hand lay (a `CoverLog`, as `rounds_from_scenes` keeps it),
    each frame's covered zones first passed to `hand(frame, covered)` to change in place."""
    cover = CoverLog()
    mapper, tracker, machine = perfect_path(game, setup, cover if hand is not None else None)
    got = []
    for frame, scene in enumerate(s for r in scripted for s in r.scenes):
        obs = mapper.observe_scene(scene)
        edit(frame, obs)
        covered: set[str] = set()
        if hand is not None:
            covered = {z for z, share in mapper.occluded_fractions(scene).items() if share >= COVERED_FROM}
            hand(frame, covered)
            cover.add(frame, covered, ())
        got += machine.feed(tracker.update(frame, obs, covered=covered))
    return got + machine.finish()
