"""`tablewatch odds`: exact odds of every no-decision wager."""

from __future__ import annotations

import json
import time

import click

from .registry import MODULES, game_module


@click.command()
@click.option("--game", "games", multiple=True, type=click.Choice(list(MODULES)), help="default: all")
@click.option("--version", "version", type=click.IntRange(1, 3), help="High Tie side bet version")
@click.option("--decks", type=click.Choice(["1", "2", "4", "6", "8"]), help="High Tie deck count")
@click.option("--paytable", help="High Tie: recommended | additional-N")
@click.option("--json", "as_json", is_flag=True, help="end with one JSON object")
def odds(games: tuple[str, ...], version: int | None, decks: str | None, paytable: str | None,
         as_json: bool) -> None:
    """Exact house edge and outcome probabilities by combinatorial enumeration."""
    results = []
    t0 = time.perf_counter()
    for game in games or tuple(MODULES):
        mod = game_module(game)
        overrides = {}
        if game == "high-tie":
            overrides = {k: v for k, v in
                         {"side_version": version, "decks": int(decks) if decks else None,
                          "paytable": paytable}.items() if v is not None}
        try:
            settings = mod.Settings(**overrides)
        except ValueError as e:  # pydantic's ValidationError is a ValueError: name the option and value
            raise click.UsageError(f"{game}: invalid settings {overrides}: {e}") from None
        for w in mod.odds(settings):
            results.append(w)
            click.echo(f"\n{w.game}  {w.wager}  (paytable {w.paytable})  house edge {w.house_edge:.5%}")
            if w.note:
                click.echo(f"  {w.note}")
            for line in w.lines:
                click.echo(f"  {line.line:<28} {line.probability:>12.8f}  pays {line.pays:>8g}")
    elapsed = time.perf_counter() - t0
    click.echo(f"\n{len(results)} wagers in {elapsed:.1f} s")
    if as_json:
        click.echo(json.dumps({"elapsed_s": round(elapsed, 3), "wagers": [w.model_dump() for w in results]}))
