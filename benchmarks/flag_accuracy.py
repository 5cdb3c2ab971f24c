"""Precision and recall of reconcile's flags against the simulator's injected faults, per flag type.

Every game is scripted (no rendering) on held-out seeds with faults injected at `--fault-rate` per type
per round; the round documents go through `reconcile` with the table's settings, and each flag is matched
one-to-one to a fault of the same round and type:
- wager faults (past_post, pinch, payout_error, missed_collection, procedure) by seat, spot and hand;
- misdeals by what was checked: the fault's subtype names the flag's `spot` (wrong_card_count ->
  card_count:* or King High's burn_count with the card number as `hand`; dealer_card_exposed_early ->
  dealer_exposed; duplicate_card -> duplicate_card; wrong_deck_back -> deck_back), and by seat where
  both name one.
A flag with no fault is a false positive, a fault with no flag a miss.
    python benchmarks/flag_accuracy.py [--seeds 1001-1005] [--rounds 200] [--fault-rate 0.1] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict

from pipelines.games.round import GAME_IDS
from pipelines.reconcile import FLAG_TYPES, Flag, reconcile
from pipelines.sim.faults import Fault
from pipelines.sim.session import script_session

MISDEAL_SPOTS = {
    "wrong_card_count": ("card_count:", "burn_count"),
    "dealer_card_exposed_early": ("dealer_exposed",),
    "duplicate_card": ("duplicate_card",),
    "wrong_deck_back": ("deck_back",),
}


def matches(fault: Fault, flag: Flag) -> bool:
    if fault.round_id != flag.round_id or fault.type != flag.type:
        return False
    if fault.type != "misdeal":
        return (fault.seat, fault.spot, fault.hand) == (flag.seat, flag.spot, flag.hand)
    if not (flag.spot or "").startswith(MISDEAL_SPOTS.get(fault.subtype, (fault.subtype,))):
        return False
    if flag.spot == "burn_count" and fault.hand != flag.hand:
        return False
    return fault.seat is None or flag.seat is None or fault.seat == flag.seat


def score(faults: list[Fault], flags: list[Flag]) -> tuple[Counter, Counter, Counter, list[str]]:
    """(true positives, false positives, misses) per type, and a line per mistake."""
    tp, fp, fn = Counter(), Counter(), Counter()
    mistakes: list[str] = []
    by_round: dict[str, list[Flag]] = defaultdict(list)
    for f in flags:
        by_round[f.round_id].append(f)
    used: set[str] = set()
    for fault in faults:
        hit = next((f for f in by_round[fault.round_id] if f.flag_id not in used and matches(fault, f)), None)
        if hit is None:
            fn[fault.type] += 1
            mistakes.append(f"missed {fault.type}/{fault.subtype} round {fault.round_id} seat {fault.seat} "
                            f"{fault.spot} hand {fault.hand}: {fault.detail}")
        else:
            used.add(hit.flag_id)
            tp[fault.type] += 1
    for f in flags:
        if f.flag_id not in used:
            fp[f.type] += 1
            mistakes.append(f"false {f.type} round {f.round_id} seat {f.seat} {f.spot} hand {f.hand}: {f.detail}")
    return tp, fp, fn, mistakes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1001-1005", help="a range A-B or a comma list")
    ap.add_argument("--rounds", type=int, default=200, help="rounds per game and seed")
    ap.add_argument("--fault-rate", type=float, default=0.1, help="per round, per fault type")
    ap.add_argument("--show", type=int, default=10, help="mistakes to list")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if "-" in a.seeds:
        lo, hi = (int(x) for x in a.seeds.split("-"))
        seeds = list(range(lo, hi + 1))
    else:
        seeds = [int(x) for x in a.seeds.split(",")]
    tp, fp, fn = Counter(), Counter(), Counter()
    mistakes: list[str] = []
    t0 = time.perf_counter()
    n_rounds = 0
    for game in GAME_IDS:
        for seed in seeds:
            scripted, settings = script_session(game, a.rounds, seed, a.fault_rate)
            _, flags = reconcile([s.round for s in scripted], {"T1": settings})
            t, p, n, m = score([f for s in scripted for f in s.faults], flags)
            tp, fp, fn = tp + t, fp + p, fn + n
            mistakes += [f"{game} seed {seed}: {x}" for x in m]
            n_rounds += len(scripted)
    per_flag = {}
    for t in FLAG_TYPES:
        support = tp[t] + fn[t]
        if support == 0 and fp[t] == 0:
            continue
        precision = tp[t] / (tp[t] + fp[t]) if tp[t] + fp[t] else None
        recall = tp[t] / support if support else None
        per_flag[t] = {"precision": None if precision is None else round(precision, 4),
                       "recall": None if recall is None else round(recall, 4), "support": support,
                       "false_positives": fp[t]}
    print(f"{n_rounds} rounds ({len(GAME_IDS)} games x seeds {seeds[0]}..{seeds[-1]}), fault rate "
          f"{a.fault_rate}, {time.perf_counter() - t0:.0f} s")
    print(f"{'flag':<20}{'precision':>10}{'recall':>10}{'support':>9}{'false +':>9}")
    for t, v in per_flag.items():
        fmt = lambda x: "-" if x is None else f"{x:.4f}"  # noqa: E731
        print(f"{t:<20}{fmt(v['precision']):>10}{fmt(v['recall']):>10}{v['support']:>9}{v['false_positives']:>9}")
    for line in mistakes[: a.show]:
        print("  " + line)
    if len(mistakes) > a.show:
        print(f"  ... and {len(mistakes) - a.show} more mistakes")
    if a.json:
        print(json.dumps({"per_flag": per_flag, "rounds": n_rounds, "seeds": seeds,
                          "fault_rate": a.fault_rate}))


if __name__ == "__main__":
    main()
