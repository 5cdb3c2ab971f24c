"""`tablewatch train-detector`, `train-chip-verifier`, `train-edge-chips` and `tablewatch calibrate`."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.command("train-detector")
@click.option("--data", "data", type=click.Path(path_type=Path), required=True,
              help="dataset folder; built from the simulator first when it has no det/data.yaml")
@click.option("--images", default=1500, show_default=True, help="frames to render when building the data")
@click.option("--seed", default=1, show_default=True, help="simulator seed for the training frames")
@click.option("--epochs", default=30, show_default=True, help="detector epochs (with --hours: as fit)")
@click.option("--imgsz", default=640, show_default=True, help="training input size (the ONNX exports are 960x544, "
              "640x384 and a 480x288 tile whatever it is)")
@click.option("--cls-epochs", default=15, show_default=True, help="classifier epochs (with --hours: as fit)")
@click.option("--hours", type=click.FloatRange(min=0), default=1.5, show_default=True,
              help="time budget for training both models (two thirds detector, one third classifier), which "
                   "keeps a run on 2 CPU cores within about 90 minutes; the epochs then follow from it. 0: no "
                   "budget, --epochs and --cls-epochs decide")
@click.option("--init-from", "init_from", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="fine-tune the detector.pt and card_classifier.pt in this folder (e.g. models) instead of "
                   "training from the model yamls")
@click.option("--tiles", is_flag=True, help="the detector only, on tiles of the frame at the scale it is deployed "
              "at (a third of a frame's cost per image; the way to fine-tune on 2 CPU cores); --imgsz is then "
              "the tile's, and the whole --hours goes to the detector")
@click.option("--device", default="cpu", show_default=True, help="cpu, or a CUDA device index")
@click.option("--batch", default=16, show_default=True)
@click.option("--workers", default=2, show_default=True, help="data loader and rendering processes")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              help="default: models/, or DATA/weights when fine-tuning (compare before replacing models/)")
def train_detector(data: Path, images: int, seed: int, epochs: int, imgsz: int, cls_epochs: int,
                   hours: float, init_from: Path | None, tiles: bool, device: str, batch: int, workers: int,
                   out_dir: Path | None) -> None:
    """Train the card/chip detector and the card classifier on simulator data (needs the `train` extra)."""
    from .paths import MODELS_DIR
    from .training import build_training_sets, train

    inits = {}
    if init_from is not None:
        inits = {"det_init": init_from / "detector.pt", "cls_init": init_from / "card_classifier.pt"}
        missing = [str(p) for p in inits.values() if not p.exists()]
        if missing:
            raise click.BadParameter(f"no weights to fine-tune at {', '.join(missing)}", param_hint="--init-from")
    if not (data / "det" / "data.yaml").exists():
        meta = build_training_sets(data, images=images, seed=seed, workers=workers, tiles=tiles)
        click.echo(f"built training data: {json.dumps(meta)}")
    elif _holds_tiles(data) != tiles:
        held, asked = ("whole frames", "tiles") if tiles else ("tiles", "whole frames")
        raise click.BadParameter(f"{data} holds {held}, not {asked}: give another folder", param_hint="--data")
    if tiles:
        budget = {"det_hours": hours} if hours else {}
    else:
        budget = {"det_hours": hours * 2 / 3, "cls_hours": hours / 3} if hours else {}
    # A fine-tune can make the weights worse (a short one on 2 CPU cores did, benchmarks/RESULTS.md): it
    # lands beside its data unless told otherwise, to be measured against the committed weights first.
    out = out_dir or (data / "weights" if init_from is not None else MODELS_DIR)
    report = train(data, epochs=epochs, imgsz=imgsz, cls_epochs=cls_epochs, device=device, batch=batch,
                   workers=workers, out_dir=out, tiles=tiles, **budget, **inits)
    click.echo(json.dumps(report))
    if out_dir is None and init_from is not None:
        classifier = "" if tiles else f" --classifier {out / 'card_classifier.onnx'}"
        click.echo(f"weights in {out}; compare them with: python benchmarks/detector_accuracy.py --json "
                   f"--detector {out / 'detector.onnx'}{classifier}")


def _holds_tiles(data: Path) -> bool:
    """Whether a training folder was built with --tiles (its meta.json says so; older folders have none)."""
    meta = data / "meta.json"
    try:
        return bool(json.loads(meta.read_text()).get("tiles")) if meta.exists() else False
    except (OSError, ValueError, AttributeError) as e:
        raise click.BadParameter(f"{meta}: not a training set's meta.json ({e})", param_hint="--data") from e


@click.command("train-chip-verifier")
@click.option("--data", "data", type=click.Path(path_type=Path), required=True,
              help="crops folder (one .npz per simulated session); sessions missing from it are built first")
@click.option("--seeds", default="7201-7206", show_default=True,
              help="simulator seeds, FIRST-LAST; the last seed's sessions are the validation set")
@click.option("--rounds", default=4, show_default=True, help="rounds per simulated session")
@click.option("--epochs", default=12, show_default=True)
@click.option("--workers", default=2, show_default=True, help="sessions simulated at once")
@click.option("--past-top-keep", type=click.FloatRange(0, 1), default=1.0, show_default=True,
              help="share of the boxes past a row's top chip (data generator 4) trained on")
@click.option("--out", "out", type=click.Path(path_type=Path), default=None,
              help="ONNX file to write; default: models/chip_verifier.onnx")
def train_chip_verifier(data: Path, seeds: str, rounds: int, epochs: int, workers: int, past_top_keep: float,
                        out: Path | None) -> None:
    """Train the chip verifier on crops around the detector's chip boxes in simulated video (needs `train`)."""
    from pipelines.games.round import GAME_IDS

    from .chip_verifier_data import build_verifier_set
    from .chip_verifier_training import load_crops, train_verifier
    from .paths import MODELS_DIR

    try:
        first, last = (int(v) for v in seeds.split("-"))
    except ValueError as e:
        raise click.BadParameter(f"expected FIRST-LAST, got {seeds!r}", param_hint="--seeds") from e
    if last <= first:
        raise click.BadParameter(f"needs at least two seeds (training and validation), got {seeds!r}",
                                 param_hint="--seeds")
    wanted = range(first, last + 1)
    missing = tuple(s for s in wanted if not all((data / f"{g}_s{s}.npz").exists() for g in GAME_IDS))
    if missing:
        build_verifier_set(data, tuple(GAME_IDS), missing, rounds=rounds, workers=workers)
    files = lambda ss: [data / f"{g}_s{s}.npz" for s in ss for g in GAME_IDS]  # noqa: E731
    report = train_verifier(load_crops(files(wanted[:-1]), past_top_keep=past_top_keep),
                            load_crops(files(wanted[-1:]), past_top_keep=past_top_keep), epochs,
                            out or MODELS_DIR / "chip_verifier.onnx")
    click.echo(json.dumps({k: v for k, v in report.items() if k != "history"}))


