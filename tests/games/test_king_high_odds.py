"""King High exact odds: totals, independent counts, and pattern counting against brute force."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import chain, combinations
from math import comb, perm

import numpy as np
import pytest

from pipelines.games.cards import DECK
from pipelines.games.king_high import (
    SPOTS,
    Settings,
    house_edges,
    odds,
    pokerpot_counts,
    pokerpot_line,
    run_counts,
)
from pipelines.games.odds import edge_from_lines
from pipelines.games.paytables import bundled, paytable


@pytest.fixture(scope="module", params=["J", "T"])
def settings(request) -> Settings:
    return Settings(pokerpot_min_pair=request.param)


def test_every_spot_has_odds_that_sum_to_one(settings):
    result = odds(settings)
    assert [w.wager for w in result] == list(SPOTS)
    for w in result:
        assert sum(x.probability for x in w.lines) == pytest.approx(1.0, abs=1e-12), w.wager
        assert sum(x.combinations for x in w.lines) == w.total_combinations, w.wager
        assert edge_from_lines(w.lines) == pytest.approx(w.house_edge, abs=1e-12), w.wager
        assert 0 < w.house_edge < 0.2, w.wager  # every wager favours the house
        assert w.settings["pokerpot_min_pair"] == settings.pokerpot_min_pair


def test_house_edges_match_odds(settings):
    assert house_edges(settings) == {w.wager: w.house_edge for w in odds(settings)}


def test_single_card_edges_from_the_manual_paytable():
    edges = house_edges(Settings())
    # 13 equally likely ranks: High wins 8-Q at 1, K at 1.5, loses A-7 (7 ranks)
    assert edges["high"] == pytest.approx(-(5 * 1 + 1.5 - 7) / 13)
    assert edges["low"] == pytest.approx(edges["high"])
    # Suit: 12 of 52 win 3, the 7 of the suit stands off, 39 lose
    assert edges["suit"] == pytest.approx(-(12 * 3 - 39) / 52)
    assert edges["seven"] == pytest.approx(-(11 - 12) / 13)


@pytest.mark.parametrize("decks", [1, 6])
def test_run_counts_match_at_least_k_products(decks):
    counts = run_counts(decks)
    n, good = 52 * decks, 24 * decks
    total = perm(n, 5)
    assert sum(counts.values()) == total
    at_least = {k: Fraction(perm(good, k), perm(n, k)) for k in (3, 4, 5)}
    assert Fraction(counts["run_5"], total) == at_least[5]
    assert Fraction(counts["run_4"] + counts["run_5"], total) == at_least[4]
    assert Fraction(counts["run_3"] + counts["run_4"] + counts["run_5"], total) == at_least[3]


def test_high_and_low_run_are_symmetric():
    by = {w.wager: w for w in odds(Settings())}
    assert by["high_run"].lines == by["low_run"].lines


def test_six_deck_pokerpot_counts_against_closed_forms():
    counts = pokerpot_counts(6, Settings())
    per_rank, copies = 24, 6
    assert sum(counts.values()) == comb(312, 5)
    assert counts["five_of_a_kind"] == 13 * comb(per_rank, 5)
    assert counts["royal_flush"] == 4 * copies**5
    assert counts["straight_flush"] == 4 * 9 * copies**5  # 5-high (ace low) to king-high
    assert counts["four_of_a_kind"] == 13 * comb(per_rank, 4) * 12 * per_rank  # beats a flush
    assert counts["full_house"] == 13 * comb(per_rank, 3) * 12 * comb(per_rank, 2)


def test_tens_setting_adds_exactly_the_pairs_of_tens():
    j = pokerpot_counts(6, Settings(pokerpot_min_pair="J"))
    t = pokerpot_counts(6, Settings(pokerpot_min_pair="T"))
    # a pair of tens with three other distinct ranks, less the one-suit hands (those are flushes)
    pair_of_tens = comb(24, 2) * comb(12, 3) * 24**3 - 4 * comb(6, 2) * comb(12, 3) * 6**3
    assert t["qualifying_pair"] - j["qualifying_pair"] == pair_of_tens
    assert j[None] - t[None] == pair_of_tens
    assert {k: v for k, v in j.items() if k not in ("qualifying_pair", None)} == {
        k: v for k, v in t.items() if k not in ("qualifying_pair", None)}


def brute_force_one_deck(settings_list: list[Settings]) -> list[Counter]:
    """Every one of the C(52,5) hands, classified by pokerpot_line (poker.evaluate5).

    Hands with the same ranks and the same pattern of equal suits are suit relabellings of one
    another, and evaluate5 ignores suit names, so one evaluation per pattern is exact."""
    n = comb(52, 5)
    hands = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.int8, count=5 * n)
    hands = hands.reshape(n, 5)
    ranks, suits = (hands // 4).astype(np.int64), hands % 4
    key = (ranks * 13 ** np.arange(5)).sum(axis=1) << 10
    for bit, (i, j) in enumerate(combinations(range(5), 2)):
        key |= (suits[:, i] == suits[:, j]).astype(np.int64) << bit
    _, first, count = np.unique(key, return_index=True, return_counts=True)
    out = [Counter() for _ in settings_list]
    for idx, c in zip(first, count, strict=True):
        cards = [DECK[i] for i in hands[idx]]
        for tally, s in zip(out, settings_list, strict=True):
            tally[pokerpot_line(cards, s)] += int(c)
    return out


def test_pattern_counting_equals_brute_force_on_one_deck():
    both = [Settings(pokerpot_min_pair="J"), Settings(pokerpot_min_pair="T")]
    for brute, s in zip(brute_force_one_deck(both), both, strict=True):
        counted = pokerpot_counts(1, s)
        assert "five_of_a_kind" not in counted  # impossible with one deck
        assert counted == dict(brute)
        assert counted["royal_flush"] == 4 and counted["straight_flush"] == 36  # textbook figures


def test_pokerpot_odds_follow_the_setting():
    edges_j = house_edges(Settings(pokerpot_min_pair="J"))
    edges_t = house_edges(Settings(pokerpot_min_pair="T"))
    assert edges_t["pokerpot"] < edges_j["pokerpot"]  # tens qualify more hands
    assert {k: v for k, v in edges_j.items() if k != "pokerpot"} == {
        k: v for k, v in edges_t.items() if k != "pokerpot"}


def test_bundled_paytables_validate_and_cite_the_manual():
    tables = bundled("king-high")
    assert {t.wager for t in tables} == set(SPOTS)
    for t in tables:
        assert t.source.startswith("King High manual §8 Payout Odds")
    pot = paytable("king-high", "pokerpot", "standard")
    assert [x.pays for x in pot.lines] == sorted((x.pays for x in pot.lines), reverse=True)
