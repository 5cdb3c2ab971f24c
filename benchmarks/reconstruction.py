"""Round reconstruction accuracy: simulated sessions of every game against their ground truth.

Per game, a session on held-out seeds (never used for detector training or tests) is reconstructed and
each true round is classed exact (every card the camera could see, wager, decision and observed
settlement agree), wrong, or incomplete (the machine said it was unsure). See pipelines/rounds/compare.py.

  --mode perfect   the simulator's scenes through ZoneMapper.observe_scene (what the camera would label,
                   occlusions included) and the ZoneTracker: no rendering, no detector
  --mode video     rendered frames through the detector (slow; use --rounds)
  --cache DIR      (video) keep each game's rendered session and every frame's detections under DIR and
                   reuse them: the first run costs what a plain one does, later runs (after a change to
                   zones, tracker or state machines) take about a minute. Frames are then analysed
                   without motion gating, since the detections of every frame are at hand. The cache
                   holds the detector's own boxes; the second looks (the card-edge chip finder, the chip
                   verifier) are taken at replay, so a new finder or verifier needs no new cache
                   (--no-verifier measures without either; --edge-chips FILE / --no-edge-chips choose
                   the finder, in replay and --live alike). The boxes are stored per detector and card
                   classifier weights (detections_KEY.pkl). What the second looks and the empty-table
                   filter give is stored too (looked_KEY.pkl, KEY a hash of the detector's settings,
                   weights and the code that runs them), so a change to the zones, the tracker or the
                   round machines replays a set in about ten seconds. Both are linked under a key without
                   the card classifiers (boxes_KEY.pkl, looked_boxes_KEY.pkl): new classifiers read the
                   stored cards again from the video (about a minute a game), not the detector again.
  --live           (video, with --cache) the cached videos through the live path instead: the detector on
                   the frames the motion gate lets through, as `tablewatch watch` runs; --regional also
                   looks only where the frame changed (pipelines/vision/regional.py). Prints frames/s.
                   Needs only the rendered sessions, not the stored detections.
  --seeds S ...    several held-out sets in one run (each as --seed would run it), with the figures per
                   game added up over all of them; --workers N runs N (set, game) sessions at once.
  --plot FILE      a PNG of the figures: each game's rounds by outcome, incomplete rounds by kind of doubt

    python benchmarks/reconstruction.py --mode perfect --rounds 50 --json
    python benchmarks/reconstruction.py --mode video --rounds 8 --cache /tmp/recon-cache --json
    python benchmarks/reconstruction.py --mode video --rounds 10 --seeds 9201 9301 9401 9501 9701 \
        --cache /tmp/recon-cache --live --regional --workers 2 --json    # 50 rounds per game, as deployed
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipelines.games.layout import layout_for
from pipelines.games.round import GAME_IDS
from pipelines.rounds.compare import compare_rounds, tally

HELD_OUT_SEED = 9001  # seeds from here on are used by no test and no training set

# What an incomplete round's notes say, by kind (the machine's wording, pipelines/rounds/): a round counts
# once under each kind its notes hold, so the figures say what to work on next.
DOUBT_KINDS: tuple[tuple[str, str], ...] = (
    ("chips_unsure", r"read with doubt at frame|uncertain observation in seat\d\.(?!cards)"),
    ("payout_counted_with_wager", r"while the wager beside it was read as more"),
    ("payout_read_with_wager", r"its payout may have been read with it"),
    ("wager_counted_with_payout", r"a chip of the wager may have been counted with the payout"),
    ("settlement_not_seen", r"gone as the card moved on|gone from view|was not seen"),
    ("chips_unmatched", r"matches no wager|more than one stack|chips appeared in"),
    ("card_unsure", r"seen where .* was as more cards|which stayed hidden from|never seen face up|card\(s\) seen|"
                    r"cards seen in the|split, but|uncertain observation in (seat\d\.cards|dealer\.card|board\.)"),
    ("settlement_order", r"settlement order|too close in time"),
    ("play_against_ante", r"is not [\d.]+x the Ante|is neither 1x nor 2x the Ante"),
    ("payout_could_hide", r"where a chip of it could lie unseen"),
    ("payout_regrouped", r"the line between them moved"),
    ("payout_shrank", r"a laid payout does not shrink"),
    ("payout_fell_after_hand", r"once the hand had come back over it"),
    ("frames_lost", r"were not analysed"),
    ("read_by_turns", r"but read so already at frame"),
    ("wager_first_seen_late", r"after bets closed at frame \d+: placed late"),
)


def doubt_kinds(notes: str) -> list[str]:
    """The kinds (DOUBT_KINDS) an incomplete round's joined notes hold; `other` when none matches."""
    kinds = [kind for kind, pattern in DOUBT_KINDS if re.search(pattern, notes)]
    return kinds or ["other"]


