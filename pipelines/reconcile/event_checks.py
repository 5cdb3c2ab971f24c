"""Past-posting and pinching, from the round's wager_changed events (vectorised over events).

A change counts when betting is closed for that wager and it has not been settled yet. Betting closes at
the round's first `bets_closed`; King High's action wagers ride on one card each (`hand` = the card's
number), so theirs closes at that card's `bets_closed` (manual, 7. PERMISSIBLE WAGERS: action wagers
may change between action rounds)."""

from __future__ import annotations

import polars as pl

from .columns import empty_flags, flag_frame
from .config import ReconcileConfig
from .frames import key_column

SETTLE_EVENTS = ["payout_placed", "wager_collected", "wager_returned"]
KEY = ["rid", "seat", "spot", "hand"]


def closed_wager_changes(events: pl.DataFrame, rounds: pl.DataFrame, decisions: pl.DataFrame,
                         cfg: ReconcileConfig) -> pl.DataFrame:
    """wager_changed events made while betting was closed for that wager, with `delta` and `exempt`
    (a decision that legitimately grows that spot, e.g. a double or the Play wager)."""
    e = events.sort(["rid", "seq"]).with_columns(
        closed_hand=pl.when(pl.col("type") == "bets_closed").then(pl.col("hand").fill_null(0))
        .forward_fill().over("rid"),
        is_settle=pl.col("type").is_in(SETTLE_EVENTS),
    ).with_columns(wager_settled=pl.col("is_settle").cast(pl.Int32).cum_sum().over(KEY) > 0)
    ch = e.filter((pl.col("type") == "wager_changed") & pl.col("before").is_not_null()
                  & pl.col("after").is_not_null() & pl.col("seat").is_not_null())
    ch = ch.with_columns(game=rounds["game"].gather(ch["rid"]))
    per_card = pl.lit(False)
    for game, spots in cfg.per_card_wagers.items():
        per_card = per_card | ((pl.col("game") == game) & pl.col("spot").is_in(spots))
    closed = pl.col("closed_hand").is_not_null() & ~pl.col("wager_settled") & (
        ~per_card | (pl.col("closed_hand") >= pl.col("hand")))
    ch = ch.filter(closed)
    return ch.with_columns(delta=pl.col("after") - pl.col("before"),
                           exempt=_grown_by_decision(ch, e, decisions, cfg))


CLOSING_EVENTS = ["card_exposed", "decision", *SETTLE_EVENTS]


def _grown_by_decision(ch: pl.DataFrame, e: pl.DataFrame, decisions: pl.DataFrame,
                       cfg: ReconcileConfig) -> pl.Series:
    """Per change: made at a decision that grows that spot (a double, the Play wager), i.e. after the
    decision and before the next decision, dealer card or settlement. Later rises are not exempt."""
    grows = pl.DataFrame(
        [(a, s) for a, spots in cfg.exempt_rises_after.items() for s in spots],
        schema={"action": pl.Utf8, "spot": pl.Utf8}, orient="row")
    d = decisions.filter(pl.col("frame").is_not_null()).join(grows, on="action")
    if ch.is_empty() or d.is_empty():
        return pl.Series("exempt", [False] * ch.height, dtype=pl.Boolean)
    # Closing events seen up to each frame, per round: a decision and a change made with the same
    # count between them had no card exposed and nothing settled in between.
    closes = pl.col("type").is_in(CLOSING_EVENTS) | ((pl.col("type") == "card_dealt") & (pl.col("owner") == "dealer"))
    closing = e.filter(closes).group_by("rid", "frame").agg(n=pl.len()).sort(
        "frame").with_columns(n=pl.col("n").cum_sum().over("rid"))

    def closed_by(df: pl.DataFrame) -> pl.DataFrame:
        return df.sort("frame").join_asof(
            closing, on="frame", by="rid", strategy="backward", check_sortedness=False).with_columns(
            n=pl.col("n").fill_null(0))

    c = closed_by(ch.with_row_index("_i").select("_i", "rid", "seat", "spot", "frame"))
    dd = closed_by(d.select("rid", "seat", "spot", pl.col("frame").alias("frame")))
    hit = c.join(dd.rename({"frame": "d_frame"}), on=["rid", "seat", "spot", "n"]).filter(
        pl.col("d_frame") <= pl.col("frame"))["_i"].unique()
    return pl.Series("exempt", [False] * ch.height, dtype=pl.Boolean).scatter(hit, True) if hit.len() else \
        pl.Series("exempt", [False] * ch.height, dtype=pl.Boolean)


def past_posted(changes: pl.DataFrame, spot_code: dict[str, int], cfg: ReconcileConfig) -> pl.DataFrame:
    """(k, posted_to): the largest stack each past-posted wager was raised to."""
    rises = changes.filter((pl.col("delta") > cfg.tolerance) & ~pl.col("exempt") & pl.col("spot").is_in(
        list(spot_code)))
    if rises.is_empty():
        return pl.DataFrame(schema={"k": pl.Int64, "posted_to": pl.Float64})
    return rises.with_columns(spot_code=pl.col("spot").replace_strict(spot_code, return_dtype=pl.Int64)).select(
        key_column(), posted_to=pl.col("after")).group_by("k").agg(pl.col("posted_to").max())


def wager_change_flags(changes: pl.DataFrame, cfg: ReconcileConfig) -> pl.DataFrame:
    if changes.is_empty():
        return empty_flags()
    tol = cfg.tolerance
    rises = changes.filter((pl.col("delta") > tol) & ~pl.col("exempt"))
    falls = changes.filter(pl.col("delta") < -tol)
    common = dict(
        rid=pl.col("rid"), seat=pl.col("seat"), spot=pl.col("spot"), hand=pl.col("hand"),
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
