"""reconcile(rounds, settings_by_table) -> (wagers frame, flags).

settle() runs in Python once per round (the games core is per-round logic); everything after it --
joining expected with observed, the differences and every flag -- is polars over whole columns."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from pipelines.games.registry import game_module
from pipelines.games.round import FrameRange, Round

from .citations import cite
from .columns import FLAG_SCHEMA
from .config import ReconcileConfig, settings_for
from .deal_checks import (
    burn_count_flags,
    card_count_flags,
    dealer_exposure_flags,
    deck_back_flags,
    duplicate_card_flags,
)
from .event_checks import closed_wager_changes, past_posted, wager_change_flags
from .expected import GameLookup, _WagerStats, expected_settlements
from .flag import SEVERITIES, Flag, flag_id_for
from .frames import RoundFrames, flatten
from .settlement_checks import (
    base_wager_flags,
    join_settlements,
    limit_flags,
    order_flags,
    round_facts,
    settlement_flags,
)

WAGER_COLUMNS = [
    "round_id", "table_id", "game", "started_at", "seat", "spot", "hand", "amount", "settled_amount",
    "exp_outcome", "exp_net", "exp_order", "line", "house_edge", "var_per_unit", "obs_outcome", "obs_paid",
    "obs_net", "obs_seq", "diff", "uncertain",
]


@dataclass
class Reconciled:
    wagers: pl.DataFrame
    flags: list[Flag]
    flag_frame: pl.DataFrame
    unsettled: dict[str, str] = field(default_factory=dict)


def _deck_facts(rounds: list[Round], settings_by_table: dict[str, Any] | None, games: GameLookup,
                cfg: ReconcileConfig) -> pl.DataFrame:
    """Per round (row = rid): decks in play, whether the table rotates two decks, and burn cards before
    each board card (King High, by shuffler), from the table's settings."""
    facts: dict[tuple[str, str], tuple[int, bool, int | None]] = {}
    decks, rotation, burns = [], [], []
    for r in rounds:
        key = (r.game, r.table_id)
        if key not in facts:
            try:
                s = settings_for(games(r.game), settings_by_table, r.table_id)
            except Exception:  # no settings (game module absent): fall back to the config's deck count
                s = None
            d = getattr(s, "decks", None) or cfg.decks.get(r.game, 1)
            rot = bool(getattr(s, "two_deck_rotation", False) or getattr(s, "second_deck", False))
            by_shuffler = cfg.burns_before_card.get(r.game, {})
            facts[key] = (int(d), rot, by_shuffler.get(str(getattr(s, "shuffler", None))))
        decks.append(facts[key][0])
        rotation.append(facts[key][1])
        burns.append(facts[key][2])
    return pl.DataFrame({"decks": decks, "rotation": rotation, "burns": burns},
                        schema={"decks": pl.Int64, "rotation": pl.Boolean, "burns": pl.Int64})