def perfect(game: str, rounds: int, seed: int, fault_rate: float, analyse_fps: float | None = None
            ) -> tuple[list, list]:
    from pipelines.rounds.perfect import rounds_from_scenes
    from pipelines.sim.camera import Camera
    from pipelines.sim.session import script_session

    scripted, settings = script_session(game, rounds, seed, fault_rate)
    layout = layout_for(game)
    camera = Camera.overhead(layout, np.random.default_rng([seed, 1]))  # as simulate_session draws it
    scenes = [s for r in scripted for s in r.scenes]
    got = rounds_from_scenes(game, scenes, layout, camera.H, settings=settings, frame_size=camera.size,
                             analyse_fps=analyse_fps)
    return got, [r.round for r in scripted]


def video(game: str, rounds: int, seed: int, fault_rate: float, cache: Path | None = None,
          verifier: bool = True, live: str | None = None, analyse_fps: float | None = None,
          edge_chips: dict | None = None) -> tuple[list, list]:
    from pipelines.rounds.run import rounds_from_changes, spec_from, vision_changes
    from pipelines.sim.session import simulate_session

    if cache is not None:
        return cached_video(cache / f"{game}_r{rounds}_s{seed}_f{fault_rate}", game, rounds, seed, fault_rate,
                            verifier, live, analyse_fps, edge_chips)
    with tempfile.TemporaryDirectory() as tmp:
        truth = simulate_session(game, rounds, seed, tmp, fault_rate, progress=False)
        spec = spec_from(tmp)
        stream, pipe, _ = vision_changes(spec)
        got = rounds_from_changes(spec, stream, cover=pipe.cover)
    return got, truth.rounds


class _Replay:
    """A detector that hands back stored detections, one per frame, in order, each through the second looks
    (card-edge chips, chip verifier) of `detector` (as the live detector does) when one is given."""

    def __init__(self, detections: list, detector=None) -> None:
        self._it = iter(detections)
        self._detector = detector

    def detect(self, frame: np.ndarray):
        det = next(self._it)
        return self._detector.second_looks(frame, det) if self._detector is not None else det


