"""The common shape of the flag frames every check returns, so they concatenate."""

from __future__ import annotations

import polars as pl

FLAG_SCHEMA: dict[str, pl.DataType] = {
    "type": pl.Utf8(), "rid": pl.Int64(), "seat": pl.Int64(), "spot": pl.Utf8(), "hand": pl.Int64(),
    "severity": pl.Utf8(), "amount": pl.Float64(), "expected": pl.Float64(), "observed": pl.Float64(),
    "frame_start": pl.Int64(), "frame_end": pl.Int64(), "concern": pl.Utf8(), "rule": pl.Utf8(),
    "detail": pl.Utf8(), "uncertain": pl.Boolean(),
}


def flag_frame(df: pl.DataFrame, **exprs: pl.Expr | str | float | int | bool | None) -> pl.DataFrame:
    """Select FLAG_SCHEMA's columns from `df`: given expressions, or nulls for those not given."""
    cols = []
    for name, dtype in FLAG_SCHEMA.items():
        e = exprs.get(name)
        if e is None:
            e = pl.lit(None)
        elif not isinstance(e, pl.Expr):
            e = pl.lit(e)
        cols.append(e.cast(dtype).alias(name))
    return df.select(cols)


def empty_flags() -> pl.DataFrame:
    return pl.DataFrame(schema=FLAG_SCHEMA)


def severity_by_amount(amount: pl.Expr, thresholds: list[tuple[float, str]]) -> pl.Expr:
    """The severity of the highest threshold the amount reaches."""
    ordered = sorted(thresholds)
    expr: pl.Expr = pl.lit(ordered[0][1])
    for lo, sev in ordered[1:]:
        expr = pl.when(amount >= lo).then(pl.lit(sev)).otherwise(expr)
    return expr
