"""The `tablewatch` command."""

from __future__ import annotations

import importlib

import click

# (module, command attribute): each stage keeps its commands in its own module.
COMMANDS = [
    ("pipelines.games.odds_cli", "odds"),
    ("pipelines.sim.cli", "simulate"),
    ("pipelines.vision.cli", "train_detector"),
    ("pipelines.vision.cli", "train_chip_verifier"),
    ("pipelines.vision.cli", "train_edge_chips"),
    ("pipelines.vision.cli", "train_card_finder"),
    ("pipelines.vision.cli", "calibrate"),
    ("pipelines.rounds.cli", "watch"),
    ("pipelines.rounds.cli", "run"),
    ("pipelines.store.cli", "report"),
    ("pipelines.store.cli", "flags"),
    ("pipelines.store.cli", "replay"),
    ("pipelines.store.cli", "import_csv"),
    ("pipelines.store.cli", "sink"),
    ("dashboards.cli", "serve"),
    ("dashboards.cli", "demo"),
]


@click.group()
@click.version_option(package_name="tablewatch")
def main() -> None:
    """tablewatch: surveillance and game-protection analytics for casino card tables."""


def _register() -> None:
    for module_name, attr in COMMANDS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name == module_name:  # that stage is not built yet
                continue
            raise
        if hasattr(module, attr):
            main.add_command(getattr(module, attr))


_register()
