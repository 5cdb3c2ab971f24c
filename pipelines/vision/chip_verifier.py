"""A second look at the chip boxes the detector is unsure of, from the full-resolution frame.

The detector reads chips at 960x544; its unsure chip boxes (below `verify_below`) are real chips or
phantoms about equally often (a box in the gap between a wager and its payout, or past a row's end), and
neither geometry nor time tells them apart (benchmarks/RESULTS.md, seventh session). The verifier looks
at each such box's crop at full resolution with its neighbours around it and answers `none` or a
denomination; a confident `none` drops the box.

A box the detector is uncertain of (below its `uncertain_below`) is dropped as well when the verifier gives the
box's own denomination less than `disagree_below` (0.1): most often it is the detector reading the overlap of
two chips as a third, where the verifier sees one of the two. A one-off count of such boxes against the
simulator's perfect observation (a box is no chip when its zone reads right without it) on held-out video:
no chip 156 times in 157 on two King High sets; on four more sets (one per game) no chip 121 times in 169, a
real chip 12 times, a real chip of another denomination 36 times. Through the round machines it turned 135
exact rounds of 200 into 137, none wrong (benchmarks/RESULTS.md, twenty-second session). On random piles
(detector_accuracy.py's scattered frames) it drops real chips as well: chip denomination 0.9625 → 0.9548 there,
unchanged on dealt tables. A box the detector is sure of (at or above `uncertain_below`) that the verifier
gives its own denomination less than `disagree_below` is kept but made uncertain: the detector read a $5 as
a $1000 at 0.64-0.70 in five frames of a fresh held-out King High set, the verifier giving the $1000 0.0, and the
Seven read $1015 for $20, sure (a wrong round; with the doubt, the sure $20 frames between confirm it). Over
32 cached held-out sets (one-off replay) 226 exact rounds of 320 and 2 wrong became 227 and none wrong
(benchmarks/RESULTS.md, twenty-fourth session). A box the verifier leans `none` on below `accept` is no
denomination disagreement: it stays, uncertain. Weights that learnt the gap between a wager and its payout
(twenty-fifth session) answer `none` at 0.83-0.92 for a real chip laid overlapping its wager's top chip, where
dropping it read a payout $100 short, sure. Any other box stays as the detector gave it, unless the verifier
confirms it:

A box the verifier gives its own denomination `confirm_from` (0.99) or more is made sure: no longer
uncertain, at the verifier's belief where that is higher than the detector's. Until the twenty-third session it
never did: a verifier trained on boxes labelled by distance alone (boxes 0.25-0.5 of a chip off a chip left
out) confirmed duplicate boxes half on a chip as second chips, 12 wrong rounds of 160 (benchmarks/RESULTS.md,
eighth session). The committed weights learnt from labels that pair the detector's boxes one to one with the
chips (`chip_verifier_data.pair_boxes`): a box left over half on a chip is `none`, a chip's one box its
denomination however far off. On the 28 cached held-out video sets (one-off replay) 190 exact rounds of 280
became 199, none wrong. A box the detector was sure of and the verifier disputes, that the verifier reads as
another denomination at `confirm_from` or more, takes that denomination, sure (`_read_as_the_verifier_does`;
forty-third session).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import supervision as sv

from .chip_boxes import elongated
from .chip_verifier_data import VERIFIER_CLASSES, VERIFIER_IMGSZ
from .classes import DET_CLASSES
from .crops import chip_crops


class ChipVerifier:
    def __init__(self, session, names: tuple[str, ...], verify_below: float, accept: float,
                 disagree_below: float, confirm_from: float) -> None:
        self._session = session
        self._input = session.get_inputs()[0].name
        self.names = names
        self._none = names.index("none")
        self.verify_below = verify_below
        self.accept = accept
        self.disagree_below = disagree_below
        self.confirm_from = confirm_from
        # the verifier's class for each chip value, to read its probability for the detector's denomination
        self._class_of = {int(n[5:]): k for k, n in enumerate(names) if n.startswith("chip_")}

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
        none = np.full(len(det), np.nan, np.float32)  # the verifier's belief that a box holds no chip (see below)
        if not len(todo):  # the caller's detections, with what the verifier says of them: nothing
            return replace(det, data={**det.data, "chip_none": none})
        probs = self.probabilities(frame, det.xyxy[todo])
        none[todo] = probs[:, self._none]
        keep = np.ones(len(det), bool)
        leans_none = probs.argmax(1) == self._none
        keep[todo[leans_none & (probs.max(1) >= self.accept)]] = False
        own = np.array([self._class_of.get(int(v), -1) for v in det.data["chip_value"][todo]], int)
        p_own = np.where(own >= 0, probs[np.arange(len(todo)), own], 1.0)  # a value it was not taught: no say
        unsure = np.asarray(det.data.get("uncertain", np.zeros(len(det), bool)), bool)[todo]
        # A `none` counts only at `accept`: a box it leans `none` on below that is no denomination disagreement
        # but a doubt, and stays (uncertain)
        keep[todo[unsure & (p_own < self.disagree_below) & ~leans_none]] = False
        out = det[keep]  # indexing copies: the caller's detections stay as they were
        # NaN where it did not look: the zones weigh it against where the box lies in its row (`_hollow_in_rows`)
        out.data["chip_none"] = none[keep]
        at = (np.cumsum(keep) - 1)[todo]  # where each verified box is in `out`
        if self.confirm_from > 0:
            sure = keep[todo] & (own >= 0) & (p_own >= self.confirm_from)
            _confirm(out, at[sure], p_own[sure])
        if "uncertain" in out.data:
            disputed = keep[todo] & ~unsure & (p_own < self.disagree_below)
            out.data["uncertain"][at[disputed]] = True
            if self.confirm_from > 0:
                self._read_as_the_verifier_does(out, at, disputed, probs)
        return out

    def _read_as_the_verifier_does(self, det: sv.Detections, at: np.ndarray, disputed: np.ndarray,
                                   probs: np.ndarray) -> None:
        """A disputed box (the detector sure of it, the verifier giving its denomination less than `disagree_below`)
        that the verifier reads as another denomination at `confirm_from` or more takes that denomination, sure, in
        place. On 24 video sets of the forty-third session (one-off count against the scripted scenes)
        the verifier was right every time, 57 box-frames of 57 (65 of 65 from 0.9): a High Tie $5 read $1 at 0.87-0.90
        between three sure $5s of its $20 Main, which read $16 with doubt by turns. A box the detector was unsure of
        is dropped instead (above): most such are no chip."""
        top = probs.argmax(1)
        named = np.array([n.startswith("chip_") for n in self.names])[top]
        belief = probs[np.arange(len(top)), top]
        take = disputed & named & (belief >= self.confirm_from)
        if not take.any():
            return
        boxes, classes = at[take], top[take]
        det.data["class_name"] = np.asarray(det.data["class_name"], object).copy()
        det.data["class_name"][boxes] = [self.names[c] for c in classes]
        det.data["chip_value"][boxes] = [int(self.names[c][5:]) for c in classes]
        if det.class_id is not None:  # the detector's classes are DET_CLASSES, in its order (the committed weights')
            det.class_id[boxes] = [DET_CLASSES.index(self.names[c]) for c in classes]
        _confirm(det, boxes, belief[take])


def _confirm(det: sv.Detections, boxes: np.ndarray, belief: np.ndarray) -> None:
    """Make `boxes` of `det` sure, in place: no longer uncertain, at the verifier's `belief` where it is the
    higher."""
    det.confidence[boxes] = np.maximum(det.confidence[boxes], belief)
    if "uncertain" in det.data:
        det.data["uncertain"][boxes] = False


def load_verifier(path: Path, session, verify_below: float, accept: float, disagree_below: float,
                  confirm_from: float) -> ChipVerifier:
    from .detect import _model_names

    names = _model_names(session, path, VERIFIER_CLASSES)
    return ChipVerifier(session, names, verify_below, accept, disagree_below, confirm_from)
