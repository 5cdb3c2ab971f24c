"""`tablewatch train-detector` and `tablewatch calibrate`."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.command("train-detector")
@click.option("--data", "data", type=click.Path(path_type=Path), required=True,
              help="dataset folder; built from the simulator first when it has no det/data.yaml")
@click.option("--images", default=1500, show_default=True, help="frames to render when building the data")
@click.option("--seed", default=1, show_default=True, help="simulator seed for the training frames")
@click.option("--epochs", default=30, show_default=True)
@click.option("--imgsz", default=960, show_default=True, help="detector input size")
@click.option("--cls-epochs", default=15, show_default=True, help="card classifier epochs")
@click.option("--device", default="cpu", show_default=True, help="cpu, or a CUDA device index")
@click.option("--batch", default=16, show_default=True)
@click.option("--workers", default=2, show_default=True, help="data loader and rendering processes")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None, help="default: models/")
def train_detector(data: Path, images: int, seed: int, epochs: int, imgsz: int, cls_epochs: int, device: str,
                   batch: int, workers: int, out_dir: Path | None) -> None:
    """Train the card/chip detector and the card classifier on simulator data (needs the `train` extra)."""
    from .paths import MODELS_DIR
    from .training import build_training_sets, train

    if not (data / "det" / "data.yaml").exists():
        meta = build_training_sets(data, images=images, seed=seed, workers=workers)
        click.echo(f"built training data: {json.dumps(meta)}")
    report = train(data, epochs=epochs, imgsz=imgsz, cls_epochs=cls_epochs, device=device, batch=batch,
                   workers=workers, out_dir=out_dir or MODELS_DIR)
    click.echo(json.dumps(report))
