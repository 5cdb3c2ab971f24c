"""The report rollup: one row per table × game × shift date × shift × dealer with every total the hold and
dealer reports need, so a report over months reads thousands of rows instead of millions.

It is maintained at write time: whatever changes a round, its wagers or flags, a dealer assignment or the
shift boundaries recomputes the affected (table, shift date) groups from the detail tables, in the same
transaction. Sums are kept before the last step (variance before sqrt, net before negation) so that groups
add up exactly to what the detail query gives. `rollup_shifts` records the shift boundaries it was built
with; readers fall back to the detail tables when they differ (a reader's --shifts override) or when the
rollup does not count every stored round (rows written around the Store)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta
from typing import Any

import duckdb

GROUP_KEYS = ("table_id", "game", "shift", "shift_date", "dealer_id")


def round_facts(where: str) -> str:
    """Per round: its dealer (the round's own, else the table's assignment that began most recently before
    the round and had not ended: an ASOF join), shift and shift date, for the rounds `where` selects."""
    return f"""
round_facts AS MATERIALIZED (
    SELECT r.round_id, r.table_id, r.game, r.started_at, coalesce(r.ended_at, r.started_at) AS ended_at,
        coalesce(r.dealer_id, CASE WHEN r.started_at < da.to_ts THEN da.dealer_id END, 'unassigned')
            AS dealer_id,
        s.shift,
        CASE WHEN s.starts >= s.ends AND r.started_at::TIME < s.ends
             THEN (r.started_at::DATE - 1) ELSE r.started_at::DATE END AS shift_date
    -- Rounds are selected before the ASOF join: the optimiser does not push a semi join through it.
    FROM (SELECT r.round_id, r.table_id, r.game, r.started_at, r.ended_at, r.dealer_id FROM rounds r
          WHERE {where}) r
    ASOF LEFT JOIN dealer_assignments da ON da.table_id = r.table_id AND r.started_at >= da.from_ts
    JOIN shifts s ON (
        (s.starts < s.ends AND r.started_at::TIME >= s.starts AND r.started_at::TIME < s.ends)
        OR (s.starts >= s.ends AND (r.started_at::TIME >= s.starts OR r.started_at::TIME < s.ends)))
)"""


FLAG_TYPES = ("past_post", "pinch", "payout_error", "missed_collection", "misdeal", "procedure", "void_handling")
_K = ", ".join(GROUP_KEYS)

# Totals per group of the rounds in `round_facts` (a CTE defined before this one).
GROUP_TOTALS = f"""
g_rounds AS (
    SELECT {_K}, count(*) AS n_rounds, min(started_at) AS first_start, max(started_at) AS last_start,
           max(ended_at) AS last_end
    FROM round_facts GROUP BY ALL
),
g_money AS (
    SELECT {", ".join(f"f.{k}" for k in GROUP_KEYS)},
        count(DISTINCT round_id) AS rounds,
        count(*) AS wagers,
        sum(w.amount) AS drop_vision,
        sum(w.obs_net) AS net_vision,
        sum(coalesce(w.settled_amount, w.amount) * w.house_edge) AS theo_win,
        sum(coalesce(w.settled_amount, w.amount) * w.house_edge) FILTER (WHERE w.var_per_unit IS NOT NULL)
            AS band_mean,
        sum(coalesce(w.settled_amount, w.amount) * coalesce(w.settled_amount, w.amount) * w.var_per_unit)
            AS band_var,
        sum(w.obs_net) FILTER (WHERE w.var_per_unit IS NOT NULL) AS band_net,
        count(*) FILTER (WHERE w.var_per_unit IS NULL) AS wagers_without_odds
    FROM wagers w JOIN round_facts f USING (round_id) GROUP BY ALL
),
g_flags AS (
    SELECT {", ".join(f"f.{k}" for k in GROUP_KEYS)},
        count(DISTINCT round_id) AS flagged_rounds,
        sum(x.amount) FILTER (WHERE x.type = 'payout_error' AND x.observed > x.expected) AS overpaid,
        sum(x.amount) FILTER (WHERE x.type = 'payout_error' AND x.observed <= x.expected) AS underpaid,
        {", ".join(f"count(*) FILTER (WHERE x.type = '{t}') AS {t}" for t in FLAG_TYPES)}
    FROM flags x JOIN round_facts f USING (round_id) GROUP BY ALL
),
group_totals AS (
    SELECT {_K}, n_rounds, first_start, last_start, last_end,
        coalesce(m.rounds, 0) AS rounds, coalesce(m.wagers, 0) AS wagers, m.drop_vision, m.net_vision,
        m.theo_win, m.band_mean, m.band_var, m.band_net, coalesce(m.wagers_without_odds, 0) AS wagers_without_odds,
        coalesce(x.flagged_rounds, 0) AS flagged_rounds, x.overpaid, x.underpaid,
        {", ".join(f"coalesce(x.{t}, 0) AS {t}" for t in FLAG_TYPES)}
    FROM g_rounds LEFT JOIN g_money m USING ({_K}) LEFT JOIN g_flags x USING ({_K})
)"""

COLUMNS = (*GROUP_KEYS, "n_rounds", "first_start", "last_start", "last_end", "rounds", "wagers", "drop_vision",
           "net_vision", "theo_win", "band_mean", "band_var", "band_net", "wagers_without_odds",
           "flagged_rounds", "overpaid", "underpaid", *FLAG_TYPES)


def rebuild(con: duckdb.DuckDBPyConnection) -> None:
    """Recompute the whole rollup from the detail tables (migration, changed shifts). Call inside a
    transaction."""
    con.execute("DELETE FROM round_rollup")
    con.execute(f"INSERT INTO round_rollup ({', '.join(COLUMNS)}) "
                f"WITH {round_facts('TRUE')}, {GROUP_TOTALS} SELECT {', '.join(COLUMNS)} FROM group_totals")
    _record_shifts(con)


def _record_shifts(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("DELETE FROM rollup_shifts")
    con.execute("INSERT INTO rollup_shifts SELECT shift, starts, ends FROM shifts")


def refresh(con: duckdb.DuckDBPyConnection, keys: Iterable[tuple[str, date]]) -> None:
    """Recompute the groups of these (table_id, shift date) pairs. Call inside a transaction."""
    pairs = sorted(set(keys))
    if not pairs:
        return
    con.execute("CREATE OR REPLACE TEMP TABLE _rollup_keys (table_id VARCHAR, shift_date DATE)")
    con.executemany("INSERT INTO _rollup_keys VALUES (?, ?)", [list(p) for p in pairs])
    con.execute("DELETE FROM round_rollup r USING _rollup_keys k "
                "WHERE r.table_id = k.table_id AND r.shift_date = k.shift_date")
    # Rounds of shift date D start on D or D + 1 (a shift that wraps midnight belongs to its first day).
    lo = datetime.combine(min(d for _, d in pairs), datetime.min.time())
    hi = datetime.combine(max(d for _, d in pairs) + timedelta(days=2), datetime.min.time())
    where = ("r.started_at >= $lo AND r.started_at < $hi "
             "AND r.table_id IN (SELECT table_id FROM _rollup_keys)")
    con.execute(f"INSERT INTO round_rollup ({', '.join(COLUMNS)}) "
                f"WITH {round_facts(where)}, {GROUP_TOTALS} SELECT {', '.join(COLUMNS)} FROM group_totals "
                f"SEMI JOIN _rollup_keys k ON group_totals.table_id = k.table_id "
                f"AND group_totals.shift_date = k.shift_date", {"lo": lo, "hi": hi})


def keys_of_rounds(con: duckdb.DuckDBPyConnection, ids_table: str) -> set[tuple[str, date]]:
    """(table_id, shift date) pairs the stored rounds listed in `ids_table` may belong to: a round's shift
    date is the day it starts or the day before."""
    out: set[tuple[str, date]] = set()
    for table_id, day in con.execute(f"SELECT DISTINCT table_id, started_at::DATE FROM rounds "
                                     f"WHERE round_id IN (SELECT round_id FROM {ids_table})").fetchall():
        out |= {(table_id, day), (table_id, day - timedelta(days=1))}
    return out


def keys_of_tables(con: duckdb.DuckDBPyConnection, tables: Iterable[str]) -> set[tuple[str, date]]:
    """Every (table_id, shift date) pair of these tables' stored rounds."""
    out: set[tuple[str, date]] = set()
    for t in set(tables):
        for (day,) in con.execute("SELECT DISTINCT started_at::DATE FROM rounds WHERE table_id = ?", [t]).fetchall():
            out |= {(t, day), (t, day - timedelta(days=1))}
    return out


def usable(reader: Any) -> bool:
    """Whether the rollup can answer for this reader: built with the shifts the reader sees, and counting
    every round it sees (both checks read the same possibly scoped views the report will read)."""
    try:
        row = reader.query("""SELECT
            (SELECT count(*) FROM (SELECT shift, starts, ends FROM shifts EXCEPT
                                   SELECT shift, starts, ends FROM rollup_shifts)) = 0
            AND (SELECT count(*) FROM (SELECT shift, starts, ends FROM rollup_shifts EXCEPT
                                       SELECT shift, starts, ends FROM shifts)) = 0
            AND (SELECT count(*) FROM rounds) = (SELECT coalesce(sum(n_rounds), 0) FROM round_rollup) AS ok""")
    except duckdb.CatalogException:  # a store not yet migrated
        return False
    return bool(row[0]["ok"])
