"""3 Card Monster settlement on hand-picked rounds, and its exact bonus odds."""

import numpy as np
import pytest

from pipelines.games import three_card_monster as tcm
from pipelines.games.cards import DECK
from pipelines.games.paytables import PaytableError, paytable
from pipelines.games.poker import best3
from pipelines.games.poker_paylines import SettlementError, all_combos, best3_scores, three_card_lookup
from pipelines.games.round import DealtCard, Decision, Round, VoidInfo, Wager
from pipelines.games.settlement import TableLimits

EX = {x.line: x.pays for x in paytable("3-card-monster", "monster", "example").lines}
RF = {x.line: x.pays for x in paytable("3-card-monster", "royal", "example").lines}


def make_round(seats: dict[int, dict], dealer: list[str], void: bool = False) -> Round:
    """seats: {seat: {"cards": [...], "ante": 10, "monster": 10, "royal": 5, "play": 10, "decision": "play"}}"""
    wagers, cards, decisions, seq = [], [], [], 0
    for c in [*dealer, "2d"]:
        cards.append(DealtCard(seq=seq, owner="dealer" if len(cards) < 3 else "discard", card=c))
        seq += 1
    for seat, s in sorted(seats.items()):
        for spot in tcm.SPOTS:
            if spot in s:
                wagers.append(Wager(seat=seat, spot=spot, amount=s[spot]))
        for c in s["cards"]:
            cards.append(DealtCard(seq=seq, owner=f"seat:{seat}", card=c))
            seq += 1
        if "decision" in s:
            decisions.append(Decision(seat=seat, action=s["decision"]))
    return Round(game="3-card-monster", table_id="t1", round_id="r1", started_at="2024-01-01T00:00:00Z",
                 wagers=wagers, cards=cards, decisions=decisions,
                 void=VoidInfo(reason="shuffler_failure", after_cards=4) if void else None,
                 status="voided" if void else "complete")


def by_spot(results, seat):
    return {r.spot: r for r in results if r.seat == seat}


def test_docstring_example_straight_flush_beats_qualifying_dealer():
    rnd = make_round({2: {"cards": ["Kh", "Qh", "Jh", "2c"], "ante": 10, "monster": 10, "royal": 5,
                          "play": 10, "decision": "play"}}, dealer=["Ah", "9c", "4d"])
    res = tcm.settle(rnd, tcm.Settings())
    assert [(r.spot, r.order) for r in res] == [("play", 0), ("ante", 1), ("monster", 2), ("royal", 3)]
    s = by_spot(res, 2)
    assert (s["play"].outcome, s["play"].net, s["play"].line) == ("win", 10, "player_wins")
    assert (s["ante"].outcome, s["ante"].net) == ("win", 10)
    assert (s["monster"].line, s["monster"].net) == ("straight_flush", 10 * EX["straight_flush"])
    assert (s["royal"].line, s["royal"].net) == ("kqj_suited", 5 * RF["kqj_suited"])
    assert "5B" in s["ante"].rule and "5C" in s["royal"].rule


def test_best_three_of_four_is_played():
    # 9s 9d 5c 5h: best three is a pair of nines, beating the dealer's pair of fives
    rnd = make_round({1: {"cards": ["5c", "9s", "5h", "9d"], "ante": 10, "monster": 10, "play": 10,
                          "decision": "play"}}, dealer=["5s", "5d", "Kc"])
    s = by_spot(tcm.settle(rnd, tcm.Settings()), 1)
    assert s["ante"].outcome == "win" and s["play"].outcome == "win"
    assert s["monster"].outcome == "lose" and s["monster"].line == "no_qualifying_hand"  # pair not paid


