"""Table configuration: one YAML or TOML file per table (camera, calibration, game, settings, thresholds).

Nothing about a casino is hard-coded: the game's rules variants, paytables and limits come from
`settings`, validated by the game's own Settings model, so a wrong value names the file and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from pipelines.games.registry import game_module
from pipelines.games.round import GameId
from pipelines.games.validation import describe, load_model_file


class ConfigError(ValueError):
    """A configuration file that is missing or does not validate."""


class ReferencePoint(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = ""
    table_mm: tuple[float, float]
    image_px: tuple[float, float]


class Calibration(BaseModel):
    """Either reference points (at least 4, marked by the installer) or a table-mm -> image-px homography."""

    model_config = ConfigDict(extra="forbid")
    points: list[ReferencePoint] = Field(default_factory=list)
    homography: list[list[float]] | None = Field(None, description="3x3, table mm -> image px")

    @model_validator(mode="after")
    def _enough(self) -> Calibration:
        if self.homography is None and len(self.points) < 4:
            raise ValueError("calibration needs a homography or at least 4 reference points")
        if self.homography is not None and (len(self.homography) != 3 or any(len(r) != 3 for r in self.homography)):
            raise ValueError("homography must be 3 rows of 3 numbers")
        return self


class CameraConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: str = Field(description="video file, rtsp:// or http:// URL, camera index, or image folder")
    fps: float | None = Field(None, gt=0, description="a file's frame rate, where it says a wrong one; for a live "
                              "camera or stream, the frames analysed per second: one per tick, the rest skipped "
                              "(default 10, the rate the rounds' timings were measured at)")
    buffer_s: float = Field(5.0, gt=0, le=120, description="a live camera: how far (seconds) the analysis may fall "
                            "behind it before frames are lost (their rounds then go to review); each second "
                            "holds fps frames, 27 MB a second at 1280x720 and 10 frames/s")
    calibration: Calibration
    reference: str | None = Field(None, description="image of the empty table from this camera (relative to "
                                  "the configuration file): printed felt art is not read as chips or cards, and "
                                  "the dealer's hand is located, which orders settlements made close together")
    frame_size: tuple[int, int] | None = Field(None, description="(width, height) of the frames the calibration "
                                               "was made on: a source giving another size is refused, since "
                                               "every zone would be read in the wrong place")

    @field_validator("frame_size")
    @classmethod
    def _positive(cls, v: tuple[int, int] | None) -> tuple[int, int] | None:
        if v is not None and min(v) < 1:
            raise ValueError(f"width and height must be positive, got {list(v)}")
        return v


class VisionConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    conf: float = Field(0.25, ge=0, le=1)
    uncertain_below: float = Field(0.6, ge=0, le=1)
    card_conf: float = Field(0.5, ge=0, le=1)
    chip_verifier: bool = Field(True, description="a second look at unsure chip boxes (models/chip_verifier.onnx)")
    card_second_look: bool = Field(True, description="a second classifier (models/card_classifier_2.onnx) "
                                   "reads again the cards the first is unsure of: agreeing it confirms the "
                                   "reading, disagreeing it leaves the card unread")
    edge_chips: bool = Field(True, description="a second net (models/edge_chips.onnx) reads around the cards for "
                             "chips lying over a card's edge, where the detector misses some; its chips count "
                             "only there")
    edge_chips_conf: float = Field(0.25, ge=0, le=1, description="the card-edge finder's chips below this "
                                   "confidence are dropped")
    card_finder: bool | None = Field(None, description="a second net (models/card_finder.onnx) reads around cards "
                                     "laid over cards for the middle card of a cascade (a High Tie split hand), which "
                                     "the detector misses now and then; its cards count only between two of the "
                                     "detector's, and always with doubt, so their round goes to review. Unset: on "
                                     "where the game splits hands (High Tie); elsewhere cards lying in a row, a little "
                                     "over each other, drew cards that were none (benchmarks/RESULTS.md)")
    card_finder_conf: float = Field(0.65, ge=0, le=1, description="the card finder's cards below this confidence "
                                    "are dropped")
    verify_below: float = Field(0.9, ge=0, le=1, description="chip boxes below this confidence are verified")
    verifier_accept: float = Field(0.97, gt=0, le=1, description="the verifier's answer counts from this "
                                   "confidence; below it the box stays as the detector gave it")
    verifier_disagree: float = Field(0.1, ge=0, le=1, description="an uncertain chip box the verifier gives less "
                                     "than this for the detector's denomination is dropped (two chips' overlap "
                                     "read as a third), a sure one made uncertain; 0 turns this off")
    verifier_confirm: float = Field(0.99, ge=0, le=1, description="a chip box the verifier gives at least this "
                                    "for the detector's denomination counts as sure, whatever the detector's "
                                    "confidence; 0 turns this off")
    stable_frames: int = Field(3, ge=1, description="frames a zone's contents must hold before they count")
    every_nth_frame: int = Field(1, ge=1)
    motion_gating: bool = True
    regional: bool = Field(True, description="with motion gating, look only where the frame changed when it "
                           "fits one tile (models/detector_tile.onnx), keeping the last detections elsewhere: "
                           "faster, and as accurate on held-out video (benchmarks/RESULTS.md); false reads "
                           "every analysed frame whole")
    reference_similarity: float = Field(0.8, gt=0, le=1, description="a box this similar to the empty-table "
                                        "reference shows bare felt and is dropped")


class TableConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    table_id: str = Field(min_length=1)
    game: GameId
    pit: str | None = None
    camera: CameraConfig
    settings: dict[str, Any] = Field(default_factory=dict, description="the game's Settings fields")
    vision: VisionConfig = Field(default_factory=VisionConfig)
    snapshots_dir: str | None = Field(None, description="where flags' evidence (snapshot, clip, detections) is "
                                      "written, under evidence/<table>/<round>/: the store's folder or a --media "
                                      "folder of the dashboards, so they can show it")

    def game_settings(self) -> Any:
        return game_module(self.game).Settings(**self.settings)


def load_table_config(path: str | Path) -> TableConfig:
    path = Path(path)
    cfg = load_model_file(path, TableConfig, ConfigError, "table configuration")
    try:
        cfg.game_settings()
    except ValidationError as e:
        raise ConfigError(f"{path}: settings for {cfg.game}: {describe(e)}") from e
    # Paths in the file are relative to the file; a URL or a camera index is not a path.
    src = cfg.camera.source
    if not ("://" in src or src.isdigit()):
        cfg.camera.source = _beside(path, src)
    if cfg.snapshots_dir is not None:
        cfg.snapshots_dir = _beside(path, cfg.snapshots_dir)
    if cfg.camera.reference is not None:
        cfg.camera.reference = _beside(path, cfg.camera.reference)
        if not Path(cfg.camera.reference).is_file():
            raise ConfigError(f"{path}: field camera.reference: {cfg.camera.reference} does not exist")
    return cfg


def _beside(config_path: Path, value: str) -> str:
    """`value` as an absolute path, read relative to the configuration file's folder."""
    return value if Path(value).is_absolute() else str((config_path.parent / value).resolve())
