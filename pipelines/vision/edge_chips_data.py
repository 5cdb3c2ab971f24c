"""Training windows for the card-edge chip finder (`edge_chips.py`): small squares around cards.

The detector misses a chip lying over a card's edge (a Pick 2 or 3 Card Monster Play wager laid against
its seat's cards, a payout run on over a card): on held-out dealt frames it finds 29 of 44 such chips and
every one of the 1,886 others (benchmarks/detector_accuracy.py, `chips_on_card_accuracy`). Fine-tuning the
whole detector on such scenes on 2 CPU cores found more of them but read the rest of the table worse
(benchmarks/RESULTS.md, fourteenth and eighteenth sessions). The finder is a second net that only looks
around cards, and whose chips count only there, so what it learns cannot cost the rest of the table.

Each window is `EDGE_WINDOW` px of the full-resolution frame around a card, shrunk to the detector's
deployed scale (the finder starts from the detector's weights, which know objects at that size), with every
object's label clipped to it. Windows favour cards with a chip over their edge.
"""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import yaml
from tqdm import tqdm

from pipelines.games.layout import layout_for
from pipelines.games.round import GAME_IDS
from pipelines.sim.camera import Camera
from pipelines.sim.render import Label, render
from pipelines.sim.session import script_session

from .chip_boxes import over_cards
from .classes import DET_CLASSES
from .edge_chips import EDGE_IMGSZ, EDGE_WINDOW, window_origin
from .training import _write_det_label, draw_scene
from .training_tiles import TILE_SCALE, cut_tile

EDGE_GENERATOR_VERSION = 1
WINDOWS_PER_FRAME = 4
EDGE_MIX = (0.5, 0.8)  # scripted below the first, laid out below the second, else scattered (training.draw_scene)
EDGE_CHIPS = 0.6  # share of scripted and laid-out frames given stacks over a card's edge
ON_CARD_BIAS = 0.6  # share of windows centred on a chip over a card's edge, where a frame has one
# Window centres are jittered this much (px, each axis) around the chosen chip or card. At run time a
# window is centred on a group of cards, so a chip can lie further out; a wider jitter is the next run's.
CENTRE_JITTER_PX = 40.0
CHUNK = 10  # frames per worker job


def _centres(labels: list[Label], rng: np.random.Generator, n: int) -> list[tuple[float, float]]:
    """`n` window centres: on chips over a card's edge (`ON_CARD_BIAS`) or on cards, jittered."""
    boxes = np.array([lb[1:] for lb in labels], np.float64).reshape(-1, 4)
    is_chip = np.array([lb[0].startswith("chip_") for lb in labels], bool)
    on = np.flatnonzero(over_cards(boxes, is_chip))
    cards = np.flatnonzero(~is_chip)
    out = []
    for _ in range(n):
        pool = on if len(on) and rng.random() < ON_CARD_BIAS else cards
        if not len(pool):
            break
        x1, y1, x2, y2 = boxes[int(rng.choice(pool))]
        out.append(((x1 + x2) / 2 + rng.normal(0, CENTRE_JITTER_PX), (y1 + y2) / 2 + rng.normal(0, CENTRE_JITTER_PX)))
    return out


def _render_chunk(args: tuple[Path, int, int, int, int]) -> dict:
    out, seed, start, stop, val_every = args
    rng = np.random.default_rng([seed, start])
    counts = {"frames": 0, "windows": 0, "train": 0, "val": 0, "chips_on_cards": 0}
    layout = layout_for(GAME_IDS[(start // CHUNK) % len(GAME_IDS)])
    cam = Camera.overhead(layout, rng=rng)
    rounds, _ = script_session(layout.game, rounds=3, seed=seed * 1_000_000 + start, fault_rate=0.1)
    dealt = [s for r in rounds for s in r.scenes if s.cards]
    for i in range(start, stop):
        scene = draw_scene(layout, rng, dealt, EDGE_MIX, EDGE_CHIPS, max_stacks=3)
        frame, labels = render(layout, scene, cam, rng)
        size = (frame.shape[1], frame.shape[0])
        split = "val" if i % val_every == 0 else "train"
        for k, centre in enumerate(_centres(labels, rng, WINDOWS_PER_FRAME)):
            tile, tl = cut_tile(frame, labels, window_origin(size, centre), EDGE_WINDOW, TILE_SCALE)
            write_window(out, split, f"{seed}_{i:06d}_{k}", tile, tl)
            counts["windows"] += 1
            counts[split] += 1
            counts["chips_on_cards"] += int(over_cards(np.array([lb[1:] for lb in tl]).reshape(-1, 4),
                                                       np.array([lb[0].startswith("chip_") for lb in tl])).sum())
        counts["frames"] += 1
    return counts


def write_window(out: Path, split: str, name: str, tile: np.ndarray, labels: list[Label]) -> None:
    """One window of a YOLO detection set under `out`: its image and its labels (in the window's pixels)."""
    cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), tile, [cv2.IMWRITE_JPEG_QUALITY, 92])
    _write_det_label(out / "labels" / split / f"{name}.txt", labels, (tile.shape[1], tile.shape[0]))


def build_window_set(out: Path, frames: int, seed: int, render_chunk, counts: dict[str, int], meta: dict,
                     workers: int = 1, val_every: int = 7, progress: bool = True, desc: str = "rendering windows"
                     ) -> dict:
    """A YOLO detection set of windows under `out` (data.yaml, images/, labels/, meta.json): `render_chunk((out,
    seed, start, stop, val_every))` renders frames `start`..`stop` and writes their windows, returning its
    `counts`, which are added up into `meta.json` with `meta`."""
    out = Path(out)
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    jobs = [(out, seed, a, min(a + CHUNK, frames), val_every) for a in range(0, frames, CHUNK)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in tqdm(pool.map(render_chunk, jobs), total=len(jobs), desc=desc, unit="chunk", disable=not progress):
            for key, value in part.items():
                counts[key] += value
    (out / "data.yaml").write_text(yaml.safe_dump({
        "path": str(out.resolve()), "train": "images/train", "val": "images/val",
        "names": dict(enumerate(DET_CLASSES))}, sort_keys=False))
    meta = {**meta, "seed": seed, "window_px": EDGE_WINDOW, "scale": TILE_SCALE, "imgsz": EDGE_IMGSZ, **counts}
    (out / "meta.json").write_text(json.dumps(meta, indent=2))
    return meta


def build_edge_set(out: Path, frames: int, seed: int, workers: int = 1, val_every: int = 7,
                   progress: bool = True) -> dict:
    """Render `frames` scenes over the four layouts and write `WINDOWS_PER_FRAME` windows of each as a YOLO
    detection set under `out` (data.yaml, images/, labels/, meta.json)."""
    counts = {"frames": 0, "windows": 0, "train": 0, "val": 0, "chips_on_cards": 0}
    return build_window_set(out, frames, seed, _render_chunk, counts,
                            {"edge_generator_version": EDGE_GENERATOR_VERSION}, workers, val_every, progress,
                            "rendering card-edge windows")
