"""Training tiles at the scale the detector is deployed at.

The detector is trained on whole 1280x720 frames at 640 (half scale; ultralytics' scale augmentation
spreads that over a quarter to three quarters) but deployed at 960x544 (three quarters, the top of that
range), where a chip is 16 px. Fine-tuning on windows of the frame cut and shrunk to exactly the deployed
scale trains the net on objects the size it meets at run time, at a third of a whole frame's cost per
image: what two cores can afford. Windows are centred near a chip most of the time, since a chip's
denomination and a crowded row's count are where the detector errs (benchmarks/RESULTS.md).
"""

from __future__ import annotations

import cv2
import numpy as np

from pipelines.sim.render import Label

FRAME_WIDTH = 1280  # the simulator's (and the deployed camera's) frame width
TILE_WINDOW = 640  # px of the full-resolution frame a tile covers (square)
TILE_SCALE = 960 / FRAME_WIDTH  # the deployed detector input's scale (training.DEPLOY_SHAPE)
TILE_IMGSZ = round(TILE_WINDOW * TILE_SCALE)  # 480
TILE_SCALE_JITTER = 0.15  # ultralytics' scale augmentation on tiles (frames: its default 0.5)
CHIP_BIAS = 0.7  # share of tiles centred near a chip rather than near any object
# Objects less than this share inside the window are left unlabelled: a sliver at the edge is no object to
# learn, and a tile of the deployed path (regional.py) cuts objects too.
MIN_INSIDE = 0.5


def tile_origin(size: tuple[int, int], labels: list[Label], rng: np.random.Generator,
                window: int = TILE_WINDOW, jitter_px: float = 80.0) -> tuple[int, int]:
    """Top-left corner (x, y) of a window inside a frame of `size` (w, h): near a random chip (or any
    object, or anywhere when there is none), shifted by `jitter_px` so the object is not always central."""
    w, h = size
    chips = [lb for lb in labels if lb[0].startswith("chip")]
    pool = chips if (chips and rng.random() < CHIP_BIAS) else labels
    if pool:
        lb = pool[int(rng.integers(len(pool)))]
        cx, cy = (lb[1] + lb[3]) / 2 + rng.normal(0, jitter_px), (lb[2] + lb[4]) / 2 + rng.normal(0, jitter_px)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    x0 = int(np.clip(cx - window / 2, 0, max(w - window, 0)))
    y0 = int(np.clip(cy - window / 2, 0, max(h - window, 0)))
    return x0, y0


def cut_tile(frame: np.ndarray, labels: list[Label], origin: tuple[int, int], window: int = TILE_WINDOW,
             scale: float = TILE_SCALE) -> tuple[np.ndarray, list[Label]]:
    """The `window` square at `origin` shrunk by `scale` (as the deployed detector shrinks the frame: area
    interpolation), on a black square where the frame is shorter than the window, and its labels in the
    tile's pixels: clipped to it, those less than `MIN_INSIDE` inside left out."""
    x0, y0 = origin
    crop = frame[y0:y0 + window, x0:x0 + window]
    side = round(window * scale)
    tile = np.zeros((side, side, 3), np.uint8)
    small = cv2.resize(crop, (round(crop.shape[1] * scale), round(crop.shape[0] * scale)),
                       interpolation=cv2.INTER_AREA)
    tile[:small.shape[0], :small.shape[1]] = small
    out = []
    for name, a, b, c, d in labels:
        ca, cb = max(a, x0), max(b, y0)
        cc, cd = min(c, x0 + crop.shape[1]), min(d, y0 + crop.shape[0])
        if cc - ca < 2 or cd - cb < 2 or (cc - ca) * (cd - cb) < MIN_INSIDE * (c - a) * (d - b):
            continue
        out.append(Label(name, (ca - x0) * scale, (cb - y0) * scale, (cc - x0) * scale, (cd - y0) * scale))
    return tile, out
