"""High Tie side bet: which paytable line a deal meets, and its exact odds by enumeration.

Which cards decide it (manual, "Side Wager Payouts ... Definition" and "Wagers" (c)):
- Version 1: the player's first two cards; "High Tie" also needs the dealer's blackjack, i.e. the
  dealer's first two cards (up card and hole card).
- Version 2: the player's first card against the dealer's first card (the up card).
- Version 3 ("See Paytable"): the player's first two cards, and the dealer's first two for the ties.
A deal meeting several lines is paid its single highest line (RULES.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from .blackjack_hand import is_natural
from .cards import DECK, SUITS
from .odds import OddsLine, WagerOdds
from .paytables import Paytable
from .shoe import full_composition

TEN_RANKS = "TJQK"

# The manual's printed house edges (PAYTABLES AND PERCENTAGES), by (version, paytable, decks).
MANUAL_HOUSE_EDGES: dict[tuple[int, str, int], float] = {
    (1, "recommended", 4): 0.07983, (1, "recommended", 6): 0.06191, (1, "recommended", 8): 0.05298,
    (1, "recommended", 2): 0.06823, (1, "recommended", 1): 0.06364,
    (1, "additional-1", 4): 0.10407, (1, "additional-1", 6): 0.08392, (1, "additional-1", 8): 0.07387,
    (1, "additional-1", 2): 0.07692, (1, "additional-1", 1): 0.06975,
    (2, "recommended", 4): 0.1204, (2, "recommended", 6): 0.0945, (2, "recommended", 8): 0.0816,
    (3, "recommended", 1): 0.1090, (3, "recommended", 2): 0.0842, (3, "recommended", 4): 0.0723,
    (3, "recommended", 6): 0.0602, (3, "recommended", 8): 0.0504,
}


def needs_dealer_hand(version: int, player: Sequence[str]) -> bool:
    """Whether the dealer's first two cards matter: only a player blackjack can tie one."""
    return version in (1, 3) and is_natural(player[:2])


def lines_met(version: int, player: Sequence[str], dealer: Sequence[str]) -> list[str]:
    """Every side bet line the deal meets, whatever the paytable pays.

    `player`: the player's first two cards (version 2 uses the first). `dealer`: the dealer's first
    card (version 2) or first two cards (versions 1 and 3; only read when the player has blackjack).
    """
    if version == 2:
        p, d = player[0], dealer[0]
        met = []
        if p == d:
            met.append("match")
        if p[0] == d[0]:
            met.append("tie")
        if is_natural([p, d]):
            met.append("blackjack")
        return met
    p1, p2 = player[0], player[1]
    natural = is_natural([p1, p2])
    suited = p1[1] == p2[1]
    pair = p1[0] == p2[0]
    dealer_natural = natural and is_natural(dealer[:2])
    dealer_suited = dealer_natural and dealer[0][1] == dealer[1][1]
    met = []
    if version == 1:
        if dealer_natural:
            met.append("high_tie")
        if natural and suited:
            met.append("suited_blackjack")
        if p1 == p2:
            met.append("suited_pair")
        if natural:
            met.append("blackjack")
        if pair:
            met.append("pair")
        if suited:
            met.append("two_suited")  # only the 1- and 2-deck tables carry this line
        return met
    if version == 3:
        if dealer_natural and suited and dealer_suited:
            met.append("suited_high_tie")
        if dealer_natural:
            met.append("high_tie")
        if natural and suited:
            met.append("suited_blackjack")
        if natural:
            met.append("blackjack")
        if suited or pair:
            met.append("suited_or_pair")
        return met
    raise ValueError(f"side_version must be 1, 2 or 3, got {version!r}")


def side_result(table: Paytable, player: Sequence[str], dealer: Sequence[str]) -> tuple[str, float]:
    """(line, X to 1) of the single highest-paying line met, or ("lose", -1)."""
    best: tuple[str, float] = ("lose", -1.0)
    for line in lines_met(table.version or 1, player, dealer):
        pays = table.pays(line)
        if pays is not None and pays > best[1]:
            best = (line, pays)
    return best


def _dealer_classes(counts: Mapping[str, int]) -> list[tuple[str, int]]:
    """The dealer's cards grouped as far as versions 1 and 3 can tell them apart: ace of each suit,
    ten-value of each suit, anything else (represented by a card that can make no blackjack)."""
    classes = []
    for s in SUITS:
        classes.append(("A" + s, counts.get("A" + s, 0)))
        classes.append(("T" + s, sum(counts.get(r + s, 0) for r in TEN_RANKS)))
    rest = sum(counts.values()) - sum(k for _, k in classes)
    classes.append(("5c", rest))
    return classes


def side_distribution(table: Paytable, composition: Mapping[str, int]) -> tuple[dict[str, int], int]:
    """Exact count of ordered deals meeting each paid line (and "lose"), and the total count.

    Enumerates the player's two cards (version 2: player's and dealer's first cards) over every
    card of the shoe with its multiplicity, and for a player blackjack the dealer's two cards over
    the classes that can matter, all without replacement: card removal is exact.
    """
    version = table.version or 1
    counts = {c: k for c, k in composition.items() if k > 0}
    n = sum(counts.values())
    dist: dict[str, int] = {}
    if version == 2:
        for p, kp in counts.items():
            for d, kd in counts.items():
                w = kp * (kd - (p == d))
                if w:
                    line = side_result(table, [p], [d])[0]
                    dist[line] = dist.get(line, 0) + w
        return dist, n * (n - 1)
    dealer_total = (n - 2) * (n - 3)
    for p1, k1 in counts.items():
        for p2, k2 in counts.items():
            w = k1 * (k2 - (p1 == p2))
            if not w:
                continue
            player = [p1, p2]
            if not needs_dealer_hand(version, player):
                line = side_result(table, player, [])[0]
                dist[line] = dist.get(line, 0) + w * dealer_total
                continue
            left = dict(counts)
            left[p1] -= 1
            left[p2] -= 1
            classes = _dealer_classes(left)
            for d1, j1 in classes:
                for d2, j2 in classes:
                    w2 = j1 * (j2 - (d1 == d2))
                    if w2:
                        line = side_result(table, player, [d1, d2])[0]
                        dist[line] = dist.get(line, 0) + w * w2
    return dist, n * (n - 1) * dealer_total


def side_odds(table: Paytable, decks: int, composition: Mapping[str, int] | None = None) -> WagerOdds:
    """Distribution and house edge of the side bet for a full shoe of `decks` (or a given composition)."""
    comp = composition if composition is not None else full_composition(decks)
    if any(c not in DECK for c in comp):
        bad = next(c for c in comp if c not in DECK)
        raise ValueError(f"composition: {bad!r} is not a card")
    dist, total = side_distribution(table, comp)
    pays = {e.line: e.pays for e in table.lines}
    pays["lose"] = -1.0
    order = [e.line for e in table.lines] + ["lose"]
    lines = [
        OddsLine(line=line, probability=dist.get(line, 0) / total, pays=pays[line],
                 combinations=dist.get(line, 0))
        for line in order
    ]
    edge = -sum(Fraction(dist.get(line, 0), total) * Fraction(pays[line]) for line in order)
    manual = MANUAL_HOUSE_EDGES.get((table.version or 1, table.name, decks))
    note = f"manual prints {manual:.3%}" if manual is not None and composition is None else ""
    return WagerOdds(
        game="high-tie", wager="side", paytable=table.name, house_edge=float(edge), lines=lines,
        total_combinations=total,
        settings={"side_version": table.version, "decks": decks, "paytable": table.name},
        note=note,
    )
