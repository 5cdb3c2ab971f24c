"""Game id -> its round machine."""

from __future__ import annotations

import importlib
from typing import Any

from .machine import RoundMachine

MACHINES = {
    "king-high": ("pipelines.rounds.king_high", "KingHighMachine"),
    "high-tie": ("pipelines.rounds.high_tie", "HighTieMachine"),
    "3-card-monster": ("pipelines.rounds.three_card_monster", "ThreeCardMonsterMachine"),
    "pick-2-poker": ("pipelines.rounds.pick2_poker", "Pick2PokerMachine"),
}


def machine_for(game: str, table_id: str, settings: Any | None = None, **kw: Any) -> RoundMachine:
    """A round machine for `game` (keywords: fps, session_start, dealer_id)."""
    try:
        module, cls = MACHINES[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}; game ids are {', '.join(MACHINES)}") from None
    return getattr(importlib.import_module(module), cls)(table_id, settings, **kw)
