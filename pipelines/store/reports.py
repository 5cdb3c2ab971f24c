"""Report queries: hold (drop, win, hold %, theoretical win and its 95 % band, hands per hour, average
bet, payout errors, flags by type) per table, game, shift, dealer and day; dealer accuracy; open flags.

Band: a fair game's win on the wagers actually made is a sum of independent wagers, each with the exact
mean and variance per unit of its wager type (WagerOdds lines). We use the normal approximation on that
sum: theoretical win ± 1.96 × sqrt(Σ amount² × variance). Wagers whose result needs player decisions
(no exact distribution) are left out of the band and counted in `wagers_without_odds`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from . import rollup
from .db import Store

DIMENSIONS = {"table": "table_id", "game": "game", "shift": "shift", "dealer": "dealer_id", "day": "shift_date"}
Z95 = 1.959964

WINDOW = "r.started_at >= $start AND r.started_at < $end"
# Per round in the window: dealer, shift and shift date (see rollup.round_facts). Materialised.
ROUND_FACTS = rollup.round_facts(WINDOW)
# The same for flagged rounds only: what flag listings per dealer or group need.
FLAGGED_ROUND_FACTS = rollup.round_facts(f"{WINDOW} AND r.round_id IN (SELECT round_id FROM flags)")
_KEYS = ", ".join(rollup.GROUP_KEYS)
_COLS = ", ".join(rollup.COLUMNS)


def _dims(by: list[str]) -> list[str]:
    bad = [b for b in by if b not in DIMENSIONS]
    if bad:
        raise ValueError(f"--by: unknown dimension(s) {bad}; choose from {', '.join(DIMENSIONS)}")
    return [DIMENSIONS[b] for b in by]


def _window(start: datetime | None, end: datetime | None) -> dict[str, datetime]:
    return {"start": start or datetime(1900, 1, 1), "end": end or datetime(9999, 1, 1)}


def _groups(store: Store, params: dict[str, Any]) -> str:
    """CTEs ending in `groups`: the rollup's rows for the window, in place of the detail tables wherever
    the rollup can answer. Its groups wholly inside the window are read as they are; the few that straddle
    a bound (a grave shift across midnight) are recomputed from the rounds of theirs inside the window."""
    if not rollup.usable(store):
        return f"{ROUND_FACTS}, {rollup.GROUP_TOTALS}, groups AS (SELECT {_COLS} FROM group_totals)"
    edge = "last_start >= $start AND first_start < $end AND NOT (first_start >= $start AND last_start < $end)"
    span = store.query(f"""SELECT max(last_start) FILTER (WHERE first_start < $start) AS a_hi,
        min(first_start) FILTER (WHERE last_start >= $end) AS b_lo FROM round_rollup WHERE {edge}""", params)[0]  # type: ignore[arg-type]
    near = [f"r.started_at <= '{span['a_hi'].isoformat()}'::TIMESTAMP"] if span["a_hi"] else []
    near += [f"r.started_at >= '{span['b_lo'].isoformat()}'::TIMESTAMP"] if span["b_lo"] else []
    where = f"{WINDOW} AND ({' OR '.join(near)})" if near else "FALSE"
    return f"""edge AS (SELECT {_KEYS} FROM round_rollup WHERE {edge}),
{rollup.round_facts(where)}, {rollup.GROUP_TOTALS},
groups AS (
    SELECT {_COLS} FROM round_rollup WHERE first_start >= $start AND last_start < $end
    UNION ALL
    SELECT {_COLS} FROM group_totals SEMI JOIN edge USING ({_KEYS})
)"""


def hold_report(store: Store, by: list[str], start: datetime | None = None,
                end: datetime | None = None) -> list[dict[str, Any]]:
    rows = _hold_rows(store, by, start, end)
    for r in rows:
        del r["flagged_rounds"]
    return rows


def _hold_rows(store: Store, by: list[str], start: datetime | None, end: datetime | None
               ) -> list[dict[str, Any]]:
    dims = _dims(by)
    g = ", ".join(dims) if dims else "'all' AS scope"
    gk = ", ".join(dims) if dims else "scope"
    join_on = " AND ".join(f"x.{d} IS NOT DISTINCT FROM y.{d}" for d in dims) or "TRUE"
    # Accounting is per table and shift: it can be shown only when the grouping does not split those.
    with_accounting = "dealer_id" not in dims
    params = _window(start, end)
    # Every total is a sum over groups (table × game × shift date × shift × dealer), which partition the
    # rounds: the same figures whether the groups come from the rollup or from the detail tables.
    sql = f"""
