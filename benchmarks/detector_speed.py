"""Detector speed per CPU core, the cost/benefit of motion gating, and how well chip stacks find their zones.

1. ONNX Runtime with intra_op_num_threads=1 (one core) at the deployed input size: detector alone, and
   the full `Detector.detect` (detector, card classifier, chip verifier; and with and without the
   card-edge chip finder), in frames/s on simulated 1280x720 frames: crowded random scenes (100-400
   chips, the worst case: the classifier and verifier cost grows with what is on the table) and tables as
   dealt (scripted rounds of every game), as deployed on a table whose hands do not split (no card finder).
   The cascade card finder's cost where it runs, High Tie: tables as dealt and tables with split hands.
2. PyTorch (ultralytics, if importable) on the same frames with torch.set_num_threads(1), for comparison.
3. Motion gating on a simulated scripted session: frames analysed and end-to-end frames/s of
   `VisionPipeline` with and without the gate, and with the gate and regional detection (only where the
   frame changed, `pipelines/vision/regional.py`), and whether each reports the zone changes that
   analysing every frame whole does.
4. Chip stacks -> zones on exact simulated chip positions (renderer's `chip_positions`, 1.5 mm noise):
   the share of chips whose stack lands in the zone it was placed in, per layout.
5. Whether OpenVINO is importable / offered by the package index (nothing is installed).

    python benchmarks/detector_speed.py [--frames 20] [--session-frames 150] [--stack-trials 500] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import time

import numpy as np

from pipelines.games.layout import layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.random_scenes import random_scene
from pipelines.sim.render import chip_positions, render
from pipelines.sim.render_scenes import random_scene as table_scene
from pipelines.sim.scene import DENOMINATIONS, ChipStack
from pipelines.sim.session import sampled_scenes, script_session
from pipelines.vision.capture import Frame
from pipelines.vision.cascade_cards_data import with_split_hands
from pipelines.vision.detect import Detector, DetectorConfig, _to_tensor, letterbox
from pipelines.vision.paths import MODELS_DIR
from pipelines.vision.pipeline import VisionPipeline
from pipelines.vision.zones import ZoneMapper

GAMES = ("king-high", "high-tie", "3-card-monster", "pick-2-poker")


def _frames(n: int, seed: int = 4242) -> list[np.ndarray]:
    out = []
    for k in range(n):
        layout = layout_for(GAMES[k % 4])
        rng = np.random.default_rng([seed, k])
        out.append(render(layout, random_scene(layout, rng), Camera.overhead(layout, rng), rng)[0])
    return out


def _dealt_frames(n: int, seed: int = 4343) -> list[np.ndarray]:
    """`n` frames of scripted rounds, spread over the four games (the tables as a camera sees them dealt)."""
    return [f for k, game in enumerate(GAMES)
            for f in _dealt_frames_of(game, n // len(GAMES) + (k < n % len(GAMES)), seed + k,
                                      np.random.default_rng([seed, k]))]


def _split_hand_frames(n: int, seed: int = 4444) -> list[np.ndarray]:
    """`n` High Tie tables with split hands laid in cascades, where the card finder has work to do."""
    layout = layout_for("high-tie")
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        cam = Camera.overhead(layout, rng=rng)
        scene, _ = with_split_hands(table_scene(layout, rng, occluders=int(rng.integers(0, 2))), layout, rng)
        out.append(render(layout, scene, cam, rng)[0])
    return out


def card_finder_cost(n: int) -> dict:
    """`Detector.detect` frames/s with and without the cascade card finder on High Tie, the game it runs on:
    tables as dealt (scripted rounds) and tables with split hands."""
    sets = {"dealt": _dealt_frames_of("high-tie", n, 4545, np.random.default_rng(4545)),
            "split_hands": _split_hand_frames(n)}
    out = {}
    for name, frames in sets.items():
        rates = {}
        for label, config in (("with", DetectorConfig()), ("without", DetectorConfig(card_finder_path=None))):
            rates[label] = round(_rate(Detector(config).detect, frames), 2)
        out[name] = rates
    return out


def _dealt_frames_of(game: str, n: int, seed: int, rng: np.random.Generator) -> list[np.ndarray]:
    """`n` frames of `game`'s scripted rounds (script seed `seed`), through one overhead camera."""
    layout = layout_for(game)
    cam = Camera.overhead(layout, rng)
    return [render(layout, scene, cam, rng)[0] for scene in sampled_scenes(game, 2, seed, n)]


