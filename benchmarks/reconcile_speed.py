"""Wagers/s of reconcile's vectorised comparison stage (polars) against a plain per-wager Python loop.

settle() runs per round in Python in both designs, so it is left out: both sides start from the frames
`flatten` and `expected_settlements` produce (synthetic here: 5 wagers a round on integer keys, in key
order; ~1 % paid wrongly, ~0.5 % losers left, ~0.5 % over the limit, ~1 % of rounds settled out of
order) and do the same work: join wagers, expected and observed settlements by wager; the observed net,
stake and difference per wager; payout-error, missed-collection, limit and settlement-order flags with
their severity and detail text. The loop gets its rows as Python dicts (that conversion is not timed).
    python benchmarks/reconcile_speed.py --sizes 10000,100000,1000000,10000000 [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from functools import partial

import numpy as np
import polars as pl

from pipelines.reconcile.config import ReconcileConfig
from pipelines.reconcile.frames import OUTCOMES
from pipelines.reconcile.settlement_checks import (
    join_settlements,
    limit_flags,
    order_flags,
    round_facts,
    settlement_flags,
)

SPOTS = ["ante", "play", "bonus"]
PER_ROUND = 5


def synthetic(n: int, seed: int = 0) -> dict[str, pl.DataFrame]:
    rng = np.random.default_rng(seed)
    rounds_n = -(-n // PER_ROUND)
    i = np.arange(n)
    rid = i // PER_ROUND
    seat = (i % PER_ROUND + 1).astype(np.int64)
    code = rng.integers(0, len(SPOTS), n)
    spot = np.array(SPOTS)[code]
    amount = rng.choice([5.0, 10.0, 25.0, 100.0, 600.0], n, p=[0.4, 0.3, 0.2, 0.095, 0.005])
    settled = np.minimum(amount, 500.0)
    violation = pl.when(pl.Series(amount > 500.0)).then(pl.lit("above_maximum")).otherwise(None)
    violation = pl.select(violation.alias("v")).to_series()
    outcome = rng.choice(["win", "lose", "push"], n, p=[0.45, 0.5, 0.05])
    net = np.where(outcome == "win", settled, np.where(outcome == "lose", -settled, 0.0))
    # Losers first, then winners, seat by seat: the manual's order within each round.
    exp_order = np.argsort(np.argsort(rid * 100 + (outcome != "lose") * 10 + seat, kind="stable"),
                           kind="stable") - rid * PER_ROUND
    wrong = rng.random(n) < 0.01
    left = (rng.random(n) < 0.005) & (outcome == "lose")
    obs_outcome = np.where(left, "push", outcome)
    paid = np.where(outcome == "win", settled + np.where(wrong, 5.0, 0.0), 0.0)
    swap = np.repeat(rng.random(rounds_n) < 0.01, PER_ROUND)[:n]  # the dealer reverses the round
    obs_seq = np.where(swap, PER_ROUND - 1 - exp_order, exp_order)
    ids = {"rid": rid, "seat": seat, "spot": spot, "spot_code": code, "hand": 0}
    return {
        "expected": pl.DataFrame({
            **ids, "wagered": amount, "settled_amount": settled, "exp_net": net,
            "exp_outcome": pl.Series(outcome, dtype=OUTCOMES),
            "exp_paid": np.where(outcome == "win", settled, 0.0), "exp_order": exp_order, "line": "x",
            "rule": "Toy manual", "limit_violation": violation, "house_edge": 0.02,
            "var_per_unit": 1.0,
        }),
        "observed": pl.DataFrame({
            **ids, "obs_outcome": pl.Series(obs_outcome, dtype=OUTCOMES), "obs_paid": paid, "obs_seq": obs_seq,
            "o_frame_start": i,
            "o_frame_end": i + 1, "o_uncertain": False,
        }),
        "wagers": pl.DataFrame({**ids, "amount": amount, "w_frame_start": i, "w_frame_end": i + 1,
                                "w_uncertain": False}),
        "rounds": pl.DataFrame({"rid": np.arange(rounds_n), "round_id": pl.Series(np.arange(rounds_n)).cast(
            pl.Utf8), "status": "complete", "voided": False}),
    }


def polars_stage(d: dict[str, pl.DataFrame], cfg: ReconcileConfig) -> tuple[int, int]:
    j = join_settlements(d["expected"], d["observed"], d["wagers"], round_facts(d["rounds"]))
    flags = pl.concat([settlement_flags(j, cfg), limit_flags(j), order_flags(j)])
    return j.height, flags.height


def _severity(amount: float, thresholds: list[tuple[float, str]]) -> str:
    sev = thresholds[0][1]
    for lo, s in thresholds:
        if amount >= lo:
            sev = s
    return sev


def python_stage(rows: dict[str, list[dict]], cfg: ReconcileConfig) -> tuple[int, int]:
    """The same checks, written the plain way: dicts keyed by wager, one pass per wager."""
    tol = cfg.tolerance
    thresholds = sorted(cfg.payout_severity)
    status = {r["rid"]: (r["status"] in ("complete", "voided"), bool(r["voided"])) for r in rows["rounds"]}

    def key(r: dict) -> tuple:
        return (r["rid"], r["seat"], r["spot"], r["hand"])

    wagers = {key(r): r for r in rows["wagers"]}
    expected = {key(r): r for r in rows["expected"]}
    observed = {key(r): r for r in rows["observed"]}
    keys = list(wagers) + [k for k in expected if k not in wagers] + [
        k for k in observed if k not in wagers and k not in expected]
    out: list[dict] = []
    flags: list[dict] = []
    settled_by_round: dict[int, list[tuple[int, int, dict]]] = {}
    for k in keys:
        w, e, o = wagers.get(k, {}), expected.get(k, {}), observed.get(k, {})
        complete, voided = status[k[0]]
        stake = e.get("settled_amount") or w.get("amount") or e.get("wagered") or 0.0
        exp_outcome, obs_outcome = e.get("exp_outcome"), o.get("obs_outcome")
        if obs_outcome == "win":
            obs_net = o["obs_paid"]
        elif obs_outcome == "lose":
            obs_net = e["exp_net"] if exp_outcome == "lose" else -stake
        elif obs_outcome in ("push", "returned"):
            obs_net = 0.0
        else:
            obs_net = None
        diff = None if obs_net is None or exp_outcome is None else obs_net - e["exp_net"]
        row = {"rid": k[0], "seat": k[1], "spot": k[2], "hand": k[3], "amount": w.get("amount"),
               "settled_amount": e.get("settled_amount"), "exp_outcome": exp_outcome,
               "exp_net": e.get("exp_net"), "exp_order": e.get("exp_order"), "line": e.get("line"),
               "obs_outcome": pl.Series(obs_outcome, dtype=OUTCOMES), "obs_paid": o.get("obs_paid"), "obs_net": obs_net,
               "obs_seq": o.get("obs_seq"), "diff": diff, "stake": stake,
               "uncertain": bool(w.get("w_uncertain")) or bool(o.get("o_uncertain")),
               "frame_start": o.get("o_frame_start", w.get("w_frame_start")),
               "frame_end": o.get("o_frame_end", w.get("w_frame_end"))}
        out.append(row)
        missed = exp_outcome == "lose" and ((obs_outcome is None and complete)
                                            or obs_outcome in ("push", "returned"))
        wrong_amount = diff is not None and abs(diff) > tol and not missed
        unpaid = exp_outcome == "win" and obs_outcome is None and complete
        stranger = exp_outcome is None and obs_net is not None and abs(obs_net) > tol
        if wrong_amount or unpaid or stranger:
            observed_net = obs_net if obs_outcome is not None else 0.0
            expected_net = e.get("exp_net") or 0.0
            delta = observed_net - expected_net
            flags.append({
                "type": "void_handling" if voided else "payout_error", **row,
                "severity": _severity(abs(delta), thresholds), "amount": abs(delta),
                "detail": f"{'overpaid' if delta > 0 else 'underpaid'} {round(abs(delta), 2)} on {k[2]} "
                          f"({e.get('line') or 'no such wager'}): expected {exp_outcome or 'nothing'} net "
                          f"{round(expected_net, 2)}, observed {obs_outcome or 'not settled'} net "
                          f"{round(observed_net, 2)}"})
        if missed:
            flags.append({
                "type": "void_handling" if voided else "missed_collection", **row,
                "severity": "high" if stake >= 100 else "medium", "amount": stake,
                "detail": f"losing {k[2]} wager of {round(stake, 2)} ({e.get('line') or ''}) was "
                          f"{obs_outcome or 'left on the layout'}"})
        if e.get("limit_violation") is not None:
            flags.append({"type": "procedure", **row, "severity": "low", "amount": e["wagered"],
                          "detail": f"{k[2]} wager of {e['wagered']} is {e['limit_violation']}; settled as "
                                    f"{e['settled_amount']}"})
        if e.get("exp_order") is not None and o.get("obs_seq") is not None:
            settled_by_round.setdefault(k[0], []).append((o["obs_seq"], e["exp_order"], row))
    for settled in settled_by_round.values():
        if len(settled) < 2 or len({s for s, _, _ in settled}) < len(settled):
            continue
        settled.sort(key=lambda t: t[0])
        later_min = None
        for _, order, row in reversed(settled):  # a wager settled before one the manual puts ahead of it
            if later_min is not None and later_min < order:
                flags.append({"type": "procedure", **row, "severity": "low", "amount": row["stake"],
                              "detail": f"{row['spot']} settled out of the manual's order: settled before a "
                                        f"wager the manual puts ahead of it (its position {order})"})
            later_min = order if later_min is None else min(later_min, order)
    return len(out), len(flags)


def best_of(fn, repeats: int) -> tuple[float, tuple[int, int]]:
    best, result = float("inf"), (0, 0)
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--python-max", type=int, default=1_000_000,
                    help="largest size the Python loop runs at (it holds every row as a dict)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    cfg = ReconcileConfig()
    results = []
    for n in [int(x) for x in a.sizes.split(",")]:
        data = synthetic(n)
        repeats = 5 if n <= 1_000_000 else 2
        tp, (rows_p, flags_p) = best_of(partial(polars_stage, data, cfg), repeats)
        res = {"wagers": n, "polars_s": round(tp, 4), "polars_wagers_per_s": round(n / tp), "flags": flags_p}
        line = f"{n:>10} wagers: polars {n / tp:>13,.0f}/s ({tp * 1000:8.1f} ms)"
        if n <= a.python_max:
            rows = {name: df.to_dicts() for name, df in data.items()}
            tl, (rows_l, flags_l) = best_of(partial(python_stage, rows, cfg), 1 if n >= 1_000_000 else 3)
            if (rows_l, flags_l) != (rows_p, flags_p):
                raise SystemExit(f"the two stages disagree at {n}: polars {rows_p} rows {flags_p} flags, "
                                 f"python {rows_l} rows {flags_l} flags")
            del rows
            res.update(python_s=round(tl, 4), python_wagers_per_s=round(n / tl), speedup=round(tl / tp, 1))
            line += f"  python loop {n / tl:>11,.0f}/s  speedup {tl / tp:6.1f}x"
        results.append(res)
        print(line + f"  ({flags_p} flags)", flush=True)
        del data
    if a.json:
        at = {r["wagers"]: r for r in results}
        ref = at.get(1_000_000) or results[-1]
        print(json.dumps({"polars_wagers_per_s": ref["polars_wagers_per_s"], "speedup": ref.get("speedup"),
                          "at_wagers": ref["wagers"], "runs": results,
                          "note": "vectorised comparison stage on flattened frames; settle() per round "
                                  "excluded; best of several runs"}))


if __name__ == "__main__":
    main()
