"""King High settlement on hand-picked rounds: every wager, limits, order, errors."""

from __future__ import annotations

import doctest

import pytest

from pipelines.games import king_high
from pipelines.games.king_high import KingHighError, Settings, settle
from pipelines.games.paytables import PaytableError
from pipelines.games.round import DealtCard, Round, VoidInfo, Wager
from pipelines.games.settlement import Settlement, TableLimits

FILLER = ["2c", "9d", "Jh", "4s"]  # cards 2-5 when only card 1 matters: no pair, no flush, no straight


def kh_round(board: list[str], wagers: list[Wager], void_after: int | None = None,
             burns: bool = False) -> Round:
    """A King High round with these board cards in order; two burns before each when asked."""
    cards: list[DealtCard] = []
    for card in board:
        if burns:
            cards += [DealtCard(seq=len(cards) + i, owner="burn", card="2c", face_up=False) for i in (0, 1)]
        cards.append(DealtCard(seq=len(cards), owner="board", card=card))
    void = VoidInfo(reason="shuffler_failure", after_cards=void_after) if void_after is not None else None
    return Round(game="king-high", table_id="KH1", round_id="r-test", started_at="2026-01-01T20:00:00",
                 wagers=wagers, cards=cards, void=void, status="voided" if void else "complete")


def w(seat: int, spot: str, amount: float = 10.0, hand: int = 0, choice: str | None = None) -> Wager:
    return Wager(seat=seat, spot=spot, amount=amount, hand=hand, choice=choice)


def only(results: list[Settlement], spot: str, seat: int = 1, hand: int | None = None) -> Settlement:
    found = [s for s in results if s.spot == spot and s.seat == seat and (hand is None or s.hand == hand)]
    assert len(found) == 1, found
    return found[0]


def first_card(card: str, wager: Wager, settings: Settings | None = None) -> Settlement:
    results = settle(kh_round([card, *FILLER], [w(1, "pokerpot"), wager]), settings or Settings())
    return only(results, wager.spot, hand=wager.hand)


# --- action wagers -------------------------------------------------------------------------------

@pytest.mark.parametrize("card,outcome,net,line", [
    ("Kd", "win", 15.0, "king"),            # king pays 3-2
    ("Qs", "win", 10.0, "eight_to_queen"),
    ("8h", "win", 10.0, "eight_to_queen"),
    ("7c", "lose", -10.0, "seven"),         # the house card: High loses
    ("Ah", "lose", -10.0, "low"),           # ace is low
    ("6d", "lose", -10.0, "low"),
])
def test_high(card, outcome, net, line):
    s = first_card(card, w(1, "high", hand=1))
    assert (s.outcome, s.net, s.line) == (outcome, net, line)


@pytest.mark.parametrize("card,outcome,net,line", [
    ("As", "win", 15.0, "ace"),
    ("2c", "win", 10.0, "two_to_six"),
    ("6h", "win", 10.0, "two_to_six"),
    ("7d", "lose", -10.0, "seven"),
    ("8s", "lose", -10.0, "high"),
    ("Kc", "lose", -10.0, "high"),
])
def test_low(card, outcome, net, line):
    s = first_card(card, w(1, "low", hand=1))
    assert (s.outcome, s.net, s.line) == (outcome, net, line)


@pytest.mark.parametrize("card,choice,outcome,net,line", [
    ("9h", "h", "win", 30.0, "suit"),
    ("Ah", "hearts", "win", 30.0, "suit"),
    ("7h", "h", "push", 0.0, "seven_of_suit"),  # standoff
    ("7s", "h", "lose", -10.0, "other_suit"),
    ("Kc", "h", "lose", -10.0, "other_suit"),
])
def test_suit(card, choice, outcome, net, line):
    s = first_card(card, w(1, "suit", hand=1, choice=choice))
    assert (s.outcome, s.net, s.line) == (outcome, net, line)


