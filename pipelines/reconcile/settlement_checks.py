"""Expected against observed settlement, vectorised over wagers: payout errors, missed collections,
limits, settlement order, action wagers without their base wager, void handling."""

from __future__ import annotations

import polars as pl

from .columns import empty_flags, flag_frame, severity_by_amount
from .config import ReconcileConfig
from .frames import OUTCOMES, key_column

EXP_COLUMNS = ["k", "wagered", "settled_amount", "exp_outcome", "exp_net", "exp_paid", "exp_order", "line",
               "rule", "limit_violation", "house_edge", "var_per_unit"]
OBS_COLUMNS = ["k", "obs_outcome", "obs_paid", "obs_seq", "o_frame_start", "o_frame_end", "o_uncertain"]
ID_COLUMNS = ["k", "rid", "seat", "spot", "hand"]
ROUND_FACTS = ["complete", "voided", "unsettled"]


def keyed(df: pl.DataFrame) -> pl.DataFrame:
    """`df` with its wager key `k`, sorted by it and with one row per key (the last copy wins).

    Frames from `flatten`/`expected_settlements` are already in key order without repeats, so this is
    two O(n) checks; anything else is sorted here."""
    df = df.with_columns(key_column())
    if not df["k"].is_sorted():
        df = df.sort("k", maintain_order=True)
    df = df.with_columns(pl.col("k").set_sorted())
    if df.height > 1 and (df["k"].diff() == 0).any():
        df = df.filter(pl.col("k") != pl.col("k").shift(-1).fill_null(-1))
    return df


def round_facts(rounds: pl.DataFrame, unsettled: list[str] | None = None) -> pl.DataFrame:
    """Per round (row = rid): settled by the dealer (complete), voided, could not be settled by games/."""
    return rounds.select(
        complete=pl.col("status").is_in(["complete", "voided"]),
        voided=pl.col("voided").fill_null(False),
        unsettled=pl.col("round_id").is_in(unsettled or []),
    )


def join_settlements(expected: pl.DataFrame, observed: pl.DataFrame, wagers: pl.DataFrame,
                     facts: pl.DataFrame) -> pl.DataFrame:
    """One row per wager, in key order: expected (from the games core) beside observed (the dealer).

    `facts` is `round_facts(rounds)`: row i describes round rid i. The joins are merges on the sorted
    integer key; a settlement with no wager behind it (expected or observed) still gets its row."""
    w, e, o = keyed(wagers), keyed(expected), keyed(observed)
    j = w.join(e.select(EXP_COLUMNS), on="k", how="left").join(o.select(OBS_COLUMNS), on="k", how="left")
    if j["exp_outcome"].count() < e.height or j["obs_outcome"].count() < o.height:
        j = _with_strays(j, w, e, o)
    j = j.with_columns(facts[c].gather(j["rid"]) for c in ROUND_FACTS)
    amount = pl.coalesce("settled_amount", "amount", "wagered").fill_null(0.0)
    outcome = pl.col("obs_outcome").cast(OUTCOMES)
    obs_net = (
        pl.when(outcome == "win").then(pl.col("obs_paid"))
        # A collected loser loses what the rules take (a surrender takes half): the camera sees only
        # that it was collected.
        .when(outcome == "lose").then(
            pl.when(pl.col("exp_outcome").cast(OUTCOMES) == "lose").then(pl.col("exp_net")).otherwise(-amount))
        .when(outcome.is_in(["push", "returned"])).then(0.0)
        .otherwise(None)
    )
    return j.lazy().with_columns(
        obs_net=obs_net,
        stake=amount,
        uncertain=pl.col("w_uncertain").fill_null(False) | pl.col("o_uncertain").fill_null(False),
        frame_start=pl.coalesce("o_frame_start", "w_frame_start"),
        frame_end=pl.coalesce("o_frame_end", "w_frame_end"),
    ).with_columns(diff=(pl.col("obs_net") - pl.col("exp_net"))).collect()


def _with_strays(j: pl.DataFrame, w: pl.DataFrame, e: pl.DataFrame, o: pl.DataFrame) -> pl.DataFrame:
    """Add rows for settlements (expected or observed) of wagers the wagers frame does not hold."""
    ids = pl.concat([e.select(ID_COLUMNS), o.select(ID_COLUMNS)]).join(w.select("k"), on="k", how="anti")
    ids = ids.unique("k", keep="first").sort("k")
    strays = ids.join(e.select(EXP_COLUMNS), on="k", how="left").join(o.select(OBS_COLUMNS), on="k",
                                                                      how="left")
    return pl.concat([j, strays], how="diagonal_relaxed").sort("k")


