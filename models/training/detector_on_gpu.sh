#!/usr/bin/env bash
# One device call: render generator-4 frames on 16 cores, fine-tune the detector alone on the GPU (the card
# classifiers stay as they are: the detector's boxes do not depend on them), export its three ONNX shapes and
# optionally measure it per frame on the held-out frames. The weights land in $OUT and in /tmp/newmodels, where a second
# call on the still-warm machine finds them (benchmarks/fresh_sets_on_device.sh with NEW_MODELS=/tmp/newmodels).
# Carry what fresh_sets_on_device.sh carries plus models/detector.pt. Settings by environment: SEED, IMAGES,
# DET_H (time budget in hours), IMGSZ.
source models/training/gpu_env.sh
python3 - <<'PY'
import json, os, time
from pathlib import Path
from pipelines.vision.training import build_training_sets, train
t = time.time()
meta = build_training_sets(Path("/tmp/data"), images=int(os.environ.get("IMAGES", "6000")),
                           seed=int(os.environ.get("SEED", "32")), workers=16, progress=False)
meta["render_s"] = round(time.time() - t, 1)
print(json.dumps(meta), flush=True)
out = Path(os.environ["OUT"])
rep = train(Path("/tmp/data"), epochs=60, imgsz=int(os.environ.get("IMGSZ", "640")), cls_epochs=0, device="0",
            batch=32, workers=12, out_dir=out, det_hours=float(os.environ.get("DET_H", "0.08")),
            det_init=Path("models/detector.pt"), classifier=False)
print(json.dumps(rep), flush=True)
PY
cp /tmp/data/runs/det/results.csv "$OUT/det_results_seed${SEED:-32}.csv" || true
rm -rf /tmp/newmodels && mkdir -p /tmp/newmodels && cp "$OUT"/detector*.onnx /tmp/newmodels/
# The per-frame figures are cheaper on the machine that keeps the weights (ACCURACY=1 runs them here too).
if [ "${ACCURACY:-0}" = 1 ]; then
  python3 benchmarks/detector_accuracy.py --frames-per-game 30 --scattered 30 --json --detector "$OUT/detector.onnx" \
    > "$OUT/accuracy_new.json" 2> "$OUT/accuracy_new.err" || true
  tail -c 3000 "$OUT/accuracy_new.json"
fi
ls -la "$OUT"
