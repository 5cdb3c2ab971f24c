"""High Tie Blackjack settlement on hand-picked rounds: every side bet line of each version, the
blackjack round under the house rules, table limits and the manual's settlement order."""

from __future__ import annotations

import pytest

from pipelines.games.high_tie import RoundError, Settings, settle
from pipelines.games.round import DealtCard, Decision, Round, Wager
from pipelines.games.settlement import TableLimits


def make_round(deal: list[tuple[str, str]], wagers: list[tuple], decisions: list[tuple] = ()) -> Round:
    """deal: (owner, card) in deal order; wagers: (seat, spot, amount[, hand]);
    decisions: (seat, hand, action)."""
    return Round(
        game="high-tie", table_id="ht-1", round_id="r-1", started_at="2024-05-01T20:00:00Z",
        cards=[DealtCard(seq=i, owner=o, card=c) for i, (o, c) in enumerate(deal)],
        wagers=[Wager(seat=w[0], spot=w[1], amount=w[2], hand=w[3] if len(w) > 3 else 0) for w in wagers],
        decisions=[Decision(seat=s, hand=h, action=a, seq=i) for i, (s, h, a) in enumerate(decisions)],
    )


def heads_up(player: list[str], dealer: list[str], wagers: list[tuple], extra=(), decisions=()) -> Round:
    """Seat 1 against the dealer: P, D, P, D, then `extra` (owner, card) in order."""
    deal = [("seat:1", player[0]), ("dealer", dealer[0]), ("seat:1", player[1]), ("dealer", dealer[1])]
    return make_round(deal + list(extra), wagers, decisions)


def only(settlements, spot, hand=0):
    [s] = [s for s in settlements if s.spot == spot and s.hand == hand]
    return s


# ---- side bet, every line of each version -------------------------------------------------------

V1_SIX_DECKS = [  # (player, dealer, line, net on $10) with the 4-6-8 deck recommended table
    (["As", "Kh"], ["Ad", "Qc"], "high_tie", 500.0),
    (["Ah", "Kh"], ["Ad", "Qc"], "high_tie", 500.0),  # suited blackjack too: the highest line is paid
    (["Ah", "Kh"], ["Ad", "9c"], "suited_blackjack", 150.0),  # a dealer ace without a ten is no tie
    (["8h", "8h"], ["Td", "7c"], "suited_pair", 100.0),
    (["Ah", "Ks"], ["Td", "7c"], "blackjack", 60.0),
    (["8h", "8c"], ["Td", "7c"], "pair", 30.0),
    (["3h", "Qh"], ["Td", "7c"], "lose", -10.0),  # two suited cards pay only with one or two decks
    (["Th", "Js"], ["Td", "7c"], "lose", -10.0),  # ten-values of different rank are not a pair
]


@pytest.mark.parametrize(("player", "dealer", "line", "net"), V1_SIX_DECKS)
def test_version_1_lines_six_decks(player, dealer, line, net):
    s = only(settle(heads_up(player, dealer, [(1, "side", 10)]), Settings()), "side")
    assert (s.line, s.net, s.outcome) == (line, net, "lose" if net < 0 else "win")
    assert "VERSION 1" in s.rule


@pytest.mark.parametrize(("decks", "name", "player", "line", "net"), [
    (1, "recommended", ["3h", "Qh"], "two_suited", 10.0),
    (1, "recommended", ["Ah", "Kh"], "suited_blackjack", 100.0),
    (1, "additional-1", ["Ad", "Kh"], "blackjack", 40.0),
    (2, "recommended", ["9c", "9c"], "suited_pair", 60.0),
    (2, "additional-1", ["Ah", "Kh"], "suited_blackjack", 50.0),
    (2, "additional-1", ["9c", "9d"], "pair", 20.0),
])
def test_version_1_small_deck_tables(decks, name, player, line, net):
    s = only(settle(heads_up(player, ["Td", "7c"], [(1, "side", 10)]),
                    Settings(decks=decks, paytable=name)), "side")
    assert (s.line, s.net) == (line, net)


@pytest.mark.parametrize(("p1", "d1", "line", "net"), [
    ("Qh", "Qh", "match", 160.0),
    ("Jh", "Js", "tie", 50.0),
    ("Ah", "Kd", "blackjack", 50.0),
    ("Kd", "Ah", "blackjack", 50.0),
    ("5h", "9c", "lose", -10.0),
    ("Th", "Jh", "lose", -10.0),  # same value, not the same rank
])
def test_version_2_player_first_card_against_dealer_first_card(p1, d1, line, net):
    # the player's second card and the dealer's hole card never matter to version 2
    rnd = heads_up([p1, "Ac"], [d1, "Kc"], [(1, "side", 10)])
    s = only(settle(rnd, Settings(side_version=2)), "side")
    assert (s.line, s.net) == (line, net)
    assert "VERSION 2" in s.rule


