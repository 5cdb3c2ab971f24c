"""Expected settlement of every wager, from the games core: settle() is called once per round."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

import polars as pl

from pipelines.games.registry import game_module
from pipelines.games.round import Round

from .config import settings_for
from .frames import OUTCOMES, SpotCodes

EXPECTED_SCHEMA = {
    "rid": pl.Int64, "seat": pl.Int64, "spot": pl.Utf8, "spot_code": pl.Int64, "hand": pl.Int64,
    "wagered": pl.Float64,
    "settled_amount": pl.Float64, "exp_outcome": OUTCOMES, "exp_net": pl.Float64, "exp_paid": pl.Float64,
    "exp_order": pl.Int64, "line": pl.Utf8, "rule": pl.Utf8, "limit_violation": pl.Utf8,
    "house_edge": pl.Float64, "var_per_unit": pl.Float64,
}

GameLookup = Callable[[str], ModuleType]


class _WagerStats:
    """House edge and variance per unit of each spot, per (game, settings): computed once, reused."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], dict[str, tuple[float | None, float | None]]] = {}

    def get(self, game: str, mod: Any, settings: Any) -> dict[str, tuple[float | None, float | None]]:
        key = (game, settings.model_dump_json() if hasattr(settings, "model_dump_json") else repr(settings))
        if key not in self._cache:
            edges: dict[str, float] = dict(mod.house_edges(settings)) if hasattr(mod, "house_edges") else {}
            variances: dict[str, float] = {}
            if hasattr(mod, "odds"):
                for w in mod.odds(settings):
                    variances[w.wager] = w.variance
                    edges.setdefault(w.wager, w.house_edge)
            self._cache[key] = {s: (edges.get(s), variances.get(s)) for s in set(edges) | set(variances)}
        return self._cache[key]


def expected_settlements(
    rounds: Iterable[Round], settings_by_table: dict[str, Any] | None, games: GameLookup = game_module,
    stats: _WagerStats | None = None, spot_codes: SpotCodes | None = None,
) -> tuple[pl.DataFrame, dict[str, str]]:
    """(one row per expected Settlement, {round_id: why it could not be settled}).

    `rid` is the round's position in `rounds` (as in `flatten`); rows are in wager-key order."""
    stats = stats or _WagerStats()
    codes = spot_codes or SpotCodes()
    rows: dict[str, list] = {k: [] for k in EXPECTED_SCHEMA}
    unsettled: dict[str, str] = {}
    for rid, r in enumerate(rounds):
        try:
            mod = games(r.game)
            settings = settings_for(mod, settings_by_table, r.table_id)
            settlements = mod.settle(r, settings)
            edge_var = stats.get(r.game, mod, settings)
        except Exception as e:  # one unsettleable round (missing cards, bad settings) must not stop a batch
            unsettled[r.round_id] = f"{type(e).__name__}: {e}"
            continue
        by_key = {codes.sort_key(s.seat, s.spot, s.hand): s for s in settlements}
        for key in sorted(by_key):
            s = by_key[key]
            edge, var = edge_var.get(s.spot, (None, None))
            for k, v in (("rid", rid), ("seat", s.seat), ("spot", s.spot), ("spot_code", key[1]),
                         ("hand", s.hand),
                         ("wagered", s.wagered), ("settled_amount", s.amount), ("exp_outcome", s.outcome),
                         ("exp_net", s.net), ("exp_paid", s.paid), ("exp_order", s.order), ("line", s.line),
                         ("rule", s.rule), ("limit_violation", s.limit_violation), ("house_edge", edge),
                         ("var_per_unit", var)):
                rows[k].append(v)
    return pl.DataFrame(rows, schema=EXPECTED_SCHEMA), unsettled
