"""Training crops for the chip verifier, cut from simulated table video around the detector's own boxes.

The verifier's job is the detector's unsure chip boxes, so its data is what the detector proposes on
video (codec noise and all), labelled against the simulator's truth:
- a box centred on a chip that shows (a renderer label) takes that chip's denomination;
- a box whose centre is far from every chip on the table, hidden ones included, is `none` (a phantom:
  the gap between a wager and its payout, the felt past a row's end, a card's pip);
- anything between is left out, as neither answer would be honest;
- except that, with `matched` (generator 2), the detector's boxes are first paired one to one with the shown
  chips, nearest first: a box paired with a chip within half a side takes its denomination however far off
  its centre lies, and a box left over is `none` unless it sits on a chip too (a near-duplicate, left out).
  That is the phantom the detector draws over two chips' overlap, or just past a row's end, which the
  distances alone leave out: the box is half on a chip, but the chip already has its box.
Jittered boxes on true chips, and boxes slid off them, add the same two kinds of example beyond what one
detector happens to propose. Generator 3 adds gap boxes: a box midway between two shown chips a chip's gap
apart (a payout laid a step past its wager's top chip), where the detector draws a phantom that joins wager
and payout into one row; the detector proposes too few of them on its own for the verifier to learn them
(about 40 in a King High session of 4 rounds, against 3,000 real unsure chips).
Generator 4 adds past-top boxes: a box half a step or more past the top chip of a row, along the spread, where the
detector draws a phantom that the verifier confirmed as one more chip (a High Tie $300 Main read $400, a King High
$100 High read $200, both sure: thirty-second session). Such a box lies 0.2-0.35 of a side off the top chip, so
the pairing labels it `none`; the detector proposes too few for the verifier to have learnt them. The committed
weights predate it: weights trained with it (two per frame, a tenth of all crops) cured those rounds but turned
others wrong, and so did weights trained on a quarter of them (`--past-top-keep 0.25`), alone or averaged with the
committed weights (models/MODEL_CARD.md).
"""

from __future__ import annotations

import json
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from tqdm import tqdm

from .classes import CHIP_VALUES
from .crops import chip_crops
from .pairing import nearest_first

VERIFIER_CLASSES: tuple[str, ...] = ("none", *(f"chip_{v}" for v in CHIP_VALUES))
VERIFIER_IMGSZ = 40
SURE_KEEP = 0.15  # share of confident (>= 0.9) detector boxes kept: plentiful and easy
# The committed weights were trained with these. Tighter (0.15 / 0.25, so that a duplicate box half on a
# chip holds none) was tried: more rounds exact, but some wrong on a set used for no choice (RESULTS.md).
REAL_WITHIN = 0.25  # box centre within this many box sides of a shown chip's centre: that chip
PHANTOM_BEYOND = 0.5  # farther than this from every chip's centre: no chip


