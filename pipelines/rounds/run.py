"""The whole pipeline on one video: frames -> vision -> rounds -> bus -> reconcile -> DuckDB store.

A source is a samples/<game>/ folder (its ground truth supplies the game, table, frame rate, settings
and camera homography), a table configuration file (YAML/TOML, `pipelines/config.py`), or a video file
with `--game` and a ground-truth file for the calibration.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from pipelines.games.layout import Layout, layout_for
from pipelines.games.registry import game_module
from pipelines.games.round import Round
from pipelines.vision.cover import CoverLog

from .machine import DEFAULT_SESSION_START
from .registry import machine_for

log = logging.getLogger(__name__)


class RunError(ValueError):
    """A run that cannot start: the message names the file, field and value."""


@dataclass
class RunSpec:
    game: str
    table_id: str
    video: str  # a video file or image folder, a stream URL (rtsp://, http://) or a camera index ("0")
    layout: Layout
    homography: np.ndarray  # table mm -> image px
    fps: float
    settings: Any
    session_start: datetime
    truth_path: Path | None = None
    config: Any | None = None  # the TableConfig, when run from one
    reference: Path | None = None  # the empty table from this camera, if the installer saved one
    frame_size: tuple[int, int] | None = None  # (width, height) the homography was made for, where known


def spec_from(source: str | Path, *, game: str | None = None, ground_truth: str | Path | None = None,
              session_start: datetime | None = None) -> RunSpec:
    from pipelines.sim.session import TRUTH_NAME, VIDEO_NAME
    from pipelines.sim.truth import GroundTruth

    src = Path(source)
    start = session_start or DEFAULT_SESSION_START
    if src.is_dir():
        gt_path = Path(ground_truth) if ground_truth else src / TRUTH_NAME
        truth = GroundTruth.load(gt_path)
        video = src / (truth.video or VIDEO_NAME)
        if not video.exists():
            raise RunError(f"{gt_path}: field video: {video} does not exist")
        return _from_truth(truth, gt_path, video, start, game)
    if src.suffix.lower() in (".yaml", ".yml", ".toml"):
        from pipelines.config import load_table_config
        from pipelines.vision.calibrate import table_to_image

        cfg = load_table_config(src)
        if game and game != cfg.game:
            raise RunError(f"{src}: field game: {cfg.game!r}, but --game {game!r} was given")
        # The source as written: a URL through Path() would lose a slash of its "rtsp://".
        return RunSpec(cfg.game, cfg.table_id, cfg.camera.source, layout_for(cfg.game),
                       table_to_image(cfg.camera.calibration), cfg.camera.fps or 0.0, cfg.game_settings(),
                       start, config=cfg, reference=Path(cfg.camera.reference) if cfg.camera.reference else None)
    if not src.exists():
        raise RunError(f"{src}: no such video, samples folder or table configuration")
    if ground_truth is None:
        raise RunError(f"{src}: a bare video needs --ground-truth (for the camera homography) or a table "
                       "configuration file")
    truth = GroundTruth.load(ground_truth)
    return _from_truth(truth, Path(ground_truth), src, start, game)


def _from_truth(truth: Any, gt_path: Path, video: Path, start: datetime, game: str | None) -> RunSpec:
    if game and game != truth.game:
        raise RunError(f"{gt_path}: field game: {truth.game!r}, but --game {game!r} was given")
    settings = game_module(truth.game).Settings(**truth.settings)
    reference = gt_path.parent / truth.reference if truth.reference else None
    if reference is not None and not reference.is_file():
        raise RunError(f"{gt_path}: field reference: {reference} does not exist")
    return RunSpec(truth.game, truth.table_id, str(video), layout_for(truth.game), np.asarray(truth.homography),
                   truth.fps, settings, start, truth_path=gt_path, reference=reference,
                   frame_size=tuple(truth.frame_size))


def vision_changes(spec: RunSpec, detector: Any | None = None) -> tuple[Iterator[tuple[int, float, list]], Any, int]:
    """(frame index, timestamp, changes) for each frame; the pipeline; the frame count (0 if unknown)."""
    from pipelines.vision.capture import LIVE_FPS, FrameSource
    from pipelines.vision.pipeline import VisionPipeline

    if spec.config is not None:
        pipe = VisionPipeline(spec.config, detector)
    else:
        pipe = VisionPipeline((spec.layout, spec.homography), detector, reference=spec.reference,
                              frame_size=spec.frame_size)
    # The round machine times everything by frame / fps: a file's frames by its own rate (or camera.fps), a
    # live camera's by ticks of the rate it is analysed at (capture.py). Folders of images say neither.
    # CaptureError: a file that is not there
    source = pipe.source() if spec.config is not None else FrameSource(spec.video, fps=spec.fps or None)
    info = source.probe()
    spec.fps = info.fps
    if info.live and info.fps != LIVE_FPS:
        log.warning("%s: analysed at %g frames/s (camera.fps); the debouncing and the rounds' timings were "
                    "measured at %g (with perfect observations, 7 a second made 3 of 200 rounds wrong: "
                    "benchmarks/RESULTS.md)", spec.video, info.fps, LIVE_FPS)
    return pipe.run(source), pipe, info.frames


def rounds_from_changes(spec: RunSpec, stream: Iterable[tuple[int, float, list]],
                        on_round: Callable[[Round], None] | None = None,
                        on_frame: Callable[[int], None] | None = None, keep: bool = True,
                        missed: list[tuple[int, int]] | None = None, cover: CoverLog | None = None
                        ) -> list[Round]:
    """The rounds of the stream, each passed to `on_round` as it ends; `keep=False` (a table watched for
    weeks) returns none, so they are not all held in memory. `missed`: the pipeline's list of a live camera's
    frames not analysed (`VisionPipeline.missed`, filled as the stream is read and emptied here); the rounds
    they fall in go to review. `cover`: where the dealer's hand lay (`VisionPipeline.cover`, filled as the
    stream is read), which orders settlements the chips alone cannot."""
    machine = machine_for(spec.game, spec.table_id, spec.settings, fps=spec.fps or 10.0,
                          session_start=spec.session_start, cover=cover)
    out: list[Round] = []

    def done(rounds: list[Round]) -> None:
        for r in rounds:
            if keep:
                out.append(r)
            if on_round:
                on_round(r)

    for index, _, changes in stream:
        while missed:  # the frames before this one that were never analysed
            machine.frames_missed(*missed.pop(0))
        done(machine.feed(changes))
        if on_frame:
            on_frame(index)
    done(machine.finish())
    return out


def publish_round(bus: Any, rnd: Round) -> None:
    """Events, then the round, keyed by table (validated by the bus before they leave)."""
    from pipelines.bus.topics import ROUNDS, TABLE_EVENTS

    for ev in rnd.events:
        bus.publish(TABLE_EVENTS, rnd.table_id, ev)
    bus.publish(ROUNDS, rnd.table_id, rnd)


def evidence_for(spec: RunSpec, pipe: Any, media_dir: str | Path) -> Any:
    """An evidence recorder fed by the pipeline's analysed frames (pipelines/rounds/evidence.py)."""
    from .evidence import EvidenceRecorder

    recorder = EvidenceRecorder(Path(media_dir).resolve(), spec.table_id, spec.fps or 10.0, homography=spec.homography)
    pipe.on_analysed = lambda frame, det: recorder.add(frame.index, frame.image, det)
    return recorder


