"""Frames per second of the simulator's renderer at 1280x720 (one process, one thread for OpenCV).

    python benchmarks/render_speed.py [--frames 200] [--game high-tie] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import cv2
import numpy as np

from pipelines.games.layout import layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.render import render
from pipelines.sim.render_scenes import random_scene


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--game", default="high-tie")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    cv2.setNumThreads(1)  # the claim is per core
    rng = np.random.default_rng(args.seed)
    layout = layout_for(args.game)
    camera = Camera.overhead(layout, rng)
    scenes = [random_scene(layout, rng, occupancy=1.0) for _ in range(10)]
    t0 = time.perf_counter()
    render(layout, scenes[0], camera, rng)  # the session's felt, drawn once
    session_s = time.perf_counter() - t0
    objects = labels = 0
    t0 = time.perf_counter()
    for i in range(args.frames):
        scene = scenes[i % len(scenes)]
        _, lab = render(layout, scene, camera, rng)
        objects += len(scene.cards) + sum(len(s.chips) for s in scene.chips)
        labels += len(lab)
    dt = time.perf_counter() - t0
    fps = args.frames / dt
    result = {
        "fps": round(fps, 1),
        "ms_per_frame": round(1000 * dt / args.frames, 2),
        "objects_per_frame": round(objects / args.frames, 1),
        "labels_per_frame": round(labels / args.frames, 1),
        "session_setup_ms": round(1000 * session_s, 1),
        "game": args.game,
        "size": "1280x720",
        "machine": platform.processor() or platform.machine(),
    }
    print(f"{args.game}: {fps:.1f} frames/s at 1280x720, {result['ms_per_frame']} ms/frame, "
          f"{result['objects_per_frame']} objects/frame, session setup {result['session_setup_ms']} ms")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
