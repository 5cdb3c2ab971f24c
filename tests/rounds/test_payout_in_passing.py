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


def _grown(name: str, start: int, first: float, grew: int, total: float, end: int) -> ChipZone:
    zone = ChipZone(name)
    zone.update(start, first, False)
    zone.update(grew, total, False)
    zone.update(end, 0.0, False)
    return zone


def _where_counted(suit_paid: tuple[int, int, float], grew: int, rise_to: float) -> str | None:
    # Held-out King High video (set A65, seed 14891): the $375 Low payout read $25 from frame 228, its two $25 end
    # chips read as $50 in the empty Suit's paid spot for frames 230-233, gone as the Low's payout rose to $375 at 234.
    machine = KingHighMachine("T1", fps=10.0)
    paid = {"seat5.suit_s.paid": _paid("seat5.suit_s.paid", suit_paid),
            "seat5.low.paid": _grown("seat5.low.paid", 228, 25.0, grew, rise_to, 239)}
    used = {id(paid["seat5.low.paid"].instances[0])}
    return machine._laid_through(paid["seat5.suit_s.paid"].instances[0], "seat5.suit_s.paid", paid, used)


def test_a_moment_in_the_next_paid_spot_gone_as_the_payout_grows_by_as_much_was_that_payout():
    assert _where_counted((230, 234, 50.0), 234, 375.0) == "seat5.low.paid"


def test_a_payout_growing_by_less_or_at_another_time_leaves_the_stack_unmatched():
    assert _where_counted((230, 234, 50.0), 234, 50.0) is None  # grew by $25, less than the $50 gone
    assert _where_counted((230, 234, 50.0), 250, 375.0) is None  # grew long after the stack went
