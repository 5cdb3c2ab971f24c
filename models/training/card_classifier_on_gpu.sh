#!/usr/bin/env bash
# One device call: render card crops on 16 cores, fine-tune the card classifier alone on the GPU, export ONNX.
# Run on the lent GPU machine from the repository root, with the wheels train_on_gpu.sh names carried in .whl/.
# Settings by environment: SEED, IMAGES, CROPS (crops per card), CLS_H (time budget in hours), CLS_INIT,
# MIX (scripted,laid-out draw limits; see training.FRAME_MIX).
source models/training/gpu_env.sh
python3 - <<'PY'
import json, os, time
from pathlib import Path
from pipelines.vision.training import CLS_FINE_TUNE, build_training_sets, train_card_classifier
mix = tuple(float(x) for x in os.environ.get("MIX", "0.5,0.8").split(","))
t = time.time()
meta = build_training_sets(Path("/tmp/data"), images=int(os.environ.get("IMAGES", "6000")),
                           seed=int(os.environ.get("SEED", "1")), workers=16,
                           crops_per_card=int(os.environ.get("CROPS", "2")), progress=False, mix=mix)
meta["render_s"] = round(time.time() - t, 1)
print(json.dumps(meta), flush=True)
out = Path(os.environ["OUT"])
rep = train_card_classifier(Path("/tmp/data"), Path("/tmp/data/runs"), cls_epochs=40, device="0", batch=32,
                            workers=12, out_dir=out, cls_hours=float(os.environ.get("CLS_H", "0.08")),
                            cls_init=Path(os.environ.get("CLS_INIT", "models/card_classifier.pt")),
                            fine_tune=CLS_FINE_TUNE)
rep.update(device="0", data=meta)
(out / "training_report.json").write_text(json.dumps(rep, indent=2))
print(json.dumps(rep))
PY
cp /tmp/data/runs/cls/results.csv $OUT/cls_results_seed${SEED:-1}.csv || true
ls -la $OUT