@pytest.mark.parametrize("card,outcome,net", [("7c", "win", 110.0), ("7h", "win", 110.0),
                                              ("8c", "lose", -10.0), ("6h", "lose", -10.0)])
def test_any_seven(card, outcome, net):
    s = first_card(card, w(1, "seven", hand=1))
    assert (s.outcome, s.net) == (outcome, net)


def test_action_wager_rides_on_its_own_card():
    board = ["Kd", "3c", "7h", "9s", "Ac"]
    results = settle(kh_round(board, [w(1, "pokerpot"), *(w(1, "high", hand=k) for k in range(1, 6))]),
                     Settings())
    assert [only(results, "high", hand=k).outcome for k in range(1, 6)] == [
        "win", "lose", "lose", "win", "lose"]


# --- runs ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("board,spot,outcome,net,line,settled_after_card", [
    (["Kd", "9c", "8h", "3s", "2c"], "high_run", "win", 30.0, "run_3", 4),
    (["Kd", "9c", "8h", "Qs", "7c"], "high_run", "win", 100.0, "run_4", 5),
    (["Kd", "9c", "8h", "Qs", "Jc"], "high_run", "win", 200.0, "run_5", 5),
    (["Kd", "9c", "3h", "Qs", "Jc"], "high_run", "lose", -10.0, "run_broken", 3),
    (["Kd", "7c", "8h", "Qs", "Jc"], "high_run", "lose", -10.0, "run_broken", 2),
    (["Ad", "2c", "6h", "Ks", "Qc"], "low_run", "win", 30.0, "run_3", 4),
    (["Ad", "2c", "6h", "3s", "7c"], "low_run", "win", 100.0, "run_4", 5),
    (["Ad", "2c", "6h", "3s", "5c"], "low_run", "win", 200.0, "run_5", 5),
    (["Ad", "8c", "6h", "3s", "5c"], "low_run", "lose", -10.0, "run_broken", 2),
])
def test_runs_settle_once_at_highest_level(board, spot, outcome, net, line, settled_after_card):
    wagers = [w(1, "pokerpot"), w(1, spot), *(w(1, "seven", amount=5, hand=k) for k in range(1, 6))]
    results = settle(kh_round(board, wagers), Settings())
    run = only(results, spot)
    assert (run.outcome, run.net, run.line) == (outcome, net, line)
    # after the action wagers of the card that decides it, before those of the next card
    sevens = {s.hand: s.order for s in results if s.spot == "seven"}
    assert sevens[settled_after_card] < run.order
    if settled_after_card < 5:
        assert run.order < sevens[settled_after_card + 1]


def test_seven_first_breaks_both_runs_on_card_one():
    results = settle(kh_round(["7d", *FILLER], [w(2, "high_run"), w(2, "low_run"), w(2, "pokerpot")]),
                     Settings())
    assert [(s.spot, s.outcome) for s in results[:2]] == [("high_run", "lose"), ("low_run", "lose")]


# --- pokerpot ------------------------------------------------------------------------------------

POKERPOT_HANDS = [
    (["Ah", "Kh", "Qh", "Jh", "Th"], "royal_flush", 2500),
    (["9s", "Ks", "Qs", "Js", "Ts"], "straight_flush", 1000),
    (["Ad", "2d", "3d", "4d", "5d"], "straight_flush", 1000),   # ace low in a straight flush
    (["Ks", "Ks", "Kh", "Kd", "Kc"], "five_of_a_kind", 500),
    (["Ah", "Ah", "Ah", "Ah", "Ah"], "five_of_a_kind", 500),    # one suit, still five of a kind
    (["9s", "9h", "9d", "9c", "2s"], "four_of_a_kind", 50),
    (["9s", "9s", "9s", "9s", "2s"], "four_of_a_kind", 50),     # one suit: 50 beats the flush
    (["3s", "3h", "3d", "Jc", "Js"], "full_house", 15),
    (["2h", "5h", "9h", "Jh", "Kh"], "flush", 10),
    (["2h", "2h", "9h", "Jh", "Kh"], "flush", 10),              # one suit holding a pair: a flush
    (["4c", "4c", "4c", "Jc", "Kc"], "flush", 10),              # one suit holding trips: a flush
    (["Ah", "2c", "3d", "4s", "5h"], "straight", 5),            # ace low
    (["Ah", "Kc", "Qd", "Js", "Th"], "straight", 5),            # ace high
    (["5s", "5h", "5d", "Jc", "2s"], "three_of_a_kind", 3),
    (["5s", "5h", "3d", "3c", "Ks"], "two_pair", 2),            # two low pairs still pay
    (["Js", "Jh", "3d", "8c", "2s"], "qualifying_pair", 1),
    (["As", "Ah", "3d", "8c", "2s"], "qualifying_pair", 1),     # aces high for the pair
]


