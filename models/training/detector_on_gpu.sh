#!/usr/bin/env bash
# One device call: render generator-4 frames on 16 cores, fine-tune the detector alone on the GPU (the card
# classifiers stay as they are: the detector's boxes do not depend on them), export its three ONNX shapes and
# optionally measure it per frame on the held-out frames. train_on_gpu.sh with the detector alone, from the committed
# weights; the weights land in $OUT and in /tmp/newmodels, where a second call on the still-warm machine finds them
# (benchmarks/fresh_sets_on_device.sh with NEW_MODELS=/tmp/newmodels). Carry what fresh_sets_on_device.sh carries
# plus models/detector.pt. Settings by environment: SEED, IMAGES, DET_H (time budget in hours), IMGSZ. Card crops
# are rendered as train_on_gpu.sh renders them (CROPS, 1), unused: they draw on the frames' random numbers, so a seed
# gives the frames it gave (seed 32, thirty-second session).
export SEED="${SEED:-32}" IMAGES="${IMAGES:-6000}" DET_H="${DET_H:-0.08}" DET_INIT="${DET_INIT:-models/detector.pt}" \
  CLASSIFIER=0
source models/training/train_on_gpu.sh
rm -rf /tmp/newmodels && mkdir -p /tmp/newmodels && cp "$OUT"/detector*.onnx /tmp/newmodels/
# The per-frame figures are cheaper on the machine that keeps the weights (ACCURACY=1 runs them here too).
if [ "${ACCURACY:-0}" = 1 ]; then
  python3 benchmarks/detector_accuracy.py --frames-per-game 30 --scattered 30 --json --detector "$OUT/detector.onnx" \
    > "$OUT/accuracy_new.json" 2> "$OUT/accuracy_new.err" || true
  tail -c 3000 "$OUT/accuracy_new.json"
fi
