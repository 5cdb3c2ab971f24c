"""Dashboard page load times on a store of one million rounds (generated in DuckDB SQL).

    python benchmarks/page_speed.py [--rounds 1000000] [--db FILE] [--repeat 7] [--json]

The store is the real schema (pipelines/store migrations): 20 tables over 60 days, three wagers a round,
about 3 % of rounds flagged, some flags reviewed. Each page is fetched over HTTP from a uvicorn server
(the full stack: session check, pit scope, queries, template) `--repeat` times after one warm-up;
the figure is the median and the worst time to the last byte. Target: every page under 300 ms.
Report pages open on the last 7 days of play; their all-time variants (span=all) are measured too.
With --db an existing generated file is reused (it is built there when missing).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import duckdb
import httpx

from dashboards import auth
from dashboards.app import create_app
from dashboards.background import serving
from pipelines.store import rollup
from pipelines.store.db import Store

TARGET_MS = 300.0
PASSWORD = "page-speed-only"
GAMES = ["king-high", "high-tie", "3-card-monster", "pick-2-poker"]
SPOTS = ["pokerpot", "main", "ante", "ante"]

GENERATE = """
CREATE TEMP TABLE gen AS
SELECT i, t, k, table_id, game, spot, round_id, started_at, dealer_id,
       [5, 10, 25, 100][1 + (hash(i, 1) % 4)::BIGINT]::DOUBLE AS a1,
       [5, 10, 25, 100][1 + (hash(i, 2) % 4)::BIGINT]::DOUBLE AS a2,
       [5, 10, 25, 100][1 + (hash(i, 3) % 4)::BIGINT]::DOUBLE AS a3
