"""Card and chip detection from committed weights: one `sv.Detections` per frame.

Two ONNX models run through ONNX Runtime on the CPU (chosen by measurement, benchmarks/detector_speed.py):
- the detector (YOLO, classes in `classes.DET_CLASSES`) finds card faces, backs and chips;
- the card classifier reads rank and suit from a full-resolution crop of every card face.

The detections carry `data["class_name"]`, `data["card"]` (e.g. "Ah" or ""), `data["card_confidence"]`
and `data["chip_value"]` (0 for non-chips) so downstream code never re-derives identity.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import supervision as sv

from .classes import CARD_CLASSES, DET_CLASSES, chip_value
from .crops import card_crop
from .paths import MODELS_DIR


class ModelError(RuntimeError):
    """Weights missing or not loadable."""


@dataclass(frozen=True)
class DetectorConfig:
    detector_path: Path = MODELS_DIR / "detector.onnx"
    classifier_path: Path = MODELS_DIR / "card_classifier.onnx"
    verifier_path: Path | None = MODELS_DIR / "chip_verifier.onnx"  # None: the detector's chips as they come
    verify_below: float = 0.9  # chip boxes below this go to the verifier (precision is 0.99+ only above 0.8)
    verifier_accept: float = 0.97  # the verifier's answer counts at or above this (chosen on held-out crops)
    # a chip box the verifier gives less than this for its own denomination is dropped if uncertain, made
    # uncertain if not (chip_verifier.py)
    verifier_disagree: float = 0.1
    # a chip box the verifier gives at least this for its own denomination is sure (chip_verifier.py); 0: never
    verifier_confirm: float = 0.99
    imgsz: tuple[int, int] = (544, 960)  # (height, width): a 16:9 letterbox wastes no pixels on padding
    conf: float = 0.25  # below this a detection is dropped (chosen on held-out frames: benchmarks/detector_accuracy.py)
    uncertain_below: float = 0.6  # kept but marked uncertain (a round it touches goes to review)
    iou: float = 0.7  # NMS for classes in neither group below, class-wise
    chip_iou: float = 0.5  # chips, across denominations: spread-stack neighbours overlap ~0.35 (held-out video)
    # Card faces and backs together: two dealt cards' boxes overlap at most ~0.2 IoU on every layout,
    # while the detector's second box on a partly covered card overlaps its first by 0.5-0.65.
    card_iou: float = 0.45
    card_conf: float = 0.5  # a card identity below this is carried as unknown
    # A second classifier (fine-tuned on other frames) looks again at cards the first reads below
    # `second_look_below` (about 5 % of them): agreeing, it raises the first's confidence; disagreeing, it
    # lowers it, mostly to unread. On held-out frames half the misreads of crowded tables became unread and
    # none was made (benchmarks/RESULTS.md, fourteenth session). None: the first classifier alone.
    second_classifier_path: Path | None = MODELS_DIR / "card_classifier_2.onnx"
    second_look_below: float = 0.9
    # A second net reads around the cards for chips lying over a card's edge, where the detector misses
    # some (edge_chips.py); its chips count only there. None: the detector's chips alone.
    edge_chips_path: Path | None = MODELS_DIR / "edge_chips.onnx"
    edge_chips_conf: float = 0.25  # the finder's chips below this are dropped
    # A second net reads around cards laid over cards for the middle card of a cascade, which the detector misses
    # (card_finder.py); its cards count only among the detector's. None: the detector's cards alone.
    card_finder_path: Path | None = MODELS_DIR / "card_finder.onnx"
    # The card finder's cards below this are dropped: the lowest at which it added no card to held-out tables as
    # dealt (at 0.25: 8 boxes on no card of their own); on held-out split hands it then finds 10 middle cards the
    # detector missed (11 at 0.25), with 7 boxes on no card of their own (benchmarks/RESULTS.md, fifty-seventh session).
    card_finder_conf: float = 0.65
    threads: int = 1


def _session(path: Path, threads: int):
    import onnxruntime as ort

    if not Path(path).exists():
        raise ModelError(f"{path}: model weights not found (train with `tablewatch train-detector`)")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own exception types
        raise ModelError(f"{path}: cannot load ONNX model: {e}") from e


def letterbox(frame: np.ndarray, size: int | tuple[int, int]) -> tuple[np.ndarray, float, tuple[int, int]]:
    """Resize keeping aspect into a grey (height, width) canvas; returns (image, scale, (pad_x, pad_y))."""
    th, tw = (size, size) if isinstance(size, int) else size
    h, w = frame.shape[:2]
    scale = min(th / h, tw / w)
    nw, nh = round(w * scale), round(h * scale)
    resized = cv2.resize(frame, (nw, nh), interpolation=cv2.INTER_AREA)
    canvas = np.full((th, tw, 3), 114, np.uint8)
    px, py = (tw - nw) // 2, (th - nh) // 2
    canvas[py : py + nh, px : px + nw] = resized
    return canvas, scale, (px, py)


def _to_tensor(images: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 images of one size -> RGB float32 NCHW in [0, 1], written plane by plane straight into the
    batch (a third of the time of converting, scaling and transposing whole arrays; the same values)."""
    h, w = images[0].shape[:2]
    batch = np.empty((len(images), 3, h, w), np.float32)
    for i, im in enumerate(images):
        for c in range(3):
            np.divide(im[..., 2 - c], np.float32(255.0), out=batch[i, c], dtype=np.float32)
    return batch