def box_truth(boxes: np.ndarray, shown: np.ndarray, shown_values: np.ndarray,
              every_chip: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per box (N, 4 xyxy): the distance to the nearest shown chip's centre and that chip's denomination,
    and the distance to the nearest chip of all, both in box sides.

    `shown` (M, 2) are centres of the chips the renderer labelled visible, `shown_values` their
    denominations; `every_chip` (K, 2) the centres of all chips on the table, hidden ones included."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    centres, side = _centres_and_sides(boxes)
    d_shown, j = _nearest(centres, shown)
    values = np.asarray(shown_values, int)[j] if len(shown_values) else np.zeros(len(boxes), int)
    return d_shown / side, values, _nearest(centres, every_chip)[0] / side


PAIR_WITHIN = 0.5  # a box paired with a chip within this many sides is that chip's one box
DUPLICATE_WITHIN = 0.2  # a box left unpaired this close to a chip looks like it: no honest label


def labels_from_truth(d_shown: np.ndarray, values: np.ndarray, d_all: np.ndarray,
                      real_within: float = REAL_WITHIN, phantom_beyond: float = PHANTOM_BEYOND,
                      matched: np.ndarray | None = None) -> np.ndarray:
    """Verifier class index per box from `box_truth`, or -1 where the truth is ambiguous.

    `matched` (1 paired, 0 left over, -1 not a detector box) refines the ambiguous middle (see the module's
    docstring)."""
    out = np.full(len(d_shown), -1, int)
    out[d_all > phantom_beyond] = 0
    real = d_shown < real_within
    if matched is not None:
        out[(matched == 0) & (d_all >= DUPLICATE_WITHIN)] = 0
        real = (real & (matched != 0)) | ((matched == 1) & (d_shown < PAIR_WITHIN))
    out[real] = [1 + CHIP_VALUES.index(int(v)) for v in values[real]]
    return out


def pair_boxes(boxes: np.ndarray, shown: np.ndarray, within: float = PAIR_WITHIN) -> np.ndarray:
    """1 for each box (N, 4 xyxy) paired one to one with a shown chip's centre (M, 2), nearest pairs first,
    within `within` box sides; 0 for the boxes left over."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    shown = np.asarray(shown, np.float64).reshape(-1, 2)
    if not len(boxes) or not len(shown):
        return np.zeros(len(boxes), int)
    centres, side = _centres_and_sides(boxes)
    d = np.linalg.norm(centres[:, None] - shown[None], axis=-1) / side[:, None]
    # greedy by distance: boxes on a chip's centre claim it first
    return (nearest_first(d, d < within) >= 0).astype(int)


def label_boxes(boxes: np.ndarray, shown: np.ndarray, shown_values: np.ndarray,
                every_chip: np.ndarray) -> np.ndarray:
    """Verifier class index per box, or -1 where the truth is ambiguous (see `box_truth`)."""
    return labels_from_truth(*box_truth(boxes, shown, shown_values, every_chip))


def _centres_and_sides(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Centres (N, 2) of xyxy boxes (N, 4) and their shorter sides, the unit distances are measured in."""
    side = np.maximum(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]), 1e-6)
    return (boxes[:, :2] + boxes[:, 2:]) / 2, side