def settlement_flags(j: pl.DataFrame, cfg: ReconcileConfig, posted: pl.DataFrame | None = None
                     ) -> pl.DataFrame:
    """Payout errors and missed collections (void_handling instead when the round was voided).

    `posted` (k, posted_to): wagers past-posted to a larger stack. A winner paid right for the stack it
    was past-posted to is the past-post's money, not a second (payout) error."""
    tol = cfg.tolerance
    has_exp, has_obs = pl.col("exp_outcome").is_not_null(), pl.col("obs_outcome").is_not_null()
    exp_outcome, obs_outcome = pl.col("exp_outcome").cast(OUTCOMES), pl.col("obs_outcome").cast(OUTCOMES)
    exp_lose = exp_outcome == "lose"
    missed = exp_lose & ((~has_obs & pl.col("complete")) | obs_outcome.is_in(["push", "returned"]))
    wrong_amount = has_exp & has_obs & (pl.col("diff").abs() > tol) & ~missed
    unpaid_winner = has_exp & ~has_obs & pl.col("complete") & (exp_outcome == "win")
    paid_stranger = ~has_exp & has_obs & (pl.col("obs_net").abs() > tol)
    live = ~pl.col("unsettled")
    observed_net = pl.when(has_obs).then(pl.col("obs_net")).otherwise(0.0)
    expected_net = pl.col("exp_net").fill_null(0.0)
    delta = observed_net - expected_net
    voided = pl.col("voided")

    pay = j.lazy().filter(live & (wrong_amount | unpaid_winner | paid_stranger)).collect()
    if posted is not None and not posted.is_empty() and not pay.is_empty():
        paid_for_stack = (exp_outcome == "win") & (
            (pl.col("obs_net") - pl.col("exp_net") * pl.col("posted_to") / pl.col("stake")).abs() <= tol)
        pay = pay.join(posted.select("k", "posted_to"), on="k", how="left").filter(
            ~paid_for_stack.fill_null(False))
    pay = flag_frame(
        pay,
        type=pl.when(voided).then(pl.lit("void_handling")).otherwise(pl.lit("payout_error")),
        rid=pl.col("rid"), seat=pl.col("seat"), spot=pl.col("spot"), hand=pl.col("hand"),
        severity=severity_by_amount(delta.abs(), cfg.payout_severity),
        amount=delta.abs(), expected=expected_net, observed=observed_net,
        frame_start=pl.col("frame_start"), frame_end=pl.col("frame_end"),
        concern=pl.when(voided).then(pl.lit("void")).otherwise(pl.lit("payout")),
        rule=pl.when(voided).then(None).otherwise(pl.col("rule")),
        detail=pl.format(
            "{} {} on {} ({}): expected {} net {}, observed {} net {}",
            pl.when(delta > 0).then(pl.lit("overpaid")).otherwise(pl.lit("underpaid")),
            delta.abs().round(2), pl.col("spot"), pl.col("line").fill_null("no such wager"),
            pl.col("exp_outcome").cast(pl.Utf8).fill_null("nothing"), expected_net.round(2),
            pl.col("obs_outcome").cast(pl.Utf8).fill_null("not settled"), observed_net.round(2),
        ),
        uncertain=pl.col("uncertain"),
    )
    miss = flag_frame(
        j.lazy().filter(live & missed).collect(),
        type=pl.when(voided).then(pl.lit("void_handling")).otherwise(pl.lit("missed_collection")),
        rid=pl.col("rid"), seat=pl.col("seat"), spot=pl.col("spot"), hand=pl.col("hand"),
        severity=pl.when(pl.col("stake") >= 100).then(pl.lit("high")).otherwise(pl.lit("medium")),
        amount=pl.col("stake"), expected=-pl.col("stake"), observed=pl.lit(0.0),
        frame_start=pl.col("frame_start"), frame_end=pl.col("frame_end"),
        concern=pl.when(voided).then(pl.lit("void")).otherwise(pl.lit("collection")),
        detail=pl.format(
            "losing {} wager of {} ({}) was {}", pl.col("spot"), pl.col("stake").round(2),
            pl.col("line").fill_null(""), pl.col("obs_outcome").cast(pl.Utf8).fill_null("left on the layout"),
        ),
        uncertain=pl.col("uncertain"),
    )
    return pl.concat([pay, miss])