def cached_video(folder: Path, game: str, rounds: int, seed: int, fault_rate: float,
                 verifier: bool = True, live: str | None = None, analyse_fps: float | None = None,
                 edge_chips: dict | None = None) -> tuple[list, list]:
    from tqdm import tqdm

    from pipelines.rounds.run import rounds_from_changes, spec_from
    from pipelines.sim.session import TRUTH_NAME, simulate_session
    from pipelines.sim.truth import GroundTruth
    from pipelines.vision.capture import FrameSource
    from pipelines.vision.detect import Detector, DetectorConfig
    from pipelines.vision.pipeline import VisionPipeline

    if not (folder / TRUTH_NAME).exists():
        simulate_session(game, rounds, seed, folder, fault_rate, progress=False)
    truth = GroundTruth.load(folder / TRUTH_NAME)
    if not layout_for(game).has_split_hands and "card_finder_path" not in (edge_chips or {}):
        edge_chips = {**(edge_chips or {}), "card_finder_path": None}  # as a table config has it: config.py
    own_boxes = DetectorConfig(verifier_path=None)  # the detector's own boxes and card readings: see --cache

    def video_frames():
        return FrameSource(str(folder / truth.video), fps=truth.fps)

    # Written by this script only (a local cache, never shared input), keyed by the weights and the code that
    # made it; boxes_KEY links them under a key without the card classifiers (`_stored`). The live path needs
    # no boxes.
    if live is None:
        dets_path = folder / f"detections_{_cache_key(own_boxes, None, DETECT_CODE)}.pkl"
        boxes_path = folder / f"boxes_{_boxes_key(own_boxes, None, DETECT_CODE)}.pkl"
        dets = _stored(dets_path, boxes_path, video_frames, lambda: Detector(own_boxes))
        if dets is None:
            det = Detector(own_boxes)
            dets = [det.detect(f.image) for f in tqdm(video_frames(), total=truth.frame_count, desc=f"{game} detect")]
            _store(dets, dets_path, boxes_path)
    spec = spec_from(folder)
    if live is not None:  # "gated" or "regional": the detector itself, on what the gate lets through
        detector = Detector(DetectorConfig(**edge_chips)) if edge_chips else None  # None: the deployed default
        pipe = VisionPipeline((spec.layout, spec.homography), detector, motion_gating=True,
                              regional=live == "regional", reference=spec.reference)
        frames = _taken(FrameSource(str(spec.video), fps=spec.fps), spec.fps, analyse_fps)
        got = rounds_from_changes(spec, pipe.run(frames), cover=pipe.cover)
        c = pipe.counters
        looked = f", looked at {vars(pipe.regional.counters)}" if pipe.regional is not None else ""
        print(f"    {live}: {c.frames_read} frames, {c.frames_analysed} analysed, {c.fps:.2f} frames/s{looked}")
        return got, truth.rounds
    from pipelines.rounds.perfect import taken

    config = DetectorConfig(**(edge_chips or {})) if verifier else None
    kept = [i for i in range(len(dets)) if taken(i, spec.fps, analyse_fps)]
    # The second looks and the empty-table filter read pixels and take most of a replay's time; what they give
    # is stored once per set and per everything that shapes it, so a change to the tracker or the round
    # machines replays in seconds.
    looked_path = folder / f"looked_{_cache_key(config, analyse_fps, LOOKS_CODE)}.pkl"
    looked_shared = folder / f"looked_boxes_{_boxes_key(config, analyse_fps, LOOKS_CODE)}.pkl"
    looked = _stored(looked_path, looked_shared, lambda: _taken(video_frames(), spec.fps, analyse_fps),
                     lambda: Detector(config if config is not None else own_boxes))
    if looked is not None:
        pipe = VisionPipeline((spec.layout, spec.homography), _Replay([]), motion_gating=False,
                              reference=spec.reference)
        covers = _covers(folder / f"cover_{_cache_key(config, analyse_fps, LOOKS_CODE + COVER_CODE)}.pkl", pipe,
                         lambda: _taken(video_frames(), spec.fps, analyse_fps), looked)

        def stream():
            for i, d, (covered, bare) in zip(kept, looked, covers, strict=True):
                pipe.cover.add(i, covered, bare)
                yield i, i / spec.fps, pipe.track(i, d, covered)

        return rounds_from_changes(spec, stream(), cover=pipe.cover), truth.rounds
    replay = _Replay([dets[i] for i in kept], Detector(config) if config is not None else None)
    pipe = VisionPipeline((spec.layout, spec.homography), replay, motion_gating=False,
                          reference=spec.reference)
    looked = []
    pipe.on_analysed = lambda _frame, d: looked.append(d)
    got = rounds_from_changes(spec, pipe.run(_taken(video_frames(), spec.fps, analyse_fps)), cover=pipe.cover)
    _store(looked, looked_path, looked_shared)
    return got, truth.rounds


def _covers(path: Path, pipe, frames, looked: list) -> list[tuple[set[str], set[str]]]:
    """The zones covered and bare in each analysed frame (`VisionPipeline.cover_meter` on the frame and its stored
    detections, as `process` measures them), stored at `path`."""
    import pickle

    if path.exists():
        return pickle.loads(path.read_bytes())
    meter = pipe.cover_meter()
    covers = [meter.measure(f.image, d) for f, d in zip(frames(), looked, strict=True)]
    _write(covers, path)
    return covers


def _write(per_frame: list, path: Path) -> None:
    """Pickle `per_frame` to `path`; a run cut short leaves no half file behind."""
    import pickle

    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps(per_frame))
    tmp.replace(path)


def _store(per_frame: list, path: Path, shared: Path) -> None:
    """Write `per_frame` to `path` and link it as `shared`."""
    _write(per_frame, path)
    shared.unlink(missing_ok=True)
    shared.symlink_to(path.name)


def _stored(path: Path, shared: Path, frames, detector) -> list | None:
    """The per-frame detections stored at `path`; else those at `shared` (the same boxes, read by other card
    classifiers) with every card read again by `detector()` from `frames()`, stored at `path`; else None.
    A new classifier so costs a pass of card crops over the video, not the detector on every frame."""
    import pickle

    if path.exists():
        return pickle.loads(path.read_bytes())
    if not shared.exists():
        return None
    det = detector()
    old = pickle.loads(shared.read_bytes())
    video = iter(frames())
    # The stored list first, so that zip takes no frame past its end; lengths are checked below.
    new = [det.read_cards(f.image, d) for d, f in zip(old, video, strict=False)]
    if len(new) != len(old) or next(video, None) is not None:  # not one stored detection per frame of this video
        print(f"    {shared}: {len(old)} frames stored, not the video's count; detecting again")
        return None
    _write(new, path)
    return new


