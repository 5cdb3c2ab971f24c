"""Game id -> the game's module. Every game module exports:

- `Settings`: a pydantic model of its table settings, defaults from RULES.md;
- `settle(round, settings) -> list[Settlement]`, in the manual's settlement order;
- `odds(settings) -> list[WagerOdds]`: exact odds of every wager that needs no player decision;
- `SPOTS`: the wager spot names it knows.
"""

from __future__ import annotations

import importlib
from types import ModuleType

MODULES = {
    "king-high": "pipelines.games.king_high",
    "high-tie": "pipelines.games.high_tie",
    "3-card-monster": "pipelines.games.three_card_monster",
    "pick-2-poker": "pipelines.games.pick2_poker",
}


def game_module(game: str) -> ModuleType:
    try:
        return importlib.import_module(MODULES[game])
    except KeyError:
        raise ValueError(f"unknown game {game!r}; game ids are {', '.join(MODULES)}") from None
