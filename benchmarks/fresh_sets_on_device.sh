#!/usr/bin/env bash
# One device call: render and detect fresh held-out sets on the lent machine's 16 CPU cores, print the replay's
# figures and bring the stored detections back (without the videos) in $OUT/NAME.tgz.part* (15 MB parts: one file
# of about 20 MB, six seeds' worth, did not come back; thirty-third session).
# Run from the repository root on the device machine (thirty-first session: 48 rounds, 3 a game on 4 seeds, 247 s;
# thirty-ninth, on an H200: 212-230 s a set). Carry in .whl/ the cp312 wheels the device's image lacks (thirty-ninth
# session: supervision, pydeprecate, defusedxml, pydantic, pydantic-core, annotated-types, typing-inspection, each
# `pip download NAME==VERSION --no-deps --only-binary=:all: --python-version 3.12 --implementation cp --platform
# manylinux_2_17_x86_64 -d .whl`; its onnxruntime served), and carry the ONNX models the detector reads (detector,
# card_classifier, card_classifier_2, chip_verifier, edge_chips): the tracked files outgrow a call's 64 MiB, see
# gpu_env.sh. Settings by environment: SEEDS (default four new ones), ROUNDS (3), NAME (rc: the cache folder in /tmp
# and the prefix of what comes back, so one call can render two sets and bring back the first if the second is cut).
# Back here: `cat NAME.tgz.part* | tar xzf -`, `touch` an empty video.mp4 in each set folder (the replay reads only the stored
# detections; re-reading cards with new classifiers needs the video), then
# `python benchmarks/reconstruction.py --mode video --rounds 3 --seeds ... --cache rc --json`.
source models/training/gpu_env.sh
# NEW_MODELS: a folder of ONNX weights a first call left on this warm machine (detector_on_gpu.sh), used instead.
if [ -n "${NEW_MODELS:-}" ]; then
  [ -d "$NEW_MODELS" ] || { echo "no $NEW_MODELS on this machine: it was not kept warm"; exit 3; }
  cp "$NEW_MODELS"/*.onnx models/
fi
NAME="${NAME:-rc}"
python3 benchmarks/reconstruction.py --mode video --rounds "${ROUNDS:-3}" --seeds ${SEEDS:-10521 10531 10541 10551} \
  --cache "/tmp/$NAME" --workers "$(nproc)" --show 40 --json > "$OUT/$NAME.txt" 2>&1 || true
tr "\r" "\n" < "$OUT/$NAME.txt" | grep -v "detect:" | tail -c 4000
tar czf - --exclude=video.mp4 -C /tmp "$NAME" | split -b 15m - "$OUT/$NAME.tgz.part"
