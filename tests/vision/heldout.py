"""Held-out frames for the detector regression test: random scenes from seeds the training never used."""

from __future__ import annotations

import numpy as np
import supervision as sv

from pipelines.games.cards import DECK
from pipelines.games.layout import layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.random_scenes import random_scene
from pipelines.sim.render import Label, render

HELD_OUT_SEED = 90_417  # training used seeds 1 and 2
GAMES = ("king-high", "high-tie", "3-card-monster", "pick-2-poker")


def heldout_frames(n: int = 6) -> list[tuple[np.ndarray, list[Label]]]:
    out = []
    for k in range(n):
        layout = layout_for(GAMES[k % len(GAMES)])
        rng = np.random.default_rng([HELD_OUT_SEED, k])
        camera = Camera.overhead(layout, rng)
        out.append(render(layout, random_scene(layout, rng), camera, rng))
    return out


def _iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    x1, y1 = np.maximum(a[:, None, 0], b[None, :, 0]), np.maximum(a[:, None, 1], b[None, :, 1])
    x2, y2 = np.minimum(a[:, None, 2], b[None, :, 2]), np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = lambda r: (r[:, 2] - r[:, 0]) * (r[:, 3] - r[:, 1])  # noqa: E731
    return inter / (area(a)[:, None] + area(b)[None] - inter + 1e-9)


def score(labels: list[Label], det: sv.Detections) -> dict[str, int]:
    """Counts of labelled cards/chips and of those matched (IoU >= 0.5) with the right identity."""
    counts = {"cards": 0, "cards_ok": 0, "chips": 0, "chips_ok": 0}
    if not labels:
        return counts
    boxes = np.array([lb[1:] for lb in labels], np.float64)
    iou = _iou(boxes, np.asarray(det.xyxy, np.float64)) if len(det) else np.zeros((len(labels), 0))
    for i, lb in enumerate(labels):
        j = int(iou[i].argmax()) if iou.shape[1] else -1
        hit = j >= 0 and iou[i, j] >= 0.5
        if lb.cls in DECK:
            counts["cards"] += 1
            counts["cards_ok"] += int(hit and det.data["card"][j] == lb.cls)
        elif lb.cls.startswith("chip_"):
            counts["chips"] += 1
            counts["chips_ok"] += int(hit and det.data["chip_value"][j] == int(lb.cls[5:]))
    return counts
