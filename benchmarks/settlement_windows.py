"""Where the dealer's hand lay, as a witness of when each settlement was made: per set, the settlements the round
machines gave a window from the hand (`RoundMachine._under_the_hand`: `CoverLog.laid_within` for a payout,
`taken_within` for a stack taken) and how many of those windows hold the frame the simulator made it in.

A window that misses its frame can order two settlements wrongly; one too wide only leaves their order to the
manual. Reads the sets `benchmarks/reconstruction.py --mode video --cache DIR` rendered and looked at (the windows
come from the same replay, so its figures and these agree).

    python benchmarks/settlement_windows.py --cache DIR [--sets king-high_r3_s11501_f0.2 ...] [--json]
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cached_sets import set_arguments, set_folders

NEAR_FRAMES = 40  # a window is matched to the true settlement of its wager nearest the frame it was seen


def windows_of(folder: Path) -> Counter:
    """{"settlements", "with_window", "inside", "frames"} over the set: `frames` sums the windows' lengths."""
    import reconstruction

    from pipelines.rounds.machine import RoundMachine

    m = re.fullmatch(r"(.+)_r(\d+)_s(\d+)_f([\d.]+)", folder.name)
    if m is None:
        raise SystemExit(f"{folder}: not a set folder of benchmarks/reconstruction.py --cache (GAME_rN_sSEED_fRATE)")
    asked: dict[tuple, tuple[int, int]] = {}
    own = RoundMachine._under_the_hand

    def recorded(self: RoundMachine, ws) -> tuple[int, int] | None:  # the machine's own answer, kept as asked
        span = own(self, ws)
        if span is not None:
            asked[(ws.key, ws.settled_at)] = span
        return span

    RoundMachine._under_the_hand = recorded
    try:
        _, truth = reconstruction.cached_video(folder, m.group(1), int(m.group(2)), int(m.group(3)),
                                               float(m.group(4)))
    finally:
        RoundMachine._under_the_hand = own
    made = [((s.seat, s.spot, s.hand), s.frames.end) for r in truth for s in r.settlements
            if s.outcome in ("win", "lose", "returned")]
    out = Counter(settlements=len(made))
    for (key, seen), (first, last) in asked.items():
        near = [f for k, f in made if k == key and abs(f - seen) <= NEAR_FRAMES]
        if not near:
            continue
        frame = min(near, key=lambda f: abs(f - seen))
        out["with_window"] += 1
        out["inside"] += first <= frame <= last
        out["frames"] += last - first + 1
        if not first <= frame <= last:
            print(f"    {folder.name}: seat {key[0]} {key[1]} (hand {key[2]}) made at frame {frame}, "
                  f"window {first}-{last}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = set_arguments(__doc__)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    total: Counter = Counter()
    per_set = {}
    for folder in set_folders(args.cache, args.sets):
        t = per_set[folder.name] = dict(windows_of(folder))
        total.update(t)
        print(f"{folder.name:32s} {t['settlements']:>4d} settlements, {t.get('with_window', 0):>4d} with a window "
              f"from the hand, {t.get('inside', 0):>4d} holding the true frame", flush=True)
    n = max(total["with_window"], 1)
    print(f"all {len(per_set)} sets: {total['settlements']} settlements, {total['with_window']} with a window, "
          f"{total['inside']} ({total['inside'] / n:.2%}) holding the true frame; windows "
          f"{total['frames'] / n:.1f} frames long on average")
    if args.json:
        print(json.dumps({"total": dict(total), "per_set": per_set}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
