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
    live = rounds.filter(pl.col("status") != "incomplete").select("round_id", "game", "voided")
    # Split hands ("seat:3.2") are cards of seat 3.
    owners = cards.with_columns(owner=pl.col("owner").str.replace(r"^(seat:\d+)\.\d+$", "$1"))
    counts = owners.group_by("round_id", "owner").agg(n=pl.len(), f0=pl.col("frame").min(),
                                                      f1=pl.col("frame").max(),
                                                      unc=pl.col("uncertain").any())
    seats = wagers.filter(pl.col("amount") > 0).select("round_id", "seat").unique().join(
        live, on="round_id")
    seat_exp = seats.with_columns(owner=pl.format("seat:{}", pl.col("seat"))).join(
        pl.DataFrame({"game": list(cfg.cards_per_seat), "n_exp": list(cfg.cards_per_seat.values())},
                     schema={"game": pl.Utf8, "n_exp": pl.Int64}), on="game").select(
        "round_id", "game", "voided", "owner", "n_exp")
    dealer_exp = live.join(
        pl.DataFrame({"game": list(cfg.dealer_cards), "n_exp": list(cfg.dealer_cards.values())},
                     schema={"game": pl.Utf8, "n_exp": pl.Int64}), on="game").with_columns(
        owner=pl.lit("dealer")).select("round_id", "game", "voided", "owner", "n_exp")
    board_exp = live.join(
        pl.DataFrame({"game": list(cfg.board_cards), "n_exp": list(cfg.board_cards.values())},
                     schema={"game": pl.Utf8, "n_exp": pl.Int64}), on="game").with_columns(
        owner=pl.lit("board")).select("round_id", "game", "voided", "owner", "n_exp")
    exp = pl.concat([seat_exp, dealer_exp, board_exp])
    j = exp.join(counts, on=["round_id", "owner"], how="left").with_columns(n=pl.col("n").fill_null(0))
    at_least = pl.col("game").is_in(cfg.at_least)
    # A voided round stops early: only too many cards are wrong there (King High board, void rules).
    wrong = pl.when(at_least | pl.col("voided")).then(pl.col("n") < pl.col("n_exp")).otherwise(
        pl.col("n") != pl.col("n_exp"))
    wrong = pl.when(pl.col("voided") & ~at_least).then(pl.col("n") > pl.col("n_exp")).otherwise(wrong)
    bad = j.filter(wrong)
    return flag_frame(
        bad, type="misdeal", round_id=pl.col("round_id"),
        seat=pl.col("owner").str.extract(r"^seat:(\d+)", 1),
        spot=pl.format("card_count:{}", pl.col("owner")), severity="medium",
        expected=pl.col("n_exp"), observed=pl.col("n"), frame_start=pl.col("f0"), frame_end=pl.col("f1"),
        concern="deal",
        detail=pl.format("{} got {} cards; the deal gives {}{}", pl.col("owner"), pl.col("n"),
                         pl.when(at_least).then(pl.lit("at least ")).otherwise(pl.lit("")), pl.col("n_exp")),
        uncertain=pl.col("unc").fill_null(False),
    )