def limit_flags(j: pl.DataFrame) -> pl.DataFrame:
    """RULES.md: a wager outside the table limits is settled by the limit rule and flagged low."""
    v = j.lazy().filter(pl.col("limit_violation").is_not_null()).collect()
    return flag_frame(
        v, type="procedure", rid=pl.col("rid"), seat=pl.col("seat"), spot=pl.col("spot"),
        hand=pl.col("hand"), severity="low", amount=pl.col("wagered"), expected=pl.col("settled_amount"),
        observed=pl.col("wagered"), frame_start=pl.col("w_frame_start"), frame_end=pl.col("w_frame_end"),
        concern="limits",
        detail=pl.format("{} wager of {} is {}; settled as {}", pl.col("spot"), pl.col("wagered"),
                         pl.col("limit_violation"), pl.col("settled_amount")),
        uncertain=pl.col("uncertain"),
    )


def order_flags(j: pl.DataFrame) -> pl.DataFrame:
    """Wagers the dealer settled too early: settled before another wager of the same round that the
    manual puts ahead of it. Taken in the order the dealer settled, a wager is early when the smallest
    expected position among the wagers settled after it is below its own (a suffix minimum, computed
    for all rounds at once as one reverse cumulative maximum over a round-major integer)."""
    big = 1 << 20
    # One sort, of three integer columns: the settled wagers in the order the dealer settled them.
    s = j.lazy().filter(pl.col("exp_order").is_not_null() & pl.col("obs_seq").is_not_null()).select(
        "k", "exp_order", sk=pl.col("rid") * big + pl.col("obs_seq").clip(0, big - 1)).sort("sk").collect()
    if s.height < 2:
        return empty_flags()
    rid = pl.col("sk") // big
    same_round_next = rid.shift(-1) == rid
    top = s["sk"].max() // big
    # (top - rid) falls from round to round, so the running maximum never reaches back into a later round.
    v = (top - rid) * big + (big - 1 - pl.col("exp_order").clip(0, big - 1))
    later_min = big - 1 - (v.cum_max(reverse=True).shift(-1) % big)
    s = s.lazy().with_columns(
        rid=rid,
        early=same_round_next & (later_min < pl.col("exp_order")),
        # Rounds whose settlements were not seen in a definite order (a repeated seq) are not judged.
        repeat=same_round_next & (pl.col("sk").shift(-1) == pl.col("sk")),
    ).filter(pl.col("early") | pl.col("repeat")).collect()
    unordered = s.filter("repeat")["rid"].to_list()
    early = s.filter(pl.col("early") & ~pl.col("rid").is_in(unordered))
    if early.is_empty():
        return empty_flags()
    e = j.lazy().filter(pl.col("k").is_in(early["k"].to_list())).collect()
    return flag_frame(
        e, type="procedure", rid=pl.col("rid"), seat=pl.col("seat"), spot=pl.col("spot"),
        hand=pl.col("hand"), severity="low", amount=pl.col("stake"),
        expected=pl.col("exp_order"), observed=pl.col("obs_seq"),
        frame_start=pl.col("frame_start"), frame_end=pl.col("frame_end"), concern="order",
        detail=pl.format("{} settled out of the manual's order: settled before a wager the manual puts "
                         "ahead of it (its position {})", pl.col("spot"), pl.col("exp_order")),
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
    w = wagers.filter(pl.col("amount") > 0)
    w = w.with_columns(game=rounds["game"].gather(w["rid"]))
    needs = w.join(req, on=["game", "spot"], how="inner")
    bases = w.select("rid", "seat", pl.col("spot").alias("base_spot")).unique()
    missing = needs.join(bases, on=["rid", "seat", "base_spot"], how="anti")
    return flag_frame(
        missing, type="procedure", rid=pl.col("rid"), seat=pl.col("seat"), spot=pl.col("spot"),
        hand=pl.col("hand"), severity="medium", amount=pl.col("amount"), observed=pl.col("amount"),
        frame_start=pl.col("w_frame_start"), frame_end=pl.col("w_frame_end"), concern="base_wager",
        detail=pl.format("{} wager of {} without the required {} wager", pl.col("spot"), pl.col("amount"),
                         pl.col("base_spot")),
        uncertain=pl.col("w_uncertain"),
    )