WITH {_groups(store, params)},
money AS (
    SELECT {g},
        sum(rounds) AS rounds,
        sum(wagers) AS wagers,
        sum(drop_vision) AS drop_vision,
        -sum(net_vision) AS win_vision,
        sum(theo_win) AS theo_win,
        sum(band_mean) AS band_mean,
        sqrt(sum(band_var)) AS band_sd,
        -sum(band_net) AS band_win,
        sum(wagers_without_odds) AS wagers_without_odds
    FROM groups WHERE wagers > 0 GROUP BY ALL
),
sessions AS (
    SELECT {g}, sum(epoch(last_end - first_start)) / 3600.0 AS hours FROM groups GROUP BY ALL
),
fl AS (
    SELECT {g}, sum(flagged_rounds) AS flagged_rounds, sum(overpaid) AS overpaid, sum(underpaid) AS underpaid,
        {", ".join(f"sum({t}) AS {t}" for t in rollup.FLAG_TYPES)}
    FROM groups GROUP BY ALL
),
acct AS (
    SELECT {", ".join(f"f.{d}" for d in dims) if dims else "'all' AS scope"}, sum(a.drop_amount) AS drop_count,
           sum(a.drop_amount + a.closing - a.opening + a.credits - a.fills) AS win_count
    FROM accounting a JOIN groups f
      ON a.table_id = f.table_id AND a.shift_date = f.shift_date AND a.shift = f.shift
    WHERE {'TRUE' if with_accounting else 'FALSE'}
    GROUP BY ALL
)
SELECT x.*, y.hours, coalesce(z.overpaid, 0) AS overpaid, coalesce(z.underpaid, 0) AS underpaid,
    {", ".join(f"coalesce(z.{t}, 0)::BIGINT AS {t}" for t in rollup.FLAG_TYPES)},
    coalesce(z.flagged_rounds, 0)::BIGINT AS flagged_rounds, a.drop_count, a.win_count
FROM money x
LEFT JOIN sessions y ON {join_on}
LEFT JOIN fl z ON {join_on.replace('y.', 'z.')}
LEFT JOIN acct a ON {join_on.replace('y.', 'a.')}
ORDER BY {", ".join(f"x.{d}" for d in gk.split(", "))}
"""
    rows = store.query(sql, params)  # type: ignore[arg-type]
    for r in rows:
        for k in ("rounds", "wagers", "wagers_without_odds"):
            r[k] = int(r[k])
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
    rows = store.query(f"WITH {FLAGGED_ROUND_FACTS} SELECT DISTINCT f.round_id FROM flags JOIN round_facts f "
                       f"USING (round_id) WHERE {cond} ORDER BY 1", params)  # type: ignore[arg-type]
    return [r["round_id"] for r in rows]


def dealer_report(store: Store, start: datetime | None = None, end: datetime | None = None
                  ) -> list[dict[str, Any]]:
    rows = _hold_rows(store, ["dealer"], start, end)  # keeps flagged_rounds: a dealer figure
    for r in rows:
        errors = r["payout_error"] + r["missed_collection"] + r["procedure"]
        r["errors_per_100_rounds"] = round(100.0 * errors / r["rounds"], 3) if r["rounds"] else None
    return rows


def open_flags(store: Store, limit: int = 100, flag_type: str | None = None, table: str | None = None
               ) -> list[dict[str, Any]]:
    # `evidence`: the flag's snapshot (the first of its files), relative to the store's folder.
    sql = ("SELECT flag_id, type, kind, severity, table_id, round_id, game, started_at, seat, spot, hand, "
           "amount, expected, observed, frame_start, frame_end, rule, detail, "
           "coalesce(json_extract_string(snapshots, '$[0]'), '') AS evidence FROM flags f "
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