@pytest.mark.parametrize(("player", "dealer", "line", "net"), [
    (["Ah", "Kh"], ["As", "Qs"], "suited_high_tie", 1000.0),
    (["Ah", "Kh"], ["As", "Qd"], "high_tie", 200.0),
    (["Ah", "Kd"], ["As", "Qs"], "high_tie", 200.0),
    (["Ah", "Kh"], ["As", "9s"], "suited_blackjack", 80.0),
    (["Ah", "Kd"], ["Ts", "9s"], "blackjack", 30.0),
    (["3h", "9h"], ["Ts", "9s"], "suited_or_pair", 10.0),
    (["9d", "9h"], ["Ts", "9s"], "suited_or_pair", 10.0),
    (["9d", "8h"], ["Ts", "9s"], "lose", -10.0),
])
def test_version_3_lines(player, dealer, line, net):
    s = only(settle(heads_up(player, dealer, [(1, "side", 10)]), Settings(side_version=3, decks=2)), "side")
    assert (s.line, s.net) == (line, net)


def test_side_bet_uses_the_first_two_cards_even_after_a_split():
    deal = [("seat:1.1", "8h"), ("dealer", "Td"), ("seat:1.2", "8c"), ("dealer", "7c"),
            ("seat:1.1", "3h"), ("seat:1.2", "Ks")]
    rnd = make_round(deal, [(1, "side", 10), (1, "main", 10, 1), (1, "main", 10, 2)], [(1, 0, "split")])
    result = settle(rnd, Settings())
    assert only(result, "side").line == "pair"
    assert only(result, "main", 1).outcome == "lose"  # 11 against 17
    assert only(result, "main", 2).outcome == "win"  # 18 against 17


# ---- the blackjack round -------------------------------------------------------------------------

@pytest.mark.parametrize(("pays", "net"), [(1.5, 37.5), (1.2, 30.0)])
def test_natural_pays_blackjack_pays(pays, net):
    s = only(settle(heads_up(["Ah", "Ks"], ["Td", "7c"], [(1, "main", 25)]), Settings(blackjack_pays=pays)),
             "main")
    assert (s.outcome, s.line, s.net) == ("win", "blackjack", net)


def test_naturals_push_and_dealer_blackjack_beats_twenty_and_pays_insurance():
    rnd = make_round(
        [("seat:1", "Ah"), ("seat:2", "Kc"), ("dealer", "As"), ("seat:1", "Qs"), ("seat:2", "Qd"),
         ("dealer", "Jd")],
        [(1, "main", 20), (2, "main", 20), (2, "insurance", 10)],
    )
    result = settle(rnd, Settings())
    seat1 = [(s.spot, s.outcome, s.line) for s in result if s.seat == 1]
    assert seat1 == [("main", "push", "blackjack_push")]
    seat2 = [s for s in result if s.seat == 2]
    assert {(s.spot, s.outcome, s.net) for s in seat2} == {("main", "lose", -20.0), ("insurance", "win", 20.0)}
    alt = settle(rnd, Settings(insurance_pays=2.5))
    assert [s.net for s in alt if s.spot == "insurance"] == [25.0]


def test_insurance_loses_without_dealer_blackjack_and_is_returned_without_an_ace():
    won = settle(heads_up(["Th", "9s"], ["Ad", "7c"], [(1, "main", 20), (1, "insurance", 10)]), Settings())
    assert (only(won, "insurance").outcome, only(won, "insurance").net) == ("lose", -10.0)
    assert only(won, "main").line == "higher_total"  # 19 against soft 18
    odd = settle(heads_up(["Th", "9s"], ["Kd", "7c"], [(1, "main", 20), (1, "insurance", 10)]), Settings())
    assert only(odd, "insurance").outcome == "returned"


def test_player_bust_loses_even_when_the_dealer_busts_and_dealer_bust_pays_the_rest():
    rnd = make_round(
        [("seat:1", "Th"), ("seat:2", "9c"), ("dealer", "6d"), ("seat:1", "5s"), ("seat:2", "3d"),
         ("dealer", "Tc"), ("seat:1", "Kh"), ("dealer", "8s")],
        [(1, "main", 10), (2, "main", 10)],
    )
    result = {s.seat: s for s in settle(rnd, Settings())}
    assert (result[1].outcome, result[1].line) == ("lose", "bust")
    assert (result[2].outcome, result[2].line, result[2].net) == ("win", "dealer_bust", 10.0)


