"""Detector training sets from the simulator, and training with ultralytics from a model yaml.

Two datasets come from the same rendered frames:
- `det/`: YOLO detection format with `classes.DET_CLASSES` (every face is one class "card");
- `cls/`: ImageFolder crops of each visible face, cut from the full-resolution frame exactly as
  `detect.card_crop` cuts them at run time (with box jitter, as a detector's boxes wobble).
Nothing is downloaded: models are built from `yolo11n.yaml` / `yolo11n-cls.yaml`.
"""

from __future__ import annotations

import json
import shutil
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import yaml
from tqdm import tqdm

from pipelines.games.cards import DECK
from pipelines.games.layout import layout_for
from pipelines.games.round import GAME_IDS
from pipelines.sim.camera import Camera
from pipelines.sim.random_scenes import random_scene, with_chips_on_card_edges, with_hands_on_cards
from pipelines.sim.render import HIDDEN_LIMIT, covered_fractions, render
from pipelines.sim.render_scenes import random_scene as table_scene
from pipelines.sim.scene import Scene
from pipelines.sim.session import script_session

from .chip_boxes import over_cards
from .classes import CARD_CLASSES, DET_CLASSES, det_class_of
from .crops import card_crop
from .paths import MODELS_DIR
from .training_tiles import TILE_IMGSZ, TILE_SCALE, TILE_SCALE_JITTER, TILE_WINDOW, cut_tile, tile_origin

CLS_IMGSZ = 96
# Card crops: printed indices are not mirror-symmetric, and a crop's colour (red or black suit) is evidence.
CLS_AUGMENT = {"fliplr": 0.0, "flipud": 0.0, "scale": 0.1, "erasing": 0.0, "auto_augment": None, "hsv_h": 0.0}
CHUNK = 20  # frames per worker job
DEPLOY_SHAPE = (544, 960)  # (height, width) of the detector input at run time
FAST_SHAPE = (384, 640)
TILE_SHAPE = (288, 480)  # one tile around a change, at DEPLOY_SHAPE's scale (pipelines/vision/regional.py)
# 2: a third of the frames come from scripted rounds (chips on cards, hands mid-deal). 3: a share of the scripted
# and laid-out frames also get small stacks over a card's edge, the detector's blind spot. 4: scripted rounds deal
# seat cards inside their card boxes, squared to them (they ran over the outer seats' betting spots).
GENERATOR_VERSION = 4
EDGE_CHIPS = 0.5  # the share of scripted and laid-out frames given one or two stacks over a card's edge
# The share of scripted and laid-out frames given one or two hands resting part over a face-up card (`hands_share`,
# recorded in meta.json). Off: the classifiers fine-tuned with 0.8 read no more dealt cards right and misread more
# (models/MODEL_CARD.md, fifty-ninth session).
HANDS_ON_CARDS = 0.0
# Fine-tuning the detector starts from weights that already work: a small step, no warmup (ultralytics' automatic
# choice, AdamW at 7.7e-4 with a warmup, moved them furthest). On 2 CPU cores neither kept the committed
# weights' held-out figures (benchmarks/RESULTS.md, twelfth and thirteenth sessions); this one lost least.
DET_FINE_TUNE = {"optimizer": "AdamW", "lr0": 1e-4, "lrf": 0.3, "warmup_epochs": 0, "warmup_bias_lr": 0.0}
# The classifier's fine-tune on a GPU (models/training/card_classifier_on_gpu.sh): ultralytics' automatic choice
# there is SGD at 0.01 with three warmup epochs, a big step for weights that already read 97 % of crops.
CLS_FINE_TUNE = {"optimizer": "AdamW", "lr0": 2e-4, "lrf": 0.05, "cos_lr": True, "warmup_epochs": 0.5,
                 "warmup_bias_lr": 0.0}