@pytest.mark.parametrize("board,line,odds", POKERPOT_HANDS)
@pytest.mark.parametrize("min_pair", ["J", "T"])
def test_pokerpot_lines(board, line, odds, min_pair):
    s = only(settle(kh_round(board, [w(4, "pokerpot", amount=2)]), Settings(pokerpot_min_pair=min_pair)),
             "pokerpot", seat=4)
    assert (s.outcome, s.line, s.net) == ("win", line, 2 * odds)


@pytest.mark.parametrize("board,under_j,under_t", [
    (["Ts", "Th", "3d", "8c", "2s"], "lose", "win"),   # pair of tens: the setting decides
    (["9s", "9h", "3d", "8c", "2s"], "lose", "lose"),
    (["Ks", "Qh", "3d", "8c", "2s"], "lose", "lose"),  # king high, no pair
])
def test_pokerpot_min_pair_setting(board, under_j, under_t):
    outcomes = [only(settle(kh_round(board, [w(1, "pokerpot")]), Settings(pokerpot_min_pair=mp)),
                     "pokerpot").outcome for mp in ("J", "T")]
    assert outcomes == [under_j, under_t]


def test_pokerpot_settles_last_after_fifth_card():
    board = ["Kd", "9c", "8h", "Qs", "Jc"]
    wagers = [w(1, "pokerpot"), w(2, "pokerpot"), w(1, "high_run"), w(2, "high", hand=5)]
    results = settle(kh_round(board, wagers), Settings())
    assert [(s.seat, s.spot) for s in results] == [(2, "high"), (1, "high_run"), (1, "pokerpot"),
                                                   (2, "pokerpot")]


def test_pokerpot_payout_cap_per_player():
    board = ["Ah", "Kh", "Qh", "Jh", "Th"]
    capped = Settings(pokerpot_max_payout_per_player=5000)
    s = only(settle(kh_round(board, [w(1, "pokerpot", amount=10)]), capped), "pokerpot")
    assert (s.net, s.line) == (5000, "royal_flush") and "§3" in s.rule
    small = only(settle(kh_round(board, [w(1, "pokerpot", amount=1)]), capped), "pokerpot")
    assert small.net == 2500 and "§8" in small.rule


# --- limits --------------------------------------------------------------------------------------

LIMITS = Settings(limits=TableLimits(default=(5.0, 100.0), spots={"pokerpot": (1.0, 50.0)}))


def test_below_minimum_settles_at_amount_wagered():
    s = first_card("Kd", w(1, "high", amount=2, hand=1), LIMITS)
    assert (s.amount, s.net, s.limit_violation) == (2, 3.0, "below_minimum")


@pytest.mark.parametrize("card,net", [("Qd", 100.0), ("3d", -100.0)])
def test_above_maximum_settles_as_maximum(card, net):
    s = first_card(card, w(1, "high", amount=250, hand=1), LIMITS)
    assert (s.wagered, s.amount, s.net, s.limit_violation) == (250, 100, net, "above_maximum")