# The code (in pipelines/vision) that shapes the detector's boxes and card readings (crops.py cuts the cards the
# classifiers read), and what the second looks and the empty-table filter give on top of them.
DETECT_CODE = ["detect.py", "crops.py"]
LOOKS_CODE = [*DETECT_CODE, "chip_verifier.py", "edge_chips.py", "card_finder.py", "chip_boxes.py", "reference.py",
              "pipeline.py"]
COVER_CODE = ["cover.py"]  # where the dealer's hand lay, measured on the frames and the second looks' detections


def _cache_key(config, analyse_fps: float | None, code_files: list[str]) -> str:
    """A cached result depends on: the detector's settings, the weights they load and the code that runs them
    (`code_files` in pipelines/vision)."""
    import dataclasses
    import hashlib

    import pipelines.vision as vision

    # Weights by their bytes (below), not where the checkout lies: a worktree of another commit shares the cache.
    fields = dataclasses.asdict(config) if config is not None else {}
    settings = {k: v.name if isinstance(v, Path) else v for k, v in fields.items()} if config is not None else None
    h = hashlib.sha1(repr((settings, analyse_fps)).encode())
    code = Path(vision.__file__).parent
    files = [code / f for f in code_files]
    files += [v for v in fields.values() if isinstance(v, Path) and v.exists()]
    for f in files:
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def _boxes_key(config, analyse_fps: float | None, code_files: list[str]) -> str:
    """`_cache_key` without the card classifiers: detections that differ only in how their cards are read."""
    import dataclasses

    if config is None:
        return _cache_key(None, analyse_fps, code_files)
    return _cache_key(dataclasses.replace(config, classifier_path=None, second_classifier_path=None), analyse_fps,
                      code_files)


def _taken(frames, fps: float, analyse_fps: float | None):
    """The frames of a `fps` video a live camera analysed at `analyse_fps` would take (all when None)."""
    from pipelines.rounds.perfect import taken

    return (f for f in frames if taken(f.index, fps, analyse_fps))


def session(job: tuple[str, int, argparse.Namespace]) -> tuple[str, int, dict, list[str]]:
    """One game's session on one held-out set: (game, set, tally, the lines to print)."""
    game, seed, args = job
    t0 = time.perf_counter()
    # Each game's seed follows from its place in GAME_IDS, so --games X reproduces the full run's X.
    i = GAME_IDS.index(game) if game in GAME_IDS else len(GAME_IDS)
    live = ("regional" if args.regional else "gated") if args.live else None
    finder = ({"edge_chips_path": None} if args.no_edge_chips else {}) | (
        {"edge_chips_path": args.edge_chips} if args.edge_chips else {}) | (
        {"edge_chips_conf": args.edge_chips_conf} if args.edge_chips_conf is not None else {}) | (
        {"card_finder_path": None} if args.no_card_finder else {}) | (
        {"card_finder_path": args.card_finder} if args.card_finder else {})
    extra = ({"cache": args.cache, "verifier": not args.no_verifier, "live": live, "edge_chips": finder}
             if args.mode == "video" and args.cache else {})
    if args.analyse_fps:
        extra["analyse_fps"] = args.analyse_fps
    run = perfect if args.mode == "perfect" else video
    got, truth = run(game, args.rounds, seed + i, args.faults, **extra)
    verdicts = compare_rounds(got, truth)
    t = tally(verdicts)
    unsure = [(v, doubt_kinds(v.why)) for v in verdicts if v.result == "incomplete"]
    t["doubts"] = dict(Counter(k for _, kinds in unsure for k in kinds))
    # The doubts that cost a review for nothing: what to loosen first, if anything.
    t["doubts_right"] = dict(Counter(k for v, kinds in unsure if v.right for k in kinds))
    label = f"{game:15s}" + (f" set {seed}" if len(args.seeds) > 1 else "")
    lines = [f"{label} {args.mode}: {_figures(t)} (read right all the same {t['incomplete_right']})"
             f"  [{time.perf_counter() - t0:.0f} s]"]
    if t["doubts"]:
        lines.append(f"    incomplete rounds by what their notes say: {t['doubts']}")
    for v in [v for v in verdicts if v.result != "exact"][:args.show]:
        mark = " (read right)" if v.right else ""
        lines.append(f"    {v.result:10s} {v.round_id}{mark}: {v.why[:300]}")
        if v.caught:
            lines.append(f"{'':16s}read as: {v.caught[:300]}")
    return game, seed, t, lines