def _write_det_label(path: Path, labels: list, size: tuple[int, int]) -> None:
    w, h = size
    lines = []
    for name, x1, y1, x2, y2 in labels:
        x1, x2 = max(0.0, x1), min(float(w), x2)
        y1, y2 = max(0.0, y1), min(float(h), y2)
        if x2 - x1 < 2 or y2 - y1 < 2:
            continue
        cls = DET_CLASSES.index(det_class_of(name))
        lines.append(f"{cls} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
    path.write_text("\n".join(lines) + ("\n" if lines else ""))


def draw_scene(layout, rng: np.random.Generator, dealt: list, mix: tuple[float, float], edge_share: float,
               max_stacks: int, hands_share: float = 0.0) -> Scene:
    """One training scene: a scripted round's scene from `dealt` as dealt (below `mix[0]`), the game's layout
    as it lies (below `mix[1]`), else scattered for variety (overlaps, sideways cards, trays); a scripted or
    laid-out one gets one to `max_stacks` stacks over a card's edge with probability `edge_share`, and one or
    two hands part over a face-up card with probability `hands_share`."""
    source = rng.random()
    if source < mix[0] and dealt:
        scene = dealt[int(rng.integers(len(dealt)))]
    elif source < mix[1]:
        scene = table_scene(layout, rng, occluders=int(rng.integers(0, 3)))
    else:
        scene = random_scene(layout, rng)
    if source < mix[1] and rng.random() < edge_share:
        scene = with_chips_on_card_edges(scene, rng, stacks=int(rng.integers(1, max_stacks + 1)))
    # no draw when off, so a set built without hands is generator 4's frame for frame
    if source < mix[1] and hands_share and rng.random() < hands_share:
        scene = with_hands_on_cards(scene, rng, hands=int(rng.integers(1, 3)))
    return scene


# Where each frame's scene comes from: (scripted rounds, laid out as the game deals) below these draws, else
# scattered. Whole frames take a third each; tiles weigh what the deployed detector sees more.
FRAME_MIX = (1 / 3, 2 / 3)
TILE_MIX = (0.5, 0.8)


def crops_for(covered: float, crops_per_card: int, covered_crops: int) -> int:
    """How many jittered crops a card gets: `covered_crops` more for a card covered as far as a label goes
    (`HIDDEN_LIMIT`), in proportion below that. The classifier's errors are cards under the dealer's hand
    (MODEL_CARD.md), and covered cards are only about one dealt card in seven."""
    return crops_per_card + round(covered_crops * min(covered, HIDDEN_LIMIT) / HIDDEN_LIMIT)


def _render_chunk(args: tuple[Path, int, int, int, float, int, bool, tuple[float, float], int, float]) -> dict:
    """Render frames [start, stop) with their own generator, so chunks run in parallel deterministically."""
    out, seed, start, stop, val_fraction, crops_per_card, tiles, mix, covered_crops, hands_share = args
    rng = np.random.default_rng([seed, start])
    counts = {"images": 0, "train": 0, "val": 0, "card_crops": 0, "labels": 0, "chips_on_cards": 0}
    # One layout and camera pose per chunk: a new pose redraws the felt (about 0.6 s).
    layout = layout_for(GAME_IDS[(start // CHUNK) % len(GAME_IDS)])
    cam = Camera.overhead(layout, rng=rng)
    # Scripted rounds put things where dealing puts them (a Pick 2 chip lying on its seat's card edge),
    # which the random scenes miss; seeds far from the benchmarks' (9001.., 90001..) keep those held out.
    rounds, _ = script_session(layout.game, rounds=3, seed=seed * 1_000_000 + start, fault_rate=0.1)
    dealt = [s for r in rounds for s in r.scenes]
    for i in range(start, stop):
        scene = draw_scene(layout, rng, dealt, mix, EDGE_CHIPS, max_stacks=2, hands_share=hands_share)
        frame, labels = render(layout, scene, cam, rng)
        covered = covered_fractions(layout, scene, cam) if covered_crops and not tiles else [0.0] * len(labels)
        names = [lb[0] for lb in labels]
        counts["chips_on_cards"] += int(over_cards(np.array([lb[1:] for lb in labels], np.float64).reshape(-1, 4),
                                                   np.array([n.startswith("chip_") for n in names], bool)).sum())
        full = frame
        if tiles:
            frame, labels = cut_tile(frame, labels, tile_origin((frame.shape[1], frame.shape[0]), labels, rng))
        # Every k-th frame validates (k = 1 / val_fraction, frame 0 included): a small set always has one.
        split = "val" if val_fraction > 0 and i % max(1, round(1 / val_fraction)) == 0 else "train"
        name = f"{seed}_{i:06d}"
        size = (frame.shape[1], frame.shape[0])
        cv2.imwrite(str(out / "det" / "images" / split / f"{name}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
        _write_det_label(out / "det" / "labels" / split / f"{name}.txt", labels, size)
        for k, (cls_name, x1, y1, x2, y2) in enumerate([] if tiles else labels):
            if cls_name not in DECK:
                continue
            for j in range(crops_for(covered[k], crops_per_card, covered_crops)):
                bw, bh = x2 - x1, y2 - y1
                jitter = rng.normal(0, 0.04, 4) * np.array([bw, bh, bw, bh])
                crop = card_crop(full, np.array([x1, y1, x2, y2]) + jitter, CLS_IMGSZ)
                cv2.imwrite(str(out / "cls" / split / cls_name / f"{name}_{k}_{j}.png"), crop)
                counts["card_crops"] += 1
        counts["images"] += 1
        counts[split] += 1
        counts["labels"] += len(labels)
    return counts


def build_training_sets(out: Path, images: int, seed: int, val_fraction: float = 0.15,
                        crops_per_card: int = 1, workers: int = 1, progress: bool = True,
                        tiles: bool = False, mix: tuple[float, float] | None = None, covered_crops: int = 0,
                        hands_share: float = HANDS_ON_CARDS) -> dict:
    """Render `images` random scenes over the four layouts; write det/ and cls/ under `out`. With `tiles`,
    det/ holds one tile per scene at the deployed scale (`training_tiles`) and there is no cls/. `mix` draws
    the scenes' sources (see FRAME_MIX; TILE_MIX or FRAME_MIX by default); `covered_crops` gives covered cards
    more crops (`crops_for`); `hands_share` of the scripted and laid-out scenes get hands over cards."""
    mix = mix or (TILE_MIX if tiles else FRAME_MIX)
    out = Path(out)
    for split in ("train", "val"):
        (out / "det" / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "det" / "labels" / split).mkdir(parents=True, exist_ok=True)
        for card in [] if tiles else CARD_CLASSES:
            (out / "cls" / split / card).mkdir(parents=True, exist_ok=True)
    jobs = [(out, seed, a, min(a + CHUNK, images), val_fraction, crops_per_card, tiles, mix, covered_crops, hands_share)
            for a in range(0, images, CHUNK)]
    counts = {"images": 0, "train": 0, "val": 0, "card_crops": 0, "labels": 0, "chips_on_cards": 0}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in tqdm(pool.map(_render_chunk, jobs), total=len(jobs),
                         desc=f"rendering training {'tiles' if tiles else 'frames'}", unit="chunk",
                         disable=not progress):
            for key, value in part.items():
                counts[key] += value
    (out / "det" / "data.yaml").write_text(yaml.safe_dump({
        "path": str((out / "det").resolve()), "train": "images/train", "val": "images/val",
        "names": dict(enumerate(DET_CLASSES)),
    }, sort_keys=False))
    meta = {"generator_version": GENERATOR_VERSION, "seed": seed, "mix": list(mix), "covered_crops": covered_crops,
            "hands_on_cards": hands_share, **counts}
    if tiles:
        meta["tiles"] = {"window_px": TILE_WINDOW, "scale": TILE_SCALE, "imgsz": TILE_IMGSZ}
    (out / "meta.json").write_text(json.dumps(meta, indent=2))
    return meta


def train(data: Path, epochs: int, imgsz: int, cls_epochs: int, device: str = "cpu", batch: int = 16,
          workers: int = 2, out_dir: Path = MODELS_DIR, det_hours: float | None = None,
          cls_hours: float | None = None, det_init: Path | None = None, cls_init: Path | None = None,
          tiles: bool = False, classifier: bool = True) -> dict:
    """Train the detector and the card classifier; export both to ONNX; copy the weights to `out_dir`. With
    `tiles` (a set built with tiles), the detector only, on tiles at the deployed scale; without `classifier`,
    the detector only, on whole frames."""
    from ultralytics import YOLO

    data = Path(data)
    out_dir.mkdir(parents=True, exist_ok=True)
    runs = data / "runs"
    report: dict = {"device": device}
    t0 = time.perf_counter()
    # Tiles are at the deployed scale already: little scale augmentation, so the net learns that scale.
    shape = {"imgsz": TILE_IMGSZ, "scale": TILE_SCALE_JITTER} if tiles else {"imgsz": imgsz}
    # Fine-tuning continues from earlier weights of ours; otherwise the net is built from its yaml.
    det = YOLO(str(det_init) if det_init else "yolo11n.yaml")
    det.train(data=str(data / "det" / "data.yaml"), epochs=epochs, batch=batch, device=device,
              workers=workers, plots=False, amp=False, project=str(runs), name="det", exist_ok=True, cache="ram",
              fliplr=0.0, mosaic=0.5, close_mosaic=max(1, epochs // 5), verbose=False, **shape,
              **({"time": det_hours} if det_hours else {}), **(DET_FINE_TUNE if det_init else {}))
    report["det_train_s"] = round(time.perf_counter() - t0, 1)
    best = runs / "det" / "weights" / "best.pt"
    shutil.copy(best, out_dir / "detector.pt")
    # Deployed on 16:9 rectangles (no padding): the accurate default, a fast profile, and the tile the
    # default looks through where only part of the table changed. Weights tuned on tiles at the default's
    # scale lose the fast profile's half scale (held-out dealt chips 0.933 against 0.969, benchmarks/
    # RESULTS.md), so a tile fine-tune leaves detector_fast.onnx to the weights it came from.
    shapes = [("detector.onnx", DEPLOY_SHAPE), ("detector_tile.onnx", TILE_SHAPE)]
    if not tiles:
        shapes.insert(1, ("detector_fast.onnx", FAST_SHAPE))
    for name, shape_hw in shapes:
        YOLO(str(best)).export(format="onnx", imgsz=list(shape_hw), dynamic=False, simplify=True, opset=17)
        shutil.copy(best.with_suffix(".onnx"), out_dir / name)
    report.update(epochs=epochs, imgsz=shape["imgsz"], det_init=str(det_init) if det_init else "yolo11n.yaml")
    if tiles:
        report["tiles"] = {"window_px": TILE_WINDOW, "scale": TILE_SCALE, "scale_jitter": TILE_SCALE_JITTER}
    if det_init:
        report["det_fine_tune"] = DET_FINE_TUNE
    if classifier and not tiles:
        report.update(train_card_classifier(data, runs, cls_epochs, device, batch, workers, out_dir, cls_hours,
                                            cls_init))
    meta = data / "meta.json"
    if meta.exists():
        report["data"] = json.loads(meta.read_text())
    _append_run(out_dir / "training_report.json", report)
    return report


def _append_run(path: Path, run: dict) -> None:
    """Add a training run to the weights' history (`{"runs": [...]}`): a fine-tune into models/ keeps the
    record of what the weights it started from were trained on."""
    try:
        history = json.loads(path.read_text()) if path.exists() else {}
    except ValueError:
        history = {}  # a report of no known shape is replaced, not mixed into
    if not isinstance(history, dict):
        history = {}
    runs = history.get("runs", [history] if history else [])  # an older report held one run, unwrapped
    path.write_text(json.dumps({"runs": [*runs, run]}, indent=2))


def train_card_classifier(data: Path, runs: Path, cls_epochs: int, device: str, batch: int, workers: int,
                          out_dir: Path, cls_hours: float | None, cls_init: Path | None,
                          fine_tune: dict | None = None, name: str = "card_classifier") -> dict:
    """Train the card classifier on data/cls, export it to ONNX, copy both to `out_dir` as `name`.pt / .onnx; its
    report. `fine_tune` sets the optimizer (e.g. CLS_FINE_TUNE); ultralytics chooses without it."""
    from ultralytics import YOLO

    out_dir.mkdir(parents=True, exist_ok=True)
    run_name = "cls" if name == "card_classifier" else name  # the first classifier's run keeps its old folder
    t1 = time.perf_counter()
    cls = YOLO(str(cls_init) if cls_init else "yolo11n-cls.yaml")
    cls.train(data=str(data / "cls"), epochs=cls_epochs, imgsz=CLS_IMGSZ, batch=max(batch * 8, 64),
              device=device, workers=workers, plots=False, amp=False, project=str(runs), name=run_name,
              exist_ok=True, verbose=False, **CLS_AUGMENT, **({"time": cls_hours} if cls_hours else {}),
              **(fine_tune or {}))
    best_cls = runs / run_name / "weights" / "best.pt"
    shutil.copy(best_cls, out_dir / f"{name}.pt")
    YOLO(str(best_cls)).export(format="onnx", imgsz=CLS_IMGSZ, dynamic=True, simplify=True, opset=17)
    shutil.copy(best_cls.with_suffix(".onnx"), out_dir / f"{name}.onnx")
    return {"cls_train_s": round(time.perf_counter() - t1, 1), "cls_epochs": cls_epochs, "cls_imgsz": CLS_IMGSZ,
            "cls_init": str(cls_init) if cls_init else "yolo11n-cls.yaml",
            **({"cls_fine_tune": fine_tune} if fine_tune else {})}
