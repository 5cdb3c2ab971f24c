"""Game id -> its round script (the per-game modules hold the dealing procedures)."""

from __future__ import annotations

import importlib

from .script_base import GameScript, ScriptedRound

__all__ = ["SCRIPTS", "GameScript", "ScriptedRound", "script_for"]

SCRIPTS = {
    "king-high": ("pipelines.sim.script_king_high", "KingHighScript"),
    "high-tie": ("pipelines.sim.script_high_tie", "HighTieScript"),
    "3-card-monster": ("pipelines.sim.script_three_card_monster", "ThreeCardMonsterScript"),
    "pick-2-poker": ("pipelines.sim.script_pick2_poker", "Pick2PokerScript"),
}


def script_for(game: str, settings: object | None = None, **kw: object) -> GameScript:
    """A round script for `game`; keyword arguments as `GameScript` (seed, table_id, fps, faults, layout)."""
    try:
        module, cls = SCRIPTS[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}; game ids are {', '.join(SCRIPTS)}") from None
    return getattr(importlib.import_module(module), cls)(settings, **kw)
