"""Round documents flattened into polars frames: one row per wager, settlement, event, card, round.

This is the one Python pass over the documents; every check after it works on whole columns."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import polars as pl

from pipelines.games.round import Round

ROUND_SCHEMA = {
    "round_id": pl.Utf8, "table_id": pl.Utf8, "game": pl.Utf8, "started_at": pl.Utf8, "status": pl.Utf8,
    "voided": pl.Boolean, "frame_start": pl.Int64, "frame_end": pl.Int64,
}
WAGER_SCHEMA = {
    "round_id": pl.Utf8, "seat": pl.Int64, "spot": pl.Utf8, "hand": pl.Int64, "amount": pl.Float64,
    "w_frame_start": pl.Int64, "w_frame_end": pl.Int64, "w_uncertain": pl.Boolean,
}
OBSERVED_SCHEMA = {
    "round_id": pl.Utf8, "seat": pl.Int64, "spot": pl.Utf8, "hand": pl.Int64, "obs_outcome": pl.Utf8,
    "obs_paid": pl.Float64, "obs_seq": pl.Int64, "o_frame_start": pl.Int64, "o_frame_end": pl.Int64,
    "o_uncertain": pl.Boolean,
}
EVENT_SCHEMA = {
    "round_id": pl.Utf8, "seq": pl.Int64, "type": pl.Utf8, "frame": pl.Int64, "seat": pl.Int64,
    "spot": pl.Utf8, "hand": pl.Int64, "before": pl.Float64, "after": pl.Float64, "card": pl.Utf8,
    "owner": pl.Utf8, "uncertain": pl.Boolean,
}
CARD_SCHEMA = {
    "round_id": pl.Utf8, "seq": pl.Int64, "owner": pl.Utf8, "card": pl.Utf8, "face_up": pl.Boolean,
    "back": pl.Utf8, "frame": pl.Int64, "uncertain": pl.Boolean,
}
DECISION_SCHEMA = {"round_id": pl.Utf8, "seat": pl.Int64, "hand": pl.Int64, "action": pl.Utf8}


@dataclass
class RoundFrames:
    rounds: pl.DataFrame
    wagers: pl.DataFrame
    observed: pl.DataFrame
    events: pl.DataFrame
    cards: pl.DataFrame
    decisions: pl.DataFrame


def _frame(rows: dict[str, list], schema: dict) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=schema)


def flatten(rounds: Iterable[Round]) -> RoundFrames:
    cols: dict[str, dict[str, list]] = {
        name: {k: [] for k in schema}
        for name, schema in (("r", ROUND_SCHEMA), ("w", WAGER_SCHEMA), ("o", OBSERVED_SCHEMA),
                             ("e", EVENT_SCHEMA), ("c", CARD_SCHEMA), ("d", DECISION_SCHEMA))
    }
    r_, w_, o_, e_, c_, d_ = (cols[k] for k in "rwoecd")
    for r in rounds:
        rid = r.round_id
        for k, v in (("round_id", rid), ("table_id", r.table_id), ("game", r.game),
                     ("started_at", r.started_at), ("status", r.status),
                     ("voided", r.status == "voided" or r.void is not None),
                     ("frame_start", r.frames.start if r.frames else None),
                     ("frame_end", r.frames.end if r.frames else None)):
            r_[k].append(v)
        for w in r.wagers:
            for k, v in (("round_id", rid), ("seat", w.seat), ("spot", w.spot), ("hand", w.hand),
                         ("amount", w.amount), ("w_frame_start", w.frames.start if w.frames else None),
                         ("w_frame_end", w.frames.end if w.frames else None), ("w_uncertain", w.uncertain)):
                w_[k].append(v)
        for s in r.settlements:
            for k, v in (("round_id", rid), ("seat", s.seat), ("spot", s.spot), ("hand", s.hand),
                         ("obs_outcome", s.outcome), ("obs_paid", s.paid), ("obs_seq", s.seq),
                         ("o_frame_start", s.frames.start if s.frames else None),
                         ("o_frame_end", s.frames.end if s.frames else None), ("o_uncertain", s.uncertain)):
                o_[k].append(v)
        for e in r.events:
            for k, v in (("round_id", rid), ("seq", e.seq), ("type", e.type), ("frame", e.frame),
                         ("seat", e.seat), ("spot", e.spot), ("hand", e.hand), ("before", e.before),
                         ("after", e.after), ("card", e.card), ("owner", e.owner),
                         ("uncertain", e.uncertain)):
                e_[k].append(v)
        for c in r.cards:
            for k, v in (("round_id", rid), ("seq", c.seq), ("owner", c.owner), ("card", c.card),
                         ("face_up", c.face_up), ("back", c.back), ("frame", c.frame),
                         ("uncertain", c.uncertain)):
                c_[k].append(v)
        for d in r.decisions:
            for k, v in (("round_id", rid), ("seat", d.seat), ("hand", d.hand), ("action", d.action)):
                d_[k].append(v)
    return RoundFrames(
        rounds=_frame(r_, ROUND_SCHEMA), wagers=_frame(w_, WAGER_SCHEMA),
        observed=_frame(o_, OBSERVED_SCHEMA), events=_frame(e_, EVENT_SCHEMA),
        cards=_frame(c_, CARD_SCHEMA), decisions=_frame(d_, DECISION_SCHEMA),
    )
