"""Settlements too close in time to order keep the manual's order; when the camera saw them the other
way round, the round says it is unsure instead of asserting the manual's order."""

from __future__ import annotations

from pipelines.games.round import Wager
from pipelines.rounds.king_high import KingHighMachine
from pipelines.rounds.machine import WagerSeen
from pipelines.rounds.timeline import ChipInstance


def _seen(seat: int, outcome: str, at: int) -> WagerSeen:
    w = Wager(seat=seat, spot="high", hand=1, amount=10.0)
    ws = WagerSeen(w, ChipInstance(f"seat{seat}.high", 0, [(0, 10.0)]), 0, f"seat{seat}.high.paid")
    ws.outcome, ws.settled_at = outcome, at
    return ws


def test_close_settlements_seen_against_the_manual_are_noted() -> None:
    m = KingHighMachine("T1")
    m._assumed_order = []
    manual = {(3, "high", 1): 1, (4, "high", 1): 2}
    # seat 4's loss seen 2 frames before seat 3's payout (a payout shows 8 frames late): too close
    out = m._in_dealer_order([_seen(4, "lose", 100), _seen(3, "win", 110)], manual)
    assert [ws.wager.seat for ws in out] == [3, 4]
    assert m._assumed_order == [((3, "high", 1), (4, "high", 1))]
    m._assumed_order = []
    out = m._in_dealer_order([_seen(3, "lose", 100), _seen(4, "win", 110)], manual)  # as the manual says
    assert [ws.wager.seat for ws in out] == [3, 4] and m._assumed_order == []
    out = m._in_dealer_order([_seen(4, "lose", 100), _seen(3, "win", 130)], manual)  # far apart: as seen
    assert [ws.wager.seat for ws in out] == [4, 3] and m._assumed_order == []


def test_one_boxes_settlements_keep_the_manual_order_without_doubt() -> None:
    m = KingHighMachine("T1")
    a, b = _seen(3, "lose", 100), _seen(3, "win", 110)
    b.wager = b.wager.model_copy(update={"spot": "suit"})
    out = m._in_dealer_order([a, b], {(3, "suit", 1): 1, (3, "high", 1): 2})
    assert [ws.wager.spot for ws in out] == ["suit", "high"] and m._assumed_order == []
