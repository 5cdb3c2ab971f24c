"""A second look at the chip boxes the detector is unsure of, from the full-resolution frame.

The detector reads chips at 960x544; its unsure chip boxes (below `verify_below`) are real chips or
phantoms about equally often (a box in the gap between a wager and its payout, or past a row's end), and
neither geometry nor time tells them apart (benchmarks/RESULTS.md, seventh session). The verifier looks
at each such box's crop at full resolution with its neighbours around it and answers `none` or a
denomination; a confident `none` drops the box, anything else leaves it as the detector gave it.

It never makes a box sure. Letting a confident answer of the detector's own denomination do so turned
unsure rounds exact but also wrong: 12 wrong of 160 on the four held-out video sets, against 1 without
the verifier, nearly all a duplicate box half on a chip confirmed as a second chip (its training labels
left boxes 0.25-0.5 of a chip off a chip out as ambiguous, so it never learnt them). Drops alone: 1
wrong, as without the verifier, and 5 more exact (benchmarks/RESULTS.md, eighth session).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import supervision as sv

from .chip_boxes import elongated
from .chip_verifier_data import VERIFIER_CLASSES, VERIFIER_IMGSZ
from .crops import chip_crops


class ChipVerifier:
    def __init__(self, session, names: tuple[str, ...], verify_below: float, accept: float) -> None:
        self._session = session
        self._input = session.get_inputs()[0].name
        self.names = names
        self._none = names.index("none")
        self.verify_below = verify_below
        self.accept = accept

    def probabilities(self, frame: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(N, classes) verifier probabilities for chip boxes (N, 4 xyxy) in `frame`."""
        if not len(boxes):
            return np.zeros((0, len(self.names)), np.float32)
        crops = chip_crops(frame, boxes, VERIFIER_IMGSZ)
        x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32) / 255.0  # BGR, as trained
        return self._session.run(None, {self._input: x})[0]

    def __call__(self, frame: np.ndarray, det: sv.Detections) -> sv.Detections:
        """`det` with its unsure chip boxes settled where the verifier is confident (see the module doc)."""
        # A box run on over a card (chip_boxes.elongated) is centred on the card, not the chip: its crop
        # would show the card's middle, so the verifier says nothing about it.
        todo = np.flatnonzero((np.asarray(det.data["chip_value"]) > 0) & (det.confidence < self.verify_below)
                              & ~elongated(det.xyxy))
        if not len(todo):
            return det
        probs = self.probabilities(frame, det.xyxy[todo])
        keep = np.ones(len(det), bool)
        keep[todo[(probs.argmax(1) == self._none) & (probs.max(1) >= self.accept)]] = False
        return det[keep]


def load_verifier(path: Path, session, verify_below: float, accept: float) -> ChipVerifier:
    from .detect import _model_names

    names = _model_names(session, path, VERIFIER_CLASSES)
    return ChipVerifier(session, names, verify_below, accept)
