"""High Tie side bet odds: the manual's printed house edges, independent counts, card removal."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest
from pydantic import ValidationError

from pipelines.games.cards import DECK
from pipelines.games.high_tie import (
    MANUAL_HOUSE_EDGES,
    Settings,
    house_edges,
    odds,
    side_paytable,
    side_paytable_names,
)
from pipelines.games.high_tie_side import side_distribution, side_odds
from pipelines.games.odds import edge_from_lines
from pipelines.games.paytables import bundled

# Printed in "PAYTABLES AND PERCENTAGES": version 1 to three decimals of a percent, version 2 to two.
PRINTED = [(key, value, 3 if key[0] == 1 else 2) for key, value in MANUAL_HOUSE_EDGES.items()
           if key[0] in (1, 2)]


@pytest.mark.parametrize(("key", "manual", "places"), PRINTED, ids=[str(k) for k, _, _ in PRINTED])
def test_versions_1_and_2_reproduce_the_manual_to_the_printed_precision(key, manual, places):
    version, name, decks = key
    edge = odds(Settings(side_version=version, decks=decks, paytable=name))[0].house_edge
    assert round(edge * 100, places) == pytest.approx(manual * 100, abs=1e-9)


# Version 3: the manual's figures (10.90 / 8.42 / 7.23 / 6.02 / 5.04 %) cannot be reproduced under any
# reading we tried: single highest line paid (below), the ties needing the same suit for the 100 line,
# "Suited or Pair" read as suited pair or pair only, "for 1" payouts, or every met line paid at once
# (8.70 / 7.02 / 6.19 / 5.91 / 5.77 %). An integer search over all seven outcome classes' payouts
# found no table matching all five figures either: the manual falls 5.9 points from one deck to eight,
# far more than card removal moves any two-card event. We pin our exact figures for the manual's
# table read as printed, paid at its single highest line (RULES.md).
V3_PINNED = {1: 0.1451227, 2: 0.1291023, 4: 0.1211594, 6: 0.1185227, 8: 0.1172065}


@pytest.mark.parametrize("decks", sorted(V3_PINNED))
def test_version_3_pinned_figures(decks):
    edge = odds(Settings(side_version=3, decks=decks))[0].house_edge
    assert edge == pytest.approx(V3_PINNED[decks], abs=5e-8)
    assert abs(edge - MANUAL_HOUSE_EDGES[(3, "recommended", decks)]) > 0.03  # see the comment above


@pytest.mark.parametrize("decks", [4, 6, 8])
def test_version_2_matches_a_closed_form(decks):
    n = 52 * decks
    pairs = Fraction(1, n * (n - 1))
    match = pairs * 52 * decks * (decks - 1)  # the same card twice
    tie = pairs * 52 * decks * 3 * decks  # same rank, another suit
    blackjack = pairs * 2 * (4 * decks) * (16 * decks)
    expected = -(16 * match + 5 * tie + 5 * blackjack - (1 - match - tie - blackjack))
    assert odds(Settings(side_version=2, decks=decks))[0].house_edge == pytest.approx(float(expected), abs=1e-15)


def _brute_force_v1(table, shoe: list[str]) -> Counter:
    """Every ordered deal of player, player, dealer, dealer from a small shoe, classified here
    without the module's line logic."""
    pays = {e.line: e.pays for e in table.lines}

    def natural(a: str, b: str) -> bool:
        return (a[0] == "A" and b[0] in "TJQK") or (b[0] == "A" and a[0] in "TJQK")

    out: Counter = Counter()
    for p1, p2, d1, d2 in permutations(shoe, 4):
        candidates = []
        if natural(p1, p2) and natural(d1, d2):
            candidates.append("high_tie")
        if natural(p1, p2):
            candidates.append("blackjack")
            if p1[1] == p2[1]:
                candidates.append("suited_blackjack")
        if p1 == p2:
            candidates.append("suited_pair")
        if p1[0] == p2[0]:
            candidates.append("pair")
        if p1[1] == p2[1]:
            candidates.append("two_suited")
        paid = [c for c in candidates if c in pays]
        out[max(paid, key=lambda c: pays[c]) if paid else "lose"] += 1
    return out


