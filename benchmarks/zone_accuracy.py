"""Per frame and zone, the chip total the zones read from the stored second looks against the one they read from
the scripted scene of that frame (`ZoneMapper.observe_scene`: the perfect observation, less what the hand hides).

Reads the sets `benchmarks/reconstruction.py --mode video --cache DIR` rendered and looked at. A zone-frame counts
where either reading holds chips; it is wrong where the totals differ, `more` or `less` than the scene's. The
tracker debounces single frames and the round machines weigh readings over a round, so this is not the rounds'
accuracy; it is the zones' own, the figure a change to how chips are grouped into stacks should move
(`pipelines/vision/zones.py`). With --worst N, the N commonest wrong readings (set, zone, read, scene).

    python benchmarks/zone_accuracy.py --cache DIR [--sets king-high_r3_s11341_f0.2 ...] [--worst 20] [--json]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cached_sets import load_set, set_arguments, set_folders


def chip_totals(obs) -> dict[str, float]:
    return {z: o.chip_total for z, o in obs.items() if o.chips}


def zone_frames(folder: Path, worst: Counter) -> dict[str, int]:
    """{"zone_frames", "wrong", "more", "less"} over the set in `folder`; each wrong reading counted in `worst`."""
    looked, scenes, mapper = load_set(folder)
    out = Counter(zone_frames=0, wrong=0, more=0, less=0)
    for det, scene in tqdm(zip(looked, scenes, strict=True), total=len(looked), desc=folder.name, leave=False):
        got, want = chip_totals(mapper.observe(det)), chip_totals(mapper.observe_scene(scene))
        for z in got.keys() | want.keys():
            g, w = got.get(z, 0.0), want.get(z, 0.0)
            out["zone_frames"] += 1
            if abs(g - w) > 0.005:
                out["wrong"] += 1
                out["more" if g > w else "less"] += 1
                worst[(folder.name, z, g, w)] += 1
    return dict(out)


def main(argv: list[str] | None = None) -> int:
    ap = set_arguments(__doc__)
    ap.add_argument("--worst", type=int, default=0, help="print the N commonest wrong readings")
    args = ap.parse_args(argv)
    per_set: dict[str, dict[str, int]] = {}
    worst: Counter = Counter()
    for folder in set_folders(args.cache, args.sets):
        t = per_set[folder.name] = zone_frames(folder, worst)
        print(f"{folder.name:32s} {t['zone_frames']:>7d} zone-frames, wrong {t['wrong']:>5d} "
              f"({t['wrong'] / max(t['zone_frames'], 1):.2%}: more {t['more']}, less {t['less']})", flush=True)
    total = Counter()
    for t in per_set.values():
        total.update(t)
    print(f"{'total':32s} {total['zone_frames']:>7d} zone-frames, wrong {total['wrong']:>5d} "
          f"({total['wrong'] / max(total['zone_frames'], 1):.2%}: more {total['more']}, less {total['less']})")
    for (name, zone, got, want), n in worst.most_common(args.worst):
        print(f"    {n:>5d} frames  {name}  {zone}: read {got:g}, the scene {want:g}")
    if args.json:
        print(json.dumps({"total": dict(total), "per_set": per_set}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
