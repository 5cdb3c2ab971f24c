"""Training the card-edge chip finder: the detector's weights fine-tuned on windows around cards."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

from .edge_chips import EDGE_IMGSZ
from .training import _append_run
from .training_tiles import TILE_SCALE_JITTER

# A specialist may move further from the detector than a fine-tune of the detector itself may: its chips
# count only over card edges, so a larger step than training.DET_FINE_TUNE's, with a short warmup.
EDGE_FINE_TUNE = {"optimizer": "AdamW", "lr0": 5e-4, "lrf": 0.1, "warmup_epochs": 0.5, "warmup_bias_lr": 0.0}


def train_edge_chips(data: Path, epochs: int, init: Path, out: Path, device: str = "cpu", batch: int = 32,
                     workers: int = 2, hours: float | None = None, name: str = "edge_chips") -> dict:
    """Fine-tune `init` (the detector's .pt) on the windows in `data` (`build_edge_set`, or another window set
    at `EDGE_IMGSZ`: `cascade_cards_data.build_cascade_set` for the card finder, `name` "card_finder"); write
    `out` (.onnx, dynamic batch) and `out` with .pt beside it; the run is added to models' training report."""
    from ultralytics import YOLO

    data, out = Path(data), Path(out)
    runs = data / "runs"
    t0 = time.perf_counter()
    model = YOLO(str(init))
    # No mosaic: a window is already the small neighbourhood the finder reads, at the deployed scale.
    model.train(data=str(data / "data.yaml"), epochs=epochs, imgsz=EDGE_IMGSZ, batch=batch, device=device,
                workers=workers, plots=False, amp=False, project=str(runs), name=name, exist_ok=True,
                cache="ram", fliplr=0.0, mosaic=0.0, scale=TILE_SCALE_JITTER, verbose=False,
                **EDGE_FINE_TUNE, **({"time": hours} if hours else {}))
    best = runs / name / "weights" / "best.pt"
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(best, out.with_suffix(".pt"))
    YOLO(str(best)).export(format="onnx", imgsz=EDGE_IMGSZ, dynamic=True, simplify=True, opset=17)
    shutil.copy(best.with_suffix(".onnx"), out)
    # With a time budget ultralytics fits the epochs to it: what ran is in its results table, a row an epoch.
    results = runs / name / "results.csv"
    ran = len(results.read_text().splitlines()) - 1 if results.exists() else None
    report = {"model": name, "train_s": round(time.perf_counter() - t0, 1), "epochs": ran,
              "epochs_asked": epochs, "imgsz": EDGE_IMGSZ, "init": str(init), "device": device,
              "fine_tune": EDGE_FINE_TUNE}
    meta = data / "meta.json"
    if meta.exists():
        report["data"] = json.loads(meta.read_text())
    _append_run(out.parent / "training_report.json", report)
    return report
