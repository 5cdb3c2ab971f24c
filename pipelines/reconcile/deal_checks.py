"""Misdeals from the card events against the game's deal procedure (vectorised over cards/events):
wrong card count per owner, dealer card exposed early, a card more often than the decks hold, wrong deck
back in a two-deck rotation."""

from __future__ import annotations

import polars as pl

from .columns import empty_flags, flag_frame
from .config import ReconcileConfig


def _owner_seat() -> pl.Expr:
    return pl.col("owner").str.extract(r"^seat:(\d+)", 1).cast(pl.Int64)


def card_count_flags(cards: pl.DataFrame, wagers: pl.DataFrame, rounds: pl.DataFrame,
                     cfg: ReconcileConfig) -> pl.DataFrame:
    live = rounds.filter(pl.col("status") != "incomplete").select("rid", "game", "voided")
    # Split hands ("seat:3.2") are cards of seat 3.
    owners = cards.with_columns(owner=pl.col("owner").str.replace(r"^(seat:\d+)\.\d+$", "$1"))
    counts = owners.group_by("rid", "owner").agg(n=pl.len(), f0=pl.col("frame").min(),
                                                      f1=pl.col("frame").max(),
                                                      unc=pl.col("uncertain").any())
    seats = wagers.filter(pl.col("amount") > 0).select("rid", "seat").unique().join(
        live, on="rid")
    seat_exp = seats.with_columns(owner=pl.format("seat:{}", pl.col("seat"))).join(
        pl.DataFrame({"game": list(cfg.cards_per_seat), "n_exp": list(cfg.cards_per_seat.values())},
                     schema={"game": pl.Utf8, "n_exp": pl.Int64}), on="game").select(
        "rid", "game", "voided", "owner", "n_exp")
    dealer_exp = live.join(
        pl.DataFrame({"game": list(cfg.dealer_cards), "n_exp": list(cfg.dealer_cards.values())},
                     schema={"game": pl.Utf8, "n_exp": pl.Int64}), on="game").with_columns(
        owner=pl.lit("dealer")).select("rid", "game", "voided", "owner", "n_exp")
    board_exp = live.join(
        pl.DataFrame({"game": list(cfg.board_cards), "n_exp": list(cfg.board_cards.values())},
                     schema={"game": pl.Utf8, "n_exp": pl.Int64}), on="game").with_columns(
        owner=pl.lit("board")).select("rid", "game", "voided", "owner", "n_exp")
    exp = pl.concat([seat_exp, dealer_exp, board_exp])
    j = exp.join(counts, on=["rid", "owner"], how="left").with_columns(n=pl.col("n").fill_null(0))
    at_least = pl.col("game").is_in(cfg.at_least)
    # Where a voided round may stop mid-deal (King High's board), only too many cards is wrong there.
    stopped = pl.col("voided") & pl.col("game").is_in(cfg.partial_deal_on_void)
    wrong = pl.when(at_least).then(pl.col("n") < pl.col("n_exp")).otherwise(pl.col("n") != pl.col("n_exp"))
    wrong = pl.when(stopped).then(pl.col("n") > pl.col("n_exp")).otherwise(wrong)
    bad = j.filter(wrong)
    return flag_frame(
        bad, type="misdeal", rid=pl.col("rid"),
        seat=pl.col("owner").str.extract(r"^seat:(\d+)", 1),
        spot=pl.format("card_count:{}", pl.col("owner")), severity="medium",
        expected=pl.col("n_exp"), observed=pl.col("n"), frame_start=pl.col("f0"), frame_end=pl.col("f1"),
        concern="deal",
        detail=pl.format("{} got {} cards; the deal gives {}{}", pl.col("owner"), pl.col("n"),
                         pl.when(at_least).then(pl.lit("at least ")).otherwise(pl.lit("")), pl.col("n_exp")),
        uncertain=pl.col("unc").fill_null(False),
    )


def dealer_exposure_flags(events: pl.DataFrame, rounds: pl.DataFrame, cfg: ReconcileConfig) -> pl.DataFrame:
    """A dealer card seen face up too early: one the deal procedure deals face down arriving face up,
    or any dealer card turned up before the last player decision (High Tie: the up card is allowed)."""
    if events.is_empty():
        return empty_flags()
    ev = events.with_columns(game=rounds["game"].gather(events["rid"])).filter(
        pl.col("game").is_in(cfg.dealer_exposure_checked))
    last_decision = ev.filter(pl.col("type") == "decision").group_by("rid").agg(
        last_decision=pl.col("seq").max())
    face_down = pl.DataFrame([(g, n) for g, ns in cfg.dealer_face_down.items() for n in ns],
                             schema={"game": pl.Utf8, "nth_dealt": pl.Int64}, orient="row").with_columns(
        face_down=pl.lit(True))
    dealer = ev.filter(pl.col("owner") == "dealer").sort("rid", "seq").with_columns(
        nth_dealt=(pl.col("type") == "card_dealt").cast(pl.Int64).cum_sum().over("rid"))
    dealer = dealer.join(last_decision, on="rid", how="left").join(
        face_down, on=["game", "nth_dealt"], how="left")
    dealt_up = (pl.col("type") == "card_dealt") & pl.col("card").is_not_null()
    upcard = (pl.col("game") == "high-tie") & dealt_up & (pl.col("nth_dealt") == 1)
    before_decisions = pl.col("seq") < pl.col("last_decision")
    exposed = dealer.filter(
        (dealt_up & pl.col("face_down").fill_null(False))
        | (((pl.col("type") == "card_exposed") | dealt_up) & ~upcard & before_decisions.fill_null(False))
    )
    first = exposed.group_by("rid", "game").agg(
        frame=pl.col("frame").min(), card=pl.col("card").first(), uncertain=pl.col("uncertain").any())
    return flag_frame(
        first, type="misdeal", rid=pl.col("rid"), spot="dealer_exposed", severity="high",
        frame_start=pl.col("frame"), frame_end=pl.col("frame"), concern="dealer_exposed",
        detail=pl.format("dealer card {} exposed before the players' decisions were complete",
                         pl.col("card").fill_null("?")),
        uncertain=pl.col("uncertain"),
    )


