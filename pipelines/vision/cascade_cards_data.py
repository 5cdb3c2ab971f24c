"""Training windows for the cascade card finder (`card_finder.py`): High Tie hands laid one card over the last.

A High Tie split hand is dealt in a cascade, each card stepped about a third of a card along the split area's
slant over the one before, so a middle card shows as a strip. The detector never boxes some such strips (a 4s
between an 8d and a 4c, a 4d between a 3d and a Ks: the hand is read a card short, and the round wrong): its
training scenes lay seat cards in rows and split hands only as scripted rounds happen to deal them, rarely.
The finder is the detector's weights fine-tuned on windows around such cascades, at the detector's deployed
scale, and its cards count only where the detector boxed none (`card_finder.cards_to_add`).

Scenes: a scripted High Tie round's scene or the layout as dealt (`render_scenes.random_scene`), with one to
three seats' cards replaced by split hands of one to four cards each, laid as the simulator lays them
(`script_base.cascade_positions`), a doubled hand's last card sideways now and then, and the dealer's hand over
a part of some. Windows are centred on a split hand (jittered), with one on any card group for the rest.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from pipelines.games.cards import DECK
from pipelines.games.layout import Layout, layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.render import render
from pipelines.sim.render_scenes import random_scene
from pipelines.sim.scene import Occluder, PlacedCard, Scene
from pipelines.sim.script_base import cascade_positions
from pipelines.sim.session import script_session

from .edge_chips import EDGE_WINDOW, window_origin
from .edge_chips_data import build_window_set, write_window
from .training_tiles import TILE_SCALE, cut_tile

CASCADE_GENERATOR_VERSION = 1
GAME = "high-tie"
SCRIPTED_SHARE = 0.4  # scenes from scripted rounds; the rest the layout as dealt
HAND_SIZES = (1, 2, 3, 3, 4)  # cards per split hand, drawn evenly: three and four make the strips
SIDEWAYS_SHARE = 0.15  # a split hand's last card turned sideways, as a double is dealt
HAND_OVER_SHARE = 0.35  # the dealer's hand over part of a seat's split hands
CENTRE_JITTER_PX = 30.0
WINDOWS_PER_FRAME = 3  # two on split hands, one on any card


def _inside(poly: list[tuple[float, float]], x: float, y: float) -> bool:
    return cv2.pointPolygonTest(np.asarray(poly, np.float32), (float(x), float(y)), False) >= 0


def with_split_hands(scene: Scene, layout: Layout, rng: np.random.Generator) -> tuple[Scene, list[str]]:
    """`scene` with one to three seats' cards replaced by two split hands laid in cascades; the split areas
    so filled."""
    seats = [int(s) for s in rng.choice(layout.seats, size=int(rng.integers(1, 4)), replace=False)]
    areas = {s: [layout.zone(f"seat{s}.cards{k}").polygon for k in ("", ".1", ".2")] for s in seats}
    kept = [c for c in scene.cards if not any(_inside(p, c.x, c.y) for s in seats for p in areas[s])]
    used = {c.card for c in kept}
    deck = [c for c in DECK if c not in used]
    rng.shuffle(deck)
    back = next((c.back for c in scene.cards), "red")
    cards, occluders, filled = list(kept), list(scene.occluders), []
    for s in seats:
        for hand in (1, 2):
            zone = f"seat{s}.cards.{hand}"
            n = int(rng.choice(HAND_SIZES))
            laid = cascade_positions(layout, zone, n)
            for i, (x, y) in enumerate(laid):
                sideways = i == n - 1 and n > 1 and rng.random() < SIDEWAYS_SHARE
                cards.append(PlacedCard(deck.pop(), x, y, True, back, 90.0 if sideways else 0.0))
            filled.append(zone)
            if rng.random() < HAND_OVER_SHARE:
                x, y = laid[-1]
                occluders.append(Occluder(x + rng.normal(0, 25), y + rng.normal(0, 25), rng.uniform(45, 60),
                                          rng.uniform(75, 95), rng.uniform(-40, 40)))
    return replace(scene, cards=cards, occluders=occluders), filled


def _centres(layout: Layout, camera: Camera, filled: list[str], labels: list, rng: np.random.Generator
             ) -> list[tuple[float, float]]:
    """Window centres (px): on split hands, jittered, and one on any card."""
    out = []
    for zone in rng.permutation(filled)[:WINDOWS_PER_FRAME - 1]:
        x, y = camera.project(np.array([layout.zone(str(zone)).centre], np.float64))[0]
        out.append((x + rng.normal(0, CENTRE_JITTER_PX), y + rng.normal(0, CENTRE_JITTER_PX)))
    cards = [lb for lb in labels if lb[0] in DECK or lb[0].startswith("back")]
    if cards:
        _, x1, y1, x2, y2 = cards[int(rng.integers(len(cards)))]
        out.append(((x1 + x2) / 2 + rng.normal(0, CENTRE_JITTER_PX), (y1 + y2) / 2 + rng.normal(0, CENTRE_JITTER_PX)))
    return out


def _render_chunk(args: tuple[Path, int, int, int, int]) -> dict:
    out, seed, start, stop, val_every = args
    rng = np.random.default_rng([seed, start])
    layout = layout_for(GAME)
    cam = Camera.overhead(layout, rng=rng)
    rounds, _ = script_session(GAME, rounds=3, seed=seed * 1_000_000 + start, fault_rate=0.1)
    dealt = [s for r in rounds for s in r.scenes if s.cards]
    counts = {"frames": 0, "windows": 0, "train": 0, "val": 0, "split_hands": 0}
    for i in range(start, stop):
        if dealt and rng.random() < SCRIPTED_SHARE:
            scene = dealt[int(rng.integers(len(dealt)))]
        else:
            scene = random_scene(layout, rng, occluders=int(rng.integers(0, 2)))
        scene, filled = with_split_hands(scene, layout, rng)
        frame, labels = render(layout, scene, cam, rng)
        size = (frame.shape[1], frame.shape[0])
        split = "val" if i % val_every == 0 else "train"
        for k, centre in enumerate(_centres(layout, cam, filled, labels, rng)):
            tile, tl = cut_tile(frame, labels, window_origin(size, centre), EDGE_WINDOW, TILE_SCALE)
            write_window(out, split, f"{seed}_{i:06d}_{k}", tile, tl)
            counts["windows"] += 1
            counts[split] += 1
        counts["split_hands"] += len(filled)
        counts["frames"] += 1
    return counts


def build_cascade_set(out: Path, frames: int, seed: int, workers: int = 1, val_every: int = 7,
                      progress: bool = True) -> dict:
    """Render `frames` High Tie scenes with split hands and write `WINDOWS_PER_FRAME` windows of each as a YOLO
    detection set under `out` (data.yaml, images/, labels/, meta.json)."""
    counts = {"frames": 0, "windows": 0, "train": 0, "val": 0, "split_hands": 0}
    return build_window_set(out, frames, seed, _render_chunk, counts,
                            {"cascade_generator_version": CASCADE_GENERATOR_VERSION}, workers, val_every, progress,
                            "rendering split-hand windows")
