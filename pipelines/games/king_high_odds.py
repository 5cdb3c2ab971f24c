"""Exact odds of every King High wager, by counting (no simulation, no decisions involved).

- High, Low, Suit, Any 7: one card from a full shoe of `decks` decks (the mechanical shuffler returns
  the cards every round; with a manual shoe each card's unconditional distribution is the same).
- High Run, Low Run: ordered draws of five cards without replacement; exactly-k-then-broken counts.
- Pokerpot: every multiset of five ranks (6,188 of them), with the number of physical hands that
  have those ranks, split into one-suit and mixed-suit hands; poker.evaluate5 classifies a
  representative of each. This counts all C(52·decks, 5) hands without visiting them one by one.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, perm, prod

from .cards import RANKS
from .king_high_rules import GAME, SPOTS, Settings, pays, pokerpot_line, table_of
from .odds import OddsLine, WagerOdds

RANK_COUNT = len(RANKS)
SUIT_COUNT = 4


def _wager_odds(settings: Settings, wager: str, counts: list[tuple[str, int, float]], total: int,
                note: str) -> WagerOdds:
    lines = [
        OddsLine(line=line, probability=float(Fraction(n, total)), pays=p, combinations=n)
        for line, n, p in counts
    ]
    if sum(n for _, n, _ in counts) != total:
        raise AssertionError(f"{wager}: outcome counts do not add up to {total}")
    edge = -Fraction(sum(Fraction(p) * n for _, n, p in counts), total)
    return WagerOdds(
        game=GAME, wager=wager, paytable=getattr(settings.paytables, wager), house_edge=float(edge),
        lines=lines, total_combinations=total, settings=settings.model_dump(mode="json"), note=note,
    )


def _single_card(settings: Settings) -> list[WagerOdds]:
    d = settings.decks
    n = 52 * d
    per_rank = SUIT_COUNT * d
    note = f"one card from a full {d}-deck shoe"

    def p(wager: str, line: str) -> float:
        return pays(settings, wager, line)

    return [
        _wager_odds(settings, "high", [
            ("king", per_rank, p("high", "king")),
            ("eight_to_queen", 5 * per_rank, p("high", "eight_to_queen")),
            ("seven", per_rank, -1.0),
            ("low", 6 * per_rank, -1.0),
        ], n, note),
        _wager_odds(settings, "low", [
            ("ace", per_rank, p("low", "ace")),
            ("two_to_six", 5 * per_rank, p("low", "two_to_six")),
            ("seven", per_rank, -1.0),
            ("high", 6 * per_rank, -1.0),
        ], n, note),
        _wager_odds(settings, "suit", [
            ("suit", 12 * d, p("suit", "suit")),
            ("seven_of_suit", d, p("suit", "seven_of_suit")),
            ("other_suit", 39 * d, -1.0),
        ], n, note + "; the 7 of the chosen suit is a standoff"),
        _wager_odds(settings, "seven", [
            ("any_7", per_rank, p("seven", "any_7")),
            ("not_7", n - per_rank, -1.0),
        ], n, note),
    ]


def run_counts(decks: int) -> dict[str, int]:
    """Ordered five-card draws by the level a run (high or low: 6 ranks each) ends at."""
    n = 52 * decks
    good = 6 * SUIT_COUNT * decks
    total = perm(n, 5)
    counts = {"run_5": perm(good, 5)}
    for k in (4, 3):
        # k run cards, then one that breaks it, then any cards for the rest of the five
        counts[f"run_{k}"] = perm(good, k) * (n - good) * perm(n - k - 1, 4 - k)
    counts["run_broken"] = total - sum(counts.values())
    return counts


def _runs(settings: Settings) -> list[WagerOdds]:
    counts = run_counts(settings.decks)
    total = perm(52 * settings.decks, 5)
    note = f"ordered draws of 5 from a full {settings.decks}-deck shoe, without replacement"
    return [
        _wager_odds(settings, spot, [
            *((line, counts[line], pays(settings, spot, line)) for line in ("run_5", "run_4", "run_3")),
            ("run_broken", counts["run_broken"], -1.0),
        ], total, note)
        for spot in ("high_run", "low_run")
    ]


def _representative(ranks: tuple[int, ...], one_suit: bool) -> list[str]:
    """Cards with these ranks, all clubs or (mixed) one diamond; evaluate5 reads only the suit set."""
    cards = [RANKS[r] + "c" for r in ranks]
    if not one_suit:
        cards[0] = cards[0][0] + "d"
    return cards


def pokerpot_counts(decks: int, settings: Settings) -> dict[str | None, int]:
    """Unordered five-card hands from `decks` decks by pokerpot line (None: not qualifying)."""
    per_rank = SUIT_COUNT * decks
    counts: Counter[str | None] = Counter()
    for ranks in combinations_with_replacement(range(RANK_COUNT), 5):
        mult = Counter(ranks).values()
        total = prod(comb(per_rank, m) for m in mult)
        if total == 0:
            continue  # more of a rank than the shoe holds
        one_suit = SUIT_COUNT * prod(comb(decks, m) for m in mult)
        if one_suit:
            counts[pokerpot_line(_representative(ranks, True), settings)] += one_suit
        if total > one_suit:
            counts[pokerpot_line(_representative(ranks, False), settings)] += total - one_suit
    return dict(counts)


def _pokerpot(settings: Settings) -> WagerOdds:
    counts = pokerpot_counts(settings.decks, settings)
    table = table_of(settings, "pokerpot")
    rows = [(e.line, counts.get(e.line, 0), e.pays) for e in table.lines]
    rows.append(("not_qualifying", counts.get(None, 0), -1.0))
    pair = "jacks" if settings.pokerpot_min_pair == "J" else "tens"
    note = (f"five cards from a full {settings.decks}-deck shoe; qualifying pair: {pair} or better; "
            "ignores the maximum payout per player (it depends on the wager)")
    return _wager_odds(settings, "pokerpot", rows, comb(52 * settings.decks, 5), note)


def odds(settings: Settings) -> list[WagerOdds]:
    """Exact odds of every King High wager under `settings`, in SPOTS order."""
    by_spot = {w.wager: w for w in [_pokerpot(settings), *_runs(settings), *_single_card(settings)]}
    return [by_spot[s] for s in SPOTS]


def house_edges(settings: Settings) -> dict[str, float]:
    """Spot -> exact house edge (fraction of the wager), for theoretical win."""
    return {w.wager: w.house_edge for w in odds(settings)}

