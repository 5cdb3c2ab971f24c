"""`tablewatch report hold|dealers`, `tablewatch flags`, `tablewatch replay`, `tablewatch import`."""

from __future__ import annotations

import csv
import io
import json
import sys
from datetime import datetime
from typing import Any

import click

from .db import Store
from .shifts import ShiftConfig

FORMATS = click.Choice(["table", "csv", "json"])


def _emit(rows: list[dict[str, Any]], fmt: str, columns: list[str] | None = None, extra: dict | None = None
          ) -> None:
    columns = columns or (list(rows[0]) if rows else [])
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
        click.echo(buf.getvalue(), nl=False)
        return
    if fmt == "table":
        from rich.console import Console
        from rich.table import Table

        t = Table(show_lines=False)
        for c in columns:
            t.add_column(c, overflow="fold")
        for r in rows:
            t.add_row(*[_cell(r.get(c)) for c in columns])
        Console(width=max(120, 14 * len(columns))).print(t)
    # Every command that prints figures ends with one JSON object line in json mode.
    if fmt == "json":
        click.echo(json.dumps({"rows": rows, **(extra or {})}, default=str))


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:,.4f}" if abs(v) < 1 else f"{v:,.2f}"
    return str(v)


def _open(db: str, *, write: bool = False) -> Store:
    """The store read-only (it must exist), or for writing (created with its schema when missing)."""
    try:
        return Store(db, read_only=not write)
    except OSError as e:  # FileNotFoundError, StoreBusy
        raise click.ClickException(f"--db {db}: {e}") from e


def table_settings(path: str | None) -> dict[str, dict[str, Any]] | None:
    """`--settings FILE` loaded, or a clear error naming the file and the field (not a traceback)."""
    from pipelines.reconcile.config import SettingsError, load_table_settings

    if path is None:
        return None
    try:
        return load_table_settings(path)
    except SettingsError as e:
        raise click.BadParameter(str(e), param_hint="--settings") from None


def _shifts(store: Store, spec: str | None) -> None:
    if spec:
        try:
            cfg = ShiftConfig.parse(spec)
        except ValueError as e:
            raise click.ClickException(f"--shifts {spec!r}: {e}") from e
        # Read-only readers apply shift boundaries in a temporary table that shadows the stored one.
        store.con.execute("CREATE OR REPLACE TEMP TABLE shifts (shift VARCHAR, starts TIME, ends TIME)")
        for s in cfg.shifts:
            store.con.execute("INSERT INTO temp.shifts VALUES (?, ?, ?)", [s.name, s.starts, s.ends])


def _when(value: str | None, option: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value).replace(tzinfo=None)
    except ValueError as e:
        raise click.BadParameter(f"{value!r} is not an ISO date or date-time", param_hint=option) from e


HOLD_COLUMNS = ["rounds", "drop_vision", "win_vision", "hold_pct", "theo_win", "theo_hold_pct", "band_lo",
                "band_hi", "outside_band", "drop_count", "win_count", "hands_per_hour", "avg_bet",
                "overpaid", "underpaid", "past_post", "pinch", "payout_error", "missed_collection", "misdeal",
                "procedure", "void_handling"]


def _common(f):
    for opt in reversed([
        click.option("--db", required=True, help="DuckDB file"),
        click.option("--from", "start", help="ISO date/time, inclusive"),
        click.option("--to", "end", help="ISO date/time, exclusive"),
        click.option("--format", "fmt", type=FORMATS, default="table", show_default=True),
        click.option("--json", "as_json", is_flag=True, help="same as --format json"),
        click.option("--shifts", help="shift boundaries, e.g. day=06-14,swing=14-22,grave=22-06"),
    ]):
        f = opt(f)
    return f


@click.group()
def report() -> None:
    """Hold and dealer reports from the store."""


@report.command()
@_common
@click.option("--by", default="table", show_default=True, help="comma list of table,game,shift,dealer,day")
@click.option("--plot", type=click.Path(dir_okay=False), help="PNG of hold vs theoretical hold by day")
def hold(db: str, start: str | None, end: str | None, fmt: str, as_json: bool, shifts: str | None, by: str,
         plot: str | None) -> None:
    """Drop, win, hold %, theoretical win with its 95 % band, hands/hour, average bet, errors, flags."""
    from .reports import DIMENSIONS, flagged_rounds, hold_report

    fmt = "json" if as_json else fmt
    dims = [b.strip() for b in by.split(",") if b.strip()]
    t0, t1 = _when(start, "--from"), _when(end, "--to")
    with _open(db) as store:
        _shifts(store, shifts)
        try:
            rows = hold_report(store, dims, t0, t1)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--by") from e
        keys = [DIMENSIONS[d] for d in dims] or ["scope"]
        outside = [{**{k: r[k] for k in keys}, "win": r["band_win"], "band_lo": r["band_lo"],
                    "band_hi": r["band_hi"], "flagged_rounds": flagged_rounds(store, dims, r, t0, t1)}
                   for r in rows if r["outside_band"]]
        if plot:
            from .plot import plot_hold
            plot_hold(hold_report(store, ["day"], t0, t1), plot)
    _emit(rows, fmt, keys + HOLD_COLUMNS, {"outside_band": outside, "by": dims})
    if fmt != "json":
        click.echo(f"{len(outside)} group(s) outside the fair game's 95 % band (normal approximation)")
        for o in outside:
            click.echo(f"  {o}")
        if plot:
            click.echo(f"plot written to {plot}")


