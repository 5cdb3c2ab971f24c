"""A second net that looks only around cards, for the chips lying over a card's edge the detector misses.

On held-out dealt frames the detector misses 15 of 44 chips lying over a card's edge and none of the 1,886
others (benchmarks/detector_accuracy.py, `chips_on_card_accuracy`): mostly a Pick 2 or 3 Card Monster Play
wager where the manual lays it, against the seat's cards. A missed Play reads as a fold, a missed payout chip
as a short pay. The finder is the detector's weights fine-tuned on windows around cards
(`edge_chips_data.py`); it reads an `EDGE_WINDOW` square around each group of the detector's cards, and a
chip of its counts only where the detector saw none: over a card's edge (`chip_boxes.over_cards`), clear
of every chip box the detector made. Elsewhere the detector's reading stands untouched, so what the
finder learnt cannot cost the rest of the table.
"""

from __future__ import annotations

import cv2
import numpy as np
import supervision as sv

from .chip_boxes import over_cards
from .classes import chip_value
from .detect import _to_tensor
from .training_tiles import TILE_SCALE

EDGE_WINDOW = 256  # px of the full-resolution frame: a seat's cards and the wagers against them
EDGE_IMGSZ = round(EDGE_WINDOW * TILE_SCALE)  # 192, the detector's deployed scale
CLEAR_OF_CHIPS = 0.2  # a finder chip overlapping a detector chip by more than this IoU is that chip


def window_origin(size: tuple[int, int], centre: tuple[float, float], window: int = EDGE_WINDOW
                  ) -> tuple[int, int]:
    """Top-left (x, y) of the `window` square centred on `centre`, kept inside a frame of `size` (w, h)."""
    w, h = size
    x0 = int(np.clip(centre[0] - window / 2, 0, max(w - window, 0)))
    y0 = int(np.clip(centre[1] - window / 2, 0, max(h - window, 0)))
    return x0, y0


def card_windows(boxes: np.ndarray, size: tuple[int, int], window: int = EDGE_WINDOW,
                 margin: float = 24.0) -> list[tuple[int, int]]:
    """Origins (x, y) of `window` squares that together hold every card box (N, 4 xyxy) with `margin`
    around it, in a frame of `size` (w, h). Cards are grouped while a group's extent with its margin fits
    one window (a seat's cards, a few cm apart, share one), and each window is centred on its group: the
    finder reads a chip best well inside its window (a Pick 2 Play chip at a window's edge went unseen
    where the window centred on its cards found it)."""
    groups: list[np.ndarray] = []  # each group's extent, xyxy
    for box in np.asarray(boxes, np.float64).reshape(-1, 4):
        for k, g in enumerate(groups):
            u = np.r_[np.minimum(g[:2], box[:2]), np.maximum(g[2:], box[2:])]
            if (u[2:] - u[:2] + 2 * margin <= window).all():
                groups[k] = u
                break
        else:
            groups.append(box.copy())
    return [window_origin(size, ((g[0] + g[2]) / 2, (g[1] + g[3]) / 2), window) for g in groups]


def chips_to_add(boxes: np.ndarray, scores: np.ndarray, cards: np.ndarray, chips: np.ndarray) -> list[int]:
    """Which of the finder's chip boxes (N, 4) with `scores` count, best first: those over the edge of one of
    the detector's `cards` (`chip_boxes.over_cards`), clear of its `chips` and of a better box of the finder
    (windows overlap, so one chip can be found twice)."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    cards = np.asarray(cards, np.float64).reshape(-1, 4)
    chips = np.asarray(chips, np.float64).reshape(-1, 4)
    n = len(boxes)
    keep = over_cards(np.concatenate([boxes, cards]), np.r_[np.ones(n, bool), np.zeros(len(cards), bool)])[:n]
    if len(chips):
        keep &= sv.box_iou_batch(boxes, chips).max(axis=1) <= CLEAR_OF_CHIPS
    return best_first(boxes, scores, keep, CLEAR_OF_CHIPS)


def best_first(boxes: np.ndarray, scores: np.ndarray, keep: np.ndarray, same_iou: float) -> list[int]:
    """Indices of the `keep` boxes (N, 4) in order of `scores`, best first, each overlapping no better one taken by
    more than `same_iou`: a second net's windows overlap, so one object can be found twice."""
    taken: list[int] = []
    for i in np.argsort(-np.asarray(scores), kind="stable"):
        if keep[i] and (not taken or sv.box_iou_batch(boxes[i:i + 1], boxes[taken]).max() <= same_iou):
            taken.append(int(i))
    return taken


