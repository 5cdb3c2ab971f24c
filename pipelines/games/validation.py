"""One way to say what is wrong with a file: the field, the reason and the value found."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe(e: ValidationError) -> str:
    """`field a.b: reason (got value); field c: ...` for every error pydantic found."""
    return "; ".join(
        f"field {'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']} (got {_short(err.get('input'))})"
        for err in e.errors()
    )


def load_model_file(path: str | Path, model: type[M], error: type[Exception], what: str) -> M:
    """Read a JSON, YAML or TOML file (by suffix) into `model`; every failure is `error` naming the file."""
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError as e:
        raise error(f"{path}: no such {what} file") from e
    try:
        if path.suffix in (".yaml", ".yml"):
            data = yaml.safe_load(text)
        elif path.suffix == ".toml":
            data = tomllib.loads(text)
        else:
            data = json.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{path}: not valid TOML: {e}") from e
    except json.JSONDecodeError as e:
        raise error(f"{path}: not valid JSON at line {e.lineno} column {e.colno}: {e.msg}") from e
    except yaml.YAMLError as e:
        raise error(f"{path}: not valid YAML: {e}") from e
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise error(f"{path}: {describe(e)}") from e