def _nearest(points: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    targets = np.asarray(targets, np.float64).reshape(-1, 2)
    if not len(targets):
        return np.full(len(points), np.inf), np.zeros(len(points), int)
    d = np.linalg.norm(points[:, None, :] - targets[None], axis=-1)
    j = d.argmin(axis=1)
    return d[np.arange(len(points)), j], j


GAP_APART = (0.6, 1.05)  # two shown chips this many sides apart, centre to centre, leave a gap between them
GAP_PER_FRAME = 4


def gap_boxes(shown_boxes: np.ndarray, rng: np.random.Generator, per_frame: int = GAP_PER_FRAME) -> np.ndarray:
    """Boxes midway between pairs of shown chips (N, 4 xyxy) that lie a gap apart (`GAP_APART`), the size of
    the two, a little jittered; at most `per_frame` of them. Labelled as boxes left over by the pairing, they
    are `none` unless a chip (a hidden one, say) lies under the midpoint."""
    boxes = np.asarray(shown_boxes, np.float64).reshape(-1, 4)
    if len(boxes) < 2:
        return np.zeros((0, 4))
    centres, side = _centres_and_sides(boxes)
    d = np.linalg.norm(centres[:, None] - centres[None], axis=-1) / np.minimum(side[:, None], side[None])
    i, j = np.nonzero(np.triu((d >= GAP_APART[0]) & (d <= GAP_APART[1]), 1))
    if not len(i):
        return np.zeros((0, 4))
    pick = rng.choice(len(i), min(per_frame, len(i)), replace=False)
    i, j = i[pick], j[pick]
    mid = (boxes[i] + boxes[j]) / 2
    size = np.repeat((mid[:, 2:] - mid[:, :2]).mean(axis=1, keepdims=True), 4, axis=1)
    return mid + rng.normal(0, 0.04, mid.shape) * size


PAST_TOP_STEPS = (0.45, 0.8)  # a past-top box's centre lies this many spread steps beyond its row's top chip
PAST_TOP_PER_FRAME = 2


def past_top_boxes(tops_px: np.ndarray, steps_px: np.ndarray, side: float, rng: np.random.Generator,
                   per_frame: int = PAST_TOP_PER_FRAME) -> np.ndarray:
    """Boxes `side` wide centred `PAST_TOP_STEPS` of a step past rows' top chips: `tops_px` (K, 2) the top chips'
    centres, `steps_px` (K, 2) one spread step along each row, both in pixels; at most `per_frame` of them, a
    little jittered. Labelled as boxes the pairing left over, they are `none` unless a chip lies there."""
    tops = np.asarray(tops_px, np.float64).reshape(-1, 2)
    if not len(tops):
        return np.zeros((0, 4))
    pick = rng.choice(len(tops), min(per_frame, len(tops)), replace=False)
    along = rng.uniform(*PAST_TOP_STEPS, (len(pick), 1))
    centres = tops[pick] + along * np.asarray(steps_px, np.float64).reshape(-1, 2)[pick]
    boxes = np.concatenate([centres - side / 2, centres + side / 2], axis=1)
    return boxes + rng.normal(0, 0.04, boxes.shape) * side


def _row_tops(scene, camera, shown_centres: np.ndarray, side: float) -> tuple[np.ndarray, np.ndarray]:
    """The centres (px) of the scene's rows' top chips that show, and one spread step along each row (px)."""
    from pipelines.sim.render import CHIPS_PER_ROW, SPREAD_DIR, SPREAD_FRACTION, chip_positions
    from pipelines.sim.scene import CHIP_D_MM

    tops_mm = [pos[i] for st in scene.chips if (pos := chip_positions(st))
               for i in range(len(pos)) if i % CHIPS_PER_ROW == CHIPS_PER_ROW - 1 or i == len(pos) - 1]
    if not tops_mm or not len(shown_centres):
        return np.zeros((0, 2)), np.zeros((0, 2))
    tops_mm = np.array(tops_mm, np.float64)
    step_mm = SPREAD_FRACTION * CHIP_D_MM * np.asarray(SPREAD_DIR, np.float64)
    tops = camera.project(tops_mm)
    steps = camera.project(tops_mm + step_mm) - tops
    shows = _nearest(tops, shown_centres)[0] < 0.25 * side  # a top chip under a hand or card is no top seen
    return tops[shows], steps[shows]


def _extra_boxes(shown_boxes: np.ndarray, rng: np.random.Generator, per_frame: int) -> np.ndarray:
    """Jittered copies of some shown chips' boxes, and copies slid half to one chip across."""
    if not len(shown_boxes):
        return np.zeros((0, 4))
    pick = shown_boxes[rng.choice(len(shown_boxes), min(per_frame, len(shown_boxes)), replace=False)]
    side = (pick[:, 2:] - pick[:, :2]).mean(axis=1, keepdims=True)
    jitter = pick + rng.normal(0, 0.06, (len(pick), 4)) * np.repeat(side, 4, axis=1)
    angle = rng.uniform(0, 2 * np.pi, len(pick))
    shift = rng.uniform(0.5, 1.0, len(pick))[:, None] * side * np.stack([np.cos(angle), np.sin(angle)], axis=1)
    slid = pick + np.concatenate([shift, shift], axis=1)
    return np.concatenate([jitter, slid])


def session_crops(game: str, rounds: int, seed: int, fault_rate: float = 0.2, every: int = 2,
                  extra_per_frame: int = 3) -> dict[str, np.ndarray]:
    """Simulate one session, run the detector on every `every`th frame, and cut labelled crops."""
    from pipelines.games.layout import layout_for
    from pipelines.sim.camera import Camera
    from pipelines.sim.render import chip_positions, render
    from pipelines.sim.session import script_session, simulate_session

    from .capture import FrameSource
    from .detect import Detector, DetectorConfig

    rng = np.random.default_rng([seed, 77])
    layout = layout_for(game)
    camera = Camera.overhead(layout, np.random.default_rng([seed, 1]))
    scripted, _ = script_session(game, rounds, seed, fault_rate)
    scenes = [s for r in scripted for s in r.scenes]
    det = Detector(DetectorConfig(verifier_path=None))  # the detector's own proposals, unverified
    keys = ("x", "y", "conf", "det_class", "source", "d_shown", "value", "d_all", "matched")
    parts: dict[str, list] = {k: [] for k in keys}
    with tempfile.TemporaryDirectory() as tmp:
        truth = simulate_session(game, rounds, seed, tmp, fault_rate, progress=False)
        for f in FrameSource(str(Path(tmp) / truth.video), fps=truth.fps):
            if f.index % every:
                continue
            scene = scenes[f.index]
            _, labels = render(layout, scene, camera, np.random.default_rng(0), effects=False)
            chips = [lb for lb in labels if lb.cls.startswith("chip_")]
            shown_boxes = np.array([[lb.x1, lb.y1, lb.x2, lb.y2] for lb in chips]).reshape(-1, 4)
            shown_values = np.array([int(lb.cls[5:]) for lb in chips], int)
            every_mm = [p for s in scene.chips for p in chip_positions(s)]
            every_px = camera.project(np.array(every_mm).reshape(-1, 2)) if every_mm else np.zeros((0, 2))
            d = det.detect(f.image)
            is_chip = np.asarray(d.data["chip_value"]) > 0
            conf = np.asarray(d.confidence)[is_chip]
            keep = (conf < 0.9) | (rng.random(len(conf)) < SURE_KEEP)
            shown_centres = (shown_boxes[:, :2] + shown_boxes[:, 2:]) / 2
            chip_boxes = np.asarray(d.xyxy)[is_chip]
            paired = pair_boxes(chip_boxes, shown_centres)[keep]  # pairing sees every box, kept or not
            det_boxes = chip_boxes[keep]
            extra = _extra_boxes(shown_boxes, rng, extra_per_frame)
            gaps = gap_boxes(shown_boxes, rng)
            side = float(np.median(shown_boxes[:, 2:] - shown_boxes[:, :2])) if len(shown_boxes) else 0.0
            past = past_top_boxes(*_row_tops(scene, camera, shown_centres, side), side, rng)
            # a gap or past-top box is one no chip claims, as a detector's phantom left over by the pairing would be
            unclaimed = np.concatenate([gaps, past])
            boxes = np.concatenate([det_boxes, extra, unclaimed])
            matched = np.concatenate([paired, np.full(len(extra), -1), np.zeros(len(unclaimed), int)])
            dist = box_truth(boxes, shown_centres, shown_values, every_px)
            y = labels_from_truth(*dist, matched=matched)
            # Ambiguous boxes are kept with their distances, so labels can be redrawn without a rebuild.
            ok = (y >= 0) | (dist[0] < 0.5)
            for key, part in zip(("d_shown", "value", "d_all", "matched"), (*dist, matched), strict=True):
                parts[key].append(part[ok])
            parts["x"].append(chip_crops(f.image, boxes[ok], VERIFIER_IMGSZ))
            parts["y"].append(y[ok])
            parts["conf"].append(np.concatenate([conf[keep], np.ones(len(extra) + len(unclaimed))])[ok])
            det_cls = np.asarray(d.data["chip_value"])[is_chip][keep]
            parts["det_class"].append(np.concatenate([det_cls, np.zeros(len(extra) + len(unclaimed), int)])[ok])
            # source: 0 the detector's box, 1 jittered or slid off a chip, 2 a gap box, 3 a past-top box
            source = np.repeat([0, 1, 2, 3], [len(det_boxes), len(extra), len(gaps), len(past)])
            parts["source"].append(source[ok])
    return {k: np.concatenate(v) if v else np.zeros(0) for k, v in parts.items()}


def _job(args: tuple[str, int, int, float, int, Path]) -> dict:
    game, rounds, seed, fault_rate, every, out = args
    data = session_crops(game, rounds, seed, fault_rate, every)
    path = out / f"{game}_s{seed}.npz"
    np.savez_compressed(path, **data)
    return {"file": path.name, "crops": len(data["y"]), "none": int((data["y"] == 0).sum())}


def build_verifier_set(out: Path, games: tuple[str, ...], seeds: tuple[int, ...], rounds: int = 4,
                       fault_rate: float = 0.2, every: int = 2, workers: int = 2, progress: bool = True) -> dict:
    """One .npz of crops per (game, seed) session under `out`; returns counts (also in out/meta.json)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(g, rounds, s, fault_rate, every, out) for s in seeds for g in games]
    done = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for r in tqdm(pool.map(_job, jobs), total=len(jobs), desc="verifier sessions", disable=not progress):
            done.append(r)
    meta = {"games": list(games), "seeds": list(seeds), "rounds": rounds, "every": every, "sessions": done,
            "crops": sum(r["crops"] for r in done), "none": sum(r["none"] for r in done)}
    (out / "meta.json").write_text(json.dumps(meta, indent=2))
    return meta