def dealer_exposure_flags(events: pl.DataFrame, rounds: pl.DataFrame, cfg: ReconcileConfig) -> pl.DataFrame:
    """A dealer card seen face up before the last player decision (High Tie: the up card is allowed)."""
    if events.is_empty():
        return empty_flags()
    ev = events.join(rounds.select("round_id", "game"), on="round_id").filter(
        pl.col("game").is_in(cfg.dealer_exposure_checked))
    last_decision = ev.filter(pl.col("type") == "decision").group_by("round_id").agg(
        last_decision=pl.col("seq").max())
    dealer = ev.filter(pl.col("owner") == "dealer").sort("round_id", "seq").with_columns(
        nth_dealt=(pl.col("type") == "card_dealt").cast(pl.Int32).cum_sum().over("round_id"))
    upcard = (pl.col("game") == "high-tie") & (pl.col("type") == "card_dealt") & (pl.col("nth_dealt") == 1)
    exposed = dealer.filter(
        ((pl.col("type") == "card_exposed")
         | ((pl.col("type") == "card_dealt") & pl.col("card").is_not_null()))
        & ~upcard
    ).join(last_decision, on="round_id").filter(pl.col("seq") < pl.col("last_decision"))
    first = exposed.group_by("round_id", "game").agg(
        frame=pl.col("frame").min(), card=pl.col("card").first(), uncertain=pl.col("uncertain").any())
    return flag_frame(
        first, type="misdeal", round_id=pl.col("round_id"), spot="dealer_exposed", severity="high",
        frame_start=pl.col("frame"), frame_end=pl.col("frame"), concern="dealer_exposed",
        detail=pl.format("dealer card {} exposed before the players' decisions were complete",
                         pl.col("card").fill_null("?")),
        uncertain=pl.col("uncertain"),
    )


def duplicate_card_flags(cards: pl.DataFrame, rounds: pl.DataFrame) -> pl.DataFrame:
    """A card seen more often in one round than the decks in play hold (`rounds.decks`)."""
    c = cards.filter(pl.col("card").is_not_null()).group_by("round_id", "card").agg(
        n=pl.len(), f0=pl.col("frame").min(), f1=pl.col("frame").max(), unc=pl.col("uncertain").any())
    c = c.join(rounds.select("round_id", "decks"), on="round_id").filter(pl.col("n") > pl.col("decks"))
    c = c.group_by("round_id").agg(cards=pl.col("card").sort().str.join(","), n=pl.col("n").max(),
                                   decks=pl.col("decks").first(), f0=pl.col("f0").min(),
                                   f1=pl.col("f1").max(), unc=pl.col("unc").any())
    return flag_frame(
        c, type="misdeal", round_id=pl.col("round_id"), spot="duplicate_card", severity="high",
        expected=pl.col("decks"), observed=pl.col("n"), frame_start=pl.col("f0"), frame_end=pl.col("f1"),
        concern="duplicate",
        detail=pl.format("card(s) {} seen up to {} times with {} deck(s) in play", pl.col("cards"),
                         pl.col("n"), pl.col("decks")),
        uncertain=pl.col("unc"),
    )


def deck_back_flags(cards: pl.DataFrame, rounds: pl.DataFrame) -> pl.DataFrame:
    """Two-deck rotation: a round's cards share one back, and it differs from the table's previous
    round. Rotation is on where the table's settings say so (`rounds.rotation`) or two backs were seen."""
    backs = cards.filter(pl.col("back").is_not_null()).sort("round_id", "seq").group_by("round_id").agg(
        back=pl.col("back").first(), n_backs=pl.col("back").n_unique(), f0=pl.col("frame").min(),
        f1=pl.col("frame").max(), unc=pl.col("uncertain").any())
    if backs.is_empty():
        return empty_flags()
    r = rounds.select("round_id", "table_id", "started_at", "rotation").join(backs, on="round_id").sort(
        "table_id", "started_at").with_columns(
        prev_back=pl.col("back").shift(1).over("table_id"),
        rotation=pl.col("rotation") | (pl.col("back").n_unique().over("table_id") > 1),
    )
    bad = r.filter((pl.col("n_backs") > 1) | (pl.col("rotation") & (pl.col("back") == pl.col("prev_back"))))
    return flag_frame(
        bad, type="misdeal", round_id=pl.col("round_id"), spot="deck_back", severity="medium",
        frame_start=pl.col("f0"), frame_end=pl.col("f1"), concern="deck_back",
        detail=pl.when(pl.col("n_backs") > 1).then(pl.lit("cards of two back colours in one round"))
        .otherwise(pl.format("{} deck used two rounds running; the decks must alternate", pl.col("back"))),
        uncertain=pl.col("unc"),
    )
