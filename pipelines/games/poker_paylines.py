"""Poker paytable lines shared by 3 Card Monster and Pick 2 Poker, and the vectorised tables their exact
odds are enumerated with.

Paytable line names are the evaluator's category names (`straight_flush`, `mini_royal`, `pair`, ...) plus
`pair_of_<rank>s_or_better` (e.g. `pair_of_6s_or_better`). Lines are listed best first and a hand is paid
the first line it meets; a category line is met by that category or any higher one, so a table without
`mini_royal` pays A-K-Q suited as a straight flush, as the hand is one.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import combinations
from math import comb

import numpy as np

from .cards import DECK
from .paytables import Paytable, PaytableError
from .poker import Eval, Hand3, Hand5, evaluate3
from .round import Outcome, Round, Wager
from .settlement import Settlement, TableLimits, apply_limits, win

_PAIR_MIN = re.compile(r"^pair_of_(\d+|[tjqka])s_or_better$", re.IGNORECASE)
_RANK_WORDS = {"t": 10, "j": 11, "q": 12, "k": 13, "a": 14}


def _line_key(line: str, three_card: bool) -> tuple[int, int]:
    """(category, minimum pair rank) a line stands for; raises on a line the evaluator cannot meet."""
    enum = Hand3 if three_card else Hand5
    try:
        return int(enum[line.upper()]), 0
    except KeyError:
        pass
    m = _PAIR_MIN.match(line)
    if m:
        text = m.group(1).lower()
        value = _RANK_WORDS.get(text) or int(text)
        if 2 <= value <= 14:
            return int(enum.PAIR), value
    names = ", ".join(e.name.lower() for e in enum)
    raise PaytableError(f"paytable line {line!r} is not a hand category ({names}) or pair_of_<rank>s_or_better")


def meets(line: str, ev: Eval, three_card: bool) -> bool:
    """Whether evaluation `ev` meets paytable line `line` (that hand or better)."""
    category, pair_min = _line_key(line, three_card)
    if ev[0] != category:
        return ev[0] > category
    return pair_min == 0 or ev[1] >= pair_min


def check_hand_paytable(table: Paytable, three_card: bool) -> None:
    """Every line must be a known hand, listed best first; otherwise the wrong line would be paid."""
    keys = [_line_key(x.line, three_card) for x in table.lines]
    if keys != sorted(keys, reverse=True):
        raise PaytableError(
            f"paytable {table.game}/{table.wager}.{table.name}: field lines: not listed best first "
            f"(got {[x.line for x in table.lines]})"
        )


def paid_line(table: Paytable, ev: Eval, three_card: bool) -> tuple[str, float] | None:
    """The first line of `table` that `ev` meets, with its pay (X to 1), or None."""
    for entry in table.lines:
        if meets(entry.line, ev, three_card):
            return entry.line, entry.pays
    return None


# --- vectorised enumeration -------------------------------------------------------------------------
# Card ids are indices into DECK (rank-major, so sorted ids have non-decreasing ranks).


@cache
def all_combos(k: int) -> np.ndarray:
    """Every k-card hand of one deck as sorted card ids, shape (C(52, k), k)."""
    return np.fromiter(combinations(range(52), k), dtype=np.dtype((np.int8, k)), count=comb(52, k))


@cache
def three_card_lookup() -> tuple[np.ndarray, list[Eval]]:
    """`score[a, b, c]` (a < b < c) orders every 3-card hand as evaluate3 does; `evals[score]` is the
    evaluation a score stands for. Built from the scalar evaluator so both agree by construction."""
    triples = all_combos(3)
    evs = [evaluate3((DECK[a], DECK[b], DECK[c])) for a, b, c in triples.tolist()]
    distinct = sorted(set(evs))
    index = {e: i for i, e in enumerate(distinct)}
    score = np.full((52, 52, 52), -1, dtype=np.int16)
    t = triples.astype(np.intp)
    score[t[:, 0], t[:, 1], t[:, 2]] = [index[e] for e in evs]
    return score, distinct


def best3_scores(hands: np.ndarray) -> np.ndarray:
    """Score of the best 3-card hand within each row of sorted card ids (3 or more cards)."""
    score, _ = three_card_lookup()
    h = hands.astype(np.intp)
    best = np.full(len(h), -1, dtype=np.int16)
    for i, j, k in combinations(range(h.shape[1]), 3):
        np.maximum(best, score[h[:, i], h[:, j], h[:, k]], out=best)
    return best


def five_card_classes(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hand5 category and pair rank (2..14, 0 unless one pair) of each sorted 5-card row of one deck."""
    r = hands // 4
    s = hands % 4
    # multiplicity of each card's rank within its hand; their sum identifies the rank pattern
    mult = np.stack([(r == r[:, i : i + 1]).sum(1) for i in range(5)], axis=1)
    sig = mult.sum(1)
    flush = (s == s[:, :1]).all(1)
    distinct = sig == 5
    ace_low = (r[:, 4] == 12) & (r[:, 3] == 3)
    straight = distinct & ((r[:, 4] - r[:, 0] == 4) | ace_low)
    cat = np.full(len(hands), int(Hand5.HIGH_CARD), dtype=np.int8)
    for value, mask in (
        (Hand5.PAIR, sig == 7),
        (Hand5.TWO_PAIR, sig == 9),
        (Hand5.THREE_OF_A_KIND, sig == 11),
        (Hand5.STRAIGHT, straight),
        (Hand5.FLUSH, flush & ~straight),
        (Hand5.FULL_HOUSE, sig == 13),
        (Hand5.FOUR_OF_A_KIND, sig == 17),
        (Hand5.STRAIGHT_FLUSH, straight & flush),
        (Hand5.ROYAL_FLUSH, straight & flush & (r[:, 0] == 8)),
    ):
        cat[mask] = int(value)
    pair_rank = np.where(sig == 7, (r * (mult == 2)).max(1) + 2, 0).astype(np.int8)
    return cat, pair_rank


