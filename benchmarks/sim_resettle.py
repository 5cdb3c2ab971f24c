"""Simulated rounds re-settled by the games core agree with what the simulated dealer did, except where a
fault was injected that changes the money (the issue "Table simulator" done criterion).

For each game: script N rounds with faults (no rendering), write the ground truth to JSON and read it
back, re-settle every round with the game's settle(), and compare each wager's outcome and payout with
the observed settlement. Every disagreement must be explained by an injected past_post, payout_error or
missed_collection fault on that wager, and every such fault must show up as a disagreement.

    python benchmarks/sim_resettle.py [--rounds 50] [--faults 0.2] [--seed 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from pipelines.games.registry import game_module
from pipelines.games.round import GAME_IDS
from pipelines.sim.faults import MONEY_FAULTS
from pipelines.sim.session import simulate_session
from pipelines.sim.truth import GroundTruth


def resettle(game: str, rounds: int, seed: int, rate: float, tmp: Path) -> dict:
    truth = simulate_session(game, rounds, seed, tmp / game, rate, render=False, progress=False)
    truth = GroundTruth.load(tmp / game / "ground_truth.json")  # what a consumer would read
    module = game_module(game)
    settings = module.Settings(**truth.settings)
    money = {(f.round_id, f.seat, f.spot, f.hand) for f in truth.faults if f.type in MONEY_FAULTS}
    wagers = agree = disagree = explained = 0
    seen_faults: set[tuple] = set()
    for rnd in truth.rounds:
        observed = {(s.seat, s.spot, s.hand): s for s in rnd.settlements}
        for exp in module.settle(rnd, settings):
            wagers += 1
            obs = observed.get((exp.seat, exp.spot, exp.hand))
            if obs is not None and obs.outcome == exp.outcome and abs(obs.paid - exp.paid) < 0.005:
                agree += 1
                continue
            disagree += 1
            key = (rnd.round_id, exp.seat, exp.spot, exp.hand)
            if key in money:
                explained += 1
                seen_faults.add(key)
    faults_by_type: dict[str, int] = {}
    for f in truth.faults:
        faults_by_type[f.type] = faults_by_type.get(f.type, 0) + 1
    return {"game": game, "rounds": len(truth.rounds), "wagers": wagers, "agree": agree, "disagree": disagree,
            "disagree_explained_by_faults": explained, "money_faults": len(money),
            "money_faults_without_disagreement": len(money - seen_faults), "faults": faults_by_type}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--faults", type=float, default=0.2, help="per-round rate of each fault type")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true", help="end with one JSON object")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAME_IDS:
            r = resettle(game, args.rounds, args.seed, args.faults, Path(tmp))
            results.append(r)
            print(f"{game:<15} rounds {r['rounds']:>3}  wagers {r['wagers']:>5}  agree {r['agree']:>5}  "
                  f"disagree {r['disagree']:>3}  explained by faults {r['disagree_explained_by_faults']:>3}  "
                  f"money faults {r['money_faults']:>3} (silent {r['money_faults_without_disagreement']})")
    ok = all(r["disagree"] == r["disagree_explained_by_faults"] and r["money_faults_without_disagreement"] == 0
             for r in results)
    elapsed = time.perf_counter() - t0
    print(f"{'PASS' if ok else 'FAIL'}: every disagreement is an injected money fault and every money fault "
          f"disagrees ({elapsed:.1f} s)")
    if args.json:
        print(json.dumps({"ok": ok, "rounds_per_game": args.rounds, "fault_rate": args.faults, "seed": args.seed,
                          "elapsed_s": round(elapsed, 2), "games": results}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
