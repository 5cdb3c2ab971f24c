"""The chip boxes left unsure after the second looks, by where each lies in its row and what the chip verifier
says of it, against whether a chip is really there.

Reads the sets `benchmarks/reconstruction.py --mode video --cache DIR` rendered and looked at (each set folder's
ground truth and stored second looks, `looked_*.pkl`; the newest is taken). For every analysed frame, each chip box
still below the detector's confidence is placed in its row as the zones group them (`bottom`, `top`, `middle` of a
row of two or more, or `lone`), with the chip verifier's belief that it holds no chip as the second looks stored
it (`data["chip_none"]`, what the zones are given; a box the verifier does not look at, long and thin as a card's
edge reads, counts in no band), and is paired one to one, nearest first, with the chips of the scripted scene of
that frame (within half a box side: `chip_verifier_data.pair_boxes`, as the verifier's own labels are drawn):
paired, it is a real chip; left over, a phantom. A box counts once per frame.

What it is for: a rule that drops unsure boxes (chip_stacks.HOLLOW_NONE: inside a row, `none` at 0.7 or more) is safe
only where no real chip lies among them. The figures per place and `none` band say where that holds. A second table
counts the same boxes by their lasting `none` (lasting_none.py: the least of their place's last five readings, as
the zones keep it from the stored second looks), the evidence for chip_stacks.LASTING_NONE at a row's ends and alone.
A row's bottom box nearer the next than chip_stacks.NEAR_BOTTOM_STEPS counts apart ("near bottom"), the evidence for
chip_stacks.NEAR_BOTTOM_NONE.

    python benchmarks/unsure_chips.py --cache DIR [--sets king-high_r10_s9401_f0.2 ...] [--json]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cached_sets import load_set, set_arguments, set_folders

BANDS = (0.0, 0.5, 0.7, 0.8, 0.9, 1.01)  # the verifier's `none`: below 0.5 it leans to a denomination
PLACES = ("bottom", "near bottom", "middle", "top", "lone")
PAIR_STEPS = (0.0, 0.8, 0.9, 1.0)  # how near two boxes of one denomination lie, in steps of the spread
PAIR_NONE = (0.0, 0.15, 0.5, 1.01)  # the verifier's `none` on the less confident of the two


def _place(k: int, stacks, mm: np.ndarray, step_mm: float) -> str:
    """Where box `k` lies in its row; "near bottom": at its bottom, nearer the next box than
    `chip_stacks.NEAR_BOTTOM_STEPS` (the evidence for that rule)."""
    from pipelines.vision.chip_stacks import NEAR_BOTTOM_STEPS

    row = next((r for st in stacks for r in st.rows if k in r), ())
    if len(row) <= 1:
        return "lone"
    if row[0] == k:
        return "near bottom" if np.hypot(*(mm[k] - mm[row[1]])) < NEAR_BOTTOM_STEPS * step_mm else "bottom"
    return "top" if row[-1] == k else "middle"


def looked_frames(folder: Path):
    """The set in `folder`, frame by frame: (frame, its stored second looks, the indices of its chip boxes, their
    centres on the felt in mm, whether each is paired with a chip of the scripted scene, the zones' mapper)."""
    from pipelines.sim.render import chip_positions
    from pipelines.vision.chip_boxes import chip_centres
    from pipelines.vision.chip_verifier_data import pair_boxes

    looked, scenes, mapper = load_set(folder)
    for f, det in enumerate(looked):
        if "chip_none" not in det.data:
            raise SystemExit(f"{folder}: frame {f} carries no verifier `none` (looked at before the twenty-sixth "
                             "session's verifier; delete its looked_*.pkl and run benchmarks/reconstruction.py again)")
        chips = np.flatnonzero(np.asarray(det.data["chip_value"]) > 0)
        names = np.asarray(det.data["class_name"]).astype(str)
        cards = (names == "card") | np.char.startswith(names, "back_")
        mm = mapper.to_table(chip_centres(det.xyxy[chips], det.xyxy[cards]))
        truth = np.array([p for st in scenes[f].chips for p in chip_positions(st)]).reshape(-1, 2)
        yield f, det, chips, mm, pair_boxes(det.xyxy[chips], mapper.to_image(truth)), mapper


def set_rows(folder: Path) -> tuple[list[dict], list[dict]]:
    """The set in `folder`: one row per unsure chip box per frame, and one per pair of chip boxes of one
    denomination nearer than a step per frame (`_pairs_in`)."""
    from pipelines.vision.lasting_none import LastingNone

    memory = LastingNone()
    unsure_rows: list[dict] = []
    pairs: list[dict] = []
    for f, det, chips, mm, real, mapper in looked_frames(folder):
        none = np.asarray(det.data["chip_none"], np.float64)
        values = np.asarray(det.data["chip_value"])
        pairs += _pairs_in(f, det, chips, mm, real, mapper.spread.step_mm, mapper.spread.axes[0])
        # what the zones keep of the verifier's readings over frames (the stored second looks carry them)
        lasting = memory.update(mm, none[chips])
        unsure = [k for k in range(len(chips)) if det.data["uncertain"][chips[k]]]
        if not unsure:
            continue
        stacks = mapper.group_stacks(mm, values[chips])
        unsure_rows += [{"frame": f, "place": _place(k, stacks, mm, mapper.spread.step_mm),
                         "none": float(none[chips[k]]), "real": bool(real[k]), "lasting": float(lasting[k])}
                        for k in unsure]
    return unsure_rows, pairs


def _pairs_in(f: int, det, chips: np.ndarray, mm: np.ndarray, real: np.ndarray, step_mm: float,
              u_axis: np.ndarray) -> list[dict]:
    """A frame's pairs of chip boxes of one denomination nearer than a step: how near (in steps), and the less
    confident box's `none`, whether it lies past the other along the spread (`u_axis`) and whether it is a real chip
    (the evidence for chip_stacks.DUPLICATE_STEPS, DUPLICATE_NONE)."""
    values = np.asarray(det.data["chip_value"])[chips]
    conf = np.asarray(det.confidence, np.float64)[chips]
    none = np.asarray(det.data["chip_none"], np.float64)[chips]
    steps = np.linalg.norm(mm[:, None] - mm[None], axis=2) / step_mm
    u = mm @ u_axis
    out = []
    for a, b in zip(*np.nonzero(np.triu(steps < 1.0, 1) & (values[:, None] == values[None])), strict=True):
        weak, strong = (a, b) if conf[a] < conf[b] else (b, a)
        out.append({"frame": f, "steps": float(steps[a, b]), "none": float(none[weak]), "real": bool(real[weak]),
                    "past": bool(u[weak] > u[strong])})
    return out


def pair_tally(rows: list[dict]) -> dict:
    """{"STEPS past|behind": {none band: {"real": n, "phantom": n}}} of `_pairs_in`'s rows, by how near the two lie
    and whether the weaker lies past the other along the spread; `none` band "-" where the verifier did not look."""
    def band(x: float, bounds: tuple[float, ...]) -> str:
        if not np.isfinite(x):
            return "-"
        b = int(np.digitize(x, bounds)) - 1
        return f"{bounds[b]:g}-{min(bounds[b + 1], 1):g}"

    out: dict = {f"{band(s, PAIR_STEPS)} {side}": {"-": {"real": 0, "phantom": 0}} | {
        band(n, PAIR_NONE): {"real": 0, "phantom": 0} for n in PAIR_NONE[:-1]}
        for s in PAIR_STEPS[:-1] for side in ("past", "behind")}
    for r in rows:
        row = f"{band(r['steps'], PAIR_STEPS)} {'past' if r['past'] else 'behind'}"
        out[row][band(r["none"], PAIR_NONE)]["real" if r["real"] else "phantom"] += 1
    return out


def tally(rows: list[dict], key: str = "none") -> dict:
    """{place: {band: {"real": n, "phantom": n}}} of `key` (this frame's `none`, or the `lasting` one), bands named
    by their lower bound; a box without a lasting `none` yet counts in none of them."""
    c = Counter((r["place"], int(np.digitize(r[key], BANDS)) - 1, r["real"]) for r in rows if np.isfinite(r[key]))
    return {place: {f"{BANDS[b]:g}-{min(BANDS[b + 1], 1):g}": {"real": c[(place, b, True)],
                                                                "phantom": c[(place, b, False)]}
                    for b in range(len(BANDS) - 1)} for place in PLACES}


def _summed(tallies, empty: dict | None = None) -> dict:
    total = tally([]) if empty is None else empty
    for t in tallies:
        for place, bands in t.items():
            for band, n in bands.items():
                for k in ("real", "phantom"):
                    total[place][band][k] += n[k]
    return total


def _counts(bands: dict) -> str:
    """One printed row of a table: real / phantom per band."""
    return " ".join(f"{n['real']:>7d} / {n['phantom']:<6d}" for n in bands.values())


def main(argv: list[str] | None = None) -> int:
    ap = set_arguments(__doc__)
    args = ap.parse_args(argv)
    folders = set_folders(args.cache, args.sets)
    per_set, lasting, pairs = {}, {}, {}
    for folder in folders:
        rows, pair_rows = set_rows(folder)
        per_set[folder.name], lasting[folder.name] = tally(rows), tally(rows, "lasting")
        pairs[folder.name] = pair_tally(pair_rows)
        print(f"{folder.name}: {len(rows)} unsure chip boxes, {len(pair_rows)} near pairs (box-frames)", flush=True)
    total, total_lasting = _summed(per_set.values()), _summed(lasting.values())
    for title, t in (("this frame's none", total), ("lasting none", total_lasting)):
        print(f"{'place':8s} " + " ".join(f"{b:>16s}" for b in t["bottom"]) + f"   (real / phantom, by {title})")
        for place, bands in t.items():
            print(f"{place:8s} " + _counts(bands))
    total_pairs = _summed(pairs.values(), pair_tally([]))
    print(f"{'steps':14s} " + " ".join(f"{b:>16s}" for b in total_pairs["0-0.8 past"])
          + "   (near pairs of one denomination: the weaker box real / phantom, by the verifier's none on it)")
    for steps, bands in total_pairs.items():
        print(f"{steps:14s} " + _counts(bands))
    if args.json:
        print(json.dumps({"sets": list(per_set), "total": total, "total_lasting": total_lasting, "per_set": per_set,
                          "per_set_lasting": lasting, "near_pairs": total_pairs, "per_set_near_pairs": pairs}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
