"""Report queries: hold (drop, win, hold %, theoretical win and its 95 % band, hands per hour, average
bet, payout errors, flags by type) per table, game, shift, dealer and day; dealer accuracy; open flags.

Band: a fair game's win on the wagers actually made is a sum of independent wagers, each with the exact
mean and variance per unit of its wager type (WagerOdds lines). We use the normal approximation on that
sum: theoretical win ± 1.96 × sqrt(Σ amount² × variance). Wagers whose result needs player decisions
(no exact distribution) are left out of the band and counted in `wagers_without_odds`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .db import Store

DIMENSIONS = {"table": "table_id", "game": "game", "shift": "shift", "dealer": "dealer_id", "day": "shift_date"}
Z95 = 1.959964

# Per round: its dealer (the round's own, else the table's assignment that began most recently before the
# round and had not ended: an ASOF join, not a lookup per round), shift and shift date. Materialised:
# every part of a report reads it.
ROUND_FACTS = """
round_facts AS MATERIALIZED (
    SELECT r.round_id, r.table_id, r.game, r.started_at, coalesce(r.ended_at, r.started_at) AS ended_at,
        coalesce(r.dealer_id, CASE WHEN r.started_at < da.to_ts THEN da.dealer_id END, 'unassigned')
            AS dealer_id,
        s.shift,
        CASE WHEN s.starts >= s.ends AND r.started_at::TIME < s.ends
             THEN (r.started_at::DATE - 1) ELSE r.started_at::DATE END AS shift_date
    FROM rounds r
    ASOF LEFT JOIN dealer_assignments da ON da.table_id = r.table_id AND r.started_at >= da.from_ts
    JOIN shifts s ON (
        (s.starts < s.ends AND r.started_at::TIME >= s.starts AND r.started_at::TIME < s.ends)
        OR (s.starts >= s.ends AND (r.started_at::TIME >= s.starts OR r.started_at::TIME < s.ends)))
    WHERE r.started_at >= $start AND r.started_at < $end
)"""


def _dims(by: list[str]) -> list[str]:
    bad = [b for b in by if b not in DIMENSIONS]
    if bad:
        raise ValueError(f"--by: unknown dimension(s) {bad}; choose from {', '.join(DIMENSIONS)}")
    return [DIMENSIONS[b] for b in by]


def _window(start: datetime | None, end: datetime | None) -> dict[str, datetime]:
    return {"start": start or datetime(1900, 1, 1), "end": end or datetime(9999, 1, 1)}


def hold_report(store: Store, by: list[str], start: datetime | None = None,
                end: datetime | None = None) -> list[dict[str, Any]]:
    dims = _dims(by)
    g = ", ".join(dims) if dims else "'all' AS scope"
    gk = ", ".join(dims) if dims else "scope"
    gf = ", ".join(f"f.{d}" for d in dims) if dims else "'all' AS scope"
    join_on = " AND ".join(f"x.{d} IS NOT DISTINCT FROM y.{d}" for d in dims) or "TRUE"
    # Accounting is per table and shift: it can be shown only when the grouping does not split those.
    with_accounting = "dealer_id" not in dims
    sql = f"""
WITH {ROUND_FACTS},
w AS (
    SELECT f.*, w.amount, coalesce(w.settled_amount, w.amount) AS settled, w.house_edge, w.var_per_unit,
           w.obs_net, w.diff
    FROM wagers w JOIN round_facts f USING (round_id)
),
sessions AS (
    SELECT {g}, sum(epoch(last_end - first_start)) / 3600.0 AS hours FROM (
        SELECT table_id, game, shift, shift_date, dealer_id, min(started_at) AS first_start,
               max(ended_at) AS last_end
        FROM round_facts GROUP BY ALL) GROUP BY ALL
),
money AS (
    SELECT {g},
        count(DISTINCT round_id) AS rounds,
        count(*) AS wagers,
        sum(amount) AS drop_vision,
        -sum(obs_net) AS win_vision,
        sum(settled * house_edge) AS theo_win,
        sum(settled * house_edge) FILTER (WHERE var_per_unit IS NOT NULL) AS band_mean,
        sqrt(sum(settled * settled * var_per_unit)) AS band_sd,
        -sum(obs_net) FILTER (WHERE var_per_unit IS NOT NULL) AS band_win,
        count(*) FILTER (WHERE var_per_unit IS NULL) AS wagers_without_odds
    FROM w GROUP BY ALL
),
fl AS (
    SELECT {gf},
        sum(amount) FILTER (WHERE type = 'payout_error' AND observed > expected) AS overpaid,
        sum(amount) FILTER (WHERE type = 'payout_error' AND observed <= expected) AS underpaid,
        count(*) FILTER (WHERE type = 'past_post') AS past_post,
        count(*) FILTER (WHERE type = 'pinch') AS pinch,
        count(*) FILTER (WHERE type = 'payout_error') AS payout_error,
        count(*) FILTER (WHERE type = 'missed_collection') AS missed_collection,
        count(*) FILTER (WHERE type = 'misdeal') AS misdeal,
        count(*) FILTER (WHERE type = 'procedure') AS procedure,
        count(*) FILTER (WHERE type = 'void_handling') AS void_handling
    FROM flags JOIN round_facts f USING (round_id) GROUP BY ALL
),
acct AS (
    SELECT {gf}, sum(a.drop_amount) AS drop_count,
           sum(a.drop_amount + a.closing - a.opening + a.credits - a.fills) AS win_count
    FROM accounting a JOIN (SELECT DISTINCT table_id, game, shift, shift_date, dealer_id FROM round_facts) f
      ON a.table_id = f.table_id AND a.shift_date = f.shift_date AND a.shift = f.shift
    WHERE {'TRUE' if with_accounting else 'FALSE'}
    GROUP BY ALL
)
SELECT x.*, y.hours, coalesce(z.overpaid, 0) AS overpaid, coalesce(z.underpaid, 0) AS underpaid,
    coalesce(z.past_post, 0) AS past_post, coalesce(z.pinch, 0) AS pinch,
    coalesce(z.payout_error, 0) AS payout_error, coalesce(z.missed_collection, 0) AS missed_collection,
    coalesce(z.misdeal, 0) AS misdeal, coalesce(z.procedure, 0) AS procedure,
    coalesce(z.void_handling, 0) AS void_handling, a.drop_count, a.win_count
