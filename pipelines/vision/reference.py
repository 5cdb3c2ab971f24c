"""Detections on bare felt: compare each box with a reference frame of the empty table.

The felt's printed art (a red heart on a suit spot, a chip-sized circle) can look like a chip or a
card to the detector. An installer saves one frame of the empty table with the calibration; a
detection whose pixels still match that frame (normalised cross-correlation, so the camera's
brightness drift does not matter) shows nothing that was not there when the table was empty, and is
dropped. Where the reference is flat (plain felt) the comparison says nothing and the detection stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import supervision as sv


class ReferenceError(ValueError):
    """The empty-table reference image is missing, unreadable or the wrong size."""


def load_reference(path: str | Path, frame_size: tuple[int, int] | None = None) -> np.ndarray:
    """Read the reference image (BGR); `frame_size` (width, height) checks it matches the camera."""
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise ReferenceError(f"{path}: cannot read the empty-table reference image")
    if frame_size is not None and (img.shape[1], img.shape[0]) != tuple(frame_size):
        raise ReferenceError(f"{path}: reference is {img.shape[1]}x{img.shape[0]}, the camera gives "
                             f"{frame_size[0]}x{frame_size[1]}")
    return img


def _blurred(img: np.ndarray) -> np.ndarray:
    """Blurred float image, colour kept: printed art can differ from the felt in hue alone (a red heart on
    green felt is nearly the same grey)."""
    return cv2.GaussianBlur(img.astype(np.float32), (3, 3), 0.8)


def _blurred_box(img: np.ndarray, x1: int, y1: int, x2: int, y2: int) -> np.ndarray:
    """`_blurred(img)[y1:y2, x1:x2]` from the box and a one-pixel margin only (the blur is 3x3; where the
    box meets the frame's edge the crop's edge is the frame's), so no analysed frame is converted whole."""
    h, w = img.shape[:2]
    mx1, my1, mx2, my2 = max(0, x1 - 1), max(0, y1 - 1), min(w, x2 + 1), min(h, y2 + 1)
    g = _blurred(img[my1:my2, mx1:mx2])
    return g[y1 - my1 : g.shape[0] - (my2 - y2), x1 - mx1 : g.shape[1] - (mx2 - x2)]


@dataclass
class EmptyTableFilter:
    """`filter(frame, detections)` keeps what differs from the empty table."""

    reference: np.ndarray
    min_similarity: float = 0.8  # NCC at or above this: bare felt (real objects measured <= 0.6, art >= 0.8)
    min_texture: float = 6.0  # std (all channels) below this in the reference: plain felt, nothing to compare

    def __post_init__(self) -> None:
        self._ref = _blurred(self.reference)

    def similarity(self, frame: np.ndarray, detections: sv.Detections) -> np.ndarray:
        """NCC of each box against the reference (NaN where the reference is too plain to tell)."""
        if frame.shape[:2] != self._ref.shape[:2]:
            raise ReferenceError(f"frame is {frame.shape[1]}x{frame.shape[0]}, the empty-table reference "
                                 f"{self._ref.shape[1]}x{self._ref.shape[0]}")
        h, w = frame.shape[:2]
        out = np.full(len(detections), np.nan)
        for i, (x1, y1, x2, y2) in enumerate(np.asarray(detections.xyxy).round().astype(int)):
            x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
            if x2 - x1 < 3 or y2 - y1 < 3:
                continue
            a, b = _blurred_box(frame, x1, y1, x2, y2), self._ref[y1:y2, x1:x2]
            # each channel about its own mean: robust to a brightness or white-balance drift
            a, b = (a - a.mean(axis=(0, 1))).ravel(), (b - b.mean(axis=(0, 1))).ravel()
            if b.std() < self.min_texture:
                continue
            out[i] = float(a @ b / (np.sqrt((a @ a) * (b @ b)) + 1e-6))
        return out

    def filter(self, frame: np.ndarray, detections: sv.Detections) -> sv.Detections:
        if not len(detections):
            return detections
        sim = self.similarity(frame, detections)
        return detections[~(sim >= self.min_similarity)]