def test_pushes_and_lower_totals():
    tie = settle(heads_up(["Th", "8s"], ["Kd", "8c"], [(1, "main", 10)]), Settings())
    assert (tie[0].outcome, tie[0].net, tie[0].line) == ("push", 0.0, "tie")
    low = settle(heads_up(["Th", "7s"], ["Kd", "8c"], [(1, "main", 10)]), Settings())
    assert (low[0].outcome, low[0].net, low[0].line) == ("lose", -10.0, "lower_total")


def test_double_wins_and_loses_with_its_hand():
    win = settle(heads_up(["6h", "5s"], ["Kd", "7c"], [(1, "main", 10), (1, "double", 10)],
                          extra=[("seat:1", "Tc")], decisions=[(1, 0, "double")]), Settings())
    assert [(s.spot, s.outcome, s.net) for s in win] == [("main", "win", 10.0), ("double", "win", 10.0)]
    lose = settle(heads_up(["6h", "5s"], ["Kd", "7c"], [(1, "main", 10), (1, "double", 10)],
                           extra=[("seat:1", "2c")], decisions=[(1, 0, "double")]), Settings())
    assert [(s.spot, s.net) for s in lose] == [("main", -10.0), ("double", -10.0)]


def test_split_hands_double_after_split_and_split_ace_twenty_one_is_not_a_natural():
    deal = [("seat:1", "Ah"), ("dealer", "9d"), ("seat:1", "Ac"), ("dealer", "8c"),
            ("seat:1.1", "Kd"), ("seat:1.2", "2s"), ("seat:1.2", "8h")]
    # originals left as "seat:1": the first goes to hand 1, the second to hand 2
    rnd = make_round(deal, [(1, "main", 10, 1), (1, "main", 10, 2), (1, "double", 10, 2)],
                     [(1, 0, "split"), (1, 2, "double")])
    result = settle(rnd, Settings())
    h1, h2, d2 = only(result, "main", 1), only(result, "main", 2), only(result, "double", 2)
    assert (h1.outcome, h1.line, h1.net) == ("win", "higher_total", 10.0)  # 21, paid even money
    assert (h2.outcome, h2.net) == ("win", 10.0)  # A-2-8 = soft 21 against 17
    assert (d2.outcome, d2.net) == ("win", 10.0)


def test_wagers_on_hands_that_do_not_exist_are_clear_errors():
    rnd = heads_up(["8h", "8c"], ["Kd", "7c"], [(1, "main", 10, 3)], extra=[("seat:1.1", "2c")])
    with pytest.raises(RoundError, match="seat 1 hand 3 has a main wager but no known cards"):
        settle(rnd, Settings())
    unsplit = heads_up(["6h", "5c"], ["Kd", "7c"], [(1, "main", 10), (1, "double", 10, 2)])
    with pytest.raises(RoundError, match=r"wagers\[1\]\.hand=2: seat 1 has hand\(s\) \[0\]"):
        settle(unsplit, Settings())


def test_late_surrender_half_lost_but_not_against_a_dealer_blackjack_or_when_not_offered():
    rnd = heads_up(["Th", "6s"], ["Kd", "9c"], [(1, "main", 25)], decisions=[(1, 0, "surrender")])
    s = settle(rnd, Settings())[0]
    assert (s.outcome, s.line, s.net) == ("lose", "surrender", -12.5)
    bj = settle(heads_up(["Th", "6s"], ["Ad", "Kc"], [(1, "main", 25)], decisions=[(1, 0, "surrender")]),
                Settings())[0]
    assert (bj.line, bj.net) == ("dealer_blackjack", -25.0)
    # no surrender at this table: the hand stands on its two cards (the dealer draws to 19)
    played = settle(heads_up(["Th", "6s"], ["Kd", "9c"], [(1, "main", 25)],
                             decisions=[(1, 0, "surrender")]), Settings(surrender=False))[0]
    assert (played.line, played.net) == ("lower_total", -25.0)


def test_soft_17_rule_decides_the_dealers_hand():
    rnd = heads_up(["Th", "8s"], ["Ad", "6c"], [(1, "main", 10)], extra=[("dealer", "4h")])
    stands = settle(rnd, Settings())[0]
    assert (stands.outcome, stands.line) == ("win", "higher_total")  # 18 against soft 17; the 4 not taken
    hits = settle(rnd, Settings(dealer_hits_soft_17=True))[0]
    assert (hits.outcome, hits.line) == ("lose", "lower_total")  # 18 against 21


