"""Card crops for the classifier, cut the same way at training and at run time."""

from __future__ import annotations

import cv2
import numpy as np


def card_crop(frame: np.ndarray, box: np.ndarray, size: int) -> np.ndarray:
    """Square classifier input from a card box: turned upright when the card lies sideways."""
    h, w = frame.shape[:2]
    x1, y1, x2, y2 = box
    pad = 0.06 * max(x2 - x1, y2 - y1)
    x1, y1 = max(0, int(x1 - pad)), max(0, int(y1 - pad))
    x2, y2 = min(w, int(x2 + pad)), min(h, int(y2 + pad))
    crop = frame[y1:y2, x1:x2]
    if crop.size == 0:
        return np.zeros((size, size, 3), np.uint8)
    if crop.shape[1] > crop.shape[0]:
        crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA)