@report.command()
@_common
def dealers(db: str, start: str | None, end: str | None, fmt: str, as_json: bool, shifts: str | None) -> None:
    """Per dealer: rounds, hands/hour, drop, win, payout errors and procedure flags."""
    from .reports import dealer_report

    fmt = "json" if as_json else fmt
    with _open(db) as store:
        _shifts(store, shifts)
        rows = dealer_report(store, _when(start, "--from"), _when(end, "--to"))
    _emit(rows, fmt, ["dealer_id", "rounds", "hands_per_hour", "drop_vision", "win_vision", "overpaid",
                      "underpaid", "payout_error", "missed_collection", "procedure", "misdeal", "past_post",
                      "pinch", "errors_per_100_rounds"])


@click.command()
@click.option("--db", required=True)
@click.option("--type", "flag_type", help="only this flag type")
@click.option("--table", help="only this table")
@click.option("--limit", default=100, show_default=True)
@click.option("--format", "fmt", type=FORMATS, default="table", show_default=True)
@click.option("--json", "as_json", is_flag=True)
def flags(db: str, flag_type: str | None, table: str | None, limit: int, fmt: str, as_json: bool) -> None:
    """Open flags (no review disposition yet), newest first."""
    from .reports import open_flags

    with _open(db) as store:
        rows = open_flags(store, limit, flag_type, table)
    _emit(rows, "json" if as_json else fmt, ["started_at", "type", "kind", "severity", "table_id", "round_id",
                                             "seat", "spot", "amount", "rule", "detail"])


@click.command()
@click.option("--db", required=True)
@click.option("--from", "start")
@click.option("--to", "end")
@click.option("--settings", type=click.Path(exists=True, dir_okay=False), help="table settings YAML/JSON")
@click.option("--write", is_flag=True, help="store the new result (default: only show the difference)")
@click.option("--json", "as_json", is_flag=True)
def replay(db: str, start: str | None, end: str | None, settings: str | None, write: bool, as_json: bool
           ) -> None:
    """Re-reconcile stored rounds under the current settings; show flags that appear or disappear."""
    from pipelines.reconcile import reconcile_detailed

    from .replay import diff_flags

    settings_by_table = table_settings(settings)
    with _open(db, write=write) as store:
        rounds = store.stored_rounds(_when(start, "--from"), _when(end, "--to"))
        rec = reconcile_detailed(rounds, settings_by_table)
        appeared, disappeared = diff_flags(store, rounds, rec.flags)
        if write:
            store.write_rounds(rounds, settings_by_table, reconciled=rec)
    if not as_json:
        click.echo(f"{len(rounds)} rounds re-reconciled: {len(appeared)} flag(s) appear, "
                   f"{len(disappeared)} disappear")
        if rec.unsettled:
            click.echo(f"  {len(rec.unsettled)} round(s) could not be settled (their flags are not re-raised): "
                       + "; ".join(f"{k}: {v}" for k, v in list(rec.unsettled.items())[:5]))
        for f in appeared:
            click.echo(f"  + {f['type']:<17} {f['round_id']} seat {f['seat']} {f['spot']}: {f['detail']}")
        for f in disappeared:
            click.echo(f"  - {f['type']:<17} {f['round_id']} seat {f['seat']} {f['spot']}: {f['detail']}")
    else:
        click.echo(json.dumps({"rounds": len(rounds), "appeared": appeared, "disappeared": disappeared,
                               "unsettled": rec.unsettled}, default=str))


@click.command("import")
@click.argument("kind", type=click.Choice(["dealer-assignments", "accounting"]))
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--db", required=True)
def import_csv(kind: str, path: str, db: str) -> None:
    """Import a CSV: dealer-assignments (dealer,table,from,to) or accounting
    (table,shift_date,shift,drop,fills,credits,opening,closing)."""
    from .imports import CsvImportError
    from .imports import import_csv as do_import

    with _open(db, write=True) as store:
        try:
            n = do_import(store, path, kind)
        except CsvImportError as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(2)
    click.echo(f"imported {n} {kind} row(s) from {path}")


@click.command()
@click.option("--db", required=True, help="DuckDB store (this process is its one writer)")
@click.option("--kafka", "bootstrap", required=True, help="HOST:PORT of the Kafka bootstrap server")
@click.option("--group", default="store", show_default=True, help="consumer group")
@click.option("--settings", type=click.Path(exists=True, dir_okay=False), help="table settings YAML/JSON")
def sink(db: str, bootstrap: str, group: str, settings: str | None) -> None:
    """Consume "rounds" and "flags" from Kafka into the store until stopped (Ctrl-C / SIGTERM).

    Each record is written (idempotently, by round_id / flag_id) before its offset is committed, so a
    crash redelivers rather than loses; a message that does not validate goes to the dead letters."""
    import signal
    import threading

    from pipelines.bus import KafkaBus

    from .sink import TOPICS, run_sink

    settings_by_table = table_settings(settings)
    store = _open(db, write=True)  # the one writer: creates the store on first start
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    bus = KafkaBus(bootstrap)
    click.echo(f"sinking {', '.join(TOPICS)} from {bootstrap} into {db} (group {group})")
    totals = run_sink(store, bus, group, stop, settings_by_table)
    bus.close()
    click.echo(json.dumps(totals))
