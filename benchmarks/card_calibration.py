"""How often a card reading is right, by the confidence the second looks gave it, on cached video sets.

Reads the sets `benchmarks/reconstruction.py --mode video --cache DIR` rendered and looked at (each set folder's
stored second looks, `looked_*.pkl`, and the scripted scenes they were rendered from). For every analysed frame, each
face-up card the zones read (not below the detector's confidence) is paired with the nearest face-up card of the
scripted scene in the same zone, within `PAIR_MM`, and counted right or wrong in its confidence band. A card read
wrong is mostly one a hand or another card half covers, read as a card of fewer pips for frames on end; what the
figures are for is where the card tracker (`pipelines/vision/track.py`) draws its lines: `card_sure_conf` (0.9) and
`CERTAIN_CARD_CONF`.

    python benchmarks/card_calibration.py --cache DIR [--sets high-tie_r3_s11762_f0.2 ...] [--json]
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cached_sets import load_set, set_arguments, set_folders

BANDS = (0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.9995, 1.0)  # lower bounds; the last band holds 0.9995-1.0
PAIR_MM = 12.0  # a card read this near a scripted card of its zone is that card (cards lie 50+ mm apart, fanned 15+)


def set_counts(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    """(readings, wrong readings) per confidence band (`BANDS`) of the set in `folder`."""
    looked, scenes, mapper = load_set(folder)
    conf: list[float] = []
    wrong: list[bool] = []
    for det, scene in zip(looked, scenes, strict=True):
        got, want = mapper.observe(det), mapper.observe_scene(scene)
        for zone, seen in got.items():
            truth = [c for c in (want[zone].cards if zone in want else ()) if c.face_up and c.card]
            if not truth:
                continue
            where = np.array([(t.x_mm, t.y_mm) for t in truth])
            for c in seen.cards:
                if not (c.face_up and c.card) or c.uncertain:
                    continue
                d = np.hypot(*(where - (c.x_mm, c.y_mm)).T)
                if d.min() <= PAIR_MM:
                    conf.append(c.confidence)
                    wrong.append(c.card != truth[int(d.argmin())].card)
    band = np.digitize(np.asarray(conf), BANDS[:-1]) - 1
    keep = band >= 0
    n = np.bincount(band[keep], minlength=len(BANDS) - 1)
    bad = np.bincount(band[keep], weights=np.asarray(wrong, float)[keep], minlength=len(BANDS) - 1)
    return n, bad.astype(int)


def main() -> None:
    args = set_arguments(__doc__).parse_args()
    total, wrong = np.zeros(len(BANDS) - 1, int), np.zeros(len(BANDS) - 1, int)
    for folder in set_folders(args.cache, args.sets):
        n, bad = set_counts(folder)
        total, wrong = total + n, wrong + bad
        print(f"{folder.name}: {int(n.sum())} card readings, {int(bad.sum())} wrong", file=sys.stderr)
    names = [f"{lo:g}-{hi:g}" for lo, hi in itertools.pairwise(BANDS)]
    print(f"{'confidence':<12}{'readings':>10}{'wrong':>8}{'right':>9}")
    for name, n, bad in zip(names, total, wrong, strict=True):
        print(f"{name:<12}{n:>10}{bad:>8}{(1 - bad / n if n else float('nan')):>9.4f}")
    if args.json:
        print(json.dumps({"bands": {name: {"readings": int(n), "wrong": int(bad)}
                                    for name, n, bad in zip(names, total, wrong, strict=True)}}))


if __name__ == "__main__":
    main()