def _figures(t: dict) -> str:
    return (f"{t['rounds']} rounds, exact {t['exact']} ({100 * t['exact'] / max(1, t['rounds']):.1f} %), "
            f"wrong {t['wrong']}, incomplete {t['incomplete']}")


def add_up(tallies: list[dict]) -> dict:
    """Figures of several sessions of one game as one: counts summed, doubt kinds merged."""
    total: dict = {}
    kinds: dict[str, Counter] = {}
    for t in tallies:
        for key, value in t.items():
            if isinstance(value, dict):
                kinds.setdefault(key, Counter()).update(value)
            else:
                total[key] = total.get(key, 0) + value
    return {**total, **{key: dict(c) for key, c in kinds.items()}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", choices=("perfect", "video"), default="perfect")
    ap.add_argument("--rounds", type=int, default=50, help="rounds per game")
    ap.add_argument("--games", nargs="*", default=list(GAME_IDS))
    ap.add_argument("--seed", type=int, default=HELD_OUT_SEED)
    ap.add_argument("--seeds", type=int, nargs="+", default=None, help="several held-out sets, added up")
    ap.add_argument("--workers", type=int, default=1, help="sessions run at once (processes)")
    ap.add_argument("--faults", type=float, default=0.2, help="per-round rate of each fault type")
    ap.add_argument("--show", type=int, default=3, help="print up to N non-exact rounds per game with why")
    ap.add_argument("--cache", type=Path, default=None, help="video mode: reuse rendered sessions and detections")
    ap.add_argument("--no-verifier", action="store_true",
                    help="video mode with --cache: the stored detections as they are (no chip verifier, no finder)")
    ap.add_argument("--edge-chips", type=Path, default=None,
                    help="video mode with --cache: these card-edge chip finder weights instead of the default's")
    ap.add_argument("--no-edge-chips", action="store_true", help="video mode with --cache: without the finder")
    ap.add_argument("--edge-chips-conf", type=float, default=None, help="the finder's confidence threshold")
    ap.add_argument("--card-finder", type=Path, default=None,
                    help="video mode with --cache: these cascade card finder weights instead of the default's")
    ap.add_argument("--no-card-finder", action="store_true", help="video mode with --cache: without the card finder")
    ap.add_argument("--live", action="store_true", help="video mode with --cache: the live, motion-gated path")
    ap.add_argument("--regional", action="store_true", help="with --live: look only where the frame changed")
    ap.add_argument("--analyse-fps", type=float, default=None,
                    help="perfect mode, or video with --cache: look only at the frames a live camera analysed at "
                         "this rate would take (benchmarks/live_camera.py measures the rate reached)")
    ap.add_argument("--json", action="store_true", help="end with one JSON object line")
    ap.add_argument("--plot", type=Path, default=None, help="PNG of the figures per game and the doubts")
    args = ap.parse_args(argv)
    if args.workers < 1:
        ap.error(f"--workers must be at least 1, got {args.workers}")
    args.seeds = args.seeds or [args.seed]
    jobs = [(game, seed, args) for seed in args.seeds for game in args.games]
    results: dict[tuple[str, int], dict] = {}

    def report(done: tuple[str, int, dict, list[str]]) -> None:  # printed as each session ends
        game, seed, t, lines = done
        results[(game, seed)] = t
        print("\n".join(lines), flush=True)

    if args.workers == 1:
        for job in jobs:
            report(session(job))
    else:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            for future in as_completed([pool.submit(session, job) for job in jobs]):
                report(future.result())
    per_game = {game: add_up([results[(game, seed)] for seed in args.seeds]) for game in args.games}
    if len(args.seeds) > 1:
        for game, t in per_game.items():
            print(f"{game:15s} all {len(args.seeds)} sets: {_figures(t)}; doubts {t['doubts']}")
    if args.plot is not None:
        from reconstruction_plot import plot_reconstruction

        sets = f"sets {' '.join(map(str, args.seeds))}" if len(args.seeds) > 1 else f"seed {args.seeds[0]}"
        how = " live" + (" regional" if args.regional else "") if args.live else ""
        plot_reconstruction(per_game, args.plot, f"Round reconstruction, {args.mode}{how} mode, {sets}")
        print(f"plot written to {args.plot}")
    if args.json:
        out: dict = {"mode": args.mode, "seeds": args.seeds, "faults": args.faults, "per_game": per_game}
        if len(args.seeds) == 1:
            out["seed"] = args.seeds[0]
        else:
            out["per_set"] = {str(seed): {game: results[(game, seed)] for game in args.games} for seed in args.seeds}
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
