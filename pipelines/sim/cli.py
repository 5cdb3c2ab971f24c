"""`tablewatch simulate`: a synthetic table session, rendered, with ground truth."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pipelines.games.round import GAME_IDS

from .faults import FAULT_TYPES


@click.command()
@click.option("--game", required=True, type=click.Choice(list(GAME_IDS)))
@click.option("--rounds", default=20, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option("--faults", "fault_rate", default=0.0, show_default=True, type=click.FloatRange(0, 1),
              help=f"per-round probability of each fault type ({', '.join(FAULT_TYPES)})")
@click.option("--dataset-every", type=click.IntRange(min=1), help="also export every Nth frame as YOLO data")
@click.option("--fps", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--table-id", default="T1", show_default=True)
@click.option("--width", default=1280, show_default=True, type=click.IntRange(min=64))
@click.option("--height", default=720, show_default=True, type=click.IntRange(min=64))
@click.option("--no-render", is_flag=True, help="ground truth only, no video")
@click.option("--clean", is_flag=True, help="no camera noise or compression (a much smaller video)")
@click.option("--json", "as_json", is_flag=True, help="end with one JSON object")
def simulate(game: str, rounds: int, seed: int, out_dir: Path, fault_rate: float, dataset_every: int | None,
             fps: int, table_id: str, width: int, height: int, no_render: bool, clean: bool, as_json: bool) -> None:
    """Simulate a table: scripted rounds rendered to video, with ground truth and injected faults."""
    from .session import TRUTH_NAME, simulate_session

    truth = simulate_session(game, rounds, seed, out_dir, fault_rate, fps=fps, table_id=table_id,
                             size=(width, height), dataset_every=dataset_every, render=not no_render,
                             effects=not clean)
    by_type: dict[str, int] = {}
    for f in truth.faults:
        by_type[f.type] = by_type.get(f.type, 0) + 1
    click.echo(f"{game}: {len(truth.rounds)} rounds, {truth.frame_count} frames at {fps} fps, "
               f"{len(truth.faults)} faults {by_type or ''}")
    click.echo(f"ground truth: {out_dir / TRUTH_NAME}" + (f"; video: {out_dir / truth.video}" if truth.video else ""))
    if as_json:
        click.echo(json.dumps({"game": game, "rounds": len(truth.rounds), "frames": truth.frame_count,
                               "faults": by_type, "out": str(out_dir)}))