def _rate(fn, frames: list[np.ndarray]) -> float:
    fn(frames[0])  # warm-up
    t = time.perf_counter()
    for f in frames:
        fn(f)
    return len(frames) / (time.perf_counter() - t)


def onnx_speed(frames: list[np.ndarray], dealt: list[np.ndarray], detector_path=None, **config) -> dict:
    """Frames/s of the detector alone and of `Detector.detect`, as deployed where hands do not split: without
    the cascade card finder unless `config` names one (`card_finder_cost` measures it where it runs)."""
    config.setdefault("card_finder_path", None)
    det = Detector(DetectorConfig(detector_path=detector_path or DetectorConfig().detector_path, **config))
    size = det.config.imgsz

    def detector_only(f: np.ndarray) -> None:
        img, _, _ = letterbox(f, size)
        det._det.run(None, {det._det_input: _to_tensor([img])})

    return {"model": det.config.detector_path.name, "imgsz": list(size),
            "detector_fps": round(_rate(detector_only, frames), 2),
            "detector_classifier_fps": round(_rate(det.detect, frames), 2),
            "detector_classifier_fps_dealt": round(_rate(det.detect, dealt), 2)}


def torch_speed(frames: list[np.ndarray], imgsz: list[int]) -> dict:
    """The same weights in PyTorch on the same letterboxed tensor, one thread."""
    if importlib.util.find_spec("ultralytics") is None:
        return {"available": False}
    import torch
    from ultralytics import YOLO

    torch.set_num_threads(1)
    model = YOLO(str(MODELS_DIR / "detector.pt")).model.fuse().eval()

    def run(f: np.ndarray) -> None:
        img, _, _ = letterbox(f, tuple(imgsz))
        with torch.inference_mode():
            model(torch.from_numpy(_to_tensor([img])))

    return {"available": True, "imgsz": imgsz, "detector_fps": round(_rate(run, frames), 2),
            "torch": torch.__version__}


def gating(n_frames: int) -> dict:
    layout = layout_for("king-high")
    rounds, _ = script_session("king-high", 2, seed=777)
    scenes = [s for r in rounds for s in r.scenes][:n_frames]
    rng = np.random.default_rng(777)
    cam = Camera.overhead(layout, rng)
    images = [render(layout, s, cam, rng)[0] for s in scenes]
    detector = Detector(DetectorConfig(card_finder_path=None))  # as deployed on King High: no split hands
    out: dict = {}
    changes: dict[str, set] = {}
    for name, gated, regional in (("ungated", False, False), ("gated", True, False), ("regional", True, True)):
        pipe = VisionPipeline((layout, cam.H), detector, motion_gating=gated, regional=regional)
        changes[name] = {(c.zone, c.frame, c.after) for _, _, ch in
                         pipe.run(Frame(i, i / 10, im) for i, im in enumerate(images)) for c in ch}
        c = pipe.counters
        out[name] = {"frames": c.frames_read, "analysed": c.frames_analysed, "fps": round(c.fps, 2),
                     "zone_changes": len(changes[name])}
        if pipe.regional is not None:
            out[name]["looked_at"] = vars(pipe.regional.counters)
    # The same zone changes as analysing every frame whole (regional: how many differ, and in what).
    out["same_changes"] = changes["gated"] == changes["ungated"]
    out["regional_same_changes"] = changes["regional"] == changes["ungated"]
    out["regional_differences"] = len(changes["regional"] ^ changes["ungated"])
    out["speedup"] = round(out["gated"]["fps"] / max(out["ungated"]["fps"], 1e-9), 2)
    out["regional_speedup"] = round(out["regional"]["fps"] / max(out["ungated"]["fps"], 1e-9), 2)
    return out


