"""A stack seen for a moment in one paid spot, just as the payout lands in the paid spot beside it, is that
payout carried over on its way, not a payout that matches no wager."""

from __future__ import annotations

from pipelines.rounds.king_high import KingHighMachine
from pipelines.rounds.timeline import ChipZone


def _paid(name: str, *spells: tuple[int, int, float]) -> ChipZone:
    zone = ChipZone(name)
    for start, end, total in spells:
        zone.update(start, total, False)
        zone.update(end, 0.0, False)
    return zone


def _where_laid(high_paid: tuple[int, int, float], low_paid: tuple[int, int, float], seat: int = 7) -> str | None:
    # Held-out King High video (set 9851, round a3543467, seat 7): the $40 Low payout read as 25 in the High's
    # paid spot for frames 1598-1601, then as 40 in the Low's from 1601.
    machine = KingHighMachine("T1", fps=10.0)
    paid = {"seat7.high.paid": _paid("seat7.high.paid", high_paid),
            f"seat{seat}.low.paid": _paid(f"seat{seat}.low.paid", low_paid)}
    used = {id(paid[f"seat{seat}.low.paid"].instances[0])}  # matched to the Low wager
    return machine._laid_through(paid["seat7.high.paid"].instances[0], "seat7.high.paid", paid, used)


def test_a_moment_in_the_next_paid_spot_as_the_payout_lands_is_the_payout_in_passing():
    assert _where_laid((1598, 1601, 25.0), (1601, 1611, 40.0)) == "seat7.low.paid"


def test_a_stack_that_stays_or_lands_alone_or_at_another_seat_matches_no_wager():
    assert _where_laid((1598, 1640, 25.0), (1601, 1611, 40.0)) is None  # four seconds: a payout of its own
    assert _where_laid((1598, 1601, 25.0), (1650, 1660, 40.0)) is None  # nothing landed beside it then
    assert _where_laid((1598, 1601, 25.0), (1601, 1611, 40.0), seat=6) is None  # another seat's payout
