#!/usr/bin/env bash
# One device call: render card crops on 16 cores, fine-tune the card classifiers alone on the GPU, export ONNX.
# Run on the lent GPU machine from the repository root, with the wheels train_on_gpu.sh names carried in .whl/.
# Settings by environment: SEED, IMAGES, CROPS (crops per card), COVERED (extra crops for a card under the hand,
# training.crops_for), MIX (scripted,laid-out draw limits; see training.FRAME_MIX), HANDS (the share of scripted and
# laid-out frames with hands part over a card; training.HANDS_ON_CARDS by default), and TRAIN: the classifiers to
# fine-tune in turn, each name:hours (a name in models/ to start from and write, a time budget). Each is written
# to $OUT as soon as it is done, so a call cut short still returns the first.
source models/training/gpu_env.sh
python3 - <<'PY'
import json, os, time
from pathlib import Path
from pipelines.vision.training import CLS_FINE_TUNE, HANDS_ON_CARDS, build_training_sets, train_card_classifier
mix = tuple(float(x) for x in os.environ.get("MIX", "0.5,0.8").split(","))
t = time.time()
meta = build_training_sets(Path("/tmp/data"), images=int(os.environ.get("IMAGES", "6000")),
                           seed=int(os.environ.get("SEED", "1")), workers=16,
                           crops_per_card=int(os.environ.get("CROPS", "2")), progress=False, mix=mix,
                           covered_crops=int(os.environ.get("COVERED", "0")),
                           hands_share=float(os.environ.get("HANDS", HANDS_ON_CARDS)))
meta["render_s"] = round(time.time() - t, 1)
print(json.dumps(meta), flush=True)
out = Path(os.environ["OUT"])
for item in os.environ.get("TRAIN", "card_classifier:0.08").split():
    name, hours = item.split(":")
    try:  # an export that fails still leaves the .pt in $OUT, and the next classifier trains
        rep = train_card_classifier(Path("/tmp/data"), Path("/tmp/data/runs"), cls_epochs=40, device="0",
                                    batch=32, workers=12, out_dir=out, cls_hours=float(hours),
                                    cls_init=Path(f"models/{name}.pt"), fine_tune=CLS_FINE_TUNE, name=name)
    except Exception as exc:
        print(f"{name}: {exc!r}", flush=True)
        continue
    rep.update(device="0", data=meta)
    (out / f"{name}_report.json").write_text(json.dumps(rep, indent=2))
    print(json.dumps(rep), flush=True)
PY
for d in /tmp/data/runs/*/; do cp "$d/results.csv" "$OUT/results_$(basename "$d")_seed${SEED:-1}.csv" || true; done
ls -la $OUT
