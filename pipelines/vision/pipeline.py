"""Frames -> detections -> FrameObs -> debounced ZoneChanges, with motion gating.

`VisionPipeline(config, detector).run(source)` yields `(frame_index, timestamp, [ZoneChange])` for every frame
read (an empty list for a frame that was skipped or changed nothing), so consumers keep time. Detections that
still look like the empty table's reference image (printed felt art) are dropped before zones see them, and
where the frame differs from that reference with no detection to explain it is where the dealer's hand lies
(`cover.py`, logged in `cover` for the round machine). A frame is analysed when the motion gate sees a change
in some zone, at the gate's periodic refresh, and on every frame while the tracker still has unconfirmed
contents (debouncing needs consecutive analysed frames). With `regional` (the default with a `Detector`: on
the four held-out video sets no round wrong and 98 of 160 exact, benchmarks/RESULTS.md, eleventh session), an
analysed frame whose change the gate located and fits one tile is looked at only there (`regional.py`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
import supervision as sv

from pipelines.config import TableConfig
from pipelines.games.layout import Layout, layout_for

from .calibrate import CalibrationError, layout_fit, size_mismatch
from .capture import Frame, FrameSource, LiveStats
from .cover import CoverLog, CoverMeter
from .detect import Detector
from .motion import MotionConfig, MotionGate
from .observe import ZoneChange
from .reference import EmptyTableFilter, load_reference
from .regional import Box, RegionalDetector, union
from .track import ZoneTracker
from .zones import ZoneMapper

log = logging.getLogger(__name__)


class DetectsFrames(Protocol):
    def detect(self, frame: np.ndarray) -> sv.Detections: ...


@dataclass
class PipelineCounters:
    frames_read: int = 0
    frames_analysed: int = 0
    changes: int = 0
    seconds: float = 0.0

    @property
    def fps(self) -> float:
        """Frames read per second of wall time."""
        return self.frames_read / self.seconds if self.seconds else 0.0

    @property
    def analysed_fraction(self) -> float:
        return self.frames_analysed / self.frames_read if self.frames_read else 0.0


class VisionPipeline:
    """The vision stage for one table: a config (or a layout and a table-mm -> image-px homography)."""

    def __init__(self, config: TableConfig | tuple[Layout, np.ndarray], detector: DetectsFrames | None = None,
                 *, stable_frames: int | None = None, motion_gating: bool | None = None,
                 every_nth_frame: int | None = None, motion: MotionConfig | None = None,
                 reference: str | Path | np.ndarray | None = None,
                 reference_similarity: float | None = None, regional: bool | None = None,
                 frame_size: tuple[int, int] | None = None) -> None:
        if isinstance(config, TableConfig):
            from .calibrate import table_to_image

            self.config: TableConfig | None = config
            layout, H = layout_for(config.game), table_to_image(config.camera.calibration)
            vc = config.vision
            stable_frames = stable_frames or vc.stable_frames
            motion_gating = vc.motion_gating if motion_gating is None else motion_gating
            every_nth_frame = every_nth_frame or vc.every_nth_frame
            reference = reference if reference is not None else config.camera.reference
            reference_similarity = vc.reference_similarity
            frame_size = frame_size or config.camera.frame_size
        else:
            self.config = None
            layout, H = config
        if detector is None:
            detector = _detector_for(self.config, layout)
        if regional is None:  # the table's setting (default on), where the detector can run the tile: not
            # a replay of stored detections
            on = self.config.vision.regional if self.config is not None else True
            regional = on and isinstance(detector, Detector)
        self.layout = layout
        self.H = np.asarray(H, np.float64)
        self.detector = detector
        self.mapper = ZoneMapper(layout, self.H)
        self.tracker = ZoneTracker(stable_frames or 3)
        self.motion_gating = True if motion_gating is None else motion_gating
        self.every_nth_frame = every_nth_frame or 1
        self.motion_config = motion or MotionConfig()
        self.gate: MotionGate | None = None
        self.regional: RegionalDetector | None = None
        self._zone_px: dict[str, np.ndarray] | None = None
        if regional and self.motion_gating:  # the gate says where the frame changed
            if not isinstance(detector, Detector):
                raise ValueError("VisionPipeline: regional detection needs a Detector (it runs the tile model)")
            self.regional = RegionalDetector(detector)
        self.frame_size = frame_size  # (width, height) the calibration was made for; None: not known
        # Called with each analysed frame and its detections (the evidence recorder keeps them).
        self.on_analysed: Callable[[Frame, sv.Detections], None] | None = None
        self.counters = PipelineCounters()
        self._frames: Iterable[Frame] | None = None  # what run() reads
        # (first, last) frame indices of a live camera never analysed (the analysis fell behind it, or it sent
        # nothing): what happened then was not seen (`rounds_from_changes(missed=...)` sends the rounds then
        # to review, and empties the list)
        self.missed: list[tuple[int, int]] = []
        self.empty_table: EmptyTableFilter | None = None
        # Where the dealer's hand lay in each analysed frame (`rounds_from_changes(cover=...)`); measured only
        # against an empty-table reference.
        self.cover = CoverLog()
        self._cover_meter: CoverMeter | None = None
        self._reference: np.ndarray | None = None
        if reference is not None:
            img = reference if isinstance(reference, np.ndarray) else load_reference(reference)
            self._reference = img
            self.empty_table = EmptyTableFilter(img, **({} if reference_similarity is None
                                                        else {"min_similarity": reference_similarity}))

    def source(self) -> FrameSource:
        if self.config is None:
            raise ValueError("VisionPipeline: no table config, pass frames or a FrameSource to run()")
        cam = self.config.camera
        return FrameSource(cam.source, fps=cam.fps, buffer_s=cam.buffer_s)

    @property
    def live(self) -> LiveStats | None:
        """How the live camera being read keeps up (None for a file or frames given)."""
        stats = getattr(self._frames, "live", None)
        return stats if stats is not None and stats.captured else None

    def run(self, frames: Iterable[Frame] | None = None) -> Iterator[tuple[int, float, list[ZoneChange]]]:
        t0 = time.perf_counter()
        self._frames = frames if frames is not None else self.source()
        previous = -1
        for frame in self._frames:
            if not self.counters.frames_read:
                self.check_calibration(frame.image)
            if frame.dropped:
                self.missed.append((previous + 1, frame.index - 1))
            previous = frame.index
            self.counters.frames_read += 1
            changes = self.process(frame) if frame.index % self.every_nth_frame == 0 else []
            self.counters.seconds = time.perf_counter() - t0
            yield frame.index, frame.timestamp, changes

    def check_calibration(self, image: np.ndarray) -> None:
        """Refuse frames of another size than the calibration's (every zone would be read in the wrong place);
        warn when the calibration puts the layout mostly outside the frame or in a corner of it."""
        h, w = image.shape[:2]
        table = f"table {self.config.table_id}: " if self.config is not None else ""
        wrong_size = size_mismatch(self.frame_size, (w, h))
        if wrong_size:
            raise CalibrationError(table + wrong_size)
        problem = layout_fit(self.layout, self.H, (w, h))
        if problem:
            log.warning("%s%s: is the calibration made for this camera? Check it with tablewatch calibrate",
                        table, problem)

    def _zone_polygons(self) -> dict[str, np.ndarray]:
        """The zones in image pixels, projected once (the gate's masks and the pending zones' box)."""
        if self._zone_px is None:
            self._zone_px = self.mapper.zone_polygons_px()
        return self._zone_px

    def _pending_box(self) -> Box:
        """Frame pixels around the zones the tracker is still confirming, (0, 0, 0, 0) when none."""
        names = self.tracker.pending_zones()
        if not names:
            return (0, 0, 0, 0)
        zone_px = self._zone_polygons()
        pts = np.concatenate([zone_px[n] for n in names if n in zone_px] or [np.zeros((0, 2))])
        if not len(pts):
            return (0, 0, 0, 0)
        (x0, y0), (x1, y1) = np.floor(pts.min(axis=0)), np.ceil(pts.max(axis=0))
        return int(x0), int(y0), int(x1), int(y1)

    def cover_meter(self) -> CoverMeter:
        """The meter of where the hand lies; only with an empty-table reference."""
        if self._cover_meter is None:
            if self._reference is None:
                raise ValueError("VisionPipeline: measuring where the hand lies needs an empty-table reference")
            self._cover_meter = CoverMeter(self._zone_polygons(), self._reference)
        return self._cover_meter

    def process(self, frame: Frame) -> list[ZoneChange]:
        """One frame through the gate, detector, mapper and tracker."""
        if self.motion_gating:
            if self.gate is None:
                h, w = frame.image.shape[:2]
                self.gate = MotionGate(self._zone_polygons(), (w, h), self.motion_config)
            if not self.gate.check(frame.index, frame.image, force=self.tracker.pending):
                return []
        self.counters.frames_analysed += 1
        if self.regional is not None and self.gate is not None:
            detections = self.regional.detect(frame.image, union(self.gate.changed_box, self._pending_box()))
        else:
            detections = self.detector.detect(frame.image)
        covered: set[str] = set()
        if self.empty_table is not None:
            detections = self.empty_table.filter(frame.image, detections)
            covered, bare = self.cover_meter().measure(frame.image, detections)
            self.cover.add(frame.index, covered, bare)
        if self.on_analysed is not None:
            self.on_analysed(frame, detections)
        return self.track(frame.index, detections, covered)

    def track(self, index: int, detections: sv.Detections, covered: set[str] | frozenset[str] = frozenset()
              ) -> list[ZoneChange]:
        """A frame's final detections (after the detector's second looks and the empty-table filter) through the
        mapper and the tracker: the part of `process` that needs no pixels, so recorded detections can be
        replayed through it. `covered`: the zones the dealer's hand lay over (`CoverMeter`)."""
        changes = self.tracker.update(index, self.mapper.observe(detections), covered=covered)
        self.counters.changes += len(changes)
        return changes


def _detector_for(config: TableConfig | None, layout: Layout) -> DetectsFrames:
    from .detect import DetectorConfig

    # The card finder where the table's config says, else where the game splits hands (`vision.card_finder` unset).
    setting = config.vision.card_finder if config is not None else None
    cards = {} if (layout.has_split_hands if setting is None else setting) else {"card_finder_path": None}
    if config is None:
        return Detector(DetectorConfig(**cards))
    vc = config.vision
    verifier = {} if vc.chip_verifier else {"verifier_path": None}
    second = {} if vc.card_second_look else {"second_classifier_path": None}
    finder = {} if vc.edge_chips else {"edge_chips_path": None}
    return Detector(DetectorConfig(conf=vc.conf, uncertain_below=vc.uncertain_below, card_conf=vc.card_conf,
                                   verify_below=vc.verify_below, verifier_accept=vc.verifier_accept,
                                   verifier_disagree=vc.verifier_disagree, verifier_confirm=vc.verifier_confirm,
                                   edge_chips_conf=vc.edge_chips_conf, card_finder_conf=vc.card_finder_conf,
                                   **verifier, **second, **finder, **cards))
