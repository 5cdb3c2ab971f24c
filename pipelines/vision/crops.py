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


# A chip crop takes in twice the chip's box: enough of its neighbours to tell a chip from the gap beside it
# or the bare felt past a row's end, which is where the detector's unsure boxes lie.
CHIP_CONTEXT = 2.0


def chip_crops(frame: np.ndarray, boxes: np.ndarray, size: int) -> np.ndarray:
    """(N, size, size, 3) verifier inputs: squares of `CHIP_CONTEXT` times each chip box, centred on it,
    from the full-resolution frame (edge pixels repeated where the square leaves the frame)."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    out = np.zeros((len(boxes), size, size, 3), np.uint8)
    for k, (x1, y1, x2, y2) in enumerate(boxes):
        half = CHIP_CONTEXT * min(x2 - x1, y2 - y1) / 2  # the short side: a box run on over a card is long
        if half < 1:
            continue
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        # An affine warp samples sub-pixel exactly and pads at the frame's edge in one call.
        scale = size / (2 * half)
        M = np.array([[scale, 0, size / 2 - scale * cx], [0, scale, size / 2 - scale * cy]])
        out[k] = cv2.warpAffine(frame, M, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out
