"""Simulated rounds through the perfect observation reconstruct exactly (or say they are unsure)."""

from __future__ import annotations

import pytest

from pipelines.games.round import Round
from pipelines.rounds.compare import compare_rounds, differences, tally

# (game, seed): short sessions whose rounds the camera can follow.
CASES = [("3-card-monster", 11), ("pick-2-poker", 12), ("high-tie", 13), ("king-high", 12)]


@pytest.mark.parametrize(("game", "seed"), CASES)
def test_rounds_reconstruct_exactly_or_say_incomplete(reconstruct, game: str, seed: int) -> None:
    scripted, got, _ = reconstruct(game, 3, seed)
    verdicts = compare_rounds(got, [r.round for r in scripted])
    t = tally(verdicts)
    assert t["rounds"] == 3
    assert t["wrong"] == 0, [v.why for v in verdicts if v.result != "exact"]
    assert t["exact"] + t["incomplete"] == 3
    assert t["exact"] >= 2, [v.why for v in verdicts]


@pytest.mark.parametrize(("game", "seed"), CASES)
def test_round_documents_are_valid_and_ordered(reconstruct, game: str, seed: int) -> None:
    scripted, got, _ = reconstruct(game, 3, seed)
    for r in got:
        Round.model_validate(r.model_dump())
        assert [e.seq for e in r.events] == list(range(len(r.events)))
        frames = [e.frame for e in r.events]
        assert frames == sorted(frames)
        assert r.events[-1].type == "round_complete"
        closed = next(e for e in r.events if e.type == "bets_closed")
        first_card = min(c.frame for c in r.cards)
        assert closed.frame <= first_card
        assert [s.seq for s in r.settlements] == list(range(len(r.settlements)))
    truth_ids = [r.round.round_id for r in scripted]
    assert [r.round_id for r in got] == truth_ids  # same table + start time -> same id


def test_comparison_catches_a_wrong_payout(reconstruct) -> None:
    scripted, got, _ = reconstruct("3-card-monster", 3, 11)
    truth = scripted[0].round
    bad = got[0].model_copy(deep=True)
    win = next(s for s in bad.settlements if s.outcome == "win") if any(
        s.outcome == "win" for s in bad.settlements) else bad.settlements[0]
    win.paid += 5
    win.outcome = "win"
    assert differences(bad, truth)
    assert not differences(got[0], truth)


def test_pick2_play3_and_play5_from_the_play_amount(reconstruct) -> None:
    scripted, got, _ = reconstruct("pick-2-poker", 3, 12)
    seen = {r.round_id: r for r in got}
    actions = set()
    for s in scripted:
        g = seen[s.round.round_id]
        for d in g.decisions:
            ante = g.wager(d.seat, "ante").amount
            play = g.wager(d.seat, "play")
            if d.action == "play5":
                assert play.amount == ante
            elif d.action == "play3":
                assert play.amount == 2 * ante and len(d.cards) == 3
                assert set(d.cards) <= set(g.cards_of(f"seat:{d.seat}"))
            else:
                assert d.action == "fold" and play is None
            actions.add(d.action)
    assert actions


def test_an_incomplete_round_says_whether_its_reading_was_right(reconstruct) -> None:
    # A doubt that sends a round read right to review is counted apart from one that caught an error.
    scripted, got, _ = reconstruct("3-card-monster", 3, 11)
    truth = scripted[0].round
    doubted = got[0].model_copy(update={"status": "incomplete", "notes": ["a chip read below confidence"]},
                                deep=True)
    misread = doubted.model_copy(deep=True)
    misread.wagers[0].amount += 5
    verdicts = compare_rounds([doubted], [truth]) + compare_rounds([misread], [truth])
    assert [(v.result, v.right) for v in verdicts] == [("incomplete", True), ("incomplete", False)]
    assert verdicts[0].caught == "" and verdicts[1].caught.startswith("wagers seen ")  # what the doubt caught
    assert tally(verdicts)["incomplete_right"] == 1
