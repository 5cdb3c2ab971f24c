"""Reconciliation settings: thresholds and per-game procedure facts, all data with defaults."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipelines.games.registry import game_module


class ReconcileConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tolerance: float = Field(0.005, description="amounts closer than this are equal (cents rounding)")
    payout_severity: list[tuple[float, str]] = Field(
        default=[(0.0, "low"), (25.0, "medium"), (100.0, "high"), (1000.0, "critical")],
        description="payout error amount from which each severity applies, ascending",
    )
    base_wager: dict[str, dict[str, str]] = Field(
        default={
            "king-high": {"high": "pokerpot", "low": "pokerpot", "suit": "pokerpot", "seven": "pokerpot"},
            "3-card-monster": {"play": "ante", "royal": "ante"},
            "pick-2-poker": {"play": "ante", "bonus5": "ante"},
            "high-tie": {"side": "main", "double": "main", "insurance": "main"},
        },
        description="game -> wager spot -> the base spot the same seat must also have wagered",
    )
    decks: dict[str, int] = Field(
        default={"king-high": 6, "high-tie": 6, "3-card-monster": 1, "pick-2-poker": 1},
        description="deck count when the table settings do not say (Settings.decks wins)",
    )
    cards_per_seat: dict[str, int] = Field(
        default={"3-card-monster": 4, "pick-2-poker": 5, "high-tie": 2},
        description="cards each occupied seat gets on the deal (High Tie: at least)",
    )
    dealer_cards: dict[str, int] = Field(
        default={"3-card-monster": 3, "pick-2-poker": 5, "high-tie": 1},
        description="dealer cards on the deal (High Tie: at least)",
    )
    at_least: list[str] = Field(default=["high-tie"], description="games whose counts are minimums (hits)")
    board_cards: dict[str, int] = Field(default={"king-high": 5})
    dealer_exposure_checked: list[str] = Field(default=["3-card-monster", "pick-2-poker", "high-tie"])
    exempt_rises_after: dict[str, list[str]] = Field(
        default={"double": ["main", "double"], "split": ["main"], "play": ["play"], "play3": ["play"],
                 "play5": ["play"], "insurance": ["insurance"]},
        description="decision -> the spots of that seat that may legitimately grow after it",
    )
    per_card_wagers: dict[str, list[str]] = Field(
        default={"king-high": ["high", "low", "suit", "seven"]},
        description="game -> spots whose betting closes at their own card's bets_closed (hand = card)",
    )
    burns_before_card: dict[str, dict[str, int]] = Field(
        default={"king-high": {"manual": 2, "mechanical": 0}},
        description="game -> the table's shuffler setting -> burn cards before each board card",
    )
    dealer_face_down: dict[str, list[int]] = Field(
        default={"high-tie": [2], "3-card-monster": [1, 2, 3], "pick-2-poker": [1, 2, 3, 4, 5]},
        description="game -> dealer cards (1 = first dealt) the deal procedure deals face down",
    )
    partial_deal_on_void: list[str] = Field(
        default=["king-high", "high-tie"],
        description="games whose voided rounds may stop mid-deal (only too many cards is then wrong)",
    )

class SettingsError(ValueError):
    """A table settings file that does not validate."""


def settings_for(mod: Any, settings_by_table: dict[str, Any] | None, table_id: str) -> Any:
    """The game's Settings for a table: a Settings object as given, a dict validated, else defaults."""
    given = (settings_by_table or {}).get(table_id)
    if given is None:
        return mod.Settings()
    if isinstance(given, dict):
        return mod.Settings(**given)
    return given


def load_table_settings(path: str | Path) -> dict[str, dict[str, Any]]:
    """A YAML or JSON file `{tables: {TABLE_ID: {game: ..., settings: {...}}}}` -> table -> settings dict.

    Each table's settings are validated against its game's Settings so a typo fails here, named."""
    p = Path(path)
    try:
        data = yaml.safe_load(p.read_text()) if p.suffix in (".yaml", ".yml") else json.loads(p.read_text())
    except (OSError, ValueError, yaml.YAMLError) as e:
        raise SettingsError(f"{p}: cannot read: {e}") from e
    tables = (data or {}).get("tables")
    if not isinstance(tables, dict):
        raise SettingsError(f"{p}: field 'tables' must be a mapping of table id to settings, got {tables!r}")
    out: dict[str, dict[str, Any]] = {}
    for table_id, entry in tables.items():
        game = (entry or {}).get("game")
        try:
            mod = game_module(str(game))
        except ValueError as e:
            raise SettingsError(f"{p}: field tables.{table_id}.game: {e}") from e
        settings = (entry or {}).get("settings") or {}
        try:
            mod.Settings(**settings)
        except ValidationError as e:
            err = e.errors()[0]
            raise SettingsError(
                f"{p}: field tables.{table_id}.settings.{'.'.join(map(str, err['loc']))}: {err['msg']} "
                f"(got {err.get('input')!r})"
            ) from e
        out[str(table_id)] = settings
    return out