def test_dealer_not_qualified_returns_play_but_resolves_ante_and_monster():
    rnd = make_round({
        3: {"cards": ["Th", "8h", "3h", "2c"], "ante": 10, "monster": 10, "play": 10, "decision": "play"},
        1: {"cards": ["4c", "5d", "8s", "9c"], "ante": 10, "monster": 10, "play": 10, "decision": "play"},
    }, dealer=["Qc", "Jd", "4s"])  # queen high: does not qualify
    res = tcm.settle(rnd, tcm.Settings())
    s3, s1 = by_spot(res, 3), by_spot(res, 1)
    assert (s3["play"].outcome, s3["play"].line, s3["play"].net) == ("returned", "dealer_not_qualified", 0)
    assert s3["ante"].outcome == "win"  # flush beats queen high
    assert s3["monster"].line == "flush" and s3["monster"].net == 10 * EX["flush"]
    assert s1["play"].outcome == "returned"
    assert s1["ante"].outcome == "lose"  # 9-8-5 loses to Q-J-4 even though the dealer did not qualify
    assert "5A" in s3["play"].rule


def test_king_high_qualifies():
    rnd = make_round({1: {"cards": ["4c", "5d", "8s", "9c"], "ante": 10, "monster": 10, "play": 10,
                          "decision": "play"}}, dealer=["Kc", "3d", "2s"])
    s = by_spot(tcm.settle(rnd, tcm.Settings()), 1)
    assert s["play"].outcome == "lose" and s["ante"].outcome == "lose"


def test_tie_pushes_ante_and_play():
    rnd = make_round({1: {"cards": ["Ks", "Qd", "9c", "2h"], "ante": 10, "monster": 10, "play": 10,
                          "decision": "play"}}, dealer=["Kc", "Qh", "9d"])
    s = by_spot(tcm.settle(rnd, tcm.Settings()), 1)
    assert s["ante"].outcome == "push" and s["play"].outcome == "push" and s["ante"].line == "tie"


def test_folds_collected_first_then_positions_six_down_to_one():
    seats = {
        1: {"cards": ["As", "Ad", "Ac", "2h"], "ante": 5, "monster": 5, "play": 5, "decision": "play"},
        4: {"cards": ["7s", "4d", "3c", "2h"], "ante": 5, "monster": 5, "royal": 5, "decision": "fold"},
        6: {"cards": ["Ks", "Kd", "Jc", "Qh"], "ante": 5, "monster": 5, "royal": 5, "play": 5,
            "decision": "play"},
        2: {"cards": ["8s", "6d", "5c", "3h"], "ante": 5, "monster": 5},  # no decision, no Play: fold
    }
    res = tcm.settle(make_round(seats, dealer=["Ah", "Kc", "4d"]), tcm.Settings())
    assert [r.order for r in res] == list(range(len(res)))
    assert [(r.seat, r.spot) for r in res] == [
        (4, "ante"), (4, "monster"), (4, "royal"), (2, "ante"), (2, "monster"),
        (6, "play"), (6, "ante"), (6, "monster"), (6, "royal"), (1, "play"), (1, "ante"), (1, "monster"),
    ]
    folds = [r for r in res if r.seat in (2, 4)]
    assert all(r.outcome == "lose" and r.line == "fold" and r.net == -5 for r in folds)
    assert by_spot(res, 1)["monster"].line == "three_of_a_kind"
    # K K J Q: four royals, listed above K-Q-J in the example paytable, so paid as four_royals
    assert by_spot(res, 6)["royal"].line == "four_royals"


def test_royal_family_lines():
    def royal(cards):
        return tcm.royal_line(paytable("3-card-monster", "royal", "example"), cards)

    assert royal(["As", "Ks", "Qs", "Js"])[0] == "akqj_suited"
    assert royal(["Ad", "Ks", "Qs", "Js"])[0] == "kqj_suited"
    assert royal(["Kd", "Ks", "Qs", "Jc"])[0] == "four_royals"
    assert royal(["Ad", "Ks", "Qc", "Js"])[0] == "akqj"
    assert royal(["2d", "Ks", "Qc", "Js"])[0] == "kqj"
    assert royal(["2d", "Ks", "Kc", "Js"])[0] == "three_royals"
    assert royal(["2d", "Ks", "9c", "Js"])[0] == "two_royals"
    assert royal(["2d", "Ks", "9c", "As"]) is None


