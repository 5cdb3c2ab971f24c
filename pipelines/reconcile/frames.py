"""Round documents flattened into polars frames: one row per wager, settlement, event, card, round.

This is the one Python pass over the documents; every check after it works on whole columns.

Rows carry integer keys, so the vectorised stage never joins on strings: `rid` is the round's row in
the rounds frame (round-level facts are gathered by it), and a wager is `wager_key(rid, seat, spot_code,
hand)`. Wager and settlement rows are laid out in key order (each round's few rows sorted as they are
written), so the joins of expected with observed are merges of sorted columns; a repeated wager or
settlement in one round document keeps its last copy."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import polars as pl

from pipelines.games.round import Round

# Bit layout of the wager key: rid | seat (4 bits, 1-8) | spot code (7 bits) | hand (5 bits).
SEAT_SHIFT, SPOT_SHIFT, HAND_BITS = 12, 5, 5
RID_SHIFT = 16
MAX_SPOTS, MAX_HAND = 1 << (SEAT_SHIFT - SPOT_SHIFT), (1 << HAND_BITS) - 1

OUTCOMES = pl.Enum(["win", "lose", "push", "returned"])
ROUND_SCHEMA = {
    "rid": pl.Int64, "round_id": pl.Utf8, "table_id": pl.Utf8, "game": pl.Utf8, "started_at": pl.Utf8,
    "status": pl.Utf8, "voided": pl.Boolean, "frame_start": pl.Int64, "frame_end": pl.Int64,
}
WAGER_SCHEMA = {
    "rid": pl.Int64, "seat": pl.Int64, "spot": pl.Utf8, "spot_code": pl.Int64, "hand": pl.Int64,
    "amount": pl.Float64, "w_frame_start": pl.Int64, "w_frame_end": pl.Int64, "w_uncertain": pl.Boolean,
}
OBSERVED_SCHEMA = {
    "rid": pl.Int64, "seat": pl.Int64, "spot": pl.Utf8, "spot_code": pl.Int64, "hand": pl.Int64,
    "obs_outcome": OUTCOMES, "obs_paid": pl.Float64, "obs_seq": pl.Int64, "o_frame_start": pl.Int64,
    "o_frame_end": pl.Int64, "o_uncertain": pl.Boolean,
}
EVENT_SCHEMA = {
    "rid": pl.Int64, "seq": pl.Int64, "type": pl.Utf8, "frame": pl.Int64, "seat": pl.Int64,
    "spot": pl.Utf8, "hand": pl.Int64, "before": pl.Float64, "after": pl.Float64, "card": pl.Utf8,
    "owner": pl.Utf8, "uncertain": pl.Boolean,
}
CARD_SCHEMA = {
    "rid": pl.Int64, "seq": pl.Int64, "owner": pl.Utf8, "card": pl.Utf8, "face_up": pl.Boolean,
    "back": pl.Utf8, "frame": pl.Int64, "uncertain": pl.Boolean,
}
DECISION_SCHEMA = {"rid": pl.Int64, "seat": pl.Int64, "hand": pl.Int64, "action": pl.Utf8, "frame": pl.Int64}


@dataclass
class SpotCodes:
    """Spot name -> small integer, assigned as spots are first seen (shared by every frame of a batch)."""

    codes: dict[str, int] = field(default_factory=dict)

    def __call__(self, spot: str) -> int:
        code = self.codes.get(spot)
        if code is None:
            code = self.codes[spot] = len(self.codes)
            if code >= MAX_SPOTS:
                raise ValueError(f"more than {MAX_SPOTS} distinct wager spots in one batch (spot {spot!r})")
        return code

    def sort_key(self, seat: int, spot: str, hand: int) -> tuple[int, int, int]:
        if not 0 <= hand <= MAX_HAND:
            raise ValueError(f"wager hand {hand} outside 0..{MAX_HAND} (seat {seat}, spot {spot!r})")
        return seat, self(spot), hand


def wager_key(rid: pl.Expr, seat: pl.Expr, spot_code: pl.Expr, hand: pl.Expr) -> pl.Expr:
    """The integer identity of a wager; ordered like (rid, seat, spot_code, hand)."""
    return (rid.cast(pl.Int64) * (1 << RID_SHIFT) + seat.cast(pl.Int64) * (1 << SEAT_SHIFT)
            + spot_code.cast(pl.Int64) * (1 << SPOT_SHIFT) + hand.cast(pl.Int64))


def key_column() -> pl.Expr:
    return wager_key(pl.col("rid"), pl.col("seat"), pl.col("spot_code"), pl.col("hand")).alias("k")


@dataclass
class RoundFrames:
    rounds: pl.DataFrame
    wagers: pl.DataFrame
    observed: pl.DataFrame
    events: pl.DataFrame
    cards: pl.DataFrame
    decisions: pl.DataFrame
    spot_codes: SpotCodes = field(default_factory=SpotCodes)


def _frame(rows: dict[str, list], schema: dict) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=schema)


def _frames(f) -> tuple[int | None, int | None]:
    return (f.start, f.end) if f else (None, None)


def flatten(rounds: Iterable[Round], spot_codes: SpotCodes | None = None) -> RoundFrames:
    """Rounds (already one per round_id) -> frames; `rid` is each round's position in `rounds`."""
    codes = spot_codes or SpotCodes()
    cols: dict[str, dict[str, list]] = {
        name: {k: [] for k in schema}
        for name, schema in (("r", ROUND_SCHEMA), ("w", WAGER_SCHEMA), ("o", OBSERVED_SCHEMA),
                             ("e", EVENT_SCHEMA), ("c", CARD_SCHEMA), ("d", DECISION_SCHEMA))
    }
    r_, w_, o_, e_, c_, d_ = (cols[k] for k in "rwoecd")
    for rid, r in enumerate(rounds):
        fs, fe = _frames(r.frames)
        for k, v in (("rid", rid), ("round_id", r.round_id), ("table_id", r.table_id), ("game", r.game),
                     ("started_at", r.started_at), ("status", r.status),
                     ("voided", r.status == "voided" or r.void is not None),
                     ("frame_start", fs), ("frame_end", fe)):
            r_[k].append(v)
        wagers = {codes.sort_key(w.seat, w.spot, w.hand): w for w in r.wagers}  # the last copy wins
        for key in sorted(wagers):
            w = wagers[key]
            fs, fe = _frames(w.frames)
            for k, v in (("rid", rid), ("seat", w.seat), ("spot", w.spot), ("spot_code", key[1]),
                         ("hand", w.hand), ("amount", w.amount), ("w_frame_start", fs),
                         ("w_frame_end", fe), ("w_uncertain", w.uncertain)):
                w_[k].append(v)
        observed = {codes.sort_key(s.seat, s.spot, s.hand): s for s in r.settlements}
        for key in sorted(observed):
            s = observed[key]
            fs, fe = _frames(s.frames)
            for k, v in (("rid", rid), ("seat", s.seat), ("spot", s.spot), ("spot_code", key[1]),
                         ("hand", s.hand), ("obs_outcome", s.outcome), ("obs_paid", s.paid),
                         ("obs_seq", s.seq), ("o_frame_start", fs), ("o_frame_end", fe),
                         ("o_uncertain", s.uncertain)):
                o_[k].append(v)
        for e in r.events:
            for k, v in (("rid", rid), ("seq", e.seq), ("type", e.type), ("frame", e.frame),
                         ("seat", e.seat), ("spot", e.spot), ("hand", e.hand), ("before", e.before),
                         ("after", e.after), ("card", e.card), ("owner", e.owner),
                         ("uncertain", e.uncertain)):
                e_[k].append(v)
        for c in r.cards:
            for k, v in (("rid", rid), ("seq", c.seq), ("owner", c.owner), ("card", c.card),
                         ("face_up", c.face_up), ("back", c.back), ("frame", c.frame),
                         ("uncertain", c.uncertain)):
                c_[k].append(v)
        for d in r.decisions:
            for k, v in (("rid", rid), ("seat", d.seat), ("hand", d.hand), ("action", d.action),
                         ("frame", d.frame)):
                d_[k].append(v)
    return RoundFrames(
        rounds=_frame(r_, ROUND_SCHEMA), wagers=_frame(w_, WAGER_SCHEMA),
        observed=_frame(o_, OBSERVED_SCHEMA), events=_frame(e_, EVENT_SCHEMA),
        cards=_frame(c_, CARD_SCHEMA), decisions=_frame(d_, DECISION_SCHEMA), spot_codes=codes,
    )
