"""A simulated session: rounds scripted back to back, rendered to video, with ground truth.

Deterministic for a seed: the same arguments give the same ground truth (and the same frames).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
from tqdm import tqdm

from pipelines.games.layout import layout_for

from .faults import FaultRates
from .script import script_for
from .script_base import ScriptedRound
from .truth import GroundTruth

VIDEO_NAME = "video.mp4"
TRUTH_NAME = "ground_truth.json"
REFERENCE_NAME = "reference.jpg"


def script_session(game: str, rounds: int, seed: int, fault_rate: float | dict[str, float] | FaultRates = 0.0,
                   settings: object | None = None, fps: int = 10, table_id: str = "T1"
                   ) -> tuple[list[ScriptedRound], object]:
    """Script `rounds` rounds back to back (no rendering). Returns (the rounds, the game settings)."""
    script = script_for(game, settings, seed=seed, table_id=table_id, fps=fps, faults=fault_rate)
    out: list[ScriptedRound] = []
    frame = 0
    for i in range(rounds):
        r = script.play_round(i, frame)
        frame += r.frame_count
        out.append(r)
    return out, script.settings


def sampled_scenes(game: str, rounds: int, seed: int, n: int) -> list:
    """`n` scenes spread evenly over a scripted session of `rounds` rounds (no faults): the tables as a
    camera sees them dealt, for the benchmarks' held-out frames."""
    scripted, _ = script_session(game, rounds, seed)
    scenes = [s for r in scripted for s in r.scenes]
    return [scenes[i] for i in np.linspace(0, len(scenes) - 1, n).astype(int)]


def simulate_session(
    game: str,
    rounds: int,
    seed: int,
    out_dir: str | Path | None,
    fault_rate: float | dict[str, float] | FaultRates = 0.0,
    *,
    settings: object | None = None,
    fps: int = 10,
    table_id: str = "T1",
    size: tuple[int, int] = (1280, 720),
    dataset_every: int | None = None,
    render: bool = True,
    progress: bool = True,
    effects: bool = True,
) -> GroundTruth:
    """Script, render and write a session: `out_dir`/video.mp4, `out_dir`/ground_truth.json and, with
    `dataset_every` N, a YOLO data set of every Nth frame under `out_dir`/dataset. With `render=False`
    (or no `out_dir`) only the ground truth is built: fast, for re-settlement checks. `effects=False`
    leaves out the camera's noise and compression: a clean video compresses about 4x smaller."""
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    if dataset_every is not None and dataset_every < 1:
        raise ValueError(f"dataset_every must be at least 1, got {dataset_every}")
    from .camera import Camera  # the renderer's modules load OpenCV; scripting alone does not need them

    layout = layout_for(game)
    camera = Camera.overhead(layout, np.random.default_rng([seed, 1]), size=size)
    scripted, game_settings = script_session(game, rounds, seed, fault_rate, settings, fps, table_id)
    frame_count = sum(r.frame_count for r in scripted)
    truth = GroundTruth(
        game=game, table_id=table_id, seed=seed, fps=fps, video=VIDEO_NAME if render and out_dir else None,
        reference=REFERENCE_NAME if render and out_dir else None,
        frame_size=camera.size, frame_count=frame_count, settings=game_settings.model_dump(mode="json"),
        layout=layout.name, homography=camera.H.tolist(),
        rounds=[r.round for r in scripted], faults=[f for r in scripted for f in r.faults],
    )
    if out_dir is None:
        return truth
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if render:
        _render(layout, camera, scripted, out, fps, seed, dataset_every, frame_count, progress, effects)
        write_reference(layout, camera, out / REFERENCE_NAME, seed, effects)
    truth.save(out / TRUTH_NAME)
    return truth


def write_reference(layout, camera, path: Path, seed: int, effects: bool = True) -> Path:
    """The empty table as the installer saves it with the calibration: the median of a few frames, so
    the camera's noise mostly cancels."""
    import cv2

    from .render import render
    from .scene import Scene

    rng = np.random.default_rng([seed, 3])
    frames = [render(layout, Scene(), camera, rng, effects=effects)[0] for _ in range(5 if effects else 1)]
    cv2.imwrite(str(path), np.median(np.stack(frames), axis=0).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 95])
    return path


def _render(layout, camera, scripted: list[ScriptedRound], out: Path, fps: int, seed: int,
            dataset_every: int | None, frame_count: int, progress: bool, effects: bool = True) -> None:
    from .dataset import export_yolo
    from .render import render
    from .video import VideoSink

    rng = np.random.default_rng([seed, 2])
    kept: list[tuple[np.ndarray, list]] = []

    def frames() -> Iterator[tuple[np.ndarray, list]]:
        for r in scripted:
            yield from (render(layout, scene, camera, rng, effects=effects) for scene in r.scenes)

    with VideoSink(out / VIDEO_NAME, fps, camera.size) as sink:
        bar = tqdm(frames(), total=frame_count, desc="render", unit="frame", disable=not progress)
        for i, (frame, labels) in enumerate(bar):
            sink.write(frame)
            if dataset_every and i % dataset_every == 0:
                kept.append((frame, labels))
    if dataset_every:
        export_yolo(kept, out / "dataset", val_fraction=0.1, seed=seed, total=len(kept))
