"""Hold-report query times on a store of 10^7 wagers (generated in DuckDB SQL, the real schema).

    python benchmarks/report_speed.py [--wagers 10000000] [--db FILE] [--repeat 3] [--json]

The store is made by the store's own migrations, then filled in SQL: 40 tables of the four games over
90 days, 4 wagers a round (so 2.5 million rounds for 10^7 wagers), dealers assigned per table and
hour through `dealer_assignments` (the reports resolve them per round), about 2 % of rounds flagged,
accounting rows per table and shift. Each report of `pipelines.store.reports` is run `--repeat` times
after one warm-up; the figure is the median wall time. With --db an existing generated file is reused
(it is built there when missing).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb

from pipelines.store import rollup
from pipelines.store.db import Store
from pipelines.store.reports import dealer_report, hold_report, open_flags

GAMES = ["king-high", "high-tie", "3-card-monster", "pick-2-poker"]
SPOTS = [["pokerpot", "high", "low", "suit"], ["main", "side", "main", "side"],
         ["ante", "monster", "play", "royal"], ["ante", "bonus35", "play", "bonus5"]]
TABLES = 40
DAYS = 90
PER_ROUND = 4

GENERATE = [
    """CREATE TEMP TABLE gen AS
    SELECT i, i % $tables AS t, 'T' || lpad((i % $tables)::VARCHAR, 2, '0') AS table_id,
           (i % $tables) % 4 AS g, substr(md5(i::VARCHAR), 1, 16) AS round_id,
           TIMESTAMP '2025-01-01 00:00:00' + to_seconds((i // $tables) * $spacing) AS started_at
    FROM range($rounds) r(i)""",
    "INSERT INTO tables SELECT DISTINCT table_id, $games[1 + g], NULL FROM gen",
    """INSERT INTO dealers SELECT 'D' || lpad(d::VARCHAR, 2, '0'), NULL FROM range(60) r(d)""",
    # One dealer per table and hour, rotating.
    """INSERT INTO dealer_assignments
    SELECT 'D' || lpad(((t + h) % 60)::VARCHAR, 2, '0'), 'T' || lpad(t::VARCHAR, 2, '0'),
           TIMESTAMP '2025-01-01 00:00:00' + to_hours(h), TIMESTAMP '2025-01-01 00:00:00' + to_hours(h + 1)
    FROM range($tables) a(t), range($hours) b(h)""",
    """INSERT INTO rounds
    SELECT round_id, table_id, $games[1 + g], started_at, started_at + INTERVAL 50 SECOND, NULL, 'complete',
           4, 0, '{}' FROM gen""",
    """INSERT INTO wagers
    SELECT round_id, seat, $spots[1 + g][seat], 0, amount, amount, outcome,
           CASE outcome WHEN 'win' THEN amount WHEN 'lose' THEN -amount ELSE 0 END, seat - 1, 'x',
           0.02 + 0.01 * seat, 1.0 + seat, outcome, CASE outcome WHEN 'win' THEN amount ELSE 0 END,
           CASE outcome WHEN 'win' THEN amount WHEN 'lose' THEN -amount ELSE 0 END
             + CASE WHEN hash(i, seat, 9) % 1000 = 0 THEN 5 ELSE 0 END,
           seat - 1, CASE WHEN hash(i, seat, 9) % 1000 = 0 THEN 5 ELSE 0 END, false
    FROM (SELECT i, g, round_id, unnest(range(1, $per_round + 1)) AS seat FROM gen) x,
         LATERAL (SELECT [5, 10, 25, 100][1 + (hash(i, seat) % 4)::BIGINT]::DOUBLE AS amount,
                         CASE WHEN hash(i, seat, 1) % 100 < 45 THEN 'win'
                              WHEN hash(i, seat, 1) % 100 < 95 THEN 'lose' ELSE 'push' END AS outcome)""",
    """UPDATE rounds SET handle = w.h FROM (SELECT round_id, sum(amount) AS h FROM wagers GROUP BY 1) w
    WHERE rounds.round_id = w.round_id""",
    """INSERT INTO flags
    SELECT substr(md5('flag' || i::VARCHAR), 1, 16),
           ['past_post', 'pinch', 'payout_error', 'missed_collection', 'misdeal', 'procedure']
               [1 + (hash(i, 7) % 6)::BIGINT], 'hard', table_id, round_id, $games[1 + g], started_at, 1,
           'ante', 0, ['low', 'medium', 'high', 'critical'][1 + (hash(i, 8) % 4)::BIGINT], 10, 10, 15, 0, 1,
           '[]', 'generated', 'generated for the report-speed benchmark', false
    FROM gen WHERE hash(i, 3) % 100 < 2""",
    """INSERT INTO accounting
    SELECT table_id, d::DATE, s.shift, 20000, 5000, 1000, 50000, 52000
    FROM (SELECT DISTINCT table_id FROM gen) t,
         (SELECT DISTINCT started_at::DATE AS d FROM gen) dd, shifts s""",
]


def generate(path: Path, wagers: int) -> float:
    t0 = time.perf_counter()
    Store(path).close()  # the store's own schema (migrations) and default shifts
    con = duckdb.connect(str(path))
    rounds = max(1, wagers // PER_ROUND)
    params = {"rounds": rounds, "tables": TABLES, "games": GAMES, "spots": SPOTS, "per_round": PER_ROUND,
              "spacing": DAYS * 86400 / max(1, rounds // TABLES), "hours": DAYS * 24 + 24}
    for sql in GENERATE:
        used = {k: v for k, v in params.items() if f"${k}" in sql}
        con.execute(sql, used)
    rollup.rebuild(con)  # rows written around the Store: build the reports' rollup as a writer would
    con.close()
    return time.perf_counter() - t0


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    result = fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wagers", type=int, default=10_000_000)
    ap.add_argument("--db", type=Path, help="keep (or reuse) the generated store here")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    path = a.db or Path(tempfile.mkdtemp(prefix="tw-report-")) / "report.duckdb"
    gen_s = None
    if not path.exists():
        gen_s = generate(path, a.wagers)
        print(f"generated {a.wagers:,} wagers in {gen_s:.1f} s: {path}", flush=True)
    store = Store(path, read_only=True)
    n_wagers = store.query("SELECT count(*) AS n FROM wagers")[0]["n"]
    n_rounds = store.query("SELECT count(*) AS n FROM rounds")[0]["n"]
    reports: dict[str, Callable[[], Any]] = {
        f"hold by {by}": (lambda by=by: hold_report(store, [by])) for by in ("table", "game", "shift", "dealer",
                                                                          "day")
    }
    reports["hold by table,shift,day"] = lambda: hold_report(store, ["table", "shift", "day"])
    reports["hold, all"] = lambda: hold_report(store, [])
    reports["dealer accuracy"] = lambda: dealer_report(store)
    reports["open flags (100)"] = lambda: open_flags(store, 100)
    results = {}
    print(f"{n_wagers:,} wagers, {n_rounds:,} rounds; median of {a.repeat} after a warm-up")
    for name, fn in reports.items():
        s, rows = timed(fn, a.repeat)
        results[name] = {"seconds": round(s, 3), "rows": len(rows)}
        print(f"  {name:<26} {s * 1000:9.0f} ms  ({len(rows)} rows)", flush=True)
    store.close()
    if a.json:
        print(json.dumps({"wagers": n_wagers, "rounds": n_rounds, "generate_s": gen_s and round(gen_s, 1),
                          "reports": results, "worst_s": max(r["seconds"] for r in results.values())}))


if __name__ == "__main__":
    main()