def test_a_dealer_hand_short_of_the_rule_is_a_clear_error_unless_no_hand_is_live():
    rnd = heads_up(["Th", "8s"], ["Ad", "6c"], [(1, "main", 10)])
    with pytest.raises(RoundError, match="hits soft 17 must draw"):
        settle(rnd, Settings(dealer_hits_soft_17=True))
    busted = heads_up(["Th", "8s"], ["Td", "2c"], [(1, "main", 10)], extra=[("seat:1", "9c")])
    assert settle(busted, Settings())[0].line == "bust"  # no live hand: the dealer need not draw


# ---- limits, order, bad input --------------------------------------------------------------------

def test_table_limits_settle_over_maximum_as_maximum_and_flag_under_minimum():
    limits = TableLimits(default=(10, 500), spots={"side": (1, 100)})
    rnd = heads_up(["Ah", "Kh"], ["Td", "7c"], [(1, "side", 250), (1, "main", 5)])
    side, main = settle(rnd, Settings(limits=limits))
    assert (side.wagered, side.amount, side.net, side.limit_violation) == (250, 100, 1500.0, "above_maximum")
    assert (main.amount, main.net, main.limit_violation) == (5, 7.5, "below_minimum")


def test_settlement_order_side_losers_then_winners_then_the_blackjack_round():
    deal = [("seat:1", "8h"), ("seat:2", "Ah"), ("seat:3", "Tc"), ("dealer", "As"),
            ("seat:1", "8c"), ("seat:2", "Kd"), ("seat:3", "6d"), ("dealer", "7h"),
            ("seat:1", "9s"), ("seat:3", "Jh"), ("dealer", "2c")]
    wagers = [(s, spot, 10) for s in (1, 2, 3) for spot in ("main", "side")] + [(1, "insurance", 5)]
    result = settle(make_round(deal, wagers), Settings())
    assert [s.order for s in result] == list(range(len(result)))
    sequence = [(s.seat, s.spot, s.outcome) for s in result]
    assert sequence == [
        (3, "side", "lose"),  # losing side bets first, by seat
        (1, "side", "win"),  # pair 8s
        (2, "side", "win"),  # blackjack
        (1, "insurance", "lose"),  # at the dealer's check for blackjack
        (1, "main", "lose"),  # 8-8-9 busts during play
        (2, "main", "win"),  # the natural is paid during play
        (3, "main", "lose"),  # T-6-J busts
    ]
    assert result[5].net == 15.0


def test_worked_example_of_the_module_docstring():
    result = settle(heads_up(["Ah", "Kh"], ["Ts", "9c"], [(1, "side", 10), (1, "main", 25)]), Settings())
    assert [(s.spot, s.outcome, s.net, s.line, s.order) for s in result] == [
        ("side", "win", 150.0, "suited_blackjack", 0), ("main", "win", 37.5, "blackjack", 1)]
    tie = settle(heads_up(["Ah", "Kh"], ["As", "Kd"], [(1, "side", 10), (1, "main", 25)]), Settings())
    assert [(s.line, s.net) for s in tie] == [("high_tie", 500.0), ("blackjack_push", 0.0)]


@pytest.mark.parametrize(("rnd", "needle"), [
    (heads_up(["Ah", "Kh"], ["Td", "7c"], [(1, "ante", 10)]), r"wagers\[0\]\.spot='ante'"),
    (heads_up(["Ah", "Kh"], ["Td", "7c"], [(7, "main", 10)]), r"wagers\[0\]\.seat=7"),
    (heads_up(["Ah", "Kh"], ["Td", "7c"], [(1, "side", 10, 1)]), r"wagers\[0\]\.hand=1"),
    (make_round([("seat:1", "Ah"), ("dealer", "Td")], [(1, "side", 10)]), "seat 1 has 1 known card"),
    (make_round([("seat:1", "Ah"), ("dealer", "Ad"), ("seat:1", "Kh")], [(1, "side", 10)]),
     "the dealer has 1 known card"),
])
def test_bad_rounds_are_clear_errors(rnd, needle):
    with pytest.raises(RoundError, match=needle) as err:
        settle(rnd, Settings())
    assert "round r-1" in str(err.value)


def test_a_round_of_another_game_is_refused():
    rnd = heads_up(["Ah", "Kh"], ["Td", "7c"], [(1, "main", 10)]).model_copy(update={"game": "king-high"})
    with pytest.raises(RoundError, match="game='king-high'"):
        settle(rnd, Settings())
