"""Pick 2 Poker settlement on hand-picked rounds, and its exact bonus odds."""

import pytest

from pipelines.games import pick2_poker as p2
from pipelines.games.paytables import paytable
from pipelines.games.poker_paylines import SettlementError
from pipelines.games.round import DealtCard, Decision, Round, VoidInfo, Wager
from pipelines.games.settlement import TableLimits

B5 = {x.line: x.pays for x in paytable("pick-2-poker", "bonus5", "manual").lines}
FIVE = {x.line: x.pays for x in paytable("pick-2-poker", "bonus35_five", "manual").lines}
THREE = {x.line: x.pays for x in paytable("pick-2-poker", "bonus35_three", "manual").lines}


def make_round(seats: dict[int, dict], dealer: list[str], void: bool = False) -> Round:
    """seats: {seat: {"cards": [...5], "ante": 10, "bonus35": 10, "bonus5": 5, "play": 10,
    "decision": "play5" | "play3" | "fold", "chosen": [...3]}}"""
    wagers, cards, decisions, seq = [], [], [], 0
    for seat, s in sorted(seats.items()):
        for spot in p2.SPOTS:
            if spot in s:
                wagers.append(Wager(seat=seat, spot=spot, amount=s[spot]))
        for c in s["cards"]:
            cards.append(DealtCard(seq=seq, owner=f"seat:{seat}", card=c))
            seq += 1
        if "decision" in s:
            decisions.append(Decision(seat=seat, action=s["decision"], cards=s.get("chosen")))
    for c in dealer:
        cards.append(DealtCard(seq=seq, owner="dealer", card=c))
        seq += 1
    return Round(game="pick-2-poker", table_id="t2", round_id="r2", started_at="2024-01-01T00:00:00Z",
                 wagers=wagers, cards=cards, decisions=decisions,
                 void=VoidInfo(reason="face_up_card_in_deck", after_cards=3) if void else None,
                 status="voided" if void else "complete")


def by_spot(results, seat):
    return {r.spot: r for r in results if r.seat == seat}


DEALER_AK = ["Ah", "Kd", "9c", "5s", "3h"]  # ace-king high: qualifies in 5-card poker; best 3 A-K-9


def test_docstring_example_trips_play5():
    rnd = make_round({1: {"cards": ["7h", "7d", "7c", "Kh", "2s"], "ante": 10, "bonus35": 10, "bonus5": 5,
                          "play": 10, "decision": "play5"}}, DEALER_AK)
    res = p2.settle(rnd, p2.Settings())
    assert [(r.spot, r.order) for r in res] == [("ante", 0), ("play", 1), ("bonus35", 2), ("bonus5", 3)]
    s = by_spot(res, 1)
    assert s["ante"].net == 10 and s["play"].net == 10 and s["ante"].line == "player_wins"
    expected = 10 * (FIVE["three_of_a_kind"] + THREE["three_of_a_kind"])
    assert (s["bonus35"].line, s["bonus35"].net) == ("three_of_a_kind+three_of_a_kind", expected)
    assert (s["bonus5"].line, s["bonus5"].net) == ("three_of_a_kind", 5 * B5["three_of_a_kind"])


def test_play3_uses_the_chosen_cards_against_dealers_best_three():
    cards = ["Qs", "Qd", "4c", "5c", "6c"]  # best 3 is the 4-5-6 straight flush
    dealer = ["Jh", "Jc", "8d", "3s", "2h"]  # best 3: pair of jacks
    chosen_pair = make_round({1: {"cards": cards, "ante": 10, "bonus35": 10, "play": 20, "decision": "play3",
                                  "chosen": ["Qs", "Qd", "4c"]}}, dealer)
    s = by_spot(p2.settle(chosen_pair, p2.Settings()), 1)
    assert s["ante"].outcome == "win" and s["play"].net == 20  # queens beat jacks
    chosen_junk = make_round({1: {"cards": cards, "ante": 10, "bonus35": 10, "play": 20, "decision": "play3",
                                  "chosen": ["Qs", "4c", "5c"]}}, dealer)
    s = by_spot(p2.settle(chosen_junk, p2.Settings()), 1)
    assert s["ante"].outcome == "lose" and s["play"].net == -20
    # the 3-5 Bonus pays on the best 3 of 5 whatever the player chose
    assert s["bonus35"].line == "straight_flush" and s["bonus35"].net == 10 * THREE["straight_flush"]