def found_detections(boxes: np.ndarray, scores: np.ndarray, cls: np.ndarray, names: tuple[str, ...],
                     uncertain: np.ndarray) -> sv.Detections:
    """A second net's boxes (N, 4) with `scores` and class ids `cls` (`names`) as detections like the detector's:
    cards not read yet, chips with their value."""
    class_name = np.array([names[c] for c in cls], dtype=object)
    n = len(class_name)
    return sv.Detections(
        xyxy=np.asarray(boxes, np.float32).reshape(-1, 4), confidence=np.asarray(scores, np.float32),
        class_id=np.asarray(cls).astype(int),
        data={"class_name": class_name, "card": np.full(n, "", dtype=object),
              "card_confidence": np.zeros(n, np.float32),
              "chip_value": np.array([chip_value(c) or 0 for c in class_name], np.int32).reshape(n),
              "uncertain": np.asarray(uncertain, bool)})


def find_in_windows(session, frame: np.ndarray, origins: list[tuple[int, int]], decode, wanted: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What a net trained on windows (`EDGE_WINDOW` px shrunk to `EDGE_IMGSZ`) finds of the classes `wanted` (a bool
    per class id) in the windows of `frame` at `origins`: boxes (frame px), scores and class ids. `decode(raw)` turns
    one window's raw head output into (boxes, scores, class ids) in the window's pixels."""
    side, scale = EDGE_IMGSZ, EDGE_IMGSZ / EDGE_WINDOW
    # Shrunk as the windows it learnt from were (training_tiles.cut_tile: area interpolation).
    x = _to_tensor([cv2.resize(frame[y:y + EDGE_WINDOW, x:x + EDGE_WINDOW], (side, side),
                               interpolation=cv2.INTER_AREA) for x, y in origins])
    raw = session.run(None, {session.get_inputs()[0].name: x})[0]
    found = [(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, int))]
    for (ox, oy), out in zip(origins, raw, strict=True):
        boxes, scores, cls = decode(out)
        keep = wanted[cls]
        found.append((boxes[keep] / scale + np.array([ox, oy, ox, oy], np.float32), scores[keep], cls[keep]))
    return tuple(np.concatenate([f[k] for f in found]) for k in range(3))


class EdgeChipFinder:
    """`finder(frame, det)`: `det` (the detector's reading of `frame`) plus the chips over card edges it
    missed. `decode(raw)` turns one window's raw head output into (boxes, scores, class ids)."""

    def __init__(self, session, names: tuple[str, ...], decode, uncertain_below: float) -> None:
        self._session = session
        self.names = names
        self._chip_class = np.array([n.startswith("chip_") for n in names], bool)
        self._decode = decode
        self.uncertain_below = uncertain_below

    def __call__(self, frame: np.ndarray, det: sv.Detections) -> sv.Detections:
        names = np.asarray(det.data["class_name"]).astype(str)
        is_chip = np.char.startswith(names, "chip_")
        cards = det.xyxy[~is_chip]
        if not len(cards):
            return det
        h, w = frame.shape[:2]
        boxes, scores, cls = find_in_windows(self._session, frame, card_windows(cards, (w, h)), self._decode,
                                             self._chip_class)
        if not len(boxes):
            return det
        taken = chips_to_add(boxes, scores, cards, det.xyxy[is_chip])
        if not taken:
            return det
        extra = found_detections(boxes[taken], scores[taken], cls[taken], self.names,
                                 scores[taken] < self.uncertain_below)
        return sv.Detections.merge([det, extra])
