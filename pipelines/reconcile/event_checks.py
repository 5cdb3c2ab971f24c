"""Past-posting and pinching, from the round's wager_changed events (vectorised over events).

A change counts when betting is closed for that wager: after the last `bets_closed` and before the wager
was settled. King High reopens action wagers box by box: once a box is settled its action wagers may
change until the next card's `bets_closed` (manual, 7. PERMISSIBLE WAGERS)."""

from __future__ import annotations

import polars as pl

from .columns import empty_flags, flag_frame
from .config import ReconcileConfig

SETTLE_EVENTS = ["payout_placed", "wager_collected", "wager_returned"]
KEY = ["round_id", "seat", "spot", "hand"]


def wager_change_flags(
    events: pl.DataFrame, rounds: pl.DataFrame, decisions: pl.DataFrame, cfg: ReconcileConfig
) -> pl.DataFrame:
    if events.is_empty():
        return empty_flags()
    tol = cfg.tolerance
    e = events.sort(["round_id", "seq"]).with_columns(
        last_closed=pl.when(pl.col("type") == "bets_closed").then(pl.col("seq")).forward_fill()
        .over("round_id"),
        is_settle=pl.col("type").is_in(SETTLE_EVENTS),
    ).with_columns(
        wager_settled=pl.col("is_settle").cast(pl.Int32).cum_sum().over(KEY) > 0,
        seat_settled_at=pl.when(pl.col("is_settle")).then(pl.col("seq")).forward_fill().over(
            ["round_id", "seat"]),
    )
    ch = e.filter((pl.col("type") == "wager_changed") & pl.col("before").is_not_null()
                  & pl.col("after").is_not_null())
    ch = ch.join(rounds.select("round_id", "game"), on="round_id", how="left")
    kh_action = list(cfg.base_wager.get("king-high", {}))
    per_box = (pl.col("game") == "king-high") & pl.col("spot").is_in(kh_action)
    closed = pl.col("last_closed").is_not_null() & ~pl.col("wager_settled") & (
        ~per_box | (pl.col("last_closed") > pl.col("seat_settled_at").fill_null(-1))
    )
    ch = ch.filter(closed)
    exempt = (
        decisions.filter(pl.col("action").is_in(cfg.exempt_rises_after)).select("round_id", "seat").unique()
        .with_columns(exempt=pl.lit(True))
    )
    ch = ch.join(exempt, on=["round_id", "seat"], how="left").with_columns(
        delta=pl.col("after") - pl.col("before"), exempt=pl.col("exempt").fill_null(False)
    )
    rises = ch.filter((pl.col("delta") > tol) & ~pl.col("exempt"))
    falls = ch.filter(pl.col("delta") < -tol)
    common = dict(
        round_id=pl.col("round_id"), seat=pl.col("seat"), spot=pl.col("spot"), hand=pl.col("hand"),
        amount=pl.col("delta").abs(), expected=pl.col("before"), observed=pl.col("after"),
        frame_start=pl.col("frame"), frame_end=pl.col("frame"), concern="protection",
        uncertain=pl.col("uncertain"),
    )
    past = flag_frame(
        rises, type="past_post",
        severity=pl.when(pl.col("delta") >= 500).then(pl.lit("critical")).otherwise(pl.lit("high")),
        detail=pl.format("{} wager rose from {} to {} after bets closed", pl.col("spot"), pl.col("before"),
                         pl.col("after")),
        **common,
    )
    pinch = flag_frame(
        falls, type="pinch", severity="high",
        detail=pl.format("{} wager fell from {} to {} after bets closed, before it was settled",
                         pl.col("spot"), pl.col("before"), pl.col("after")),
        **common,
    )
    return pl.concat([past, pinch])
