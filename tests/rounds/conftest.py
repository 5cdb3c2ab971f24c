"""Simulated sessions through the perfect observation, cached per (game, rounds, seed, faults)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from pipelines.games.layout import layout_for
from pipelines.rounds.perfect import rounds_from_scenes
from pipelines.sim.camera import Camera
from pipelines.sim.session import script_session


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