FROM money x
LEFT JOIN sessions y ON {join_on}
LEFT JOIN fl z ON {join_on.replace('y.', 'z.')}
LEFT JOIN acct a ON {join_on.replace('y.', 'a.')}
ORDER BY {", ".join(f"x.{d}" for d in gk.split(", "))}
"""
    rows = store.query(sql, _window(start, end))  # type: ignore[arg-type]
    return [_derive(r) for r in rows]


def _derive(r: dict[str, Any]) -> dict[str, Any]:
    def ratio(a: float | None, b: float | None) -> float | None:
        return None if a is None or not b else a / b

    r["hold_pct"] = ratio(r["win_vision"], r["drop_vision"])
    r["theo_hold_pct"] = ratio(r["theo_win"], r["drop_vision"])
    r["hold_pct_count"] = ratio(r.get("win_count"), r.get("drop_count"))
    r["avg_bet"] = ratio(r["drop_vision"], r["wagers"])
    r["hands_per_hour"] = ratio(r["rounds"], r["hours"])
    sd = r["band_sd"]
    if r["band_mean"] is not None and sd is not None:
        r["band_lo"], r["band_hi"] = r["band_mean"] - Z95 * sd, r["band_mean"] + Z95 * sd
        r["outside_band"] = bool(r["band_win"] is not None and not r["band_lo"] <= r["band_win"] <= r["band_hi"])
    else:
        r["band_lo"] = r["band_hi"] = None
        r["outside_band"] = False
    r["payout_error_total"] = (r["overpaid"] or 0.0) + (r["underpaid"] or 0.0)
    for k, v in list(r.items()):
        if isinstance(v, float):
            r[k] = round(v, 6)
        elif hasattr(v, "isoformat"):
            r[k] = v.isoformat()
    return r


def flagged_rounds(store: Store, by: list[str], group: dict[str, Any], start: datetime | None = None,
                   end: datetime | None = None) -> list[str]:
    """Round ids with flags in one group of a hold report (to list beside a shift outside its band)."""
    dims = _dims(by)
    cond = " AND ".join(f"CAST(f.{d} AS VARCHAR) = ${d}" for d in dims) or "TRUE"
    params: dict[str, Any] = {**_window(start, end), **{d: str(group[d]) for d in dims}}
    rows = store.query(f"WITH {ROUND_FACTS} SELECT DISTINCT f.round_id FROM flags JOIN round_facts f "
                       f"USING (round_id) WHERE {cond} ORDER BY 1", params)  # type: ignore[arg-type]
    return [r["round_id"] for r in rows]


def dealer_report(store: Store, start: datetime | None = None, end: datetime | None = None
                  ) -> list[dict[str, Any]]:
    rows = hold_report(store, ["dealer"], start, end)
    for r in rows:
        errors = r["payout_error"] + r["missed_collection"] + r["procedure"]
        r["errors_per_100_rounds"] = round(100.0 * errors / r["rounds"], 3) if r["rounds"] else None
    return rows


def open_flags(store: Store, limit: int = 100, flag_type: str | None = None, table: str | None = None
               ) -> list[dict[str, Any]]:
    sql = ("SELECT flag_id, type, kind, severity, table_id, round_id, game, started_at, seat, spot, hand, "
           "amount, expected, observed, frame_start, frame_end, rule, detail FROM flags f "
           "WHERE NOT EXISTS (SELECT 1 FROM reviews r WHERE r.flag_id = f.flag_id)")
    params: list[Any] = []
    if flag_type:
        sql, params = sql + " AND type = ?", [*params, flag_type]
    if table:
        sql, params = sql + " AND table_id = ?", [*params, table]
    sql += " ORDER BY started_at DESC NULLS LAST, flag_id LIMIT ?"
    rows = store.query(sql, [*params, limit])
    for r in rows:
        if r["started_at"] is not None:
            r["started_at"] = r["started_at"].isoformat()
    return rows