def test_limits_per_spot():
    s = only(settle(kh_round(["Js", "Jh", "3d", "8c", "2s"], [w(1, "pokerpot", amount=80)]), LIMITS),
             "pokerpot")
    assert (s.amount, s.net, s.limit_violation) == (50, 50, "above_maximum")
    inside = first_card("Kd", w(1, "high", amount=20, hand=1), LIMITS)
    assert inside.limit_violation is None


# --- settlement order ----------------------------------------------------------------------------

def test_order_within_box_losers_then_winners_and_boxes_in_order():
    board = ["7h", *FILLER]  # 7 of hearts: High/Low lose, a hearts bet stands off, a clubs bet loses
    wagers = [
        w(5, "pokerpot"), w(5, "seven", hand=1), w(5, "suit", hand=1, choice="c"), w(5, "high", hand=1),
        w(2, "pokerpot"), w(2, "suit", hand=1, choice="h"), w(2, "seven", hand=1), w(2, "low", hand=1),
        w(2, "suit", hand=1, choice="s"),
    ]
    results = settle(kh_round(board, wagers), Settings())
    assert [(s.seat, s.spot, s.outcome) for s in results] == [
        (2, "low", "lose"), (2, "suit", "lose"), (2, "suit", "push"), (2, "seven", "win"),
        (5, "high", "lose"), (5, "suit", "lose"), (5, "seven", "win"),
        (2, "pokerpot", "lose"), (5, "pokerpot", "lose"),
    ]
    assert [s.order for s in results] == list(range(len(results)))


def test_losing_runs_before_winning_runs_after_action_wagers():
    board = ["Kd", "9c", "8h", "3s", "2c"]  # card 4 ends the high run at 3 and card 1 broke the low run
    wagers = [w(1, "pokerpot"), w(1, "low_run"), w(3, "pokerpot"), w(3, "high_run"), w(3, "low_run"),
              w(1, "high_run"), w(3, "high", hand=1), w(1, "low", hand=1)]
    results = settle(kh_round(board, wagers), Settings())
    assert [(s.seat, s.spot, s.outcome) for s in results[:6]] == [
        (1, "low", "lose"), (3, "high", "win"), (1, "low_run", "lose"), (3, "low_run", "lose"),
        (1, "high_run", "win"), (3, "high_run", "win"),
    ]
    assert results[4].line == "run_3"


def test_burn_cards_are_ignored():
    board = ["Kd", "9c", "8h", "Qs", "Jc"]
    plain = settle(kh_round(board, [w(1, "high_run"), w(1, "pokerpot")]), Settings())
    burned = settle(kh_round(board, [w(1, "high_run"), w(1, "pokerpot")], burns=True),
                    Settings(shuffler="manual"))
    assert plain == burned


# --- void rounds ---------------------------------------------------------------------------------

def void_settle(board: list[str], wagers: list[Wager]) -> list[Settlement]:
    return settle(kh_round(board, wagers, void_after=len(board)), Settings())


@pytest.mark.parametrize("board,outcome,net,line", [
    (["Kd"], "returned", 0.0, "void_run_not_qualifying"),       # next level would be 2: not paying
    (["Kd", "9c"], "win", 30.0, "run_3"),                       # as if card 3 were high
    (["Kd", "9c", "8h"], "win", 100.0, "run_4"),                # the manual's example
    (["Kd", "9c", "8h", "Qs"], "win", 200.0, "run_5"),
    ([], "returned", 0.0, "void_run_not_qualifying"),
])
def test_void_live_run_paid_at_next_level(board, outcome, net, line):
    s = only(void_settle(board, [w(1, "high_run"), w(1, "pokerpot")]), "high_run")
    assert (s.outcome, s.net, s.line) == (outcome, net, line)
    assert "§12" in s.rule


@pytest.mark.parametrize("board,outcome,line", [
    (["Kd", "3c"], "lose", "run_broken"),                        # broken before the void: stands
    (["Kd", "9c", "8h", "3s"], "win", "run_3"),                  # completed before the void: stands
])
def test_void_keeps_earlier_run_results(board, outcome, line):
    s = only(void_settle(board, [w(1, "high_run"), w(1, "pokerpot")]), "high_run")
    assert (s.outcome, s.line) == (outcome, line) and "§8" in s.rule


