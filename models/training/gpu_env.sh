# Sourced by the device scripts here: the carried wheels installed, the repository and the polars stand-in on
# the path, nothing fetched, and which GPU this is. A machine kept warm between calls keeps /tmp: the data are
# rendered afresh each call (the second classifier of 2026-11-26 trained on two calls' crops because of it).
# The tracked files outgrew the 64 MiB a device call carries: before the call, `git rm -q --cached` the ONNX
# files, the other .pt files and the sample videos and list them in .git/info/exclude; `git reset` after.
set -euo pipefail
rm -rf /tmp/data
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD:$PWD/models/training/device_shim YOLO_OFFLINE=1 PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total --format=csv