def test_play3_needs_no_dealer_qualifier():
    dealer = ["Qh", "9c", "7d", "4s", "2h"]  # queen high: would not qualify in 5-card poker
    rnd = make_round({1: {"cards": ["Ks", "8d", "6c", "3c", "2d"], "ante": 10, "bonus35": 10, "play": 20,
                          "decision": "play3", "chosen": ["Ks", "8d", "6c"]}}, dealer)
    s = by_spot(p2.settle(rnd, p2.Settings()), 1)
    assert s["play"].outcome == "win" and s["ante"].line == "player_wins"


@pytest.mark.parametrize("nonqualify,ante_outcome,ante_net", [
    ("ante_wins_play_pushes", "win", 10), ("ante_and_play_push", "push", 0)])
def test_play5_dealer_not_qualified(nonqualify, ante_outcome, ante_net):
    dealer = ["Ah", "Qd", "9c", "5s", "3h"]  # ace-queen high: does not qualify
    rnd = make_round({1: {"cards": ["Ks", "Kd", "6c", "3c", "2d"], "ante": 10, "bonus35": 10, "play": 10,
                          "decision": "play5"}}, dealer)
    s = by_spot(p2.settle(rnd, p2.Settings(nonqualify=nonqualify)), 1)
    assert (s["ante"].outcome, s["ante"].net, s["ante"].line) == (ante_outcome, ante_net, "dealer_not_qualified")
    assert s["play"].outcome == "returned" and s["play"].net == 0
    assert "qualifies" in s["play"].rule


def test_play5_ace_king_qualifies_and_ties_push():
    rnd = make_round({1: {"cards": ["As", "Kc", "9d", "5c", "3d"], "ante": 10, "bonus35": 10, "play": 10,
                          "decision": "play5"}}, DEALER_AK)
    s = by_spot(p2.settle(rnd, p2.Settings()), 1)
    assert s["ante"].outcome == "push" and s["play"].outcome == "push" and s["play"].line == "tie"


@pytest.mark.parametrize("rule,outcome,net", [("push", "push", 0), ("lose", "lose", -10)])
def test_bonus35_nonqualifying_played_hand(rule, outcome, net):
    rnd = make_round({1: {"cards": ["Ks", "Kd", "6c", "3c", "2d"], "ante": 10, "bonus35": 10, "bonus5": 5,
                          "play": 10, "decision": "play5"}}, DEALER_AK)
    s = by_spot(p2.settle(rnd, p2.Settings(bonus_nonqualifying=rule)), 1)
    assert (s["bonus35"].outcome, s["bonus35"].net, s["bonus35"].line) == (outcome, net, "no_qualifying_hand")
    assert s["bonus5"].line == "pair_of_6s_or_better" and s["bonus5"].net == 5 * B5["pair_of_6s_or_better"]


def test_bonus35_adds_both_tables_and_bonus5_misses_low_pair():
    rnd = make_round({
        1: {"cards": ["5h", "6h", "7h", "Th", "2h"], "ante": 10, "bonus35": 10, "bonus5": 5, "play": 10,
            "decision": "play5"},
        2: {"cards": ["5d", "5c", "Jd", "9c", "3s"], "ante": 10, "bonus35": 10, "bonus5": 5, "play": 10,
            "decision": "play5"},
    }, DEALER_AK)
    res = p2.settle(rnd, p2.Settings())
    s1 = by_spot(res, 1)
    assert s1["bonus35"].line == "flush+straight_flush"
    assert s1["bonus35"].net == 10 * (FIVE["flush"] + THREE["straight_flush"])
    assert s1["bonus5"].line == "flush"
    s2 = by_spot(res, 2)
    assert s2["bonus5"].outcome == "lose" and s2["bonus5"].line == "no_qualifying_hand"  # fives < sixes


def test_fold_loses_ante_and_both_bonuses_first():
    rnd = make_round({
        1: {"cards": ["7s", "7d", "7c", "Kh", "2s"], "ante": 10, "bonus35": 10, "bonus5": 5, "play": 10,
            "decision": "play5"},
        3: {"cards": ["As", "Ks", "Qs", "Js", "Ts"], "ante": 10, "bonus35": 10, "bonus5": 5, "decision": "fold"},
    }, DEALER_AK)
    res = p2.settle(rnd, p2.Settings())
    assert [(r.seat, r.spot) for r in res][:3] == [(3, "ante"), (3, "bonus35"), (3, "bonus5")]
    assert all(r.outcome == "lose" and r.line == "fold" for r in res[:3])  # even a royal flush