def decode_yolo(output: np.ndarray, conf: float, iou: float,
                together: tuple[tuple[tuple[int, ...], float], ...] = ()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """YOLO (v8/11) head output (4+nc, N) -> boxes xyxy, scores, class ids after NMS.

    Each `(class ids, IoU)` in `together` is suppressed as one group at its own IoU: one object is one
    class, so two boxes on it are a duplicate whatever their classes (a chip of two denominations, a card
    read as face and back). Classes in no group are suppressed class-wise at `iou`."""
    preds = output.T  # (N, 4+nc)
    scores_all = preds[:, 4:]
    cls = scores_all.argmax(1)
    scores = scores_all[np.arange(len(cls)), cls]
    keep = scores >= conf
    preds, cls, scores = preds[keep], cls[keep], scores[keep]
    if not len(preds):
        return np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, int)
    xy, wh = preds[:, :2], preds[:, 2:4]
    boxes = np.concatenate([xy - wh / 2, xy + wh / 2], axis=1)
    idx = grouped_nms(boxes, scores, cls, iou, together)
    return boxes[idx].astype(np.float32), scores[idx].astype(np.float32), cls[idx]


def grouped_nms(boxes: np.ndarray, scores: np.ndarray, cls: np.ndarray, iou: float,
                together: tuple[tuple[tuple[int, ...], float], ...] = ()) -> np.ndarray:
    """Sorted indices of the boxes NMS keeps: each group in `together` as one class at its own IoU, the
    other classes class-wise at `iou` (see decode_yolo)."""
    grouped = np.zeros(len(cls), bool)
    kept = []
    for ids, group_iou in together:
        member = np.isin(cls, ids)
        grouped |= member
        kept.append(_nms(boxes, scores, np.zeros(len(cls), int), member, float(group_iou)))
    kept.append(_nms(boxes, scores, cls, ~grouped, iou))
    return np.sort(np.concatenate(kept))


def _nms(boxes: np.ndarray, scores: np.ndarray, group: np.ndarray, mask: np.ndarray, iou: float) -> np.ndarray:
    """Indices (into all boxes) kept by NMS among `mask`, boxes of different `group` never suppressing
    each other (offsetting boxes by group makes one NMS call group-wise)."""
    sel = np.flatnonzero(mask)
    if not len(sel):
        return sel
    offset = boxes[sel] + (group[sel, None] * 4096.0)
    idx = cv2.dnn.NMSBoxes(
        [[float(a), float(b), float(c - a), float(d - b)] for a, b, c, d in offset],
        scores[sel].tolist(), 0.0, iou,  # scores were thresholded already
    )
    return sel[np.array(idx, dtype=int).reshape(-1)]


def _model_names(session, path: Path, expected: tuple[str, ...]) -> tuple[str, ...]:
    """Class names from the ONNX metadata, checked against the classes this code knows."""
    raw = session.get_modelmeta().custom_metadata_map.get("names")
    if raw is None:
        return expected
    names = ast.literal_eval(raw)
    ordered = tuple(names[i] for i in range(len(names)))
    if sorted(ordered) != sorted(expected):
        raise ModelError(f"{path}: model classes {ordered} do not match the expected {expected}")
    return ordered


