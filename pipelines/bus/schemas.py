"""Generate the JSON Schemas of the bus messages into schemas/ (Round's schema is the games core's)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pipelines.games.round import TableEvent

from .topics import DeadLetter

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"
BUS_SCHEMAS = {"table-event.schema.json": TableEvent, "dead-letter.schema.json": DeadLetter}


def render(model: type) -> str:
    schema = model.model_json_schema()  # type: ignore[attr-defined]
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write(directory: Path = SCHEMA_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, model in BUS_SCHEMAS.items():
        path = directory / name
        path.write_text(render(model))
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write(Path(sys.argv[1]) if len(sys.argv) > 1 else SCHEMA_DIR):
        print(p)