def flag_frames(frames: RoundFrames, expected: pl.DataFrame, unsettled: list[str],
                cfg: ReconcileConfig) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The vectorised stage: (joined wagers frame, flags frame). No Python loop over rows."""
    rounds = frames.rounds
    j = join_settlements(expected, frames.observed, frames.wagers, round_facts(rounds, unsettled))
    changes = closed_wager_changes(frames.events, rounds, frames.decisions, cfg)
    parts = [
        settlement_flags(j, cfg, past_posted(changes, frames.spot_codes.codes, cfg)),
        limit_flags(j),
        order_flags(j),
        base_wager_flags(frames.wagers, rounds, cfg),
        wager_change_flags(changes, cfg),
        card_count_flags(frames.cards, frames.wagers, rounds, cfg),
        dealer_exposure_flags(frames.events, rounds, cfg),
        burn_count_flags(frames.cards, rounds),
        duplicate_card_flags(frames.cards, rounds),
        deck_back_flags(frames.cards, rounds),
    ]
    flags = pl.concat([p.select(list(FLAG_SCHEMA)) for p in parts])
    flags = _review_when_incomplete(_merge_same_identity(flags), rounds)
    meta = ["round_id", "table_id", "game", "started_at"]
    j = j.with_columns(rounds[c].gather(j["rid"]) for c in meta).with_columns(
        pl.col("exp_outcome", "obs_outcome").cast(pl.Utf8))
    flags = flags.with_columns(rounds[c].gather(flags["rid"]) for c in meta)
    return j.select(WAGER_COLUMNS), flags


def _review_when_incomplete(flags: pl.DataFrame, rounds: pl.DataFrame) -> pl.DataFrame:
    """A round the machine called incomplete was not fully seen: whatever it raises is for review,
    never a hard flag (the status already folds in every uncertain observation of the round)."""
    unsure = rounds.select(pl.col("status") == "incomplete").to_series()
    return flags.with_columns(uncertain=pl.col("uncertain").fill_null(False) | unsure.gather(flags["rid"]))


def _merge_same_identity(flags: pl.DataFrame) -> pl.DataFrame:
    """Flags sharing an identity (round, type, seat, spot, hand) become one: the id is that identity."""
    rank = pl.col("severity").replace_strict({s: i for i, s in enumerate(SEVERITIES)}, return_dtype=pl.Int8)
    return (
        flags.with_columns(_rank=rank)
        .group_by(["rid", "type", "seat", "spot", "hand"], maintain_order=True)
        .agg(
            severity=pl.col("severity").sort_by("_rank").last(), amount=pl.col("amount").max(),
            expected=pl.col("expected").first(), observed=pl.col("observed").last(),
            frame_start=pl.col("frame_start").min(), frame_end=pl.col("frame_end").max(),
            concern=pl.col("concern").first(), rule=pl.col("rule").first(),
            detail=pl.col("detail").str.join("; "), uncertain=pl.col("uncertain").any(),
        )
        .select(list(FLAG_SCHEMA))
    )


def to_flags(flags: pl.DataFrame) -> list[Flag]:
    out = []
    for row in flags.iter_rows(named=True):  # one Flag per raised flag: few, compared with wagers
        seat = row["seat"]
        frames = None
        if row["frame_start"] is not None:
            frames = FrameRange(start=row["frame_start"], end=row["frame_end"] or row["frame_start"])
        out.append(Flag(
            flag_id=flag_id_for(row["round_id"], row["type"], seat, row["spot"], row["hand"]),
            type=row["type"], kind="review" if row["uncertain"] else "hard", table_id=row["table_id"],
            round_id=row["round_id"], game=row["game"], started_at=row["started_at"], seat=seat,
            spot=row["spot"], hand=row["hand"] or 0, severity=row["severity"], amount=row["amount"] or 0.0,
            expected=row["expected"], observed=row["observed"], frames=frames,
            rule=row["rule"] or cite(row["game"], row["concern"]), detail=row["detail"] or "",
            uncertain=bool(row["uncertain"]),
        ))
    return out


def reconcile_detailed(
    rounds: Iterable[Round], settings_by_table: dict[str, Any] | None = None, *,
    config: ReconcileConfig | None = None, games: GameLookup = game_module,
) -> Reconciled:
    cfg = config or ReconcileConfig()
    # A redelivered round appears once: the last copy wins, as in the store.
    by_id = {r.round_id: r for r in rounds}
    rounds = list(by_id.values())
    frames = flatten(rounds)
    frames.rounds = pl.concat([frames.rounds, _deck_facts(rounds, settings_by_table, games, cfg)],
                              how="horizontal")
    expected, unsettled = expected_settlements(rounds, settings_by_table, games, _WagerStats(),
                                               frames.spot_codes)
    wagers, flags_df = flag_frames(frames, expected, list(unsettled), cfg)
    flags_df = flags_df.sort(["started_at", "round_id", "type", "seat", "spot", "hand"], nulls_last=True)
    return Reconciled(wagers=wagers, flags=to_flags(flags_df), flag_frame=flags_df, unsettled=unsettled)


def reconcile(
    rounds: Iterable[Round], settings_by_table: dict[str, Any] | None = None, *,
    config: ReconcileConfig | None = None, games: GameLookup = game_module,
) -> tuple[pl.DataFrame, list[Flag]]:
    """Expected settlement per wager (games core) against what was observed -> (wagers, flags)."""
    r = reconcile_detailed(rounds, settings_by_table, config=config, games=games)
    return r.wagers, r.flags
