"""A stack first seen in a spot wagered before the deal (`RoundMachine.round_spots`) after bets closed, for the round
as a whole (hand 0), is no wager the round can claim as made: placed late, or chips of another stack read in its spot.
The round says so rather than settling it."""

from __future__ import annotations

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs, ZoneObs

from .conftest import ScriptedSession, nearest_round, rounds_with_edited_observations, scripted_session, seat_without

GAME = "3-card-monster"


def _assert_no_wager_made(game: str, session: ScriptedSession, seat: int, spot: str, shown: range, chip: int) -> None:
    """A `chip` read in seat `seat`'s empty `spot` in the frames `shown` is no wager made: the round says so."""
    truth = session.scripted[0].round

    def stray_chip(frame: int, obs: FrameObs) -> None:
        if frame in shown:
            obs[f"seat{seat}.{spot}"] = ZoneObs(chips=[chip], chips_min_confidence=0.95)

    rnd = nearest_round(rounds_with_edited_observations(game, session.scripted, session.setup, stray_chip), truth)
    assert any(n.startswith(f"seat {seat} {spot} (hand 0): first seen at frame") for n in rnd.notes), rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == "incomplete", rnd.notes


def test_chips_read_in_an_empty_spot_after_bets_closed_are_no_wager_made():
    # Pick 2, video (set A14, seed 12864, round 2f39d34a): a $25 chip of a Bonus payout under the dealer's hand read in
    # the seat's empty 5-card Bonus spot for three frames, 180 frames after bets closed: the round said a $25 Bonus was
    # wagered and lost.
    session = scripted_session(GAME, 3, 4)
    truth = session.scripted[0].round
    close = min(e.frame for e in truth.events if e.type == "bets_closed")
    seat = seat_without(truth, "royal", "ante")
    _assert_no_wager_made(GAME, session, seat, "royal", range(close + 40, close + 46), 25)


def test_chips_read_in_an_empty_run_spot_after_the_first_card_closed_bets_are_no_wager_made():
    # King High, video (set A21, seed 13121): a Suit bet's $5 chip, carried by the dealer's hand that took it, read in
    # the seat's empty High Run spot for three frames as the third card's bets were settled; bets close again for
    # each card, and against the last close it looked placed in time: a $5 High Run was claimed wagered and lost.
    game = "king-high"
    session = scripted_session(game, 3, 4)
    truth = session.scripted[0].round
    closes = sorted(e.frame for e in truth.events if e.type == "bets_closed")
    assert len(closes) > 2
    shown = range(closes[1] + 5, closes[1] + 11)
    assert shown[-1] < closes[-1]
    _assert_no_wager_made(game, session, seat_without(truth, "high_run", "pokerpot"), "high_run", shown, 5)
