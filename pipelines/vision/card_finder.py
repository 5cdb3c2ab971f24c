"""A second net that looks at cards laid over cards, for the card in the middle of a cascade the detector misses.

A High Tie split hand is dealt in a cascade: each card stepped about a third of a card over the one before, so a
middle card shows as a strip. The detector never boxes some such strips (held-out video: a 4s between an 8d and a
4c, a 4d between a 3d and a Ks), and the hand is read a card short: a wrong round, not a doubtful one. The
finder is the detector's weights fine-tuned on windows around split hands (`cascade_cards_data.py`); it reads an
`EDGE_WINDOW` square around each group of the detector's card faces in which two overlap, and a face of its counts
only where it lies between two of the detector's, overlapping both without being either (`cards_to_add`). Its
cards are read by the card classifiers as the detector's are, and always carried as uncertain: the round they land
in goes to review. Elsewhere the detector's reading stands untouched.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import supervision as sv

from .edge_chips import best_first, card_windows, find_in_windows, found_detections


def overlapping(boxes: np.ndarray) -> np.ndarray:
    """The card boxes (N, 4 xyxy) that overlap another: where a card may lie under the next."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    if len(boxes) < 2:
        return np.zeros(len(boxes), bool)
    iou = sv.box_iou_batch(boxes, boxes)
    np.fill_diagonal(iou, 0.0)
    return iou.max(axis=1) > 0


def cards_to_add(boxes: np.ndarray, scores: np.ndarray, cards: np.ndarray, same_card_iou: float) -> list[int]:
    """Which of the finder's card boxes (N, 4) with `scores` count, best first: those lying between two or more of
    the detector's `cards` (faces), overlapping each, as the middle card of a cascade lies under the next and over
    the one before, but none by more than `same_card_iou` (the detector's own suppression between cards: more is
    that card boxed again), nor a better box of the finder (windows overlap, so one card can be found twice). A box
    over one card alone is most often that card boxed again a little off (every one the finder added on held-out
    dealt frames: benchmarks/RESULTS.md, fifty-seventh session)."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    cards = np.asarray(cards, np.float64).reshape(-1, 4)
    if not len(boxes) or len(cards) < 2:
        return []
    iou = sv.box_iou_batch(boxes, cards)
    keep = ((iou > 0).sum(axis=1) >= 2) & (iou.max(axis=1) <= same_card_iou)
    return best_first(boxes, scores, keep, same_card_iou)


class CascadeCardFinder:
    """`finder(frame, det)`: `det` (the detector's reading of `frame`, cards read) plus the cards laid among its
    cards that it missed, read by `read_cards(frame, extra)`. `decode(raw)` turns one window's raw head output
    into (boxes, scores, class ids)."""

    def __init__(self, session, names: tuple[str, ...], decode, same_card_iou: float,
                 read_cards: Callable[[np.ndarray, sv.Detections], sv.Detections]) -> None:
        self._session = session
        self.names = names
        self._face_class = np.array([n == "card" for n in names], bool)  # a split hand is dealt face up
        self._decode = decode
        self.same_card_iou = same_card_iou
        self._read_cards = read_cards

    def __call__(self, frame: np.ndarray, det: sv.Detections) -> sv.Detections:
        names = np.asarray(det.data["class_name"]).astype(str)
        faces = names == "card"
        cards = det.xyxy[faces]
        laid_over = cards[overlapping(cards)]
        if not len(laid_over):
            return det
        h, w = frame.shape[:2]
        boxes, scores, cls = find_in_windows(self._session, frame, card_windows(laid_over, (w, h)), self._decode,
                                             self._face_class)
        taken = cards_to_add(boxes, scores, cards, self.same_card_iou)
        if not taken:
            return det
        read = self._read_cards(frame, found_detections(boxes[taken], scores[taken], cls[taken], self.names,
                                                        np.ones(len(taken), bool)))
        # A box read as a card it lies over is that card boxed again, a little off (a 3 Card Monster Th, a High Tie
        # split hand's Td: benchmarks/RESULTS.md, fifty-seventh session).
        again = read_as_beneath(read.xyxy, read.data["card"], cards, np.asarray(det.data["card"])[faces])
        read = read[~again]
        if not len(read):
            return det
        # Always in doubt, however it reads: the classifiers read a strip of a card poorly (a 4d between a 3d and a
        # Ks read 9d at 0.54), so a found card sends its round to review rather than being counted as read.
        read.data["uncertain"] = np.ones(len(read), bool)
        return sv.Detections.merge([det, read])


def read_as_beneath(boxes: np.ndarray, read: np.ndarray, cards: np.ndarray, identities: np.ndarray) -> np.ndarray:
    """Per box (N, 4) read as `read` (card names, "" unread): whether it is read as one of the `cards` (M, 4) it
    overlaps, whose `identities` the detector's reading gave."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    cards = np.asarray(cards, np.float64).reshape(-1, 4)
    if not len(boxes) or not len(cards):
        return np.zeros(len(boxes), bool)
    over = sv.box_iou_batch(boxes, cards) > 0
    same = np.asarray(read, dtype=object)[:, None] == np.asarray(identities, dtype=object)[None, :]
    return (over & same & (np.asarray(read, dtype=object) != "")[:, None]).any(axis=1)
