"""Ground truth of a simulated session: what was dealt, wagered, settled and done wrong, frame by frame.

`GroundTruth` is written next to the video by `simulate_session`; its JSON Schema
(`schemas/ground_truth.schema.json`) is generated from this model by `write_schema()`, so the contract
is written once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pipelines.games.round import GameId, Round
from pipelines.games.validation import load_model_file

from .faults import Fault

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "schemas" / "ground_truth.schema.json"


class GroundTruthError(ValueError):
    """A ground-truth file that is missing or does not validate."""


class GroundTruth(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_version: Literal[1] = 1
    game: GameId
    table_id: str
    seed: int
    fps: float = Field(gt=0)
    video: str | None = Field(None, description="video file name, relative to the ground-truth file")
    reference: str | None = Field(None, description="image of the empty table from the same camera, relative "
                                  "to the ground-truth file (what an installer saves with the calibration)")
    frame_size: tuple[int, int] = Field(description="(width, height) in pixels")
    frame_count: int = Field(ge=0, description="frames in the video")
    settings: dict[str, Any] = Field(description="the game's Settings, as a dict")
    layout: str = Field(description="layout name (pipelines/games/layouts)")
    homography: list[list[float]] = Field(description="3x3, table mm -> image px")
    rounds: list[Round] = Field(default_factory=list)
    faults: list[Fault] = Field(default_factory=list)

    @field_validator("homography")
    @classmethod
    def _three_by_three(cls, v: list[list[float]]) -> list[list[float]]:
        if len(v) != 3 or any(len(row) != 3 for row in v):
            raise ValueError(f"homography must be 3x3, got {v!r}")
        return v

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.model_dump_json(indent=1) + "\n")
        return path

    @classmethod
    def load(cls, path: str | Path) -> GroundTruth:
        return load_model_file(path, cls, GroundTruthError, "ground-truth")

    def faults_of(self, round_id: str) -> list[Fault]:
        return [f for f in self.faults if f.round_id == round_id]


def schema() -> dict[str, Any]:
    return GroundTruth.model_json_schema()


def write_schema(path: str | Path = SCHEMA_PATH) -> Path:
    """Write the JSON Schema generated from `GroundTruth` (a test fails when the committed one is stale)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(schema(), indent=2, sort_keys=True) + "\n")
    return path


if __name__ == "__main__":
    print(write_schema())
