"""`tablewatch run` (a video through the whole pipeline into a DuckDB store) and `tablewatch watch` (live)."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from datetime import datetime
from pathlib import Path

import click

from pipelines.vision.calibrate import CalibrationError
from pipelines.vision.capture import CaptureError

from .run import (
    RoundStore,
    RunError,
    RunSpec,
    evidence_for,
    publish_flags,
    publish_round,
    rounds_from_changes,
    spec_from,
    summary,
    vision_changes,
    with_evidence,
)

SOURCE_ERRORS = (CaptureError, CalibrationError)


class _OwnLine(logging.Handler):
    """Warnings (a broker down, a doubtful calibration) on a line of their own, not appended to the status
    line that `watch` redraws in place."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo("\n" + self.format(record), err=True)


def _media_dir(given: str | None, spec: RunSpec, default: Path) -> Path:
    """Where evidence goes: --evidence, else the table config's snapshots_dir, else `default`."""
    if given:
        return Path(given)
    config_dir = spec.config.snapshots_dir if spec.config is not None else None
    return Path(config_dir) if config_dir else default


def _start(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"--start {value!r} is not an ISO 8601 time") from None


def _bus(kafka: str | None, spool: str | None):
    if kafka:
        from pipelines.bus.kafka_bus import KafkaBus

        return KafkaBus(kafka, spool_path=spool)
    from pipelines.bus.memory import InProcessBus

    return InProcessBus()


@click.command()
@click.argument("source", type=click.Path(exists=True))
@click.option("--game", default=None, help="game id (checked against the source)")
@click.option("--db", default="tablewatch.duckdb", show_default=True, help="DuckDB store to write")
@click.option("--ground-truth", "ground_truth", type=click.Path(exists=True), default=None,
              help="ground-truth file: camera homography for a bare video")
@click.option("--kafka", default=None, help="HOST:PORT: publish events and rounds to Kafka")
@click.option("--spool", default=None, help="spool file for Kafka outages (with --kafka)")
@click.option("--start", "start", default=None, help="ISO 8601 time of the video's first frame")
@click.option("--evidence", "evidence_dir", type=click.Path(file_okay=False), default=None,
              help="where flags' evidence goes (snapshot, clip, detections in evidence/<table>/<round>/); default: "
                   "the table config's snapshots_dir, else the store's folder (the dashboards serve media from it)")
@click.option("--no-evidence", is_flag=True, help="write no evidence (flags carry no frames)")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object as the last line")
def run(source: str, game: str | None, db: str, ground_truth: str | None, kafka: str | None,
        spool: str | None, start: str | None, evidence_dir: str | None, no_evidence: bool, as_json: bool) -> None:
    """Run the whole pipeline on SOURCE: a samples/<game>/ folder, a table config or a video file.

    Video -> detector -> zones -> rounds -> reconcile -> DuckDB (--db), with a progress bar; prints the
    rounds, flags by type and the hold.
    """
    from tqdm import tqdm
    from tqdm.contrib.logging import logging_redirect_tqdm

    try:
        spec = spec_from(source, game=game, ground_truth=ground_truth, session_start=_start(start))
    except (RunError, ValueError) as e:
        raise click.ClickException(str(e)) from None
    try:
        stream, pipe, total = vision_changes(spec)
    except SOURCE_ERRORS as e:
        raise click.ClickException(f"{e}\nnothing was stored") from None
    recorder = None if no_evidence else evidence_for(spec, pipe, _media_dir(evidence_dir, spec, Path(db).parent))
    bus = _bus(kafka, spool)
    bar = tqdm(total=total or None, unit="frame", desc=f"{spec.game} {spec.table_id}", disable=as_json,
               file=sys.stderr)
    recorded = RoundStore(spec, db, bus, recorder)
    broken: str | None = None
    try:
        with logging_redirect_tqdm():  # a warning (a doubtful calibration) on its own line, not in the bar's
            rounds_from_changes(spec, stream, on_round=recorded, on_frame=lambda _: bar.update(1), keep=False,
                                missed=pipe.missed, cover=pipe.cover)
    except SOURCE_ERRORS as e:  # a video that breaks off, a camera of another size than its calibration
        broken = str(e)
    except KeyboardInterrupt:
        broken = "interrupted"
    finally:
        bar.close()
        if recorder is not None:
            recorder.close()  # the clips still being encoded
        bus.flush()
        bus.close()
        recorded.close(create=broken is None)
    rounds, flags = recorded.rounds, recorded.flags
    if broken is not None:
        if not rounds:
            raise click.ClickException(f"{broken}\nnothing was stored")
        raise click.ClickException(f"{broken}\n{len(rounds)} round(s) completed before it are stored in {db}; "
                                   f"a round still in progress at frame {pipe.counters.frames_read} is not")
    out = summary(rounds, flags) | {"db": str(Path(db)), "frames": pipe.counters.frames_read,
                                    "fps": round(pipe.counters.fps, 1),
                                    "evidence": {"dir": str(recorder.media_dir) if recorder else None,
                                                 "flags": sum(bool(f.snapshots) for f in flags)}}
    if as_json:
        click.echo(json.dumps(out))
        return
    click.echo(f"{out['rounds']} rounds ({', '.join(f'{v} {k}' for k, v in out['status'].items()) or 'none'})"
               f" from {out['frames']} frames at {out['fps']} frames/s")
    click.echo("flags: " + (", ".join(f"{k} {v}" for k, v in sorted(out["flags"].items())) or "none"))
    hold = "n/a" if out["hold_pct"] is None else f"{out['hold_pct']:.2f} %"
    click.echo(f"drop {out['drop']:.2f}, win {out['win']:.2f}, hold {hold}; stored in {out['db']}")
    if out["evidence"]["flags"]:
        click.echo(f"evidence of {out['evidence']['flags']} flag(s) under {out['evidence']['dir']}/evidence "
                   f"(tablewatch serve --db {out['db']} shows it on each round's page)")


