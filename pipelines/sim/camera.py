"""The simulated overhead camera: a homography from table millimetres to image pixels.

A session's camera looks straight down on the felt with a little perspective (the far, dealer side
slightly narrower, as from a dome camera mounted over the players' side) and a small random jitter of
position, rotation and keystone, so no two sessions see the table identically.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from pipelines.games.layout import Layout


@dataclass
class Camera:
    """`H` maps table mm (x, y, 1) to image px; `size` is (width, height); `seed` names the session."""

    H: np.ndarray
    size: tuple[int, int] = (1280, 720)
    seed: int = 0
    H_inv: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.H = np.asarray(self.H, dtype=np.float64)
        if self.H.shape != (3, 3) or abs(np.linalg.det(self.H)) < 1e-12:
            raise ValueError(f"camera homography must be an invertible 3x3 matrix, got {self.H!r}")
        self.H_inv = np.linalg.inv(self.H)

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]

    @classmethod
    def overhead(
        cls,
        layout: Layout,
        rng: np.random.Generator | None = None,
        size: tuple[int, int] = (1280, 720),
        keystone: float = 0.06,
        jitter: float = 0.015,
        margin: float = 0.03,
    ) -> Camera:
        """Fit the felt into the image, then add keystone and per-session jitter (fractions of size)."""
        w, h = size
        tw, th = layout.width_mm, layout.height_mm
        scale = min(w * (1 - 2 * margin) / tw, h * (1 - 2 * margin) / th)
        cx, cy = w / 2, h / 2
        hw, hh = tw * scale / 2, th * scale / 2
        k = keystone * hw  # far (dealer) edge narrower
        dst = np.array(
            [[cx - hw + k, cy - hh], [cx + hw - k, cy - hh], [cx + hw, cy + hh], [cx - hw, cy + hh]],
            dtype=np.float64,
        )
        seed = 0
        if rng is not None:
            seed = int(rng.integers(0, 2**31 - 1))
            dst += rng.normal(0.0, jitter, size=(4, 2)) * np.array([w, h]) * 0.5
            angle = np.deg2rad(rng.normal(0.0, 1.0))
            rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
            dst = (dst - [cx, cy]) @ rot.T + [cx, cy]
        src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], dtype=np.float64)
        H = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
        return cls(H=H, size=size, seed=seed)

    def project(self, points_mm: np.ndarray | list) -> np.ndarray:
        """Table mm (N, 2) -> image px (N, 2)."""
        return _apply(self.H, points_mm)

    def to_table(self, points_px: np.ndarray | list) -> np.ndarray:
        """Image px (N, 2) -> table mm (N, 2): the inverse of `project`."""
        return _apply(self.H_inv, points_px)

    def px_per_mm(self, x_mm: float, y_mm: float) -> float:
        """Local scale at a table point (geometric mean of the two axes)."""
        p = self.project([[x_mm, y_mm], [x_mm + 1.0, y_mm], [x_mm, y_mm + 1.0]])
        return float(np.sqrt(np.linalg.norm(p[1] - p[0]) * np.linalg.norm(p[2] - p[0])))


def _apply(H: np.ndarray, points: np.ndarray | list) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    homog = pts @ H[:, :2].T + H[:, 2]
    return homog[:, :2] / homog[:, 2:3]
