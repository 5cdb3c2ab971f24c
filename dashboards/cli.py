"""`tablewatch serve` and `tablewatch demo`."""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import click


def _run(app: object, host: str, port: int) -> None:
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level="info", workers=1)  # one process: one writer


@contextmanager
def _store_sink(db_path: str, bootstrap: str, group: str, table_settings: dict | None) -> Iterator[None]:
    """The store's Kafka sink for as long as the dashboards serve: DuckDB lets one process hold the file,
    so the process serving the pages is also the one writing what the bus brings."""
    from pipelines.bus import KafkaBus
    from pipelines.store.db import Store
    from pipelines.store.sink import sinking

    store, bus = Store(db_path), KafkaBus(bootstrap)  # the same database instance as the pages' connection
    try:
        with sinking(store, bus, group, table_settings) as totals:
            click.echo(f"sinking rounds and flags from {bootstrap} into {db_path} (group {group})", err=True)
            yield
        click.echo(f"sink stopped: {json.dumps(totals)}", err=True)
    finally:
        bus.close()
        store.close()


@click.command()
@click.option("--db", "db_path", required=True, type=click.Path(dir_okay=False),
              help="the store's DuckDB file (created with the store's schema if missing)")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8080, show_default=True, type=int)
@click.option("--media", "media", multiple=True, type=click.Path(file_okay=False, exists=True),
              help="a further folder evidence files may be served from (the database's folder always is)")
@click.option("--secret", envvar="TABLEWATCH_SECRET", default=None,
              help="cookie-signing key (env TABLEWATCH_SECRET); default: one kept in the database")
@click.option("--create-admin", metavar="USER", default=None,
              help="create this admin user first (asks for the password) when no user exists")
@click.option("--kafka", "bootstrap", default=None, metavar="HOST:PORT",
              help="also sink rounds and flags from Kafka into the store: DuckDB lets one process write the "
                   "file, so with the dashboards running this process is the store's writer")
@click.option("--group", default="store", show_default=True, help="with --kafka: the sink's consumer group")
@click.option("--settings", type=click.Path(exists=True, dir_okay=False), default=None,
              help="with --kafka: table settings YAML/JSON for reconciling what arrives")
def serve(db_path: str, host: str, port: int, media: tuple[str, ...], secret: str | None,
          create_admin: str | None, bootstrap: str | None, group: str, settings: str | None) -> None:
    """Serve the dashboards for surveillance, game protection and managers."""
    from pipelines.store.cli import table_settings

    from . import auth
    from .app import create_app

    background = None
    if bootstrap is not None:
        background = partial(_store_sink, db_path, bootstrap, group, table_settings(settings))
    try:
        app = create_app(db_path, secret=secret, media_roots=[Path(m) for m in media], background=background)
    except (RuntimeError, OSError) as e:
        raise click.ClickException(f"--db {db_path}: {e}") from e
    db = app.state.db
    if create_admin and not auth.list_users(db):
        password = click.prompt(f"password for {create_admin}", hide_input=True, confirmation_prompt=True)
        try:
            auth.create_user(db, create_admin, password, "admin", by="cli")
        except auth.AuthError as e:
            raise click.ClickException(str(e)) from e
    if not auth.list_users(db):
        click.echo("warning: no users yet; start again with --create-admin USER", err=True)
    _run(app, host, port)


@click.command()
@click.option("--port", default=8080, show_default=True, type=int)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--db", "db_path", default=None, type=click.Path(dir_okay=False),
              help="where to keep the demo store (default: a new temporary folder)")
@click.option("--rounds", "rounds_per_table", default=80, show_default=True, type=int,
              help="rounds per table")
@click.option("--seed", default=7, show_default=True, type=int)
@click.option("--evidence", default=12, show_default=True, type=click.IntRange(min=0),
              help="flags (most severe first) to render snapshot, clip and detections for")
@click.option("--no-serve", is_flag=True, help="build the store and users, print them, and stop")
def demo(port: int, host: str, db_path: str | None, rounds_per_table: int, seed: int, evidence: int,
         no_serve: bool) -> None:
    """Simulate a shift on a few tables, reconcile and store it, create a user per role, and serve."""
    from . import demo as demo_data
    from .app import create_app

    path = Path(db_path) if db_path else Path(tempfile.mkdtemp(prefix="tablewatch-demo-")) / "demo.duckdb"
    if path.exists():
        raise click.ClickException(f"--db {path}: already exists; the demo builds a new store")
    if rounds_per_table < 1:
        raise click.BadParameter(f"{rounds_per_table} must be at least 1", param_hint="--rounds")
    t0 = time.perf_counter()
    summary = demo_data.simulate_shift(path, rounds_per_table=rounds_per_table, seed=seed, evidence_flags=evidence,
                                       progress=lambda m: click.echo(f"demo: {m}", err=True))
    app = create_app(path)
    demo_data.assign_pits(app.state.db)
    users = demo_data.create_demo_users(app.state.db)
    click.echo(f"demo store {path}: {summary.rounds} rounds, {summary.flags} flags "
               f"({summary.evidence_flags} with evidence frames) in {time.perf_counter() - t0:.1f} s")
    click.echo("tables: " + ", ".join(f"{t} ({g}, pit {p})" for t, g, p in summary.tables))
    click.echo("users (user / password / role):")
    for username, password, role, pit in users:
        click.echo(f"  {username:10s} {password:14s} {role}{f' (pit {pit} only)' if pit else ''}")
    if no_serve:
        app.state.db.close()
        return
    click.echo(f"open http://{host}:{port}/")
    _run(app, host, port)
