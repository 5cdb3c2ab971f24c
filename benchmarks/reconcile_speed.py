"""Wagers/s of reconcile's vectorised stage (polars) against a plain Python loop over the same data.

settle() runs per round in Python in both designs, so it is left out: both sides start from precomputed
expected settlements (synthetic, 5 wagers a round, ~1 % settled wrongly) and do the join of expected with
observed, the differences and the payout/collection/limit/order flags.
    python benchmarks/reconcile_speed.py --sizes 10000,100000,1000000 [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import polars as pl

from pipelines.reconcile.config import ReconcileConfig
from pipelines.reconcile.settlement_checks import join_settlements, limit_flags, order_flags, settlement_flags


def synthetic(n: int, seed: int = 0) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    rng = np.random.default_rng(seed)
    rounds_n = max(1, n // 5)
    round_idx = np.arange(n) // 5
    rid = pl.Series(round_idx).cast(pl.Utf8)
    seat = (np.arange(n) % 5 + 1).astype(np.int64)
    amount = rng.choice([5.0, 10.0, 25.0, 100.0], n)
    outcome = rng.choice(["win", "lose", "push"], n, p=[0.45, 0.5, 0.05])
    net = np.where(outcome == "win", amount, np.where(outcome == "lose", -amount, 0.0))
    wrong = rng.random(n) < 0.01
    paid = np.where(outcome == "win", amount + np.where(wrong, 5.0, 0.0), 0.0)
    expected = pl.DataFrame({
        "round_id": rid, "seat": seat, "spot": "ante", "hand": 0, "wagered": amount,
        "settled_amount": amount, "exp_outcome": outcome, "exp_net": net,
        "exp_paid": np.where(outcome == "win", amount, 0.0), "exp_order": seat, "line": "x", "rule": "r",
        "limit_violation": pl.Series([None] * n, dtype=pl.Utf8), "house_edge": 0.02, "var_per_unit": 1.0,
    })
    observed = pl.DataFrame({
        "round_id": rid, "seat": seat, "spot": "ante", "hand": 0, "obs_outcome": outcome, "obs_paid": paid,
        "obs_seq": seat, "o_frame_start": 0, "o_frame_end": 1, "o_uncertain": False,
    })
    wagers = pl.DataFrame({"round_id": rid, "seat": seat, "spot": "ante", "hand": 0, "amount": amount,
                           "w_frame_start": 0, "w_frame_end": 1, "w_uncertain": False})
    rounds = pl.DataFrame({"round_id": pl.Series(np.arange(rounds_n)).cast(pl.Utf8), "game": "pick-2-poker",
                           "status": "complete", "voided": False})
    return expected, observed, wagers, rounds


def polars_stage(expected, observed, wagers, rounds, cfg) -> int:
    j = join_settlements(expected, observed, wagers, rounds)
    flags = pl.concat([settlement_flags(j, [], cfg), limit_flags(j), order_flags(j)])
    return flags.height


def python_stage(expected, observed, wagers, rounds, cfg) -> int:
    obs_rows = list(observed.iter_rows(named=True))
    exp_rows = list(expected.iter_rows(named=True))
    t0 = time.perf_counter()  # the join (a dict) and the loop are timed; converting to dicts is not
    obs = {(r["round_id"], r["seat"], r["spot"], r["hand"]): r for r in obs_rows}
    flags = 0
    last_order: dict[str, int] = {}
    for e in exp_rows:
        o = obs.get((e["round_id"], e["seat"], e["spot"], e["hand"]))
        if o is None:
            flags += e["exp_outcome"] in ("win", "lose")
            continue
        oc = o["obs_outcome"]
        obs_net = o["obs_paid"] if oc == "win" else (-e["settled_amount"] if oc == "lose" else 0.0)
        missed = e["exp_outcome"] == "lose" and oc in ("push", "returned")
        flags += missed or abs(obs_net - e["exp_net"]) > cfg.tolerance
        flags += e["limit_violation"] is not None
        if last_order.get(e["round_id"], -1) > e["exp_order"]:
            flags += 1
        last_order[e["round_id"]] = max(last_order.get(e["round_id"], -1), e["exp_order"])
    python_stage.loop_s = time.perf_counter() - t0  # type: ignore[attr-defined]
    return flags


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    cfg = ReconcileConfig()
    results = []
    for n in [int(x) for x in a.sizes.split(",")]:
        data = synthetic(n)
        t0 = time.perf_counter()
        fp = polars_stage(*data, cfg)
        tp = time.perf_counter() - t0
        python_stage(*data, cfg)
        tl = python_stage.loop_s  # type: ignore[attr-defined]
        results.append({"wagers": n, "polars_s": round(tp, 4), "python_s": round(tl, 4),
                        "polars_wagers_per_s": round(n / tp), "python_wagers_per_s": round(n / tl),
                        "speedup": round(tl / tp, 2), "flags": fp})
        print(f"{n:>10} wagers: polars {n / tp:>12,.0f}/s  python loop {n / tl:>12,.0f}/s  "
              f"speedup {tl / tp:5.1f}x  ({fp} flags)")
    if a.json:
        last = results[-1]
        print(json.dumps({"polars_wagers_per_s": last["polars_wagers_per_s"], "speedup": last["speedup"],
                          "runs": results, "note": "vectorised comparison stage on precomputed expected "
                          "settlements; settle() per round excluded"}))


if __name__ == "__main__":
    main()
