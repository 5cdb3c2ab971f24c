"""How often a card reading is right, by the confidence the second looks gave it, on cached video sets.

Reads the sets `benchmarks/reconstruction.py --mode video --cache DIR` rendered and looked at (each set folder's
stored second looks, `looked_*.pkl`, and the scripted scenes they were rendered from). For every analysed frame, each
face-up card the zones read (not below the detector's confidence) is paired with the nearest face-up card of the
scripted scene in the same zone, within `PAIR_MM`, and counted right or wrong in its confidence band. A card read
wrong is mostly one a hand or another card half covers, read as a card of fewer pips for frames on end; what the
figures are for is where the card tracker (`pipelines/vision/card_track.py`) draws its lines: `card_sure_conf` (0.9),
`CERTAIN_CARD_CONF`, and `CERTAIN_BOX_CONF`: each band is also split by the detector's confidence in the card's box
(`CardObs.box_confidence`), which a hand half over the card lowers while the classifier may still be sure. Last, the
commonest misreadings (truth read as what, over all bands), for the next training of the card classifiers to weigh.

    python benchmarks/card_calibration.py --cache DIR [--sets high-tie_r3_s11762_f0.2 ...] [--json]
"""

from __future__ import annotations

import itertools
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cached_sets import load_set, set_arguments, set_folders

from pipelines.vision.card_track import CERTAIN_BOX_CONF

BANDS = (0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.9995, 1.0)  # lower bounds; the last band holds 0.9995-1.0
PAIR_MM = 12.0  # a card read this near a scripted card of its zone is that card (cards lie 50+ mm apart, fanned 15+)
TOP_CONFUSIONS = 12


def set_counts(folder: Path) -> tuple[np.ndarray, np.ndarray, Counter, Counter]:
    """(readings, wrong readings) per confidence band (`BANDS`, rows) and box (columns: the detector's confidence in
    the box at `CERTAIN_BOX_CONF` or more, below it) of the set in `folder`; then the readings of each true card and
    of each (true card, card read) pair read wrong, over all bands."""
    looked, scenes, mapper = load_set(folder)
    conf: list[float] = []
    low_box: list[bool] = []
    pairs: list[tuple[str, str]] = []  # (true card, card read) of each reading
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
                    low_box.append(c.box_confidence < CERTAIN_BOX_CONF)
                    pairs.append((truth[int(d.argmin())].card, c.card))
    wrong = np.array([t != r for t, r in pairs], float)
    band = np.digitize(np.asarray(conf), BANDS[:-1]) - 1
    keep = band >= 0
    kept = [p for p, k in zip(pairs, keep, strict=True) if k]
    read = Counter(t for t, _ in kept)
    misread = Counter(p for p in kept if p[0] != p[1])
    cell = band[keep] * 2 + np.asarray(low_box, int)[keep]
    size = 2 * (len(BANDS) - 1)
    n = np.bincount(cell, minlength=size).reshape(-1, 2)
    bad = np.bincount(cell, weights=wrong[keep], minlength=size).reshape(-1, 2)
    return n, bad.astype(int), read, misread


def main() -> None:
    args = set_arguments(__doc__).parse_args()
    total, wrong = np.zeros((len(BANDS) - 1, 2), int), np.zeros((len(BANDS) - 1, 2), int)
    read: Counter = Counter()
    misread: Counter = Counter()
    for folder in set_folders(args.cache, args.sets):
        n, bad, r, m = set_counts(folder)
        total, wrong = total + n, wrong + bad
        read.update(r)
        misread.update(m)
        print(f"{folder.name}: {int(n.sum())} card readings, {int(bad.sum())} wrong", file=sys.stderr)
    names = [f"{lo:g}-{hi:g}" for lo, hi in itertools.pairwise(BANDS)]
    box = f"box {CERTAIN_BOX_CONF:g}+"
    print(f"{'':<12}{'all':>27}{box:>27}{'box below':>27}")
    print(f"{'confidence':<12}" + f"{'readings':>10}{'wrong':>8}{'right':>9}" * 3)
    for name, n, bad in zip(names, total, wrong, strict=True):
        cells = [(n.sum(), bad.sum()), (n[0], bad[0]), (n[1], bad[1])]
        print(f"{name:<12}" + "".join(f"{k:>10}{b:>8}{(1 - b / k if k else float('nan')):>9.4f}" for k, b in cells))
    confusions = [{"card": t, "read_as": r, "readings": k, "of": read[t], "share": round(k / read[t], 4)}
                  for (t, r), k in misread.most_common(TOP_CONFUSIONS)]
    print("\ncommonest misreadings (all bands):")
    for c in confusions:
        print(f"  {c['card']} read {c['read_as']}: {c['readings']} of {c['of']} readings ({c['share']:.2%})")
    if args.json:
        print(json.dumps({"box_conf": CERTAIN_BOX_CONF, "bands": {
            name: {"readings": int(n.sum()), "wrong": int(bad.sum()), "box_below_readings": int(n[1]),
                   "box_below_wrong": int(bad[1])}
            for name, n, bad in zip(names, total, wrong, strict=True)}, "confusions": confusions}))


if __name__ == "__main__":
    main()
