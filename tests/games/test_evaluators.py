"""Property tests of the shared poker evaluators (pipelines/games/poker.py) and of the vectorised
tables the exact odds are enumerated with (pipelines/games/poker_paylines.py)."""

from collections import Counter
from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.games.cards import DECK, SUITS, rank
from pipelines.games.poker import Hand3, Hand5, best3, best5, evaluate3, evaluate5
from pipelines.games.poker_paylines import best3_scores, five_card_keys, three_card_lookup


def hand(n: int) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(DECK), min_size=n, max_size=n, unique=True)


def shoe_hand(n: int, decks: int = 6) -> st.SearchStrategy[list[str]]:
    """n cards from a multi-deck shoe: a card may repeat, at most `decks` times."""
    return st.lists(st.sampled_from(DECK), min_size=n, max_size=n).filter(
        lambda cs: max(Counter(cs).values()) <= decks)


suit_perms = st.permutations(list(SUITS))


def _repaint(cards: list[str], perm: list[str]) -> list[str]:
    mapping = dict(zip(SUITS, perm, strict=True))
    return [c[0] + mapping[c[1]] for c in cards]


def _reference_category5(cards: list[str]) -> Hand5:
    """Independent of poker.py: categories from counts, written the long way."""
    values = sorted((rank(c) for c in cards), reverse=True)
    shape = sorted(Counter(values).values(), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    runs = [list(range(h, h - 5, -1)) for h in range(14, 5, -1)] + [[14, 5, 4, 3, 2]]
    straight = sorted(set(values), reverse=True) in runs
    if shape == [5]:
        return Hand5.FIVE_OF_A_KIND
    if straight and flush:
        return Hand5.ROYAL_FLUSH if values[0] == 14 and values[-1] == 10 else Hand5.STRAIGHT_FLUSH
    table = {(4, 1): Hand5.FOUR_OF_A_KIND, (3, 2): Hand5.FULL_HOUSE}
    if tuple(shape) in table:
        return table[tuple(shape)]
    if flush:
        return Hand5.FLUSH
    if straight:
        return Hand5.STRAIGHT
    return {(3, 1, 1): Hand5.THREE_OF_A_KIND, (2, 2, 1): Hand5.TWO_PAIR, (2, 1, 1, 1): Hand5.PAIR}.get(
        tuple(shape), Hand5.HIGH_CARD)


def _reference_category3(cards: list[str]) -> Hand3:
    values = sorted(rank(c) for c in cards)
    flush = len({c[1] for c in cards}) == 1
    straight = len(set(values)) == 3 and (values[2] - values[0] == 2 or values == [2, 3, 14])
    if straight and flush:
        return Hand3.MINI_ROYAL if values == [12, 13, 14] else Hand3.STRAIGHT_FLUSH
    if len(set(values)) == 1:
        return Hand3.THREE_OF_A_KIND
    if straight:
        return Hand3.STRAIGHT
    if flush:
        return Hand3.FLUSH
    return Hand3.PAIR if len(set(values)) == 2 else Hand3.HIGH_CARD


@given(hand(5))
def test_five_card_category_matches_reference(cards):
    assert evaluate5(cards)[0] == _reference_category5(cards)


@given(shoe_hand(5))
def test_five_card_category_matches_reference_in_six_decks(cards):
    assert evaluate5(cards)[0] == _reference_category5(cards)


@given(hand(3))
def test_three_card_category_matches_reference(cards):
    assert evaluate3(cards)[0] == _reference_category3(cards)


@given(hand(5), hand(5))
def test_order_follows_categories_and_ignores_suits(a, b):
    ea, eb = evaluate5(a), evaluate5(b)
    if _reference_category5(a) > _reference_category5(b):
        assert ea > eb
    # equal evaluations exactly when the ranks and the flushness agree: suits never break ties
    same = sorted(rank(c) for c in a) == sorted(rank(c) for c in b) and (
        (len({c[1] for c in a}) == 1) == (len({c[1] for c in b}) == 1))
    assert (ea == eb) == same


@given(hand(3), hand(3))
def test_three_card_order_follows_categories(a, b):
    if _reference_category3(a) > _reference_category3(b):
        assert evaluate3(a) > evaluate3(b)
    if sorted(rank(c) for c in a) == sorted(rank(c) for c in b) and _reference_category3(a) == _reference_category3(b):
        assert evaluate3(a) == evaluate3(b)


@given(hand(5), suit_perms)
def test_five_card_invariant_under_suit_permutation(cards, perm):
    assert evaluate5(_repaint(cards, perm)) == evaluate5(cards)


@given(hand(3), suit_perms)
def test_three_card_invariant_under_suit_permutation(cards, perm):
    assert evaluate3(_repaint(cards, perm)) == evaluate3(cards)


@given(hand(7), st.data())
def test_best5_never_worse_than_any_five(cards, data):
    best, chosen = best5(cards)
    subset = data.draw(st.sampled_from(list(combinations(cards, 5))))
    assert best >= evaluate5(subset)
    assert evaluate5(chosen) == best and set(chosen) <= set(cards)


@given(st.integers(3, 5).flatmap(hand), st.data())
def test_best3_never_worse_than_any_three(cards, data):
    best, chosen = best3(cards)
    subset = data.draw(st.sampled_from(list(combinations(cards, 3))))
    assert best >= evaluate3(subset)
    assert evaluate3(chosen) == best


def test_known_five_card_hands():
    wheel = evaluate5(["Ah", "2c", "3d", "4s", "5h"])
    assert wheel == (Hand5.STRAIGHT, 5)
    assert wheel < evaluate5(["2h", "3c", "4d", "5s", "6h"])
    assert wheel > evaluate5(["Ah", "Ac", "Ad", "Ks", "Qh"])  # trips
    assert evaluate5(["Qh", "Kc", "Ad", "2s", "3h"])[0] == Hand5.HIGH_CARD  # no wrap-around
    assert evaluate5(["Ah", "2h", "3h", "4h", "5h"]) == (Hand5.STRAIGHT_FLUSH, 5)
    assert evaluate5(["Ts", "Js", "Qs", "Ks", "As"]) == (Hand5.ROYAL_FLUSH, 14)


def test_known_multi_deck_hands():
    assert evaluate5(["7h", "7h", "7c", "7d", "7s"]) == (Hand5.FIVE_OF_A_KIND, 7)
    assert evaluate5(["Ah", "Ah", "Ah", "Ah", "Ah"]) > evaluate5(["Ts", "Js", "Qs", "Ks", "As"])
    # a one-suit hand holding trips (or a pair) is paid as the flush, its highest category (RULES.md)
    assert evaluate5(["Ah", "Ah", "Ah", "Kh", "2h"])[0] == Hand5.FLUSH
    assert evaluate5(["9d", "9d", "Kd", "4d", "2d"])[0] == Hand5.FLUSH
    assert evaluate5(["9d", "9d", "9d", "4d", "4d"])[0] == Hand5.FULL_HOUSE  # higher than flush


def test_known_three_card_hands():
    a23 = evaluate3(["Ah", "2c", "3d"])
    assert a23 == (Hand3.STRAIGHT, 3)
    assert a23 < evaluate3(["2h", "3c", "4d"])
    assert a23 > evaluate3(["Ah", "Kh", "9h"])  # a straight beats a flush
    assert evaluate3(["Kh", "Ac", "2d"])[0] == Hand3.HIGH_CARD  # no wrap-around
    assert evaluate3(["As", "Ks", "Qs"]) == (Hand3.MINI_ROYAL, 14)
    assert evaluate3(["As", "Ks", "Qs"]) > evaluate3(["Ks", "Qs", "Js"]) > evaluate3(["2d", "2c", "2h"])
    assert evaluate3(["2d", "2c", "2h"]) > evaluate3(["Ad", "Kc", "Qh"])  # trips beat a straight


def _ids(cards: list[str]) -> np.ndarray:
    return np.array([sorted(DECK.index(c) for c in cards)])


@settings(max_examples=200)
@given(st.integers(3, 5).flatmap(hand))
def test_vectorised_best3_agrees_with_evaluator(cards):
    _, evals = three_card_lookup()
    assert evals[best3_scores(_ids(cards))[0]] == best3(cards)[0]


@settings(max_examples=200)
@given(hand(5), hand(5))
def test_vectorised_five_card_keys_order_as_evaluator(a, b):
    ka, kb = five_card_keys(_ids(a))[0], five_card_keys(_ids(b))[0]
    ea, eb = evaluate5(a), evaluate5(b)
    assert (ka > kb) == (ea > eb) and (ka == kb) == (ea == eb)
