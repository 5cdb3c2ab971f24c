"""How long each row of chip boxes is against what its count of boxes spans, and whether that count was right:
the measurement `chip_stacks.IRREGULAR_STEPS` rests on.

Chips of one row lie a step apart, so n boxes span n - 1 steps, give or take the detector's jitter. A row shorter by
much more holds a box too many (the detector's second box on a chip) or one drawn off its chip; the zones read such a
row with doubt (`ChipStackObs.rows_regular`). For every row of three boxes or more that the zones assign a spot, on
every `--every`-th analysed frame of the sets `benchmarks/reconstruction.py --mode video --cache DIR` rendered and
looked at: how many steps short of n - 1 it is (in tenths), and whether its box count equals the chips the scripted
scene holds in that spot (right), exceeds it (a box too many) or falls short. Rows are taken as the zones group them
before a box too many is dropped from a short row of one denomination (`ZoneMapper._doubled_in_short_rows`); the
second table counts, for those rows, how often the scene held exactly one chip fewer than the boxes.

    python benchmarks/row_lengths.py --cache DIR [--sets NAME ...] [--every 2] [--json]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cached_sets import load_set, set_arguments, set_folders


def rows_of(folder: Path, every: int) -> tuple[Counter, Counter]:
    """{(steps short in tenths, "right" | "too many" | "too few"): rows} over the set's frames; and, for the rows of one
    denomination `IRREGULAR_STEPS` to `DOUBLED_STEPS` short, {"one too many" | "right" | "other": rows}."""
    from pipelines.vision import chip_stacks, zones

    looked, scenes, mapper = load_set(folder)
    seen: dict = {}
    own = zones.ZoneMapper._doubled_in_short_rows

    def kept(self: zones.ZoneMapper, stacks: list, pts: np.ndarray, values: np.ndarray, conf: np.ndarray):
        seen["stacks"] = (stacks, pts.copy(), values.copy())  # the frame's stacks before a short row loses a box
        return own(self, stacks, pts, values, conf)

    out: Counter = Counter()
    doubled: Counter = Counter()
    zones.ZoneMapper._doubled_in_short_rows = kept
    try:
        for i in range(0, len(looked), every):
            seen.clear()
            mapper.observe(looked[i])
            if "stacks" not in seen:
                continue
            stacks, pts, values = seen["stacks"]
            truth = mapper.observe_scene(scenes[i])
            u = pts @ mapper.spread.axes[0]
            for st in stacks:
                if st.zone is None or len(st.rows) != 1 or len(st.members) < 3:
                    continue
                row = list(st.rows[0])
                short = chip_stacks.row_shortfall(u[row], mapper.spread.step_mm)
                there = len(truth[st.zone].chips) if st.zone in truth else 0
                verdict = "right" if there == len(row) else "too many" if there < len(row) else "too few"
                out[(round(short, 1), verdict)] += 1
                one_kind = len(set(values[row].tolist())) == 1
                if chip_stacks.IRREGULAR_STEPS <= short < chip_stacks.DOUBLED_STEPS and one_kind:
                    doubled["one too many" if there == len(row) - 1 else "right" if there == len(row) else "other"] += 1
    finally:
        zones.ZoneMapper._doubled_in_short_rows = own
    return out, doubled


def main(argv: list[str] | None = None) -> int:
    from pipelines.vision.chip_stacks import DOUBLED_STEPS, IRREGULAR_STEPS

    ap = set_arguments(__doc__)
    ap.add_argument("--every", type=int, default=2, help="read every N-th analysed frame (default 2)")
    args = ap.parse_args(argv)
    total: Counter = Counter()
    doubled: Counter = Counter()
    for folder in set_folders(args.cache, args.sets):
        got, one_kind = rows_of(folder, args.every)
        total.update(got)
        doubled.update(one_kind)
        # s is rounded to a tenth: count the bins whose lower edge is at the bound or past it
        irregular = sum(n for (s, _), n in got.items() if round(s - 0.05, 2) >= IRREGULAR_STEPS)
        print(f"{folder.name:32s} {sum(got.values()):>6d} rows, {irregular:>4d} "
              f"{IRREGULAR_STEPS:g} of a step short or more", flush=True)
    print("steps short | right | a box too many | a box too few")
    for short in sorted({s for s, _ in total}):
        print(f"{short:>11.1f} | {total[(short, 'right')]:>5d} | {total[(short, 'too many')]:>14d} | "
              f"{total[(short, 'too few')]:>13d}")
    print(f"rows of one denomination {IRREGULAR_STEPS:g}-{DOUBLED_STEPS:g} steps short (a box dropped from them): "
          + ", ".join(f"{k} {doubled[k]}" for k in ("one too many", "right", "other")))
    if args.json:
        print(json.dumps({"by_steps_short": {f"{s:.1f}": {v: total[(s, v)] for v in ("right", "too many", "too few")}
                                             for s in sorted({s for s, _ in total})},
                          "one_denomination_short": {k: doubled[k] for k in ("one too many", "right", "other")}}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
