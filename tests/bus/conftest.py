from __future__ import annotations

import pytest

from pipelines.games.round import Round, TableEvent, Wager, round_id_for


def make_round(table_id: str, n: int) -> Round:
    started = f"2026-01-01T10:{n // 60:02d}:{n % 60:02d}+00:00"
    return Round(
        game="king-high",
        table_id=table_id,
        round_id=round_id_for(table_id, started),
        started_at=started,
        wagers=[Wager(seat=1 + n % 8, spot="pokerpot", amount=5.0 + n)],
        events=[TableEvent(seq=0, type="bets_closed", frame=n * 10)],
        notes=[f"n={n}"],
    )


@pytest.fixture
def rounds_for():
    return make_round