def stack_accuracy(trials: int) -> dict:
    res = {}
    for game in GAMES:
        layout = layout_for(game)
        rng = np.random.default_rng([GAMES.index(game), 1])
        mapper = ZoneMapper(layout, Camera.overhead(layout, rng).H)
        zones = [z for z in layout.zones if z.kind in ("bet", "paid", "tray")]
        right = total = 0
        for _ in range(trials):
            pts, truth = [], []
            for j in rng.choice(len(zones), int(rng.integers(1, 6)), replace=False):
                stack = ChipStack([int(d) for d in rng.choice(DENOMINATIONS, int(rng.integers(1, 13)))],
                                  *zones[j].centre)
                pts += chip_positions(stack)
                truth += [zones[j].name] * len(stack.chips)
            got = {}
            for st in mapper.group_stacks(np.array(pts) + rng.normal(0, 1.5, (len(pts), 2))):
                got.update({i: st.zone for i in st.members})
            right += sum(got.get(i) == t for i, t in enumerate(truth))
            total += len(truth)
        res[game] = round(right / total, 4)
    return res


def openvino(frames: list[np.ndarray]) -> dict:
    """OpenVINO on the same ONNX model and tensors, when it is installed (it is not a dependency)."""
    if importlib.util.find_spec("openvino") is None:
        return {"available": False, "note": "pip install openvino to compare"}
    import openvino as ov

    det = Detector()
    compiled = ov.Core().compile_model(str(det.config.detector_path), "CPU",
                                       {"INFERENCE_NUM_THREADS": 1, "PERFORMANCE_HINT": "LATENCY"})
    request = compiled.create_infer_request()

    def run(f: np.ndarray) -> None:
        img, _, _ = letterbox(f, det.config.imgsz)
        request.infer({0: _to_tensor([img])})

    return {"available": True, "version": ov.__version__, "imgsz": list(det.config.imgsz),
            "detector_fps": round(_rate(run, frames), 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--session-frames", type=int, default=150)
    ap.add_argument("--stack-trials", type=int, default=500)
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    # Per core means one core: pin the process so no library spreads work over the others.
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    frames = _frames(a.frames)
    dealt = _dealt_frames(a.frames)
    result = {"machine": platform.processor() or platform.machine(), "frame_size": [1280, 720]}
    result["onnx_1_thread"] = onnx_speed(frames, dealt)
    fast = MODELS_DIR / "detector_fast.onnx"
    result["onnx_1_thread_fast"] = onnx_speed(frames, dealt, fast) if fast.exists() else None
    # The card-edge chip finder (a second net around each group of cards) on and off: the default run above
    # is one of the two, so only the other is measured.
    finder = MODELS_DIR / "edge_chips.onnx"
    if finder.exists():
        default = result["onnx_1_thread"]
        if DetectorConfig().edge_chips_path is not None:
            on, off = default, onnx_speed(frames, dealt, edge_chips_path=None)
        else:
            on, off = onnx_speed(frames, dealt, edge_chips_path=finder), default
        result["edge_chips_cost"] = {k: {"with": on[k], "without": off[k]} for k in
                                     ("detector_classifier_fps", "detector_classifier_fps_dealt")}
        print(f"card-edge chip finder, Detector.detect frames/s with / without: {result['edge_chips_cost']}")
    for key in ("onnx_1_thread", "onnx_1_thread_fast"):
        r = result[key]
        if r:
            print(f"ONNX Runtime, 1 thread, {r['model']} input {r['imgsz']}: detector {r['detector_fps']} fps, "
                  f"whole Detector.detect {r['detector_classifier_fps']} fps on crowded scenes, "
                  f"{r['detector_classifier_fps_dealt']} fps on tables as dealt")
    result["card_finder_cost"] = card_finder_cost(a.frames)
    print(f"cascade card finder on High Tie, Detector.detect frames/s with / without: {result['card_finder_cost']}")
    if not a.no_torch:
        result["torch_1_thread"] = torch_speed(frames, result["onnx_1_thread"]["imgsz"])
        print(f"PyTorch (ultralytics), 1 thread: {result['torch_1_thread']}")
    result["motion_gating"] = gating(a.session_frames)
    print(f"motion gating on a scripted King High session: {result['motion_gating']}")
    result["stack_to_zone_accuracy"] = stack_accuracy(a.stack_trials)
    print(f"chip stacks in the right zone: {result['stack_to_zone_accuracy']}")
    result["openvino"] = openvino(frames)
    print(f"OpenVINO: {result['openvino']}")
    if a.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
