"""One way to say what is wrong with a file: the field, the reason and the value found."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe(e: ValidationError) -> str:
    """`field a.b: reason (got value); field c: ...` for every error pydantic found."""
    return "; ".join(
        f"field {'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']} (got {_short(err.get('input'))})"
        for err in e.errors()
    )