def _window_finder_options(name: str, frames_help: str, seed: int, epochs: int):
    """The options of a command training a second net on windows (`name`, `_train_window_finder`)."""
    flag = name.replace("_", "-")
    options = [
        click.option("--data", "data", type=click.Path(path_type=Path), required=True,
                     help="windows folder; built from the simulator first when it has no data.yaml"),
        click.option("--frames", default=1500, show_default=True, help=frames_help),
        click.option("--seed", default=seed, show_default=True, help="simulator seed for the training frames"),
        click.option("--epochs", default=epochs, show_default=True, help="epochs (with --hours: as fit)"),
        click.option("--hours", type=click.FloatRange(min=0), default=0.75, show_default=True,
                     help="time budget (45 min on 2 CPU cores); 0: --epochs decides"),
        click.option("--init", "init", type=click.Path(path_type=Path, dir_okay=False), default=None,
                     help="weights to start from; default: models/detector.pt"),
        click.option("--device", default="cpu", show_default=True, help="cpu, or a CUDA device index"),
        click.option("--workers", default=2, show_default=True, help="data loader and rendering processes"),
        click.option("--out", "out", type=click.Path(path_type=Path, dir_okay=False), default=None,
                     help=f"ONNX file to write; default: DATA/weights/{name}.onnx (measure it with "
                          f"benchmarks/detector_accuracy.py --{flag} FILE before it replaces models/'s)"),
    ]

    def apply(command):
        for option in reversed(options):
            command = option(command)
        return command

    return apply


@click.command("train-edge-chips")
@_window_finder_options("edge_chips", "frames to render when building the data (four windows around cards from each)",
                        seed=41, epochs=12)
def train_edge_chips(data: Path, frames: int, seed: int, epochs: int, hours: float, init: Path | None,
                     device: str, workers: int, out: Path | None) -> None:
    """Train the card-edge chip finder: the detector fine-tuned on windows around cards (needs `train`)."""
    from .edge_chips_data import build_edge_set

    _train_window_finder("edge_chips", build_edge_set, data, frames, seed, epochs, hours, init, device, workers, out)


@click.command("train-card-finder")
@_window_finder_options("card_finder", "High Tie frames with split hands to render when building the data (three "
                        "windows from each)", seed=57, epochs=20)
