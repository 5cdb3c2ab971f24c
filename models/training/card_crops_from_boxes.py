"""Card classifier training crops cut where the deployed detector puts its boxes, not where the truth does.

The classifier was trained on crops of the true card boxes with a 4 % jitter. At run time it reads crops of
the detector's boxes, and on a partly covered card those differ most: the box shrinks to the visible part,
or stretches over a neighbour. Every card error left on held-out frames is on such a card
(models/MODEL_CARD.md), so this renders scripted rounds (the tables as dealt, the dealer's hand over them),
runs the committed detector on each frame, and cuts a crop from every card-face box it matches one to one
with a true face (IoU 0.5 or more), labelled with that card. A card with anything over it gets three such
crops (slightly jittered), a clear card one, plus one crop of the true box as before so that the reading
of clear cards does not drift. Sessions whose index is a multiple of 7 validate.

    python models/training/card_crops_from_boxes.py OUT [--sessions 160] [--frames 25] [--seed 18] \
        [--train-from models/card_classifier.pt --epochs 4]

With `--train-from`, the classifier given is then fine-tuned on OUT/cls (AdamW at 1e-4, no warmup, batch
128: the gentle fine-tune that did not lose accuracy on 2 CPU cores) and exported to OUT/card_classifier.onnx.

Seeds: `seed * 1_000_000 + session`, far from every benchmark's (9001.., 90001..).

Measured (eighteenth session, 2 CPU cores): 160 sessions of 25 frames (4,000 frames, 19,752 card faces,
3,418 of them covered) give 46,253 crops in 4.4 min; 4 epochs from models/card_classifier.pt take 25 min.
On the 23 validation sessions' crops (one-off count) the committed classifier reads 0.9757 of the detector-
box crops right (58 misread) and the fine-tuned one 0.9810 (59 misread): fewer unread, no fewer misread. On
the held-out frames of benchmarks/detector_accuracy.py it did no better (dealt card identity 0.9876 alone,
0.9891 as the second look, against 0.9907 committed), so models/ keeps its classifiers; the recipe stays for
a GPU run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import supervision as sv

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("OMP_NUM_THREADS", "1")

from pipelines.games.cards import DECK
from pipelines.games.layout import layout_for
from pipelines.games.round import GAME_IDS
from pipelines.sim.camera import Camera
from pipelines.sim.render import covered_fractions, render
from pipelines.sim.session import script_session
from pipelines.vision.classes import CARD_CLASSES
from pipelines.vision.crops import card_crop
from pipelines.vision.training import CLS_IMGSZ

COVERED = 0.05  # a card with this share or more covered is a hard case: three crops of the detector's box
VAL_EVERY = 7


_detector = None  # loaded once per worker process, not once per session


def _boxes_detector():
    global _detector
    if _detector is None:
        from pipelines.vision.detect import Detector, DetectorConfig

        _detector = Detector(DetectorConfig(second_classifier_path=None, verifier_path=None))
    return _detector


def _session(args: tuple[Path, int, int, int]) -> dict:
    out, seed, index, frames = args
    det = _boxes_detector()
    game = GAME_IDS[index % len(GAME_IDS)]
    layout = layout_for(game)
    rng = np.random.default_rng([seed, index])
    cam = Camera.overhead(layout, rng=rng)
    rounds, _ = script_session(game, rounds=4, seed=seed * 1_000_000 + index, fault_rate=0.1)
    scenes = [s for r in rounds for s in r.scenes]
    picks = np.sort(rng.choice(len(scenes), size=min(frames, len(scenes)), replace=False))
    split = "val" if index % VAL_EVERY == 0 else "train"
    counts = {"frames": 0, "cards": 0, "covered": 0, "matched": 0, "box_crops": 0, "truth_crops": 0}
    for f in picks:
        frame, labels = render(layout, scenes[f], cam, rng)
        covered = covered_fractions(layout, scenes[f], cam)
        faces = [(lb, c) for lb, c in zip(labels, covered, strict=True) if lb[0] in DECK]
        counts["frames"] += 1
        if not faces:
            continue
        pred = det.detect(frame)
        boxes = np.asarray(pred.xyxy)[np.asarray(pred.data["class_name"]) == "card"]
        truth = np.array([lb[1:] for lb, _ in faces], np.float64)
        iou = sv.box_iou_batch(truth, boxes) if len(boxes) else np.zeros((len(truth), 0))
        for k, ((name, *box), cov) in enumerate(faces):
            hard = cov >= COVERED
            counts["cards"] += 1
            counts["covered"] += hard
            stem = out / "cls" / split / name / f"{seed}_{index:04d}_{f:05d}_{k}"
            tb = np.array(box, np.float64)
            w, h = tb[2] - tb[0], tb[3] - tb[1]
            cv2.imwrite(f"{stem}_t.png", card_crop(frame, tb + rng.normal(0, 0.04, 4) * [w, h, w, h], CLS_IMGSZ))
            counts["truth_crops"] += 1
            if not iou.shape[1] or iou[k].max() < 0.5 or iou[:, iou[k].argmax()].argmax() != k:
                continue
            counts["matched"] += 1
            db = boxes[iou[k].argmax()].astype(np.float64)
            for j in range(3 if hard else 1):
                jitter = rng.normal(0, 0.02, 4) * [w, h, w, h] if j else 0.0
                cv2.imwrite(f"{stem}_d{j}.png", card_crop(frame, db + jitter, CLS_IMGSZ))
                counts["box_crops"] += 1
    return counts


def build(out: Path, sessions: int, frames: int, seed: int, workers: int) -> dict:
    from tqdm import tqdm

    for split in ("train", "val"):
        for card in CARD_CLASSES:
            (out / "cls" / split / card).mkdir(parents=True, exist_ok=True)
    total: dict[str, int] = {}
    jobs = [(out, seed, i, frames) for i in range(sessions)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in tqdm(pool.map(_session, jobs), total=sessions, desc="sessions", unit="session"):
            for key, value in part.items():
                total[key] = total.get(key, 0) + value
    meta = {"seed": seed, "sessions": sessions, "frames_per_session": frames, "covered_at": COVERED, **total}
    (out / "meta.json").write_text(json.dumps(meta, indent=2))
    return meta


def fine_tune(out: Path, init: Path, epochs: int, lr: float = 1e-4) -> Path:
    import shutil

    from ultralytics import YOLO

    from pipelines.vision.training import CLS_AUGMENT, DET_FINE_TUNE

    os.environ["YOLO_OFFLINE"] = "1"  # nothing is downloaded
    YOLO(str(init)).train(
        data=str(out / "cls"), epochs=epochs, imgsz=CLS_IMGSZ, batch=128, device="cpu", workers=2, plots=False,
        amp=False, project=str(out / "runs"), name="cls", exist_ok=True, **CLS_AUGMENT,
        **{**DET_FINE_TUNE, "lr0": lr})
    last = out / "runs" / "cls" / "weights" / "last.pt"
    YOLO(str(last)).export(format="onnx", imgsz=CLS_IMGSZ, dynamic=True, simplify=True, opset=17)
    shutil.copy(last.with_suffix(".onnx"), out / "card_classifier.onnx")
    shutil.copy(last, out / "card_classifier.pt")
    return out / "card_classifier.onnx"


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--sessions", type=int, default=160)
    ap.add_argument("--frames", type=int, default=25)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--train-from", type=Path, help="a classifier's .pt to fine-tune on the crops")
    ap.add_argument("--epochs", type=int, default=4)
    a = ap.parse_args()
    if not (a.out / "meta.json").exists():
        print(json.dumps(build(a.out, a.sessions, a.frames, a.seed, a.workers)))
    if a.train_from:
        print(fine_tune(a.out, a.train_from, a.epochs))