@pytest.mark.parametrize("board,outcome,line", [
    ([], "returned", "void_not_qualifying"),
    (["Qd", "3c", "Qh"], "win", "qualifying_pair"),
    (["Td", "3c", "Th"], "returned", "void_not_qualifying"),
    (["Kd", "Kc", "Kh"], "win", "three_of_a_kind"),
    (["5d", "5c", "3h", "3s"], "win", "two_pair"),
    (["5d", "5c", "5h", "5s"], "win", "four_of_a_kind"),
    (["2h", "5h", "9h", "Jh"], "returned", "void_not_qualifying"),  # four to a flush is not a flush
])
def test_void_pokerpot_paid_at_level_made(board, outcome, line):
    s = only(void_settle(board, [w(1, "pokerpot")]), "pokerpot")
    assert (s.outcome, s.line) == (outcome, line) and "§12" in s.rule


def test_void_returns_action_wagers_on_undealt_cards_and_keeps_dealt_results():
    board = ["Kd", "9c", "3h"]
    wagers = [w(1, "pokerpot"), w(1, "high", hand=1), w(1, "high", hand=3), w(1, "high", hand=4),
              w(2, "pokerpot"), w(2, "high_run"), w(2, "low", hand=4)]
    results = void_settle(board, wagers)
    assert [(s.seat, s.spot, s.hand, s.outcome) for s in results] == [
        (1, "high", 1, "win"), (1, "high", 3, "lose"), (2, "high_run", 0, "lose"),
        (1, "high", 4, "returned"), (2, "low", 4, "returned"),
        (1, "pokerpot", 0, "returned"), (2, "pokerpot", 0, "returned"),
    ]


def test_void_after_five_cards_settles_as_complete():
    board = ["Kd", "9c", "8h", "Qs", "Jc"]
    wagers = [w(1, "high_run"), w(1, "pokerpot")]
    assert void_settle(board, wagers) == settle(kh_round(board, wagers), Settings())


# --- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("board,wagers,void_after,needle", [
    (["Kd", "9c"], [w(1, "pokerpot")], None, "field cards"),
    (["Kd", "9c"], [w(1, "pokerpot")], 3, "field void.after_cards"),
    (["Kd", *FILLER], [w(1, "ante")], None, "wagers[0].spot: 'ante'"),
    (["Kd", *FILLER], [w(1, "high", hand=0)], None, "wagers[0].hand: 0"),
    (["Kd", *FILLER], [w(1, "high", hand=6)], None, "wagers[0].hand: 6"),
    (["Kd", *FILLER], [w(1, "high_run", hand=2)], None, "wagers[0].hand: 2"),
    (["Kd", *FILLER], [w(1, "suit", hand=1, choice="x")], None, "wagers[0].choice: 'x'"),
    (["Kd", *FILLER], [w(1, "suit", hand=1)], None, "wagers[0].choice: None"),
    (["Kd", *FILLER], [w(1, "pokerpot"), w(1, "pokerpot")], None, "wagers[1]"),
    (["Kx", *FILLER], [w(1, "pokerpot")], None, "field cards (seq 0)"),
])
def test_bad_rounds_name_field_and_value(board, wagers, void_after, needle):
    with pytest.raises(KingHighError, match="r-test") as err:
        settle(kh_round(board, wagers, void_after), Settings())
    assert needle in str(err.value)


def test_wrong_game_rejected():
    rnd = kh_round(["Kd", *FILLER], [w(1, "pokerpot")]).model_copy(update={"game": "high-tie"})
    with pytest.raises(KingHighError, match="field game"):
        settle(rnd, Settings())


