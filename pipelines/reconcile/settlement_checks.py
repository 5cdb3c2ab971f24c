"""Expected against observed settlement, vectorised over wagers: payout errors, missed collections,
limits, settlement order, action wagers without their base wager, void handling."""

from __future__ import annotations

import polars as pl

from .columns import empty_flags, flag_frame, severity_by_amount
from .config import ReconcileConfig

KEY = ["round_id", "seat", "spot", "hand"]


def join_settlements(
    expected: pl.DataFrame, observed: pl.DataFrame, wagers: pl.DataFrame, rounds: pl.DataFrame
) -> pl.DataFrame:
    """One row per wager: expected (from the games core) beside observed (what the dealer did)."""
    observed = observed.unique(subset=KEY, keep="last", maintain_order=True)
    wagers = wagers.unique(subset=KEY, keep="last", maintain_order=True)
    expected = expected.unique(subset=KEY, keep="last", maintain_order=True)
    # Every wager seen, expected or settled: a row each, so none is lost from the wagers table.
    keys = pl.concat([wagers.select(KEY), expected.select(KEY), observed.select(KEY)]).unique(
        maintain_order=True)
    j = keys.join(wagers, on=KEY, how="left").join(expected, on=KEY, how="left")
    j = j.join(observed, on=KEY, how="left")
    j = j.join(rounds.select("round_id", "game", "status", "voided"), on="round_id", how="left")
    amount = pl.coalesce("settled_amount", "amount", "wagered").fill_null(0.0)
    obs_net = (
        pl.when(pl.col("obs_outcome") == "win").then(pl.col("obs_paid"))
        .when(pl.col("obs_outcome") == "lose").then(-amount)
        .when(pl.col("obs_outcome").is_in(["push", "returned"])).then(0.0)
        .otherwise(None)
    )
    return j.with_columns(
        obs_net=obs_net,
        stake=amount,
        uncertain=pl.col("w_uncertain").fill_null(False) | pl.col("o_uncertain").fill_null(False),
        frame_start=pl.coalesce("o_frame_start", "w_frame_start"),
        frame_end=pl.coalesce("o_frame_end", "w_frame_end"),
    ).with_columns(diff=(pl.col("obs_net") - pl.col("exp_net")))


def settlement_flags(j: pl.DataFrame, unsettled_rounds: list[str], cfg: ReconcileConfig) -> pl.DataFrame:
    """Payout errors and missed collections (void_handling instead when the round was voided)."""
    tol = cfg.tolerance
    j = j.filter(~pl.col("round_id").is_in(unsettled_rounds))
    has_exp, has_obs = pl.col("exp_outcome").is_not_null(), pl.col("obs_outcome").is_not_null()
    complete = pl.col("status").is_in(["complete", "voided"])
    exp_lose = pl.col("exp_outcome") == "lose"
    missed = exp_lose & ((~has_obs & complete) | pl.col("obs_outcome").is_in(["push", "returned"]))
    wrong_amount = has_exp & has_obs & (pl.col("diff").abs() > tol) & ~missed
    unpaid_winner = has_exp & ~has_obs & complete & (pl.col("exp_outcome") == "win")
    paid_stranger = ~has_exp & has_obs & (pl.col("obs_net").abs() > tol)
    payout = wrong_amount | unpaid_winner | paid_stranger
    observed_net = pl.when(has_obs).then(pl.col("obs_net")).otherwise(0.0)
    expected_net = pl.col("exp_net").fill_null(0.0)
    delta = observed_net - expected_net
    voided = pl.col("voided").fill_null(False)

    pay = j.filter(payout)
    pay = flag_frame(
        pay,
        type=pl.when(voided).then(pl.lit("void_handling")).otherwise(pl.lit("payout_error")),
        round_id=pl.col("round_id"), seat=pl.col("seat"), spot=pl.col("spot"), hand=pl.col("hand"),
        severity=severity_by_amount(delta.abs(), cfg.payout_severity),
        amount=delta.abs(), expected=expected_net, observed=observed_net,
        frame_start=pl.col("frame_start"), frame_end=pl.col("frame_end"),
        concern=pl.when(voided).then(pl.lit("void")).otherwise(pl.lit("payout")),
        rule=pl.when(voided).then(None).otherwise(pl.col("rule")),
        detail=pl.format(
            "{} {} on {} ({}): expected {} net {}, observed {} net {}",
            pl.when(delta > 0).then(pl.lit("overpaid")).otherwise(pl.lit("underpaid")),
            delta.abs().round(2), pl.col("spot"), pl.col("line").fill_null("no such wager"),
            pl.col("exp_outcome").fill_null("nothing"), expected_net.round(2),
            pl.col("obs_outcome").fill_null("not settled"), observed_net.round(2),
        ),
        uncertain=pl.col("uncertain"),
    )
    miss = j.filter(missed)
    miss = flag_frame(
        miss,
        type=pl.when(voided).then(pl.lit("void_handling")).otherwise(pl.lit("missed_collection")),
        round_id=pl.col("round_id"), seat=pl.col("seat"), spot=pl.col("spot"), hand=pl.col("hand"),
        severity=pl.when(pl.col("stake") >= 100).then(pl.lit("high")).otherwise(pl.lit("medium")),
        amount=pl.col("stake"), expected=-pl.col("stake"), observed=pl.lit(0.0),
        frame_start=pl.col("frame_start"), frame_end=pl.col("frame_end"),
        concern=pl.when(voided).then(pl.lit("void")).otherwise(pl.lit("collection")),
        detail=pl.format(
            "losing {} wager of {} ({}) was {}", pl.col("spot"), pl.col("stake").round(2),
            pl.col("line").fill_null(""), pl.col("obs_outcome").fill_null("left on the layout"),
        ),
        uncertain=pl.col("uncertain"),
    )
    return pl.concat([pay, miss])


