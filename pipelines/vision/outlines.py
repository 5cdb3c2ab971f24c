"""Distances to polygons' outlines in one vectorised step: a point to every zone of a layout, and between two zones."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.path import Path as MplPath


@dataclass(frozen=True)
class Outlines:
    """The edges of several polygons in one array, so that every point's distance to every outline is one
    vectorised step (a Python loop over a King High layout's ~100 chip zones cost more than the rest of
    mapping a frame)."""

    start: np.ndarray  # (E, 2) each edge's first corner
    vec: np.ndarray  # (E, 2) from that corner to the next
    first: np.ndarray  # (Z,) index of each polygon's first edge

    @classmethod
    def of(cls, polygons: list[np.ndarray]) -> Outlines:
        corners = [np.asarray(p, np.float64).reshape(-1, 2) for p in polygons]
        if not corners:
            return cls(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0, int))
        first = np.cumsum([0] + [len(c) for c in corners[:-1]])
        return cls(np.concatenate(corners), np.concatenate([np.roll(c, -1, axis=0) - c for c in corners]), first)

    def distances(self, points: np.ndarray) -> np.ndarray:
        """(N, Z): each point's distance to each polygon's outline."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if not len(pts) or not len(self.first):
            return np.zeros((len(pts), len(self.first)))
        ap = pts[:, None, :] - self.start[None]  # (N, E, 2)
        t = np.clip((ap * self.vec).sum(-1) / np.maximum((self.vec * self.vec).sum(-1), 1e-12), 0.0, 1.0)
        edge = np.linalg.norm(ap - t[..., None] * self.vec[None], axis=-1)  # to the edge's nearest point
        return np.minimum.reduceat(edge, self.first, axis=1)


def polygon_gap_mm(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> float:
    """The shortest distance between two polygons' outlines (0 where a corner of one lies inside the other)."""
    pa, pb = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if MplPath(pa).contains_points(pb).any() or MplPath(pb).contains_points(pa).any():
        return 0.0
    return float(min(Outlines.of([pb]).distances(pa).min(), Outlines.of([pa]).distances(pb).min()))
