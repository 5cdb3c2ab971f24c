"""Payouts read as more than they first were, against the time since the dealer's hand last lay over their spot:
whether the larger reading was the chips there (the simulator's scripted scene) or a box that was no chip.

Chips are laid by a hand, so a payout grows only as the hand leaves it; the round machines doubt a payout that
grows with no hand over its spot for `CHIPS_ADDED_S` (`RoundMachine._doubt_payouts_grown_unhanded`). This is the
measurement that bound rests on. Reads the sets `benchmarks/reconstruction.py --mode video --cache DIR` rendered
and looked at (the payouts come from the same replay, so its figures and these agree).

    python benchmarks/payout_growth.py --cache DIR [--sets king-high_r3_s11501_f0.2 ...] [--json]
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cached_sets import load_set, set_arguments, set_folders

SETTLE_FRAMES = 4  # the larger total is real where the scene holds it in one of this many frames from its first


def growths_of(folder: Path) -> list[tuple[float | None, bool]]:
    """(seconds since the hand last lay over the spot, or None for never since the payout was laid; whether the
    larger total was there) for each step a payout of the set grew by."""
    import reconstruction

    from pipelines.rounds import machine

    m = re.fullmatch(r"(.+)_r(\d+)_s(\d+)_f([\d.]+)", folder.name)
    if m is None:
        raise SystemExit(f"{folder}: not a set folder of benchmarks/reconstruction.py --cache (GAME_rN_sSEED_fRATE)")
    asked: dict[tuple[str, int], tuple[float, float | None]] = {}
    own = machine.RoundMachine._doubt_payouts_grown_unhanded

    def recorded(self: machine.RoundMachine, seen: list, live) -> None:  # every growth the machine weighs
        for ws in seen:
            for f, total, _, hand in self._growths_under_hand(ws):
                asked[(ws.payout.zone, f)] = (total, None if hand is None else (f - hand) / self.fps)
        own(self, seen, live)

    machine.RoundMachine._doubt_payouts_grown_unhanded = recorded
    try:
        reconstruction.cached_video(folder, m.group(1), int(m.group(2)), int(m.group(3)), float(m.group(4)))
    finally:
        machine.RoundMachine._doubt_payouts_grown_unhanded = own
    if not asked:
        return []
    _, scenes, mapper = load_set(folder)
    out = []
    for (zone, f), (total, since) in sorted(asked.items(), key=lambda kv: kv[0][1]):
        there = [mapper.observe_scene(s).get(zone) for s in scenes[f:f + SETTLE_FRAMES]]
        real = any(z is not None and abs(z.chip_total - total) < 0.005 for z in there)
        out.append((since, real))
        if not real:
            print(f"    {folder.name}: {zone} read as {total:g} from frame {f}, "
                  f"{'no hand since it was laid' if since is None else f'{since:.1f} s after the hand'}: no chip")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = set_arguments(__doc__)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    by_since: Counter = Counter()
    for folder in set_folders(args.cache, args.sets):
        got = growths_of(folder)
        by_since.update((None if s is None else round(s, 1), real) for s, real in got)
        print(f"{folder.name:32s} {len(got):>3d} payouts grew, {sum(not r for _, r in got):>2d} by a box that was "
              f"no chip", flush=True)
    print("seconds since the hand | grew by the chips there | by a box that was no chip")
    for since in sorted({s for s, _ in by_since}, key=lambda s: (s is None, s or 0.0)):
        label = "never since laid" if since is None else f"{since:.1f}"
        print(f"{label:>22s} | {by_since[(since, True)]:>23d} | {by_since[(since, False)]:>25d}")
    real = [s for (s, r), n in by_since.items() if r and s is not None for _ in range(n)]
    phantom = [s for (s, r), n in by_since.items() if not r and s is not None for _ in range(n)]
    print(f"real growth at most {max(real, default=0.0):.1f} s after the hand; no-chip growth at least "
          f"{min(phantom, default=float('nan')):.1f} s after it")
    if args.json:
        print(json.dumps({"real": sorted(real), "no_chip": sorted(phantom),
                          "no_hand_since_laid": {"real": by_since[(None, True)], "no_chip": by_since[(None, False)]}}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
