"""Detector accuracy on held-out simulated frames (seeds never used in training).

Three sets: frames from scripted sessions of every game (the tables as dealt), scattered random scenes
(overlapping fans, sideways cards, crowded spots) and High Tie tables with split hands laid in cascades (each card
a third of a card over the one before) — the hard cases, reported separately. Prints mAP50-95
per detector class, card identity accuracy (rank and suit exactly right, over every visible face, a face
missed by the detector counting as wrong), chip denomination accuracy, and the confusion pairs that remain.
The hard cases within each set are reported apart too: cards overlapped by another card's box, and cards
and chips partly covered (by the dealer's hand or arm, a chip, another card; the renderer labels an object
until more than 60 % of it is covered) against those with nothing over them, and among the uncovered chips
those lying over a card's edge (the detector's blind spot).

    python benchmarks/detector_accuracy.py [--frames-per-game 40] [--scattered 40] [--json]
    python benchmarks/detector_accuracy.py --detector models/detector_fast.onnx   # the fast profile
    python benchmarks/detector_accuracy.py --frames-per-game 30 --scattered 30 --card-errors errors.jpg
        # and every card read wrong, drawn: what the classifiers saw beside the table around it
    python benchmarks/detector_accuracy.py --frames-per-game 30 --scattered 30 --dealt-sets 7 --json
        # the tables as dealt from seven independent sessions per game (4,042 cards instead of 644)
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from itertools import chain
from pathlib import Path

import cv2
import numpy as np
import supervision as sv
from supervision.metrics import MeanAveragePrecision
from tqdm import tqdm

from pipelines.games.cards import DECK
from pipelines.games.layout import layout_for
from pipelines.games.round import GAME_IDS
from pipelines.sim.camera import Camera
from pipelines.sim.random_scenes import random_scene
from pipelines.sim.render import covered_fractions, render
from pipelines.sim.render_scenes import random_scene as table_scene
from pipelines.sim.session import sampled_scenes
from pipelines.vision.cascade_cards_data import with_split_hands
from pipelines.vision.chip_boxes import over_cards
from pipelines.vision.classes import DET_CLASSES, det_class_of
from pipelines.vision.crops import card_crop
from pipelines.vision.detect import Detector, DetectorConfig

HELD_OUT_SEED = 90_001  # training used seeds 1 and 2
DEALT_SET_STEP = 100  # the seeds of further dealt sets (--dealt-sets) step by this; each game takes seed + k


def held_out_frames(frames_per_game: int, scattered: int, seed: int, split_hands: int = 0):
    """Yield (set name, frame, labels, each label's covered fraction): the tables as dealt, scattered scenes, and
    High Tie tables with split hands laid in cascades (`cascade_cards_data.with_split_hands`: the middle cards show
    as strips)."""
    rng = np.random.default_rng(seed)
    for k, game in enumerate(GAME_IDS):
        layout = layout_for(game)
        scenes = sampled_scenes(game, 6, seed + k, frames_per_game)
        cam = Camera.overhead(layout, rng=rng)
        for scene in scenes:
            frame, labels = render(layout, scene, cam, rng)
            yield "dealt", frame, labels, covered_fractions(layout, scene, cam)
    for i in range(scattered):
        layout = layout_for(GAME_IDS[i % len(GAME_IDS)])
        cam = Camera.overhead(layout, rng=rng)
        scene = random_scene(layout, rng)
        frame, labels = render(layout, scene, cam, rng)
        yield "scattered", frame, labels, covered_fractions(layout, scene, cam)
    layout = layout_for("high-tie")
    for _ in range(split_hands):
        cam = Camera.overhead(layout, rng=rng)
        scene, _ = with_split_hands(table_scene(layout, rng, occluders=int(rng.integers(0, 2))), layout, rng)
        frame, labels = render(layout, scene, cam, rng)
        yield "split hands", frame, labels, covered_fractions(layout, scene, cam)


def _iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return sv.box_iou_batch(a, b) if len(a) and len(b) else np.zeros((len(a), len(b)))


def _matched_one_to_one(iou: np.ndarray, min_iou: float) -> int:
    """How many (true, predicted) pairs a greedy one-to-one matching by IoU makes."""
    pairs = sorted(((iou[i, j], i, j) for i, j in zip(*np.nonzero(iou >= min_iou), strict=True)), reverse=True)
    used_t, used_p = set(), set()
    for _, i, j in pairs:
        if i not in used_t and j not in used_p:
            used_t.add(i)
            used_p.add(j)
    return len(used_t)


def _overlapped(boxes: np.ndarray) -> np.ndarray:
    """Cards whose box overlaps another card's box by more than 10 % of its area."""
    if len(boxes) < 2:
        return np.zeros(len(boxes), bool)
    x1 = np.maximum(boxes[:, None, 0], boxes[None, :, 0])
    y1 = np.maximum(boxes[:, None, 1], boxes[None, :, 1])
    x2 = np.minimum(boxes[:, None, 2], boxes[None, :, 2])
    y2 = np.minimum(boxes[:, None, 3], boxes[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    np.fill_diagonal(inter, 0)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return (inter.max(1) / np.maximum(area, 1)) > 0.10


BANDS = (0.25, 0.35, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8, 0.9, 1.01)  # detector confidence bands


class Tally:
    def __init__(self) -> None:
        self.c = Counter()
        self.bands: Counter = Counter()  # (kind, band index, right?) -> predictions
        self.card_confusions: Counter = Counter()
        self.cards_by_covered: Counter = Counter()  # (covered band index, right?) -> cards
        self.chip_confusions: Counter = Counter()

    def frac(self, ok: str, n: str) -> float | None:
        return self.c[ok] / self.c[n] if self.c[n] else None


TILE = 160  # px of each half of a card-error tile


def error_tile(frame: np.ndarray, true_box: np.ndarray, read_box: np.ndarray | None, text: str) -> np.ndarray:
    """One card the detector read wrong: the crop its classifiers read (`read_box`; the true box where no box
    was found), enlarged, beside the table around the card, captioned with `text`."""
    box = true_box if read_box is None else read_box
    crop = card_crop(frame, box, TILE)
    x1, y1, x2, y2 = np.asarray(true_box).astype(int)
    pad = max(x2 - x1, y2 - y1)
    around = frame[max(0, y1 - pad):y2 + pad, max(0, x1 - pad):x2 + pad]
    tile = np.hstack([crop, cv2.resize(around, (TILE, TILE), interpolation=cv2.INTER_AREA)])
    cv2.rectangle(tile, (0, 0), (2 * TILE, 18), (0, 0, 0), -1)
    cv2.putText(tile, text, (4, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 255, 255), 1, cv2.LINE_AA)
    return tile


def write_sheet(tiles: list[np.ndarray], path: Path, columns: int = 4) -> None:
    """The tiles in rows of `columns` (a blank tile fills the last row), as one PNG."""
    blank = np.zeros((TILE, 2 * TILE, 3), np.uint8)
    tiles = tiles or [blank]
    rows = [tiles[i:i + columns] + [blank] * (columns - len(tiles[i:i + columns]))
            for i in range(0, len(tiles), columns)]
    cv2.imwrite(str(path), np.vstack([np.hstack(r) for r in rows]))


def evaluate(det: Detector, frames, tallies: dict[str, Tally], maps: dict[str, MeanAveragePrecision],
             error_tiles: list[np.ndarray] | None = None) -> None:
    """Tally each held-out frame; with `error_tiles`, a tile (`error_tile`) of every card read wrong too."""
    for set_name, frame, labels, covered in frames:
        t = tallies[set_name]
        pred = det.detect(frame)
        gt_boxes = np.array([lb[1:] for lb in labels], np.float32).reshape(-1, 4)
        gt_names = [lb[0] for lb in labels]
        gt_cls = np.array([DET_CLASSES.index(det_class_of(n)) for n in gt_names], int)
        target = sv.Detections(xyxy=gt_boxes, class_id=gt_cls)
        maps[set_name].update(pred, target)
        iou = _iou(gt_boxes, pred.xyxy)
        card_idx = np.array([i for i, n in enumerate(gt_names) if n in DECK], int)
        overlapped = dict(zip(card_idx, _overlapped(gt_boxes[card_idx]), strict=True)) if len(card_idx) else {}
        # Uncovered chips lying over a card's edge: the detector's blind spot, counted apart.
        on_card = over_cards(gt_boxes, np.array([n.startswith("chip_") for n in gt_names], bool))
        # A predicted chip matching no true chip (a duplicate box, a chip seen twice) adds to a stack's total.
        pred_chip = np.char.startswith(np.asarray(pred.data["class_name"]).astype(str), "chip_")
        gt_chip = np.array([n.startswith("chip_") for n in gt_names], bool)
        chip_iou = iou[gt_chip][:, pred_chip] if iou.size else np.zeros((gt_chip.sum(), pred_chip.sum()))
        t.c["chip_pred"] += int(pred_chip.sum())
        t.c["chip_extra"] += int((chip_iou.max(0) < 0.5).sum()) if chip_iou.shape[0] else int(pred_chip.sum())
        # A second box on one card (or a face and a back on it) is a card too many in its zone.
        t.c["card_pred"] += int((~pred_chip).sum())
        t.c["card_extra"] += int((~pred_chip).sum()) - _matched_one_to_one(iou[~gt_chip][:, ~pred_chip], 0.3)
        _calibrate(t, pred, gt_names, iou)
        for i, name in enumerate(gt_names):
            candidates = np.flatnonzero(iou[i] >= 0.5) if iou.size else np.array([], int)
            best = candidates[np.argmax(iou[i, candidates])] if len(candidates) else None
            if name in DECK:
                got = pred.data["card"][best] if best is not None else "(missed)"
                ok = got == name
                for group in ("card", "card_overlapped" if overlapped[i] else "card_clear",
                              _covered_group("card", covered[i])):
                    t.c[f"{group}_n"] += 1
                    t.c[f"{group}_ok"] += ok
                t.cards_by_covered[(_covered_band(covered[i]), bool(ok))] += 1
                if not ok:
                    t.card_confusions[(name, got or "(unread)")] += 1
                    if error_tiles is not None:
                        conf = f" {pred.data['card_confidence'][best]:.2f}" if best is not None else ""
                        error_tiles.append(error_tile(frame, gt_boxes[i], None if best is None else pred.xyxy[best],
                                                      f"{set_name} {name}->{got or '?'} cov {covered[i]:.2f}{conf}"))
            elif name.startswith("chip_"):
                got = pred.data["class_name"][best] if best is not None else "(missed)"
                groups = ["chip", _covered_group("chip", covered[i])]
                if on_card[i] and not covered[i]:
                    groups.append("chip_on_card")
                for group in groups:
                    t.c[f"{group}_n"] += 1
                    t.c[f"{group}_ok"] += got == name
                if got != name:
                    t.chip_confusions[(name, got)] += 1


def _covered_group(kind: str, fraction: float) -> str:
    """Tally group of an object by how much of it is covered (the renderer samples 36 points on it)."""
    return f"{kind}_covered" if fraction > 0 else f"{kind}_uncovered"


# How much of a card is covered, in bands: the renderer labels a card until more than 60 % of it is covered.
COVERED_BANDS = (0.0, 0.2, 0.4, 0.6)


def _covered_band(fraction: float) -> int:
    """0 for a card with nothing over it, else the band (COVERED_BANDS[k-1], COVERED_BANDS[k]] it falls in."""
    return 0 if fraction <= 0 else min(int(np.searchsorted(COVERED_BANDS, fraction)), len(COVERED_BANDS) - 1)


def cards_by_covered(t: Tally) -> list[dict]:
    """Card identity per covered band: where the cards the target misses lie."""
    rows = []
    for k in range(len(COVERED_BANDS)):
        ok, bad = t.cards_by_covered[(k, True)], t.cards_by_covered[(k, False)]
        if ok + bad:
            rows.append({"covered_from": COVERED_BANDS[k - 1] if k else 0.0, "covered_to": COVERED_BANDS[k],
                         "n": ok + bad, "accuracy": round(ok / (ok + bad), 4)})
    return rows


def _calibrate(t: Tally, pred: sv.Detections, gt_names: list[str], iou: np.ndarray) -> None:
    """Per confidence band, how many predicted chips and card faces were right: a chip on a true chip of
    its denomination, a face on a true card it reads correctly (what `uncertain_below` should follow)."""
    if not len(pred):
        return
    band = np.clip(np.searchsorted(BANDS, pred.confidence, side="right") - 1, 0, len(BANDS) - 2)
    for j, cls in enumerate(pred.data["class_name"]):
        kind = "chip" if cls.startswith("chip_") else "card" if cls == "card" else None
        if kind is None:
            continue
        best = int(np.argmax(iou[:, j])) if iou.size else -1
        hit = best >= 0 and iou[best, j] >= 0.5
        want = cls if kind == "chip" else pred.data["card"][j]
        t.bands[(kind, int(band[j]), bool(hit and gt_names[best] == want))] += 1


# The hard cases apart: JSON key (its accuracy under KEY_accuracy, singular) -> tally group.
HARD_CASES = {"clear_cards": "card_clear", "overlapped_cards": "card_overlapped", "uncovered_cards": "card_uncovered",
              "covered_cards": "card_covered", "uncovered_chips": "chip_uncovered", "covered_chips": "chip_covered",
              # uncovered chips lying over a card's edge (a subset of uncovered_chips)
              "chips_on_cards": "chip_on_card"}


def _hard_cases(t: Tally) -> dict:
    out: dict = {}
    for key, group in HARD_CASES.items():
        out[key] = t.c[f"{group}_n"]
        out[f"{key[:-1]}_accuracy"] = t.frac(f"{group}_ok", f"{group}_n")
    return out


def calibration(t: Tally) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for kind in ("chip", "card"):
        rows = []
        for b in range(len(BANDS) - 1):
            ok, bad = t.bands[(kind, b, True)], t.bands[(kind, b, False)]
            if ok + bad:
                rows.append({"from": BANDS[b], "to": min(BANDS[b + 1], 1.0), "n": ok + bad,
                             "precision": round(ok / (ok + bad), 4)})
        out[kind] = rows
    return out


def _card_errors(confusions: Counter) -> dict[str, int]:
    """The wrong cards by kind: read as another card, left unread (the classifier unsure), or not found."""
    out = {"misread": 0, "unread": 0, "missed": 0}
    for (_, got), n in confusions.items():
        out[got[1:-1] if got in ("(unread)", "(missed)") else "misread"] += n
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames-per-game", type=int, default=40)
    ap.add_argument("--scattered", type=int, default=40)
    ap.add_argument("--split-hands", type=int, default=30, help="High Tie frames with split hands in cascades")
    ap.add_argument("--seed", type=int, default=HELD_OUT_SEED)
    ap.add_argument("--dealt-sets", type=int, default=1,
                    help="tables as dealt from this many independent sessions per game (seeds --seed, +100, +200, ...):"
                         " one card in 644 moves one set's card identity by 0.0016")
    ap.add_argument("--conf", type=float, default=DetectorConfig().conf, help="detector confidence threshold")
    ap.add_argument("--chip-iou", type=float, default=DetectorConfig().chip_iou,
                    help="NMS IoU among chips of any denomination")
    ap.add_argument("--card-iou", type=float, default=DetectorConfig().card_iou,
                    help="NMS IoU among card faces and backs")
    ap.add_argument("--no-verifier", action="store_true", help="the detector's chips without the chip verifier")
    ap.add_argument("--detector", type=Path, default=DetectorConfig().detector_path,
                    help="detector weights (ONNX): models/detector_fast.onnx for the fast profile")
    ap.add_argument("--classifier", type=Path, default=DetectorConfig().classifier_path,
                    help="card classifier weights (ONNX), e.g. a fine-tuned one before it replaces models/'s")
    ap.add_argument("--second-classifier", type=Path, default=DetectorConfig().second_classifier_path,
                    help="the classifier that looks again at cards the first is unsure of")
    ap.add_argument("--no-second-look", action="store_true", help="the first card classifier alone")
    ap.add_argument("--edge-chips", type=Path, default=DetectorConfig().edge_chips_path,
                    help="card-edge chip finder weights (ONNX), e.g. a new one before it replaces models/'s")
    ap.add_argument("--no-edge-chips", action="store_true", help="the detector's chips without the card-edge finder")
    ap.add_argument("--edge-chips-conf", type=float, default=DetectorConfig().edge_chips_conf,
                    help="the card-edge finder's confidence threshold")
    ap.add_argument("--card-finder", type=Path, default=DetectorConfig().card_finder_path,
                    help="cascade card finder weights (ONNX), e.g. a new one before it replaces models/'s")
    ap.add_argument("--no-card-finder", action="store_true", help="the detector's cards without the card finder")
    ap.add_argument("--card-errors", type=Path, metavar="PNG",
                    help="also draw every card read wrong: the crop the classifiers read beside the table around it")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    verifier = {"verifier_path": None} if args.no_verifier else {}
    second = None if args.no_second_look else args.second_classifier
    det = Detector(DetectorConfig(detector_path=args.detector, classifier_path=args.classifier, conf=args.conf,
                                  chip_iou=args.chip_iou, card_iou=args.card_iou, second_classifier_path=second,
                                  edge_chips_path=None if args.no_edge_chips else args.edge_chips,
                                  edge_chips_conf=args.edge_chips_conf,
                                  card_finder_path=None if args.no_card_finder else args.card_finder, **verifier))
    sets = {"dealt": args.frames_per_game * len(GAME_IDS) * args.dealt_sets, "scattered": args.scattered,
            "split hands": args.split_hands}
    tallies = {name: Tally() for name in sets}
    maps = {name: MeanAveragePrecision() for name in sets}
    total = sum(sets.values())
    tiles: list[np.ndarray] | None = [] if args.card_errors else None
    frames = chain(*(held_out_frames(args.frames_per_game, 0, args.seed + DEALT_SET_STEP * j) for j in
                     range(1, args.dealt_sets)),
                   held_out_frames(args.frames_per_game, args.scattered, args.seed, args.split_hands))
    evaluate(det, tqdm(frames, total=total, desc="held-out frames"), tallies, maps, tiles)
    if tiles is not None:
        write_sheet(tiles, args.card_errors)
        print(f"{len(tiles)} cards read wrong drawn to {args.card_errors}")
    out: dict = {"seed": args.seed, "dealt_sets": args.dealt_sets, "detector": str(args.detector),
                 "classifier": str(args.classifier),
                 "second_classifier": str(second) if second else None,
                 "edge_chips": None if args.no_edge_chips or not args.edge_chips else str(args.edge_chips),
                 "card_finder": None if args.no_card_finder or not args.card_finder else str(args.card_finder),
                 "imgsz": det.config.imgsz, "sets": {}}
    for name, t in tallies.items():
        if not sets[name]:
            continue
        m = maps[name].compute()
        per_class = {DET_CLASSES[int(c)]: round(float(ap_row.mean()), 4)
                     for c, ap_row in zip(m.matched_classes, m.ap_per_class, strict=True)}
        out["sets"][name] = {
            "frames": sets[name],
            "map50_95": round(float(m.map50_95), 4), "map50": round(float(m.map50), 4),
            "map50_95_per_class": per_class,
            "cards": t.c["card_n"], "card_identity_accuracy": t.frac("card_ok", "card_n"),
            "chips": t.c["chip_n"], "chip_denomination_accuracy": t.frac("chip_ok", "chip_n"),
            **_hard_cases(t),
            "chips_predicted": t.c["chip_pred"], "chip_false_positive_rate": t.frac("chip_extra", "chip_pred"),
            "cards_predicted": t.c["card_pred"], "card_duplicate_rate": t.frac("card_extra", "card_pred"),
            "calibration": calibration(t),
            "card_identity_by_covered": cards_by_covered(t),
            # A misread can make a round wrong; an unread or missed card only sends it to review.
            "card_errors": _card_errors(t.card_confusions),
            "card_confusions": [f"{a}->{b} x{n}" for (a, b), n in t.card_confusions.most_common(12)],
            "chip_confusions": [f"{a}->{b} x{n}" for (a, b), n in t.chip_confusions.most_common(8)],
        }
    for name, s in out["sets"].items():
        print(f"\n== {name} frames ({s['frames']}) ==")
        print(f"mAP50-95 {s['map50_95']:.3f}   mAP50 {s['map50']:.3f}")
        print("mAP50-95 per class: " + ", ".join(f"{k} {v:.3f}" for k, v in s["map50_95_per_class"].items()))
        for key in ("card_identity_accuracy", "clear_card_accuracy", "overlapped_card_accuracy",
                    "uncovered_card_accuracy", "covered_card_accuracy", "chip_denomination_accuracy",
                    "uncovered_chip_accuracy", "covered_chip_accuracy", "chips_on_card_accuracy"):
            v = s[key]
            print(f"{key:<28} {'n/a' if v is None else f'{v:.4f}'}")
        print(f"chip false positives (no true chip under the box): {s['chip_false_positive_rate']:.4f} of "
              f"{s['chips_predicted']} predicted")
        print(f"card boxes with no card of their own (duplicates, false cards): {s['card_duplicate_rate']:.4f} "
              f"of {s['cards_predicted']} predicted")
        print(f"cards {s['cards']} (clear {s['clear_cards']}, overlapped {s['overlapped_cards']}; uncovered "
              f"{s['uncovered_cards']}, covered {s['covered_cards']}), chips {s['chips']} (uncovered "
              f"{s['uncovered_chips']}, covered {s['covered_chips']})")
        for kind, rows in s["calibration"].items():
            print(f"{kind} precision by detector confidence: " + ", ".join(
                f"[{r['from']:.2f},{r['to']:.2f}) {r['precision']:.3f} (n={r['n']})" for r in rows))
        print("card identity by share covered: " + ", ".join(
            (f"({r['covered_from']:.1f},{r['covered_to']:.1f}]" if r["covered_to"] else "none")
            + f" {r['accuracy']:.3f} (n={r['n']})" for r in s["card_identity_by_covered"]))
        print("card errors: " + ", ".join(f"{k} {v}" for k, v in s["card_errors"].items()))
        print("card confusions: " + "; ".join(s["card_confusions"]))
        print("chip confusions: " + "; ".join(s["chip_confusions"]))
    dealt = out["sets"].get("dealt", {})
    out["card_identity_accuracy"] = dealt.get("card_identity_accuracy")
    out["chip_denomination_accuracy"] = dealt.get("chip_denomination_accuracy")
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
