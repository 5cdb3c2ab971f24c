"""A demo shift: simulated tables, reconciled and stored, with evidence frames, pits and one user per role.

The rounds come from the simulator's round scripts (pipelines/sim), are reconciled and stored by
pipelines/store; for some flags the simulator's renderer draws the evidence the pipeline would keep:
a snapshot at the flag's frame, a short clip around it and the detector labels of that frame.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

from pipelines.games.layout import layout_for
from pipelines.reconcile import Flag
from pipelines.sim.script import script_for
from pipelines.sim.script_base import ScriptedRound
from pipelines.sim.video import VideoSink
from pipelines.store.db import Store

from . import auth
from .db import Database

# (table id, game, pit): a small pit of each kind of game.
DEMO_TABLES: tuple[tuple[str, str, str], ...] = (
    ("KH-1", "king-high", "A"),
    ("BJ-1", "high-tie", "A"),
    ("BJ-2", "high-tie", "B"),
    ("CM-1", "3-card-monster", "B"),
    ("P2-1", "pick-2-poker", "B"),
)
DEALERS = tuple(f"D{i:02d}" for i in range(1, 9))
ROTATION_MIN = 20  # dealers rotate tables every 20 minutes


@dataclass(frozen=True)
class DemoSummary:
    rounds: int
    flags: int
    evidence_flags: int
    tables: tuple[tuple[str, str, str], ...]


def dealer_for(table_index: int, started_at: str) -> str:
    """A rotation: every ROTATION_MIN minutes the next dealer of the pool takes the table."""
    t = datetime.fromisoformat(started_at)
    slot = (t.hour * 60 + t.minute) // ROTATION_MIN
    return DEALERS[(table_index * 3 + slot) % len(DEALERS)]


def script_tables(tables: tuple[tuple[str, str, str], ...], rounds_per_table: int, seed: int,
                  fault_rate: float) -> list[ScriptedRound]:
    out: list[ScriptedRound] = []
    for i, (table_id, game, _) in enumerate(tables):
        script = script_for(game, seed=seed + i, table_id=table_id, faults=fault_rate)
        frame = 0
        for n in range(rounds_per_table):
            sr = script.play_round(n, frame)
            frame += sr.frame_count
            sr.round.dealer_id = dealer_for(i, sr.round.started_at)
            out.append(sr)
    return out


class EvidenceRenderer:
    """Draws the evidence of flags with the simulator's renderer, one fixed camera per table."""

    def __init__(self, media_dir: Path, seed: int, size: tuple[int, int] = (800, 450), clip_frames: int = 16):
        from pipelines.sim.camera import Camera

        self.media_dir, self.seed, self.size, self.clip_frames = media_dir, seed, size, clip_frames
        self._camera = Camera
        self._cameras: dict[str, object] = {}

    def camera(self, table_id: str, game: str) -> object:
        if table_id not in self._cameras:
            rng = np.random.default_rng([self.seed, len(self._cameras), 1])
            self._cameras[table_id] = self._camera.overhead(layout_for(game), rng, size=self.size)
        return self._cameras[table_id]

    def __call__(self, sr: ScriptedRound, flag: Flag) -> list[str]:
        """Snapshot, clip and detections of one flag; returns their paths relative to `media_dir`."""
        import cv2

        from pipelines.sim.render import render

        rnd = sr.round
        layout, camera = layout_for(rnd.game), self.camera(rnd.table_id, rnd.game)
        rng = np.random.default_rng([self.seed, 2])
        first = rnd.frames.start if rnd.frames else 0
        at = min(max((flag.frames.start if flag.frames else first) - first, 0), len(sr.scenes) - 1)
        folder = Path("evidence") / rnd.table_id / rnd.round_id
        (self.media_dir / folder).mkdir(parents=True, exist_ok=True)
        stem = folder / f"{flag.flag_id}_f{at + first}"
        frame, labels = render(layout, sr.scenes[at], camera, rng)
        cv2.imwrite(str(self.media_dir / f"{stem}.png"), frame)
        (self.media_dir / f"{stem}_detections.json").write_text(json.dumps(
            {"frame": at + first, "camera_homography": camera.H.tolist(),
             "detections": [lb._asdict() for lb in labels]}, indent=1))
        lo, hi = max(0, at - self.clip_frames // 2), min(len(sr.scenes), at + self.clip_frames // 2)
        with VideoSink(self.media_dir / f"{stem}.webm", 10, camera.size) as clip:
            for scene in sr.scenes[lo:hi]:
                clip.write(render(layout, scene, camera, rng)[0])
        return [f"{stem}.png", f"{stem}.webm", f"{stem}_detections.json"]


def simulate_shift(db_path: str | Path, *, tables: tuple[tuple[str, str, str], ...] = DEMO_TABLES,
                   rounds_per_table: int = 80, seed: int = 7, fault_rate: float = 0.06,
                   evidence_flags: int = 12, progress: Callable[[str], None] | None = None) -> DemoSummary:
    """Script, reconcile and store a shift; render evidence for the `evidence_flags` most severe flags.
    Evidence files go beside the database (the dashboards serve media from that folder)."""
    say = progress or (lambda _: None)
    say(f"simulating {rounds_per_table} rounds on each of {len(tables)} tables")
    scripted = script_tables(tables, rounds_per_table, seed, fault_rate)
    say("reconciling and storing")
    with Store(db_path) as store:
        for table_id, game, _ in tables:
            store.upsert_table(table_id, game, f"{game} {table_id}")
        for d in DEALERS:
            store.upsert_dealer(d, f"Dealer {d}")
        rec = store.write_rounds([sr.round for sr in scripted])
        by_round = {sr.round.round_id: sr for sr in scripted}
        rank = {"critical": 0, "high": 1, "medium": 2, "low": 3}
        chosen = sorted(rec.flags, key=lambda f: (rank[f.severity], f.flag_id))[:evidence_flags]
        say(f"rendering evidence for {len(chosen)} of {len(rec.flags)} flags")
        draw = EvidenceRenderer(Path(db_path).resolve().parent, seed)
        with_media = [f.model_copy(update={"snapshots": draw(by_round[f.round_id], f)}) for f in chosen]
        store.write_flags(with_media)
    return DemoSummary(len(scripted), len(rec.flags), len(with_media), tables)


def assign_pits(db: Database, tables: tuple[tuple[str, str, str], ...] = DEMO_TABLES) -> None:
    with db.write() as cur:
        for table_id, _, pit in tables:
            cur.execute("INSERT OR REPLACE INTO dash_table_pits VALUES (?, ?)", [table_id, pit])


def create_demo_users(db: Database) -> list[tuple[str, str, str, str | None]]:
    """One user per role (and a surveillance officer limited to pit B); returns (user, password, role, pit)."""
    made = []
    for username, role, pit in (("surveil", "surveillance", None), ("protect", "game_protection", None),
                                ("manager", "manager", None), ("admin", "admin", None),
                                ("pitb", "surveillance", "B")):
        password = secrets.token_urlsafe(9)
        if auth.get_user(db, username) is None:
            auth.create_user(db, username, password, role, pit, by="demo")
            made.append((username, password, role, pit))
    return made