def train_card_finder(data: Path, frames: int, seed: int, epochs: int, hours: float, init: Path | None,
                      device: str, workers: int, out: Path | None) -> None:
    """Train the cascade card finder: the detector fine-tuned on windows around split hands (needs `train`)."""
    from .cascade_cards_data import build_cascade_set

    _train_window_finder("card_finder", build_cascade_set, data, frames, seed, epochs, hours, init, device, workers,
                         out)


def _train_window_finder(name: str, build, data: Path, frames: int, seed: int, epochs: int, hours: float,
                         init: Path | None, device: str, workers: int, out: Path | None) -> None:
    """A second net fine-tuned from the detector on windows (`name`: "edge_chips", "card_finder"), the windows built
    by `build(data, frames, seed, workers=...)` first where `data` holds none."""
    from .edge_chips_training import train_edge_chips as train
    from .paths import MODELS_DIR

    init = init or MODELS_DIR / "detector.pt"
    if not init.exists():
        raise click.BadParameter(f"no weights to start from at {init}", param_hint="--init")
    if not (data / "data.yaml").exists():
        click.echo(f"built training windows: {json.dumps(build(data, frames, seed, workers=workers))}")
    out = out or data / "weights" / f"{name}.onnx"
    report = train(data, epochs, init, out, device=device, workers=workers, hours=hours or None, name=name)
    click.echo(json.dumps(report))
    flag = name.replace("_", "-")
    click.echo(f"weights in {out}; compare with: python benchmarks/detector_accuracy.py --json --{flag} {out}")


@click.command("calibrate")
@click.option("--table", "table", type=click.Path(path_type=Path), required=True, help="table configuration file")
@click.option("--out", "out", type=click.Path(path_type=Path), required=True, help="overlay image to write (.png)")
@click.option("--frame", "frame_index", default=0, show_default=True, help="which frame of the camera source")
@click.option("--save-reference", "reference", type=click.Path(path_type=Path), default=None,
              help="also save that frame, taken with the table empty, as the camera's empty-table reference "
                   "(set camera.reference to it)")
def calibrate(table: Path, out: Path, frame_index: int, reference: Path | None) -> None:
    """Draw the table's layout over a frame of its camera, to check the calibration by eye."""
    import cv2
    import numpy as np

    from pipelines.config import ConfigError, load_table_config
    from pipelines.games.layout import layout_for

    from .calibrate import (
        CalibrationError,
        apply_homography,
        draw_layout,
        layout_fit,
        reprojection_error,
        size_mismatch,
        table_to_image,
    )
    from .capture import CaptureError, FrameSource

    if frame_index < 0:
        raise click.BadParameter(f"must be 0 or more, got {frame_index}", param_hint="--frame")
    try:
        cfg = load_table_config(table)
        H = table_to_image(cfg.camera.calibration)
        image = None
        for f in FrameSource(cfg.camera.source, fps=cfg.camera.fps):
            if f.index == frame_index:
                image = f.image
                break
    except CalibrationError as e:
        raise click.ClickException(f"{table}: field camera.calibration: {e}") from e
    except (ConfigError, CaptureError) as e:
        raise click.ClickException(str(e)) from e
    if image is None:
        raise click.ClickException(f"{cfg.camera.source}: has no frame {frame_index}")
    overlay = draw_layout(image, layout_for(cfg.game), H)
    points = cfg.camera.calibration.points
    for p in points:  # where each reference point was marked (red) and where the homography puts it (cyan)
        cv2.circle(overlay, tuple(int(v) for v in np.round(p.image_px)), 5, (0, 0, 255), 1, cv2.LINE_AA)
        q = apply_homography(H, np.array([p.table_mm]))[0]
        cv2.drawMarker(overlay, tuple(int(v) for v in np.round(q)), (255, 255, 0), cv2.MARKER_CROSS, 8)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), overlay):
        raise click.ClickException(f"{out}: cannot write the overlay image")
    h, w = image.shape[:2]
    summary = {"out": str(out), "frame": frame_index, "game": cfg.game, "frame_size": [w, h]}
    # What the installer should look at first: a camera of another size than the calibration's, or a
    # layout the homography puts mostly off the frame or in a corner of it.
    problems = [p for p in (size_mismatch(cfg.camera.frame_size, (w, h)), layout_fit(layout_for(cfg.game), H, (w, h)))
                if p]
    for problem in problems:
        click.echo(f"warning: {problem}", err=True)
    if problems:
        summary["problems"] = problems
    if reference is not None:
        reference.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(reference), image):
            raise click.ClickException(f"{reference}: cannot write the reference image")
        summary["reference"] = str(reference)
    if points:
        src = np.array([p.table_mm for p in points])
        dst = np.array([p.image_px for p in points])
        summary["reprojection_error_px"] = round(reprojection_error(H, src, dst), 3)
    click.echo(json.dumps(summary))

