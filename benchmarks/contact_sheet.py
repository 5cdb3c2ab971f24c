"""Contact sheet of simulated frames: a row per game, random plausible scenes, each a fresh session.

    python benchmarks/contact_sheet.py [--per-game 3] [--boxes] [--out benchmarks/out/contact_sheet.png]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from pipelines.games.layout import layout_for
from pipelines.games.round import GAME_IDS
from pipelines.sim.camera import Camera
from pipelines.sim.render import render
from pipelines.sim.render_scenes import random_scene


def sheet(per_game: int, seed: int, boxes: bool, tile_w: int) -> tuple[np.ndarray, int]:
    rng = np.random.default_rng(seed)
    rows, n_labels = [], 0
    for game in GAME_IDS:
        layout = layout_for(game)
        tiles = []
        for _ in range(per_game):
            camera = Camera.overhead(layout, rng)
            frame, labels = render(layout, random_scene(layout, rng), camera, rng)
            n_labels += len(labels)
            if boxes:
                for lab in labels:
                    cv2.rectangle(frame, (int(lab.x1), int(lab.y1)), (int(lab.x2), int(lab.y2)), (0, 255, 255), 1)
            tiles.append(cv2.resize(frame, (tile_w, tile_w * 9 // 16), interpolation=cv2.INTER_AREA))
        rows.append(np.hstack(tiles))
    return np.vstack(rows), n_labels


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-game", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tile-width", type=int, default=640)
    ap.add_argument("--boxes", action="store_true", help="draw the label boxes")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/out/contact_sheet.png"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    img, n = sheet(args.per_game, args.seed, args.boxes, args.tile_width)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print(f"wrote {args.out} ({img.shape[1]}x{img.shape[0]}, {n} labels)")
    if args.json:
        print(json.dumps({"path": str(args.out), "width": img.shape[1], "height": img.shape[0], "labels": n}))


if __name__ == "__main__":
    main()
