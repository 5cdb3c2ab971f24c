"""King High settlement: every wager of a round, in the manual's settlement order.

Order (manual §9 Dealing the Cards, §10 Procedure for Paying and Taking Wagers; RULES.md):
for each card, boxes 1 to 8, within a box losing High/Low, losing Suit, losing Seven, then the
rest (winners, and the standoff of the 7 of the chosen suit); then losing runs broken by that card,
then runs that complete on it (boxes 1 to 8). After the fifth card, the Pokerpot, boxes 1 to 8.
A void round (§12 Irregularities) settles what its exposed cards decided, then returns action wagers
on cards never dealt, settles live runs and the Pokerpot by the void rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CardError, parse_card
from .king_high_rules import (
    ACTION_SPOTS,
    CARDS_PER_ROUND,
    GAME,
    ROUND_SPOTS,
    RULE_PAYOUT,
    RULE_POKERPOT_CAP,
    RULE_VOID,
    RUN_SPOTS,
    SPOTS,
    KingHighError,
    Settings,
    is_high,
    is_low,
    is_seven,
    king_high_rank,
    parse_suit_choice,
    pays,
    pokerpot_level_made,
)
from .round import Outcome, Round, Wager
from .settlement import Settlement, apply_limits, win

# Within a box: High/Low first, then Suit, then Seven (manual §10).
_SPOT_RANK = {"high": 0, "low": 0, "suit": 1, "seven": 2}
_TIEBREAK = {"high": 0, "low": 1, "suit": 0, "seven": 0}


@dataclass(frozen=True)
class _Result:
    outcome: Outcome
    line: str
    odds: float = 0.0
    rule: str = RULE_PAYOUT


def board_cards(rnd: Round) -> list[str]:
    """The drawn cards (owner "board") in seq order, validated; burns are ignored."""
    board = sorted((c for c in rnd.cards if c.owner == "board"), key=lambda c: c.seq)
    out: list[str] = []
    for c in board:
        if c.card is None:
            raise KingHighError(f"round {rnd.round_id}: field cards (seq {c.seq}): board card unseen (None)")
        try:
            out.append(parse_card(c.card))
        except CardError as e:
            raise KingHighError(f"round {rnd.round_id}: field cards (seq {c.seq}): {e}") from None
    return out


def _exposed_cards(rnd: Round) -> tuple[list[str], bool]:
    """(cards that decide the round, whether the round was voided)."""
    if rnd.game != GAME:
        raise KingHighError(f"round {rnd.round_id}: field game: {rnd.game!r} is not {GAME!r}")
    board = board_cards(rnd)
    if rnd.void is not None:
        n = rnd.void.after_cards
        if n > CARDS_PER_ROUND or len(board) != n:
            raise KingHighError(
                f"round {rnd.round_id}: field void.after_cards: {n} but {len(board)} board cards"
            )
        return board, True
    if len(board) != CARDS_PER_ROUND:
        raise KingHighError(
            f"round {rnd.round_id}: field cards: King High needs {CARDS_PER_ROUND} board cards, "
            f"got {len(board)} ({' '.join(board) or 'none'}); a voided round needs `void`"
        )
    return board, False


def _check_wager(rnd: Round, i: int, w: Wager) -> None:
    where = f"round {rnd.round_id}: field wagers[{i}]"
    if w.spot not in SPOTS:
        raise KingHighError(f"{where}.spot: {w.spot!r} is not a King High spot ({', '.join(SPOTS)})")
    if w.spot in ROUND_SPOTS and w.hand != 0:
        raise KingHighError(f"{where}.hand: {w.hand} but {w.spot} is a round-of-play wager (hand 0)")
    if w.spot in ACTION_SPOTS and not 1 <= w.hand <= CARDS_PER_ROUND:
        raise KingHighError(f"{where}.hand: {w.hand} but {w.spot} rides on an action round 1-5")
    if w.spot == "suit" and parse_suit_choice(w.choice) is None:
        raise KingHighError(f"{where}.choice: {w.choice!r} names no suit (c, d, h, s)")


def _action_result(spot: str, card: str, choice: str | None, settings: Settings) -> _Result:
    if spot == "high":
        if is_high(card):
            line = "king" if king_high_rank(card) == 13 else "eight_to_queen"
            return _Result("win", line, pays(settings, "high", line))
        return _Result("lose", "seven" if is_seven(card) else "low")
    if spot == "low":
        if is_low(card):
            line = "ace" if king_high_rank(card) == 1 else "two_to_six"
            return _Result("win", line, pays(settings, "low", line))
        return _Result("lose", "seven" if is_seven(card) else "high")
    if spot == "suit":
        if card[1] == choice:
            if is_seven(card):
                return _Result("push", "seven_of_suit", pays(settings, "suit", "seven_of_suit"))
            return _Result("win", "suit", pays(settings, "suit", "suit"))
        return _Result("lose", "other_suit")
    if is_seven(card):
        return _Result("win", "any_7", pays(settings, "seven", "any_7"))
    return _Result("lose", "not_7")


def _streak(cards: list[str], spot: str) -> int:
    member = is_high if spot == "high_run" else is_low
    n = 0
    for card in cards:
        if not member(card):
            break
        n += 1
    return n


def _run_plan(cards: list[str], spot: str, voided: bool, settings: Settings) -> tuple[int | None, _Result]:
    """(the card on which the run settles, or None for the void phase; its result)."""
    streak = _streak(cards, spot)
    if streak < len(cards):  # broken by card streak+1: settled at its highest level, or lost
        card = streak + 1
        if streak >= 3:
            return card, _Result("win", f"run_{streak}", pays(settings, spot, f"run_{streak}"))
        return card, _Result("lose", "run_broken")
    if streak == CARDS_PER_ROUND:
        return CARDS_PER_ROUND, _Result("win", "run_5", pays(settings, spot, "run_5"))
    assert voided  # a complete round has five cards, so a live run is only left by a void
    level = streak + 1  # paid as if the next card continued it
    if level >= 3:
        return None, _Result("win", f"run_{level}", pays(settings, spot, f"run_{level}"), RULE_VOID)
    return None, _Result("returned", "void_run_not_qualifying", rule=RULE_VOID)


def _pokerpot_result(cards: list[str], voided: bool, settings: Settings) -> _Result:
    line = pokerpot_level_made(cards, settings)
    rule = RULE_VOID if voided and len(cards) < CARDS_PER_ROUND else RULE_PAYOUT
    if line is not None:
        return _Result("win", line, pays(settings, "pokerpot", line), rule)
    if rule == RULE_VOID:
        return _Result("returned", "void_not_qualifying", rule=RULE_VOID)
    return _Result("lose", "not_qualifying")


def settle(round: Round, settings: Settings) -> list[Settlement]:
    """Expected settlement of every wager of a King High round, sorted by `order`."""
    rnd = round
    cards, voided = _exposed_cards(rnd)
    seen: dict[tuple, int] = {}
    for i, w in enumerate(rnd.wagers):
        _check_wager(rnd, i, w)
        key = (w.seat, w.spot, w.hand, parse_suit_choice(w.choice) if w.spot == "suit" else None)
        if key in seen:
            raise KingHighError(
                f"round {rnd.round_id}: field wagers[{i}]: same box, spot, hand and choice as "
                f"wagers[{seen[key]}] ({w.seat}, {w.spot}, {w.hand}, {w.choice!r})"
            )
        seen[key] = i
    wagers = [w for w in rnd.wagers if w.amount > 0]
    out: list[Settlement] = []

    def emit(w: Wager, result: _Result) -> None:
        amount, violation = apply_limits(w.amount, w.spot, settings.limits)
        rule = result.rule
        if result.outcome == "win":
            net = win(amount, result.odds)
            cap = settings.pokerpot_max_payout_per_player
            if w.spot == "pokerpot" and cap is not None and net > cap:
                net, rule = round_cents(cap), RULE_POKERPOT_CAP
        elif result.outcome == "lose":
            net = -amount
        else:
            net = 0.0
        out.append(Settlement(
            seat=w.seat, spot=w.spot, hand=w.hand, wagered=w.amount, amount=amount,
            outcome=result.outcome, net=net, line=result.line, order=len(out), rule=rule,
            limit_violation=violation,
        ))

    runs = [(w, *_run_plan(cards, w.spot, voided, settings)) for w in wagers if w.spot in RUN_SPOTS]
    boxes = sorted({w.seat for w in wagers})

    for k, card in enumerate(cards, start=1):
        for box in boxes:
            actions = []
            for w in wagers:
                if w.seat == box and w.hand == k and w.spot in ACTION_SPOTS:
                    res = _action_result(w.spot, card, parse_suit_choice(w.choice), settings)
                    suit_order = "cdhs".find(parse_suit_choice(w.choice) or "")
                    key = (res.outcome != "lose", _SPOT_RANK[w.spot], _TIEBREAK[w.spot], suit_order)
                    actions.append((key, w, res))
            for _, w, res in sorted(actions, key=lambda t: t[0]):
                emit(w, res)
        settled_here = [(w, res) for w, at, res in runs if at == k]
        for losing in (True, False):
            for w, res in sorted(settled_here, key=lambda t: (t[0].seat, RUN_SPOTS.index(t[0].spot))):
                if (res.outcome == "lose") == losing:
                    emit(w, res)

    if voided:
        undealt = [w for w in wagers if w.spot in ACTION_SPOTS and w.hand > len(cards)]
        for w in sorted(undealt, key=lambda w: (w.hand, w.seat, _SPOT_RANK[w.spot], _TIEBREAK[w.spot])):
            emit(w, _Result("returned", "void_card_not_dealt", rule=RULE_VOID))
        live = [(w, res) for w, at, res in runs if at is None]
        for w, res in sorted(live, key=lambda t: (t[0].seat, RUN_SPOTS.index(t[0].spot))):
            emit(w, res)

    pot = _pokerpot_result(cards, voided, settings)
    for w in sorted((w for w in wagers if w.spot == "pokerpot"), key=lambda w: w.seat):
        emit(w, pot)
    return out


def round_cents(x: float) -> float:
    return round(x, 2)


def action_wagers_without_pokerpot(round: Round) -> list[Wager]:
    """Action wagers on a box with no Pokerpot wager (manual §7 Permissible Wagers: not allowed).

    settle() still settles them as the dealer took them; reconcile raises the procedure flag."""
    with_pot = {w.seat for w in round.wagers if w.spot == "pokerpot" and w.amount > 0}
    return [w for w in round.wagers if w.spot in ACTION_SPOTS and w.amount > 0 and w.seat not in with_pot]