def test_unknown_paytable_names_the_file():
    # pydantic wraps the PaytableError (a ValueError) raised while validating Settings
    with pytest.raises(ValueError, match=r"paytables\.pokerpot: 'nosuch'.*pokerpot\.nosuch\.json"):
        Settings(paytables={"pokerpot": "nosuch"})


def test_paytable_missing_a_line_is_rejected(monkeypatch):
    from pipelines.games import king_high_rules, paytables

    table = paytables.paytable("king-high", "pokerpot", "standard")
    short = table.model_copy(update={"name": "short", "lines": table.lines[1:]})
    monkeypatch.setattr(king_high_rules, "paytable", lambda game, wager, name: short
                        if wager == "pokerpot" else paytables.paytable(game, wager, name))
    with pytest.raises(PaytableError, match="missing royal_flush"):
        king_high_rules.table_of(Settings.model_construct(paytables=king_high.PaytableNames()), "pokerpot")


def test_action_wager_without_pokerpot_is_settled_and_reported():
    rnd = kh_round(["Kd", *FILLER], [w(1, "pokerpot"), w(1, "high", hand=1), w(2, "high", hand=1),
                                     w(3, "high_run")])
    assert only(settle(rnd, Settings()), "high", seat=2).outcome == "win"
    assert [(x.seat, x.spot) for x in king_high.action_wagers_without_pokerpot(rnd)] == [(2, "high")]


def test_zero_amount_wagers_are_not_settled():
    results = settle(kh_round(["Kd", *FILLER], [w(1, "pokerpot"), w(1, "high", amount=0, hand=1)]),
                     Settings())
    assert [s.spot for s in results] == ["pokerpot"]


def test_module_docstring_example_runs():
    assert doctest.testmod(king_high).failed == 0
    assert doctest.testmod(king_high).attempted >= 3


@pytest.mark.parametrize("seed", range(40))
def test_random_rounds_settle_every_wager_once_in_manual_order(seed):
    import random

    from pipelines.games.shoe import Shoe

    rng = random.Random(seed)
    board = Shoe(decks=6, seed=seed).draw(5)
    void_after = rng.choice([None, None, 0, 1, 2, 3, 4])
    wagers = []
    for seat in rng.sample(range(1, 9), 3):
        wagers += [w(seat, "pokerpot"), w(seat, "high_run"), w(seat, "low_run")]
        for k in range(1, 6):
            wagers += [w(seat, "high", hand=k), w(seat, "low", hand=k), w(seat, "seven", hand=k),
                       w(seat, "suit", hand=k, choice=rng.choice("cdhs"))]
    shown = board if void_after is None else board[:void_after]
    results = settle(kh_round(shown, wagers, void_after), Settings())
    assert len(results) == len(wagers)
    assert sorted((s.seat, s.spot, s.hand) for s in results) == sorted((x.seat, x.spot, x.hand) for x in wagers)
    assert [s.order for s in results] == list(range(len(results)))
    assert all(s.spot == "pokerpot" for s in results[-3:])
    position = {(s.seat, s.spot, s.hand): s.order for s in results}
    for s in results:
        assert s.net == {"lose": -s.amount, "push": 0.0, "returned": 0.0}.get(s.outcome, s.net)
        assert (s.net > 0) == (s.outcome == "win")
        if s.spot in ("high", "low", "suit", "seven") and s.outcome == "lose":
            # a loser is taken before every non-losing action wager of its box and card
            assert all(position[(o.seat, o.spot, o.hand)] > s.order for o in results
                       if o.seat == s.seat and o.hand == s.hand and o.spot in ("high", "low", "suit", "seven")
                       and o.outcome != "lose")
        if s.spot in ("high_run", "low_run"):
            # runs sit between action rounds: every action wager before them rides on an earlier card
            before = [o.hand for o in results[: s.order] if o.spot in ("high", "low", "suit", "seven")]
            after = [o.hand for o in results[s.order:] if o.spot in ("high", "low", "suit", "seven")]
            assert not before or not after or max(before) < min(after)