def test_missing_play_wager_settles_the_configured_multiple():
    rnd = make_round({1: {"cards": ["As", "Ad", "Ac", "2h"], "ante": 10, "monster": 10, "decision": "play"}},
                     dealer=["Kh", "Kc", "4d"])
    s = by_spot(tcm.settle(rnd, tcm.Settings(play_multiple=2)), 1)
    assert s["play"].amount == 20 and s["play"].net == 20


def test_table_limits_over_maximum_settles_as_maximum():
    limits = TableLimits(default=(5, 100), spots={"monster": (1, 25)})
    rnd = make_round({1: {"cards": ["As", "Ad", "Ac", "2h"], "ante": 300, "monster": 50, "play": 2,
                          "decision": "play"}}, dealer=["Kh", "Qc", "4d"])
    s = by_spot(tcm.settle(rnd, tcm.Settings(limits=limits)), 1)
    assert (s["ante"].amount, s["ante"].net, s["ante"].limit_violation) == (100, 100, "above_maximum")
    assert (s["monster"].amount, s["monster"].net) == (25, 25 * EX["three_of_a_kind"])
    assert (s["play"].amount, s["play"].limit_violation, s["play"].net) == (2, "below_minimum", 2)


def test_void_round_returns_every_wager():
    rnd = make_round({1: {"cards": ["As", "Ad", "Ac", "2h"], "ante": 10, "monster": 10, "royal": 5,
                          "play": 10, "decision": "play"}}, dealer=["Kh", "Qc", "4d"], void=True)
    res = tcm.settle(rnd, tcm.Settings())
    assert len(res) == 4 and all(r.outcome == "returned" and r.net == 0 for r in res)
    assert res[0].line == "void:shuffler_failure"


def test_bad_input_names_the_field():
    rnd = make_round({1: {"cards": ["As", "Ad"], "ante": 10, "monster": 10, "play": 10, "decision": "play"}},
                     dealer=["Kh", "Qc", "4d"])
    with pytest.raises(SettlementError, match=r"field cards.*seat:1"):
        tcm.settle(rnd, tcm.Settings())
    rnd.wagers.append(Wager(seat=1, spot="pairplus", amount=5))
    with pytest.raises(SettlementError, match=r"wagers\.spot.*pairplus"):
        tcm.settle(rnd, tcm.Settings())
    with pytest.raises(PaytableError, match=r"monster\.casino-x\.json"):
        tcm.tables(tcm.Settings(monster_paytable="casino-x"))


def test_bonus_odds_sum_to_one_and_count_known_hands():
    monster, royal = tcm.odds(tcm.Settings())
    for w in (monster, royal):
        assert sum(x.probability for x in w.lines) == pytest.approx(1.0, abs=1e-12)
        assert sum(x.combinations for x in w.lines) == w.total_combinations == 270725
        assert w.house_edge == pytest.approx(-sum(x.probability * x.pays for x in w.lines))
        assert "plays" in w.note and "EXAMPLE" in w.note
    lines = {x.line: x.combinations for x in monster.lines}
    assert lines["mini_royal"] == 4 * 49  # A-K-Q of a suit plus any 4th card
    assert {x.line: x.combinations for x in royal.lines}["akqj_suited"] == 4


def test_vectorised_best_of_four_agrees_with_evaluator_on_a_sample():
    hands = all_combos(4)[np.random.default_rng(7).choice(270725, 400, replace=False)]
    _, evals = three_card_lookup()
    scores = best3_scores(hands)
    for row, score in zip(hands.tolist(), scores.tolist(), strict=True):
        assert evals[score] == best3([DECK[i] for i in row])[0]


def test_house_edges_exact_bonuses_and_estimated_ante_play():
    edges = tcm.house_edges(tcm.Settings())
    exact = {w.wager: w.house_edge for w in tcm.odds(tcm.Settings())}
    assert edges["monster"] == exact["monster"] and edges["royal"] == exact["royal"]
    assert set(edges) == {"ante", "play", "monster", "royal"}
    assert all(-1 < v < 1 for v in edges.values())
