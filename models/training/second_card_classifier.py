"""How models/card_classifier_2.onnx was made (2026-11-24, 2 CPU cores, about 12 minutes).

Renders 1,500 fresh generator-2 frames (seed 15, never used by a benchmark), cuts two jittered crops of
every card face (23,860 training crops), and fine-tunes the committed card classifier on them for 3
epochs with AdamW at 1e-4 and no warmup. Alone it reads the held-out frames about as well as the first
and errs on other cards; as a second look at the cards the first is unsure of, confirming or vetoing the
first's reading, it turns misreads into unread cards (models/MODEL_CARD.md).

    python models/training/second_card_classifier.py /tmp/c15 && cp /tmp/c15/card_classifier.onnx \
        models/card_classifier_2.onnx
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

os.environ["YOLO_OFFLINE"] = "1"  # nothing is downloaded
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipelines.vision.training import CLS_AUGMENT, CLS_IMGSZ, DET_FINE_TUNE, build_training_sets  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def main(out: Path, images: int = 1500, seed: int = 15, epochs: int = 3, lr: float = 1e-4) -> Path:
    from ultralytics import YOLO

    if not (out / "meta.json").exists():
        print(build_training_sets(out, images=images, seed=seed, crops_per_card=2, workers=2))
    YOLO(str(ROOT / "models" / "card_classifier.pt")).train(
        data=str(out / "cls"), epochs=epochs, imgsz=CLS_IMGSZ, batch=128, device="cpu", workers=2, plots=False,
        amp=False, project=str(out / "runs"), name="cls", exist_ok=True, **CLS_AUGMENT,
        **{**DET_FINE_TUNE, "lr0": lr})  # the detector's gentle fine-tune: AdamW, no warmup
    last = out / "runs" / "cls" / "weights" / "last.pt"
    YOLO(str(last)).export(format="onnx", imgsz=CLS_IMGSZ, dynamic=True, simplify=True, opset=17)
    shutil.copy(last.with_suffix(".onnx"), out / "card_classifier.onnx")
    return out / "card_classifier.onnx"


if __name__ == "__main__":
    print(main(Path(sys.argv[1])))
