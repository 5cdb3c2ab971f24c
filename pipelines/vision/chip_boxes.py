"""Where a chip is, from its box: a chip seen from above is a disc, so its box is square.

A chip lying on a card's edge sometimes gets a box that runs on over the card (the detector takes in
part of the card beneath it): 29 x 41 px where a chip is 21 x 21. The box's centre then sits half a chip
off the chip, far enough to leave the chip's row in a spread stack and land in the next zone (a wager's
top chip read as a payout beside it). Such a box is refitted: a square of the frame's chip size, slid to
the end of the long side away from the middle of the card beneath, where the chip is.
"""

from __future__ import annotations

import numpy as np

# Long side over short side above which a chip box is not one chip (well-formed boxes: 99.9 % below 1.1
# on the held-out videos; the boxes that ran on over a card: 1.4-1.8).
ELONGATED = 1.25


def elongated(chips: np.ndarray) -> np.ndarray:
    """Which chip boxes (N, 4 xyxy) are too long for one chip: run on over a card beneath."""
    chips = np.asarray(chips, np.float64).reshape(-1, 4)
    w, h = chips[:, 2] - chips[:, 0], chips[:, 3] - chips[:, 1]
    return np.maximum(w, h) / np.maximum(np.minimum(w, h), 1e-6) > ELONGATED


def chip_centres(chips: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Centres (N, 2) px of chip boxes `chips` (N, 4 xyxy), refitting elongated boxes against `cards` (M, 4)."""
    chips = np.asarray(chips, np.float64).reshape(-1, 4)
    centres = np.stack([(chips[:, 0] + chips[:, 2]) / 2, (chips[:, 1] + chips[:, 3]) / 2], axis=1)
    w, h = chips[:, 2] - chips[:, 0], chips[:, 3] - chips[:, 1]
    short = np.maximum(np.minimum(w, h), 1e-6)
    odd = np.flatnonzero(elongated(chips))
    if not len(odd):
        return centres
    square = ~np.isin(np.arange(len(chips)), odd)
    side = float(np.median(np.sqrt(w[square] * h[square]))) if square.any() else None
    cards = np.asarray(cards, np.float64).reshape(-1, 4)
    for i in odd:
        centres[i] = _refit(chips[i], min(side or short[i], short[i]), cards)
    return centres


def _refit(box: np.ndarray, side: float, cards: np.ndarray) -> np.ndarray:
    """The centre of the `side` square at whichever end of the box's long side lies further from the
    centre of the card(s) under the box: the box ran on from the chip towards the card's middle."""
    x0, y0, x1, y1 = box
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    under = cards[_touching(cards, box)]
    if not len(under):  # nothing to tell the ends apart by: keep the centre
        return centre
    axis = np.array([1.0, 0.0]) if x1 - x0 >= y1 - y0 else np.array([0.0, 1.0])
    reach = (max(x1 - x0, y1 - y0) - side) / 2
    ends = np.stack([centre - reach * axis, centre + reach * axis])
    card_centres = np.stack([(under[:, 0] + under[:, 2]) / 2, (under[:, 1] + under[:, 3]) / 2], axis=1)
    gap = np.linalg.norm(ends[:, None, :] - card_centres[None], axis=-1).min(axis=1)
    return ends[int(np.argmax(gap))]


def _touching(boxes: np.ndarray, box: np.ndarray) -> np.ndarray:
    """Which of `boxes` (N, 4 xyxy) overlap `box` (xyxy)."""
    x0, y0, x1, y1 = box
    return (boxes[:, 0] < x1) & (boxes[:, 2] > x0) & (boxes[:, 1] < y1) & (boxes[:, 3] > y0)


def share_under(boxes: np.ndarray, cover: np.ndarray) -> np.ndarray:
    """For each box (N, 4 xyxy), the share of its area under the union of the `cover` boxes (M, 4), to the
    pixel (chips of a spread stack overlap each other, so their areas do not add up)."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    cover = np.asarray(cover, np.float64).reshape(-1, 4)
    out = np.zeros(len(boxes))
    for i, box in enumerate(np.round(boxes).astype(int)):
        x0, y0, x1, y1 = box
        hit = cover[_touching(cover, box)]
        if not len(hit) or x1 <= x0 or y1 <= y0:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), bool)
        for a, b, c, d in np.round(hit - [x0, y0, x0, y0]).astype(int):
            mask[max(b, 0):max(d, 0), max(a, 0):max(c, 0)] = True
        out[i] = mask.mean()
    return out


def over_cards(boxes: np.ndarray, is_chip: np.ndarray, share: float = 0.15) -> np.ndarray:
    """Which boxes (N, 4 xyxy) are chips lying over a card's edge: `share` or more of the chip's box on the
    box of a card (face or back; every box not `is_chip`). The detector's blind spot (a Pick 2 wager under
    its cards' edge in the manual's layout, a payout run on over a card), counted apart by the benchmark
    and by the training data's composition."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    is_chip = np.asarray(is_chip, bool)
    out = np.zeros(len(boxes), bool)
    if not is_chip.any() or is_chip.all():
        return out
    a, b = boxes[is_chip], boxes[~is_chip]
    w = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    h = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    area = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    out[is_chip] = ((w * h) >= share * area[:, None]).any(axis=1)
    return out