def burn_count_flags(cards: pl.DataFrame, rounds: pl.DataFrame) -> pl.DataFrame:
    """King High: the burn cards before each board card (`rounds.burns`, from the shuffler setting).
    A flag per action round whose burn count is wrong; `hand` is that board card's number."""
    r = rounds.filter(pl.col("burns").is_not_null() & (pl.col("status") != "incomplete")).select(
        "rid", "burns")
    c = cards.join(r, on="rid").filter(pl.col("owner").is_in(["board", "burn"])).sort("rid", "seq")
    if c.is_empty():
        return empty_flags()
    # A burn belongs to the board card that follows it.
    c = c.with_columns(card_no=(pl.col("owner") == "board").cast(pl.Int64).cum_sum().over("rid")
                       + (pl.col("owner") == "burn").cast(pl.Int64))
    per = c.group_by("rid", "card_no").agg(
        n=(pl.col("owner") == "burn").sum(), has_board=(pl.col("owner") == "board").any(),
        burns=pl.col("burns").first(), f0=pl.col("frame").min(), f1=pl.col("frame").max(),
        unc=pl.col("uncertain").any())
    bad = per.filter(pl.col("has_board") & (pl.col("n") != pl.col("burns")))
    return flag_frame(
        bad, type="misdeal", rid=pl.col("rid"), spot="burn_count", hand=pl.col("card_no"), severity="medium",
        expected=pl.col("burns"), observed=pl.col("n"), frame_start=pl.col("f0"), frame_end=pl.col("f1"),
        concern="deal",
        detail=pl.format("{} burn card(s) before board card {}; the procedure burns {}", pl.col("n"),
                         pl.col("card_no"), pl.col("burns")),
        uncertain=pl.col("unc"),
    )


def duplicate_card_flags(cards: pl.DataFrame, rounds: pl.DataFrame) -> pl.DataFrame:
    """A card seen more often in one round than the decks in play hold (`rounds.decks`)."""
    c = cards.filter(pl.col("card").is_not_null()).group_by("rid", "card").agg(
        n=pl.len(), f0=pl.col("frame").min(), f1=pl.col("frame").max(), unc=pl.col("uncertain").any())
    c = c.join(rounds.select("rid", "decks"), on="rid").filter(pl.col("n") > pl.col("decks"))
    c = c.group_by("rid").agg(cards=pl.col("card").sort().str.join(","), n=pl.col("n").max(),
                                   decks=pl.col("decks").first(), f0=pl.col("f0").min(),
                                   f1=pl.col("f1").max(), unc=pl.col("unc").any())
    return flag_frame(
        c, type="misdeal", rid=pl.col("rid"), spot="duplicate_card", severity="high",
        expected=pl.col("decks"), observed=pl.col("n"), frame_start=pl.col("f0"), frame_end=pl.col("f1"),
        concern="duplicate",
        detail=pl.format("card(s) {} seen up to {} times with {} deck(s) in play", pl.col("cards"),
                         pl.col("n"), pl.col("decks")),
        uncertain=pl.col("unc"),
    )


def deck_back_flags(cards: pl.DataFrame, rounds: pl.DataFrame) -> pl.DataFrame:
    """Two-deck rotation: a round's cards share one back, and it differs from the table's previous
    round. Rotation is on where the table's settings say so (`rounds.rotation`) or two backs were seen."""
    backs = cards.filter(pl.col("back").is_not_null()).sort("rid", "seq").group_by("rid").agg(
        back=pl.col("back").first(), n_backs=pl.col("back").n_unique(), f0=pl.col("frame").min(),
        f1=pl.col("frame").max(), unc=pl.col("uncertain").any())
    if backs.is_empty():
        return empty_flags()
    r = rounds.select("rid", "table_id", "started_at", "rotation").join(backs, on="rid").sort(
        "table_id", "started_at").with_columns(
        rotation=pl.col("rotation") | (pl.col("back").n_unique().over("table_id") > 1),
        run=pl.col("back").rle_id().over("table_id"),
    ).with_columns(in_run=pl.int_range(pl.len()).over("table_id", "run"))
    # The deck just used is being shuffled while the other is dealt (Pick 2 manual, Irregularities): every
    # round after the first of a run on one back took the deck that was not ready.
    bad = r.filter((pl.col("n_backs") > 1) | (pl.col("rotation") & (pl.col("in_run") >= 1)))
    return flag_frame(
        bad, type="misdeal", rid=pl.col("rid"), spot="deck_back", severity="medium",
        frame_start=pl.col("f0"), frame_end=pl.col("f1"), concern="deck_back",
        detail=pl.when(pl.col("n_backs") > 1).then(pl.lit("cards of two back colours in one round"))
        .otherwise(pl.format("{} deck used two rounds running; the decks must alternate", pl.col("back"))),
        uncertain=pl.col("unc"),
    )
