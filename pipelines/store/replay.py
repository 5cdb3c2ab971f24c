"""Which flags a re-reconciliation adds or removes, compared with what the store holds."""

from __future__ import annotations

from typing import Any

from pipelines.games.round import Round
from pipelines.reconcile.flag import Flag

from .db import Store


def diff_flags(store: Store, rounds: list[Round], new: list[Flag]) -> tuple[list[dict[str, Any]],
                                                                         list[dict[str, Any]]]:
    ids = [r.round_id for r in rounds]
    old = {r["flag_id"]: r for r in store.query(
        "SELECT flag_id, type, round_id, seat, spot, detail FROM flags WHERE list_contains(?, round_id)",
        [ids])} if ids else {}
    fresh = {f.flag_id: f for f in new}
    appeared = [{"flag_id": f.flag_id, "type": f.type, "round_id": f.round_id, "seat": f.seat, "spot": f.spot,
                 "detail": f.detail} for k, f in fresh.items() if k not in old]
    disappeared = [v for k, v in old.items() if k not in fresh]
    return appeared, disappeared
