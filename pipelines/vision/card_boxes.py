"""Card boxes that are no card of their own.

The detector sometimes draws a second, narrower box over part of a card it has already boxed: a Pick 2 player's
first card, read Ts at 0.95, also boxed as a strip of its left half at 0.67, read as no card or as Ac by turns (set
A77, seed 15364). Card suppression (`DetectorConfig.card_iou`) keeps it: a strip of a card overlaps the whole card's
box by under 0.45 IoU. Carried as a card, it came and went from frame to frame, so the player's cards never read
alike long enough to confirm and the round could not be settled. A box lying almost wholly inside one more confident
card box, and much smaller than it, is that card boxed again in part: a card laid on another shows beyond it (dealt
cards are never stacked square), and the middle card of a cascade lies over one card and under the next, its strip
reaching out of the card beneath.
"""

from __future__ import annotations

import numpy as np

# A card box with this share of its area inside another card box lies within it (the A77 strip: 0.95-1.0).
INSIDE_SHARE = 0.9
# ... and is part of that card when no larger than this share of it (the strips in the stored sets: 0.3-0.5 of their
# card box; a card's own box on another of the same size is 1.0).
PART_AREA = 0.6


def parts_of_cards(boxes: np.ndarray, confidence: np.ndarray) -> np.ndarray:
    """Which card boxes (N, 4 xyxy) are part of another, more confident card box boxed again (see the module)."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    confidence = np.asarray(confidence, np.float64).reshape(-1)
    if len(boxes) < 2:
        return np.zeros(len(boxes), bool)
    area = np.maximum((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), 1e-6)
    lo = np.maximum(boxes[:, None, :2], boxes[None, :, :2])
    hi = np.minimum(boxes[:, None, 2:], boxes[None, :, 2:])
    inter = np.prod(np.clip(hi - lo, 0.0, None), axis=2)
    inside = ((inter >= INSIDE_SHARE * area[:, None]) & (area[:, None] <= PART_AREA * area[None, :])
              & (confidence[:, None] < confidence[None, :]))
    np.fill_diagonal(inside, False)
    return inside.any(axis=1)