@pytest.mark.parametrize("when", ["last", "first"])
def test_bonus_settlement_order_and_seats_high_to_low(when):
    seat = {"cards": ["7s", "7d", "7c", "Kh", "2s"], "ante": 10, "bonus35": 10, "bonus5": 5, "play": 10,
            "decision": "play5"}
    other = dict(seat, cards=["8s", "8d", "8c", "Qh", "3s"])
    res = p2.settle(make_round({2: seat, 4: other}, DEALER_AK), p2.Settings(bonus_settlement=when))
    main = [(4, "ante"), (4, "play"), (2, "ante"), (2, "play")]
    bonus = [(4, "bonus35"), (4, "bonus5"), (2, "bonus35"), (2, "bonus5")]
    assert [(r.seat, r.spot) for r in res] == (main + bonus if when == "last" else bonus + main)
    assert [r.order for r in res] == list(range(8))


def test_void_round_returns_every_wager():
    rnd = make_round({1: {"cards": ["7s", "7d", "7c", "Kh", "2s"], "ante": 10, "bonus35": 10, "bonus5": 5,
                          "play": 10, "decision": "play5"}}, DEALER_AK, void=True)
    res = p2.settle(rnd, p2.Settings())
    assert len(res) == 4 and all(r.outcome == "returned" and r.net == 0 for r in res)
    assert res[0].line == "void:face_up_card_in_deck" and "Irregularities" in res[0].rule


def test_limits_applied_per_spot():
    limits = TableLimits(default=(5, 100), spots={"bonus5": (1, 2)})
    rnd = make_round({1: {"cards": ["7s", "7d", "7c", "Kh", "2s"], "ante": 200, "bonus35": 200, "bonus5": 5,
                          "play": 200, "decision": "play5"}}, DEALER_AK)
    s = by_spot(p2.settle(rnd, p2.Settings(limits=limits)), 1)
    assert (s["ante"].amount, s["ante"].net, s["ante"].limit_violation) == (100, 100, "above_maximum")
    assert (s["bonus5"].amount, s["bonus5"].net) == (2, 2 * B5["three_of_a_kind"])


def test_bad_input_names_the_field():
    base = {"cards": ["7s", "7d", "7c", "Kh", "2s"], "ante": 10, "bonus35": 10, "play": 20}
    with pytest.raises(SettlementError, match=r"decisions.cards"):
        p2.settle(make_round({1: dict(base, decision="play3", chosen=["7s", "7d", "As"])}, DEALER_AK),
                  p2.Settings())
    with pytest.raises(SettlementError, match=r"decisions.*no play3/play5"):
        p2.settle(make_round({1: base}, DEALER_AK), p2.Settings())
    with pytest.raises(SettlementError, match=r"field cards.*dealer"):
        p2.settle(make_round({1: dict(base, decision="play5")}, DEALER_AK[:4]), p2.Settings())
    with pytest.raises(SettlementError, match=r"wagers.seat: 6"):
        p2.settle(make_round({6: dict(base, decision="play5")}, DEALER_AK), p2.Settings())


def test_bonus_odds_exact_and_rules_figure():
    push35, bonus5 = p2.odds(p2.Settings())
    lose35, _ = p2.odds(p2.Settings(bonus_nonqualifying="lose"))
    for w in (push35, bonus5, lose35):
        assert sum(x.probability for x in w.lines) == pytest.approx(1.0, abs=1e-12)
        assert w.total_combinations == sum(x.combinations for x in w.lines) == 2598960
    assert lose35.house_edge == pytest.approx(0.77, abs=0.005)  # RULES.md: "about 77 %"
    miss = {x.line: x for x in push35.lines}["no_qualifying_hand"]
    assert miss.pays == 0 and "push" in push35.note and "plays" in push35.note
    # the only difference between the two rules is what a miss pays
    assert lose35.house_edge - push35.house_edge == pytest.approx(miss.probability)
    counts = {x.line: x.combinations for x in bonus5.lines}
    assert counts["pair_of_6s_or_better"] == 9 * 1098240 // 13  # one pair of 6..A
    assert counts["royal_flush"] == 4 and counts["two_pair"] == 123552


def test_house_edges_keys_and_exact_bonuses():
    edges = p2.house_edges(p2.Settings(bonus_nonqualifying="lose"))
    assert set(edges) == {"ante", "play", "game", "bonus35", "bonus5"}
    assert edges["bonus35"] == pytest.approx(0.77, abs=0.005)
    assert all(-2 < v < 2 for v in edges.values())
