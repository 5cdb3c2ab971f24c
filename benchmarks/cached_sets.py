"""The sets `benchmarks/reconstruction.py --mode video --cache DIR` rendered and looked at, read back with the
scripted scenes they were rendered from: for the benchmarks that hold what the zones make of the stored second looks
against the simulator's truth (unsure_chips.py, zone_accuracy.py)."""

from __future__ import annotations

import argparse
import pickle
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipelines.vision.zones import ZoneMapper


def set_arguments(doc: str) -> argparse.ArgumentParser:
    """The command line these benchmarks share: --cache DIR, --sets NAME ..., --json."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--cache", type=Path, required=True, help="benchmarks/reconstruction.py's --cache folder")
    ap.add_argument("--sets", nargs="*", default=None, help="set folder names (default: every one looked at)")
    ap.add_argument("--json", action="store_true", help="end with one JSON object line")
    return ap


def set_folders(cache: Path, names: list[str] | None) -> list[Path]:
    """The set folders named, or every one under `cache` looked at."""
    folders = [cache / s for s in names] if names else sorted(p.parent for p in cache.glob("*/looked_*.pkl"))
    folders = list(dict.fromkeys(folders))
    if not folders:
        raise SystemExit(f"{cache}: no set looked at yet")
    return folders


def load_set(folder: Path) -> tuple[list, list, ZoneMapper]:
    """The set in `folder`: its stored second looks (one `sv.Detections` per analysed frame, the newest
    looked_*.pkl), the scripted scene of each frame, and a fresh `ZoneMapper` on its layout and camera (a fresh one:
    it remembers what earlier frames showed)."""
    looked, scripted, mapper = load_set_rounds(folder)
    return looked, [s for r in scripted for s in r.scenes], mapper


def load_set_rounds(folder: Path) -> tuple[list, list, ZoneMapper]:
    """`load_set`, with the scripted rounds (their truth and scenes) in place of the scenes alone."""
    import numpy as np

    from pipelines.rounds.run import spec_from
    from pipelines.sim.session import script_session
    from pipelines.vision.zones import ZoneMapper

    m = re.fullmatch(r"(.+)_r(\d+)_s(\d+)_f([\d.]+)", folder.name)
    if m is None:
        raise SystemExit(f"{folder}: not a set folder of benchmarks/reconstruction.py --cache (GAME_rN_sSEED_fRATE)")
    game, rounds, seed, rate = m.group(1), int(m.group(2)), int(m.group(3)), float(m.group(4))
    looked_files = sorted((p for p in folder.glob("looked_*.pkl") if not p.name.startswith("looked_boxes_")),
                          key=lambda p: p.stat().st_mtime)
    if not looked_files:
        raise SystemExit(f"{folder}: no looked_*.pkl; run benchmarks/reconstruction.py --mode video --cache on it")
    looked = pickle.loads(looked_files[-1].read_bytes())
    scripted, _ = script_session(game, rounds, seed, rate)
    frames = sum(len(r.scenes) for r in scripted)
    if frames != len(looked):
        raise SystemExit(f"{folder}: {len(looked)} frames looked at, the script has {frames} (a live-path cache?)")
    spec = spec_from(folder)
    return looked, scripted, ZoneMapper(spec.layout, np.asarray(spec.homography, np.float64))
