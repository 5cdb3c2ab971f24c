"""The `tablewatch` command."""

from __future__ import annotations

import click


@click.group()
@click.version_option(package_name="tablewatch")
def main() -> None:
    """tablewatch: surveillance and game-protection analytics for casino card tables."""


def _register() -> None:
    # Each stage adds its commands from its own module so this file stays a table of contents.
    from pipelines.games.odds_cli import odds

    main.add_command(odds)


_register()