@click.command()
@click.option("--table", "table", required=True, type=click.Path(exists=True), help="table configuration file")
@click.option("--kafka", default=None, help="HOST:PORT: publish to Kafka (in-process bus otherwise)")
@click.option("--spool", default=None, help="spool for Kafka outages (default: "
              "$TABLEWATCH_STATE_DIR, else ~/.local/state/tablewatch, /bus-spool-<broker>.sqlite)")
@click.option("--start", "start", default=None, help="ISO 8601 time of the first frame (default: now)")
@click.option("--evidence", "evidence_dir", type=click.Path(file_okay=False), default=None,
              help="where flags' evidence goes (snapshot, clip, detections in evidence/<table>/<round>/); default: "
                   "the table config's snapshots_dir, else $TABLEWATCH_STATE_DIR, else the current folder")
@click.option("--no-evidence", is_flag=True, help="write no evidence (flags carry no frames)")
def watch(table: str, kafka: str | None, spool: str | None, start: str | None, evidence_dir: str | None,
          no_evidence: bool) -> None:
    """Watch a table live: camera -> rounds -> bus, with a status line (frames/s, rounds, flags)."""
    from pipelines.reconcile import reconcile

    try:
        spec = spec_from(table, session_start=_start(start) or datetime.now().astimezone())
    except (RunError, ValueError) as e:
        raise click.ClickException(str(e)) from None
    handler, logger = _OwnLine(), logging.getLogger("pipelines")
    logger.addHandler(handler)  # for this command only: a second watch in one process must not print twice
    click.get_current_context().call_on_close(lambda: logger.removeHandler(handler))
    try:
        stream, pipe, _ = vision_changes(spec)
    except SOURCE_ERRORS as e:
        raise click.ClickException(str(e)) from None
    state_dir = Path(os.environ.get("TABLEWATCH_STATE_DIR") or Path.cwd())  # the store's folder in infra/systemd
    recorder = None if no_evidence else evidence_for(spec, pipe, _media_dir(evidence_dir, spec, state_dir))
    bus = _bus(kafka, spool)
    seen = {"rounds": 0, "flags": 0}
    last = [0.0]

    def on_round(r) -> None:
        publish_round(bus, r)
        seen["rounds"] += 1
        _, flags = reconcile([r], {spec.table_id: spec.settings})
        flags = with_evidence(flags, r, recorder)
        publish_flags(bus, spec.table_id, flags)
        seen["flags"] += len(flags)

    def on_frame(_: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 1.0:
            last[0] = now
            c = pipe.counters
            analysed = f", {100 * c.analysed_fraction:3.0f} % analysed" if c.frames_read else ""
            live = pipe.live  # a camera: its own rate, how far behind it the analysis is, frames it lost
            unanalysed = live.dropped + live.unseen if live is not None else 0  # behind by the queue, or not sent
            lost = f", {unanalysed} frames not analysed" if unanalysed else ""
            camera = (f" (camera {live.captured / c.seconds:4.1f}, lag {live.lag_s:4.2f} s{lost})"
                      if live is not None and c.seconds else "")
            click.echo(f"\r{spec.table_id}: {c.fps:5.1f} frames/s{camera}{analysed}, {seen['rounds']} rounds, "
                       f"{seen['flags']} flags", nl=False, err=True)

    try:
        rounds_from_changes(spec, stream, on_round=on_round, on_frame=on_frame, keep=False, missed=pipe.missed,
                            cover=pipe.cover)
    except KeyboardInterrupt:
        pass
    except SOURCE_ERRORS as e:  # the camera lost for good, or giving frames its calibration was not made for
        done = f"\n{seen['rounds']} round(s) completed before it were published" if pipe.counters.frames_read else ""
        raise click.ClickException(f"{e}{done}") from None
    finally:
        if recorder is not None:
            recorder.close()
        bus.flush()
        bus.close()
        click.echo(f"\n{seen['rounds']} rounds, {seen['flags']} flags", err=True)