def with_evidence(flags: list[Any], rnd: Round, recorder: Any | None) -> list[Any]:
    """A round's flags, each with its evidence written where a recorder keeps the frames (as the round
    ends, while they are at hand); frames before the round are then dropped."""
    if recorder is None:
        return list(flags)
    flags = [f.model_copy(update={"snapshots": recorder.write(f)}) for f in flags]
    if rnd.frames is not None:
        recorder.forget_before(rnd.frames.start)
    return flags


class RoundStore:
    """Stores each round as it ends, with its flags and their evidence, and publishes them: a run that
    breaks off or is stopped keeps every round it completed. The store is opened with the first round, so
    a source that fails at once leaves none."""

    def __init__(self, spec: RunSpec, db: str | Path, bus: Any, recorder: Any | None) -> None:
        self.spec, self.db, self.bus, self.recorder = spec, db, bus, recorder
        self.rounds: list[Round] = []
        self.flags: list[Any] = []
        self._store: Any | None = None

    @property
    def store(self) -> Any:
        if self._store is None:
            from pipelines.store.db import Store

            self._store = Store(self.db)
            self._store.upsert_table(self.spec.table_id, self.spec.game)
        return self._store

    def __call__(self, rnd: Round) -> None:
        self.rounds.append(rnd)
        publish_round(self.bus, rnd)
        reconciled = self.store.write_rounds([rnd], {self.spec.table_id: self.spec.settings})
        flags = with_evidence(reconciled.flags, rnd, self.recorder)
        self.store.write_flags([f for f in flags if f.snapshots])
        self.flags.extend(flags)
        publish_flags(self.bus, self.spec.table_id, flags)

    def close(self, *, create: bool) -> None:
        """Close the store; `create`: open it first if no round came (it still records the table's run)."""
        if self._store is not None or create:
            self.store.close()


def publish_flags(bus: Any, table_id: str, flags: Iterable[Any]) -> None:
    """Flags go to topic "flags", keyed by table like everything else (per-table order)."""
    from pipelines.bus.topics import FLAGS

    for flag in flags:
        bus.publish(FLAGS, table_id, flag)


def summary(rounds: list[Round], flags: list[Any]) -> dict[str, Any]:
    """Rounds by status, flags by type, and the house's hold over what was observed."""
    drop = sum(w.amount for r in rounds for w in r.wagers)
    win = 0.0
    for r in rounds:
        amounts = {(w.seat, w.spot, w.hand): w.amount for w in r.wagers}
        for s in r.settlements:
            if s.outcome == "win":
                win -= s.paid
            elif s.outcome == "lose":
                win += amounts.get((s.seat, s.spot, s.hand), 0.0)
    return {
        "rounds": len(rounds),
        "status": dict(Counter(r.status for r in rounds)),
        "flags": dict(Counter(f.type for f in flags)),
        "drop": round(drop, 2),
        "win": round(win, 2),
        "hold_pct": round(100 * win / drop, 2) if drop else None,
    }