class Detector:
    """Loads the committed ONNX weights once; `detect(frame)` or `detect_batch(frames)`."""

    def __init__(self, config: DetectorConfig | None = None) -> None:
        self.config = config or DetectorConfig()
        self._det = _session(self.config.detector_path, self.config.threads)
        self._cls = _session(self.config.classifier_path, self.config.threads)
        self._verifier = None
        if self.config.verifier_path is not None:
            from .chip_verifier import load_verifier

            path = self.config.verifier_path
            self._verifier = load_verifier(path, _session(path, self.config.threads), self.config.verify_below,
                                           self.config.verifier_accept, self.config.verifier_disagree,
                                           self.config.verifier_confirm)
        # Class order comes from each model's own metadata: ultralytics sorts ImageFolder class names
        # ("Ac" before "Tc"), so the classifier's order is not cards.DECK's.
        self.det_names = _model_names(self._det, self.config.detector_path, DET_CLASSES)
        self.card_names = _model_names(self._cls, self.config.classifier_path, CARD_CLASSES)
        self._cls2 = None
        if self.config.second_classifier_path is not None:
            path = self.config.second_classifier_path
            self._cls2 = _session(path, self.config.threads)
            if _model_names(self._cls2, path, CARD_CLASSES) != self.card_names:
                raise ModelError(f"{path}: its cards are in another order than {self.config.classifier_path}'s, "
                                 "so their answers cannot be compared")
            self._cls2_input = self._cls2.get_inputs()[0].name
        chip_ids = tuple(i for i, n in enumerate(self.det_names) if n.startswith("chip_"))
        card_ids = tuple(i for i, n in enumerate(self.det_names) if n == "card" or n.startswith("back_"))
        self._groups = ((chip_ids, self.config.chip_iou), (card_ids, self.config.card_iou))
        self._edge_chips = None
        if self.config.edge_chips_path is not None:
            from .edge_chips import EdgeChipFinder

            finder, names = self._specialist(self.config.edge_chips_path)
            self._edge_chips = EdgeChipFinder(
                finder, names, lambda raw: decode_yolo(raw, self.config.edge_chips_conf, self.config.iou, self._groups),
                self.config.uncertain_below)
        self._card_finder = None
        if self.config.card_finder_path is not None:
            from .card_finder import CascadeCardFinder

            finder, names = self._specialist(self.config.card_finder_path)
            conf = self.config.card_finder_conf
            self._card_finder = CascadeCardFinder(
                finder, names, lambda raw: decode_yolo(raw, conf, self.config.iou, self._groups), self.config.card_iou,
                self.read_cards)
        self._det_input = self._det.get_inputs()[0].name
        self._cls_input = self._cls.get_inputs()[0].name
        shape = self._cls.get_inputs()[0].shape
        self.cls_size = int(shape[2]) if isinstance(shape[2], int) else 96
        dshape = self._det.get_inputs()[0].shape
        if isinstance(dshape[2], int) and isinstance(dshape[3], int):  # a fixed-size export says its size
            self.config = DetectorConfig(**{**self.config.__dict__, "imgsz": (int(dshape[2]), int(dshape[3]))})

    def _specialist(self, path: Path):
        """A second net fine-tuned from the detector's weights (the card-edge chip finder, the card finder): its
        session and class names, which must be the detector's, in its order."""
        session = _session(path, self.config.threads)
        names = _model_names(session, path, DET_CLASSES)
        if names != self.det_names:
            raise ModelError(f"{path}: its classes are in another order than {self.config.detector_path}'s")
        return session, names

    def _read_cards(self, tensor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each card's class index and confidence: the first classifier's reading. Where it is unsure the
        second looks again: agreeing, the two confidences are averaged; disagreeing, the card keeps the
        lesser of the two models' belief in the first's reading (mostly below `card_conf`: unread). The
        second never changes a reading, only how sure it is: averaging the two made a card misread in
        held-out video (benchmarks/RESULTS.md, fourteenth session)."""
        probs = self._cls.run(None, {self._cls_input: tensor})[0]
        best = probs.argmax(axis=1)
        conf = probs[np.arange(len(best)), best]
        if self._cls2 is None:
            return best, conf
        unsure = np.flatnonzero(conf < self.config.second_look_below)
        if len(unsure):
            second = self._cls2.run(None, {self._cls2_input: tensor[unsure]})[0]
            theirs = second[np.arange(len(unsure)), best[unsure]]  # the second's belief in the first's reading
            agree = second.argmax(axis=1) == best[unsure]
            conf = conf.copy()
            conf[unsure] = np.where(agree, (conf[unsure] + theirs) / 2, np.minimum(conf[unsure], theirs))
        return best, conf

    def detect(self, frame: np.ndarray) -> sv.Detections:
        return self.detect_batch([frame])[0]

    def detect_batch(self, frames: list[np.ndarray]) -> list[sv.Detections]:
        return [self.detect_in(f, (0, 0, f.shape[1], f.shape[0])) for f in frames]

    def detect_in(self, frame: np.ndarray, window: tuple[int, int, int, int], session=None,
                  size: tuple[int, int] | None = None) -> sv.Detections:
        """Detections inside `window` (x0, y0, x1, y1 pixels of `frame`), in frame coordinates, from
        `session` (an export of the same weights at input `size`; default the detector's own)."""
        x0, y0, x1, y1 = window
        session = session or self._det
        img, scale, (px, py) = letterbox(frame[y0:y1, x0:x1], size or self.config.imgsz)
        raw = session.run(None, {session.get_inputs()[0].name: _to_tensor([img])})[0][0]
        boxes, scores, cls = decode_yolo(raw, self.config.conf, self.config.iou, self._groups)
        boxes = (boxes - np.array([px, py, px, py], np.float32)) / scale + np.array([x0, y0, x0, y0], np.float32)
        return self.second_looks(frame, self._identify(frame, boxes, scores, cls))

    def second_looks(self, frame: np.ndarray, det: sv.Detections) -> sv.Detections:
        """`det` (this detector's reading of `frame`, or one stored without second looks) with the cards laid
        among its cards that the card finder adds, the chips over card edges that the card-edge finder adds, then
        the chip verifier's drops."""
        if self._card_finder is not None:
            det = self._card_finder(frame, det)
        if self._edge_chips is not None:
            det = self._edge_chips(frame, det)
        return self.verify_chips(frame, det)

    def suppress(self, det: sv.Detections) -> sv.Detections:
        """`det` after this detector's non-maximum suppression (for detections merged from two looks)."""
        if len(det) < 2:
            return det
        return det[grouped_nms(np.asarray(det.xyxy, np.float32), np.asarray(det.confidence, np.float32),
                               np.asarray(det.class_id), self.config.iou, self._groups)]

    def verify_chips(self, frame: np.ndarray, det: sv.Detections) -> sv.Detections:
        """The chip verifier's second look at the unsure chip boxes of `det` (as this detector made them,
        or stored from a run without the verifier): the boxes it is sure hold no chip dropped, the rest
        as they came; `det` unchanged when there is no verifier."""
        return det if self._verifier is None else self._verifier(frame, det)

    def _identify(self, frame: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                  cls: np.ndarray) -> sv.Detections:
        names = np.array([self.det_names[i] for i in cls], dtype=object)
        chips = np.array([chip_value(n) or 0 for n in names], dtype=np.int32)
        det = sv.Detections(
            xyxy=boxes.reshape(-1, 4),
            confidence=scores,
            class_id=cls.astype(int),
            data={"class_name": names, "card": np.full(len(cls), "", dtype=object),
                  "card_confidence": np.zeros(len(cls), np.float32), "chip_value": chips,
                  "uncertain": scores < self.config.uncertain_below},
        )
        return self.read_cards(frame, det)

    def read_cards(self, frame: np.ndarray, det: sv.Detections) -> sv.Detections:
        """`det` with every card face read by this detector's classifiers from its crop of `frame`, nothing
        else changed. The boxes do not depend on the classifiers, so detections stored under other ones
        (benchmarks/reconstruction.py) read as this detector would have read them."""
        face_idx = np.flatnonzero(det.data["class_name"] == "card") if len(det) else np.zeros(0, int)
        if not len(face_idx):
            return det
        best, conf = self._read_cards(_to_tensor([card_crop(frame, det.xyxy[i], self.cls_size) for i in face_idx]))
        cards, card_conf = det.data["card"].copy(), det.data["card_confidence"].copy()
        card_conf[face_idx] = conf
        cards[face_idx] = np.where(conf >= self.config.card_conf,
                                   np.array(self.card_names, dtype=object)[best], "")
        uncertain = det.data["uncertain"].copy()
        uncertain[face_idx] = (det.confidence[face_idx] < self.config.uncertain_below) | (
            card_conf[face_idx] < self.config.card_conf)
        data = {**det.data, "card": cards, "card_confidence": card_conf, "uncertain": uncertain}
        return replace(det, data=data)
