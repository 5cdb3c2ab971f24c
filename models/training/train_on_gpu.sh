#!/usr/bin/env bash
# One device call: render training data on 16 cores, train detector + classifier on the GPU, export ONNX.
# Run on the lent GPU machine from the repository root, with the wheels it lacks carried in .whl/
# (ultralytics, ultralytics-thop, ultralytics-platform, pydantic, pydantic-core, annotated-types,
# typing-inspection, supervision, pydeprecate, defusedxml). Settings by environment: SEED, IMAGES, IMGSZ,
# CROPS (classifier crops per card), EPOCHS, CLS_EPOCHS, DET_H and CLS_H (time budgets in hours), DET_INIT and CLS_INIT (weights to fine-tune),
# CLASSIFIER=0 (the detector alone; detector_on_gpu.sh).
source models/training/gpu_env.sh
python3 - <<'PY'
import json, os, time
from pathlib import Path
from pipelines.vision.training import build_training_sets, train
t = time.time()
meta = build_training_sets(Path("/tmp/data"), images=int(os.environ.get("IMAGES", "3000")), seed=int(os.environ.get("SEED", "1")), workers=16,
                           crops_per_card=int(os.environ.get("CROPS", "1")),
                           progress=False)
meta["render_s"] = round(time.time() - t, 1)
print(json.dumps(meta), flush=True)
out = Path(os.environ["OUT"])
rep = train(Path("/tmp/data"), epochs=int(os.environ.get("EPOCHS", "60")), imgsz=int(os.environ.get("IMGSZ", "640")),
            cls_epochs=int(os.environ.get("CLS_EPOCHS", "20")), device="0", batch=32, workers=12, out_dir=out,
            det_hours=float(os.environ.get("DET_H", "0.07")), cls_hours=float(os.environ.get("CLS_H", "0.035")),
            det_init=os.environ.get("DET_INIT") or None, cls_init=os.environ.get("CLS_INIT") or None,
            classifier=os.environ.get("CLASSIFIER", "1") != "0")
rep["data"] = meta
(out / "training_report.json").write_text(json.dumps(rep, indent=2))
print(json.dumps(rep))
PY
cp /tmp/data/runs/det/results.csv $OUT/det_results_seed${SEED:-1}.csv || true
cp /tmp/data/runs/cls/results.csv $OUT/cls_results_seed${SEED:-1}.csv || true
ls -la $OUT