# --- settlement helpers ------------------------------------------------------------------------------


class SettlementError(ValueError):
    """A round that cannot be settled as recorded (missing cards, unknown spot, bad decision)."""


def settle_wager(wager: Wager, outcome: Outcome, pays: float, line: str, rule: str, order: int,
                 limits: TableLimits) -> Settlement:
    """One Settlement: limits first (over the maximum settles as the maximum), then the result."""
    amount, violation = apply_limits(wager.amount, wager.spot, limits)
    net = win(amount, pays) if outcome == "win" else -amount if outcome == "lose" else 0.0
    return Settlement(seat=wager.seat, spot=wager.spot, hand=wager.hand, wagered=wager.amount, amount=amount,
                      outcome=outcome, net=net, line=line, order=order, rule=rule,
                      limit_violation=violation)


def is_void(round: Round) -> bool:
    return round.void is not None or round.status == "voided"


def void_reason(round: Round) -> str:
    return f"void:{round.void.reason}" if round.void else "void"


def known_cards(round: Round, owner: str, needed: int) -> list[str]:
    """Exactly `needed` known cards of `owner`, or a SettlementError naming the round, field and value."""
    cards = round.cards_of(owner)
    if len(cards) != needed:
        raise SettlementError(
            f"round {round.round_id} ({round.game}): field cards: owner {owner!r} has {len(cards)} known "
            f"cards {cards}, {needed} needed"
        )
    if len(set(cards)) != len(cards):
        raise SettlementError(f"round {round.round_id}: field cards: owner {owner!r} holds a duplicate {cards}")
    return cards


def five_card_keys(hands: np.ndarray) -> np.ndarray:
    """An int64 per sorted 5-card row that orders hands as evaluate5 does (single deck)."""
    cat, _ = five_card_classes(hands)
    r = (hands // 4).astype(np.int64)
    mult = np.stack([(r == r[:, i : i + 1]).sum(1) for i in range(5)], axis=1)
    # ranks ordered by (multiplicity, rank), highest first: the evaluator's tiebreak order
    digits = np.sort(mult * 16 + r, axis=1)[:, ::-1] % 16
    straight = (cat == int(Hand5.STRAIGHT)) | (cat >= int(Hand5.STRAIGHT_FLUSH))
    wheel = straight & (r[:, 4] == 12) & (r[:, 3] == 3)
    high = np.where(wheel, 3, r[:, 4])
    digits[straight] = 0
    digits[straight, 0] = high[straight]
    weights = 16 ** np.arange(4, -1, -1, dtype=np.int64)
    return cat.astype(np.int64) * 16**5 + digits @ weights