FROM (
    SELECT i, i % 20 AS t, i // 20 AS k,
           'T' || lpad((i % 20)::VARCHAR, 2, '0') AS table_id,
           $games[1 + (i % 20) % 4] AS game, $spots[1 + (i % 20) % 4] AS spot,
           substr(md5(i::VARCHAR), 1, 16) AS round_id,
           TIMESTAMP '2025-01-01 00:00:00' + to_seconds((i // 20) * $spacing) AS started_at,
           'D' || lpad((((i % 20) + (i // 20) // 12) % 40)::VARCHAR, 2, '0') AS dealer_id
    FROM range($n) r(i)
);
INSERT INTO tables SELECT DISTINCT table_id, game, game || ' ' || table_id FROM gen;
INSERT INTO dealers SELECT DISTINCT dealer_id, 'Dealer ' || dealer_id FROM gen;
INSERT INTO rounds
SELECT round_id, table_id, game, started_at, started_at + INTERVAL 40 SECOND, dealer_id, 'complete', 3,
       a1 + a2 + a3,
       json_object('schema_version', 1, 'game', game, 'table_id', table_id, 'round_id', round_id,
           'started_at', strftime(started_at, '%Y-%m-%dT%H:%M:%S'), 'dealer_id', dealer_id,
           'wagers', json_array(json_object('seat', 1, 'spot', spot, 'amount', a1),
                                json_object('seat', 2, 'spot', spot, 'amount', a2),
                                json_object('seat', 3, 'spot', spot, 'amount', a3)),
           'cards', json_array(json_object('seq', 0, 'owner', 'seat:1', 'card', 'Ah'),
                               json_object('seq', 1, 'owner', 'seat:2', 'card', 'Kd'),
                               json_object('seq', 2, 'owner', 'dealer', 'card', '7c')))
FROM gen;
INSERT INTO wagers
SELECT round_id, seat, spot, 0, amount, amount, outcome,
       CASE outcome WHEN 'win' THEN amount WHEN 'lose' THEN -amount ELSE 0 END,
       seat, outcome, 0.025, 1.2, outcome,
       CASE outcome WHEN 'win' THEN amount ELSE 0 END,
       CASE outcome WHEN 'win' THEN amount WHEN 'lose' THEN -amount ELSE 0 END, seat, 0, false
FROM (SELECT round_id, spot, unnest([1, 2, 3]) AS seat, unnest([a1, a2, a3]) AS amount,
             unnest([CASE WHEN hash(i, 4) % 100 < 46 THEN 'win' ELSE 'lose' END,
                     CASE WHEN hash(i, 5) % 100 < 46 THEN 'win' ELSE 'lose' END,
                     CASE WHEN hash(i, 6) % 100 < 46 THEN 'win' ELSE 'lose' END]) AS outcome
      FROM gen);
INSERT INTO flags
SELECT substr(md5('flag' || i::VARCHAR), 1, 16),
       ['past_post', 'pinch', 'payout_error', 'missed_collection', 'misdeal', 'procedure']
           [1 + (hash(i, 7) % 6)::BIGINT],
       'hard', table_id, round_id, game, started_at, 1, spot, 0,
       ['low', 'medium', 'high', 'critical'][1 + (hash(i, 8) % 4)::BIGINT], a1, a1, a1 + 5, 10, 20, '[]',
       'a manual section', 'generated for the page-speed benchmark', false
FROM gen WHERE hash(i, 9) % 100 < 3;
INSERT INTO reviews
SELECT flag_id, started_at + INTERVAL 1 HOUR, 'benchmark', 'false_alarm', 'generated'
FROM flags WHERE hash(flag_id) % 10 = 0;
"""


def generate(path: Path, n: int) -> float:
    t0 = time.perf_counter()
    Store(path).close()  # the store's own schema and default shifts
    con = duckdb.connect(str(path))
    first, *rest = [q for q in GENERATE.split(";\n") if q.strip()]
    con.execute(first, {"n": n, "games": GAMES, "spots": SPOTS, "spacing": 60 * 86400 / max(1, n // 20)})
    for statement in rest:
        con.execute(statement)
    con.execute("BEGIN TRANSACTION")
    rollup.rebuild(con)  # rows written around the Store: fill its report rollup as a migration would
    con.execute("COMMIT")
    con.close()
    return time.perf_counter() - t0


def login(client: httpx.Client, username: str) -> None:
    page = client.get("/login")
    token = page.text.split('name="csrf" value="')[1].split('"')[0]
    r = client.post("/login", data={"username": username, "password": PASSWORD, "csrf": token, "next": "/"})
    r.raise_for_status()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=1_000_000)
    ap.add_argument("--db", type=Path, help="keep (or reuse) the generated store here")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    path = args.db or Path(tempfile.mkdtemp(prefix="tw-speed-")) / "speed.duckdb"
    gen_s = None
    if not path.exists():
        gen_s = generate(path, args.rounds)
        print(f"generated {args.rounds:,} rounds in {gen_s:.1f} s: {path}")
    else:
        Store(path).close()  # a store generated before a migration gets it (and its rollup) now
    app = create_app(path, secret="page-speed")
    db = app.state.db
    counts = dict(zip(("rounds", "wagers", "flags"), db.cursor().execute(
        "SELECT (SELECT count(*) FROM rounds), (SELECT count(*) FROM wagers), (SELECT count(*) FROM flags)"
    ).fetchone(), strict=True))
    for name, role, pit in (("speed_surv", "surveillance", None), ("speed_prot", "game_protection", None),
                            ("speed_mgr", "manager", None), ("speed_pit", "surveillance", "P1")):
        if auth.get_user(db, name) is None:
            auth.create_user(db, name, PASSWORD, role, pit)
    with db.write() as cur:
        cur.execute("INSERT OR REPLACE INTO dash_table_pits SELECT table_id, 'P1' FROM tables "
                    "WHERE table_id < 'T05'")
    cur = db.cursor()
    round_id = cur.execute("SELECT round_id FROM flags ORDER BY started_at DESC LIMIT 1").fetchone()[0]
    dealer = cur.execute("SELECT dealer_id FROM rounds LIMIT 1").fetchone()[0]
    pages = [
        ("speed_surv", "queue", "/surveillance"),
        ("speed_surv", "queue_filtered", "/surveillance?table=T03&type=pinch&status=all"),
        ("speed_surv", "queue_page_20", "/surveillance?status=all&page=20"),
        ("speed_pit", "queue_one_pit", "/surveillance?status=all"),
        ("speed_surv", "round", f"/surveillance/round/{round_id}"),
        ("speed_surv", "notes_search", "/surveillance/notes?q=camera"),
        ("speed_prot", "dealers_default_week", "/protection"),
        ("speed_prot", "dealers_all_time", "/protection?span=all"),
        ("speed_prot", "dealer_flags_default_week", f"/protection/dealer/{dealer}"),
        ("speed_mgr", "hold_by_table_default_week", "/manager?by=table"),
        ("speed_mgr", "hold_by_dealer_default_week", "/manager?by=dealer"),
        ("speed_mgr", "hold_csv_by_shift_week", "/manager/hold.csv?by=shift"),
        ("speed_mgr", "hold_by_day_all_time", "/manager?by=day&span=all"),
        ("speed_mgr", "hold_by_table_all_time", "/manager?by=table&span=all"),
    ]
    results = []
    with serving(app) as base:
        clients: dict[str, httpx.Client] = {}
        for user, name, url in pages:
            if user not in clients:
                clients[user] = httpx.Client(base_url=base, follow_redirects=True, timeout=60)
                login(clients[user], user)
            client = clients[user]
            client.get(url).raise_for_status()  # warm-up
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                r = client.get(url)
                _ = r.content
                times.append(1000 * (time.perf_counter() - t0))
                r.raise_for_status()
            res = {"page": name, "url": url, "median_ms": round(statistics.median(times), 1),
                   "max_ms": round(max(times), 1), "bytes": len(r.content),
                   "under_target": statistics.median(times) < TARGET_MS}
            results.append(res)
            flag = "ok " if res["under_target"] else "SLOW"
            print(f"{flag} {name:26s} median {res['median_ms']:8.1f} ms  max {res['max_ms']:8.1f} ms  "
                  f"{res['bytes'] / 1024:7.1f} KiB")
        for c in clients.values():
            c.close()
    db.close()
    slow = [r["page"] for r in results if not r["under_target"]]
    print(f"{counts['rounds']:,} rounds, {counts['wagers']:,} wagers, {counts['flags']:,} flags; "
          f"{len(results) - len(slow)}/{len(results)} pages under {TARGET_MS:.0f} ms"
          + (f"; slow: {', '.join(slow)}" if slow else ""))
    if args.json:
        print(json.dumps({"benchmark": "page_speed", "target_ms": TARGET_MS, **counts, "generate_s": gen_s,
                          "repeat": args.repeat, "pages": results, "slow": slow}))


if __name__ == "__main__":
    main()