@pytest.mark.parametrize(("name", "decks"), [("recommended", 2), ("additional-1", 6)])
def test_distribution_matches_brute_force_on_a_small_shoe(name, decks):
    shoe = ["Ah", "Ah", "As", "Kh", "Kh", "Qs", "Td", "5c", "5h", "5h", "9h"]
    table = side_paytable(1, decks, name)
    dist, total = side_distribution(table, Counter(shoe))
    assert total == 11 * 10 * 9 * 8
    brute = _brute_force_v1(table, shoe)
    assert {k: v for k, v in dist.items() if v} == dict(brute)


@pytest.mark.parametrize(("version", "decks", "name"),
                         [(1, 1, "recommended"), (1, 8, "additional-1"), (2, 6, "recommended"),
                          (3, 2, "recommended")])
def test_lines_are_a_distribution_and_the_edge_is_their_mean(version, decks, name):
    w = odds(Settings(side_version=version, decks=decks, paytable=name))[0]
    assert sum(x.combinations for x in w.lines) == w.total_combinations
    assert sum(x.probability for x in w.lines) == pytest.approx(1.0, abs=1e-12)
    assert edge_from_lines(w.lines) == pytest.approx(w.house_edge, abs=1e-12)
    assert w.settings == {"side_version": version, "decks": decks, "paytable": name}
    assert [x.line for x in w.lines][-1] == "lose"


def test_card_removal_a_shoe_without_aces_pays_no_blackjack_line():
    comp = Counter({c: 6 for c in DECK if c[0] != "A"})
    w = side_odds(side_paytable(1, 6, "recommended"), 6, composition=comp)
    by_line = {x.line: x for x in w.lines}
    assert by_line["blackjack"].combinations == 0
    assert by_line["high_tie"].combinations == 0
    assert by_line["pair"].combinations > 0
    full = odds(Settings())[0].house_edge
    assert w.house_edge > full  # the blackjack lines are worth something to the player


def test_single_deck_has_no_suited_pair_and_six_decks_no_two_suited():
    one = {x.line: x for x in odds(Settings(decks=1))[0].lines}
    assert "suited_pair" not in one and one["two_suited"].probability > 0.2
    six = {x.line for x in odds(Settings(decks=6))[0].lines}
    assert "two_suited" not in six and "suited_pair" in six


def test_every_manual_paytable_is_shipped_and_valid():
    tables = [p for p in bundled("high-tie") if p.wager == "side"]
    assert len(tables) == 8  # 3 recommended + 3 additional (version 1), version 2, version 3
    for version, decks in [(1, d) for d in (1, 2, 4, 6, 8)] + [(3, d) for d in (1, 2, 4, 6, 8)]:
        names = side_paytable_names(version, decks)
        assert names == (["additional-1", "recommended"] if version == 1 else ["recommended"])
    assert side_paytable_names(2, 1) == [] and side_paytable_names(2, 6) == ["recommended"]
    assert side_paytable(1, 2, "recommended").pays("suited_pair") == 6
    assert side_paytable(1, 1, "additional-1").pays("suited_blackjack") == 8
    assert side_paytable(3, 8, "recommended").pays("suited_high_tie") == 100


@pytest.mark.parametrize(("overrides", "needle"), [
    ({"side_version": 2, "decks": 2}, "decks=2"),
    ({"side_version": 2, "paytable": "additional-1"}, "paytable='additional-1'"),
    ({"paytable": "house-special"}, "paytable='house-special'"),
])
def test_a_paytable_that_does_not_exist_is_a_clear_error(overrides, needle):
    with pytest.raises(ValidationError) as err:
        Settings(**overrides)
    assert needle in str(err.value) and "side_version" in str(err.value)


def test_house_edges_side_main_insurance():
    default = house_edges(Settings())
    assert default["side"] == odds(Settings())[0].house_edge
    assert default["insurance"] == pytest.approx(23 / 311)  # 1 - 3 * 96/311 with six decks
    assert house_edges(Settings(decks=1))["insurance"] == pytest.approx(1 / 17)  # 1 - 3 * 16/51
    assert house_edges(Settings(insurance_pays=2.5))["insurance"] < default["insurance"]
    # main: an approximation, but it must move the right way and by the published amounts
    assert 0.002 < default["main"] < 0.006
    assert house_edges(Settings(dealer_hits_soft_17=True))["main"] == pytest.approx(default["main"] + 0.002)
    assert house_edges(Settings(blackjack_pays=1.2))["main"] == pytest.approx(default["main"] + 0.0136)
    assert house_edges(Settings(surrender=False))["main"] > default["main"]
    assert house_edges(Settings(decks=1))["main"] < default["main"] < house_edges(Settings(decks=8))["main"]