def limit_flags(j: pl.DataFrame) -> pl.DataFrame:
    """RULES.md: a wager outside the table limits is settled by the limit rule and flagged low."""
    v = j.filter(pl.col("limit_violation").is_not_null())
    return flag_frame(
        v, type="procedure", round_id=pl.col("round_id"), seat=pl.col("seat"), spot=pl.col("spot"),
        hand=pl.col("hand"), severity="low", amount=pl.col("wagered"), expected=pl.col("settled_amount"),
        observed=pl.col("wagered"), frame_start=pl.col("w_frame_start"), frame_end=pl.col("w_frame_end"),
        concern="limits",
        detail=pl.format("{} wager of {} is {}; settled as {}", pl.col("spot"), pl.col("wagered"),
                         pl.col("limit_violation"), pl.col("settled_amount")),
        uncertain=pl.col("uncertain"),
    )


def order_flags(j: pl.DataFrame) -> pl.DataFrame:
    """A wager settled after one the manual puts later: the running maximum of the expected position,
    taken in the order the dealer actually settled, exceeds this wager's expected position."""
    s = j.filter(pl.col("exp_order").is_not_null() & pl.col("obs_seq").is_not_null())
    # Only rounds whose settlements were seen in a definite order (distinct, not all defaulted to 0).
    s = s.filter(
        (pl.col("obs_seq").n_unique().over("round_id") == pl.len().over("round_id"))
        & (pl.len().over("round_id") > 1)
    ).sort(["round_id", "obs_seq"])
    s = s.with_columns(
        before_max=pl.col("exp_order").cum_max().shift(1).over("round_id"),
    ).filter(pl.col("before_max") > pl.col("exp_order"))
    return flag_frame(
        s, type="procedure", round_id=pl.col("round_id"), seat=pl.col("seat"), spot=pl.col("spot"),
        hand=pl.col("hand"), severity="low", amount=pl.col("stake"),
        expected=pl.col("exp_order"), observed=pl.col("obs_seq"),
        frame_start=pl.col("frame_start"), frame_end=pl.col("frame_end"), concern="order",
        detail=pl.format("{} settled out of the manual's order (expected position {}, a later one "
                         "was settled first)", pl.col("spot"), pl.col("exp_order")),
        uncertain=pl.col("uncertain"),
    )


def base_wager_flags(wagers: pl.DataFrame, rounds: pl.DataFrame, cfg: ReconcileConfig) -> pl.DataFrame:
    """An action wager on a seat that has not wagered the base spot it requires."""
    req = pl.DataFrame(
        [(g, s, b) for g, m in cfg.base_wager.items() for s, b in m.items()],
        schema={"game": pl.Utf8, "spot": pl.Utf8, "base_spot": pl.Utf8}, orient="row",
    )
    if req.is_empty() or wagers.is_empty():
        return empty_flags()
    w = wagers.filter(pl.col("amount") > 0).join(rounds.select("round_id", "game"), on="round_id")
    needs = w.join(req, on=["game", "spot"], how="inner")
    bases = w.select("round_id", "seat", pl.col("spot").alias("base_spot")).unique()
    missing = needs.join(bases, on=["round_id", "seat", "base_spot"], how="anti")
    return flag_frame(
        missing, type="procedure", round_id=pl.col("round_id"), seat=pl.col("seat"), spot=pl.col("spot"),
        hand=pl.col("hand"), severity="medium", amount=pl.col("amount"), observed=pl.col("amount"),
        frame_start=pl.col("w_frame_start"), frame_end=pl.col("w_frame_end"), concern="base_wager",
        detail=pl.format("{} wager of {} without the required {} wager", pl.col("spot"), pl.col("amount"),
                         pl.col("base_spot")),
        uncertain=pl.col("w_uncertain"),
    )
