"""Export rendered frames and labels as a YOLO (ultralytics) detection data set.

Tree: images/{train,val}/NNNNNN.jpg, labels/{train,val}/NNNNNN.txt with one line per object
"class_id x_centre y_centre width height" normalised to the image size, and data.yaml naming the
classes (`classes.CLASS_NAMES`, ids in that order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import cv2
import numpy as np
import yaml
from tqdm import tqdm

from .classes import CLASS_ID, CLASS_NAMES

Box = Sequence  # (class_name, x1, y1, x2, y2), e.g. render.Label


def yolo_lines(labels: Iterable[Box], width: int, height: int) -> list[str]:
    lines = []
    for lab in labels:
        name, x1, y1, x2, y2 = lab
        if name not in CLASS_ID:
            raise ValueError(f"label class {name!r} is not a detector class (see classes.CLASS_NAMES)")
        if not (0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height):
            raise ValueError(f"label {name} box ({x1}, {y1}, {x2}, {y2}) is not inside {width}x{height}")
        xc, yc = (x1 + x2) / 2 / width, (y1 + y2) / 2 / height
        bw, bh = (x2 - x1) / width, (y2 - y1) / height
        lines.append(f"{CLASS_ID[name]} {xc:.6f} {yc:.6f} {bw:.6f} {bh:.6f}")
    return lines


def export_yolo(
    frames_and_labels: Iterable[tuple[np.ndarray, Sequence[Box]]],
    out_dir: str | Path,
    val_fraction: float = 0.1,
    seed: int = 0,
    total: int | None = None,
    jpeg_quality: int = 92,
) -> dict[str, int]:
    """Write the data set; returns counts {"train": images, "val": images, "boxes": labels written}."""
    if not 0.0 <= val_fraction < 1.0:
        raise ValueError(f"val_fraction must be in [0, 1), got {val_fraction!r}")
    out = Path(out_dir)
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    counts = {"train": 0, "val": 0, "boxes": 0}
    for i, (frame, labels) in enumerate(tqdm(frames_and_labels, total=total, desc="export", unit="img")):
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError(f"frame {i}: expected a BGR uint8 image, got shape {frame.shape} {frame.dtype}")
        split = "val" if rng.random() < val_fraction else "train"
        h, w = frame.shape[:2]
        lines = yolo_lines(labels, w, h)
        stem = f"{i:06d}"
        if not cv2.imwrite(str(out / "images" / split / f"{stem}.jpg"), frame,
                           [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality]):
            raise OSError(f"{out / 'images' / split / stem}.jpg: could not write image")
        (out / "labels" / split / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
        counts[split] += 1
        counts["boxes"] += len(lines)
    data = {
        "path": str(out.resolve()),
        "train": "images/train",
        "val": "images/val",
        "nc": len(CLASS_NAMES),
        "names": {i: n for i, n in enumerate(CLASS_NAMES)},
    }
    (out / "data.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return counts
