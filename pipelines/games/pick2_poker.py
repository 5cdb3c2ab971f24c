"""Pick 2 Poker: settlement (manual 003, "Playing the game", "Procedures", "Irregularities").

Single deck; every seat and the dealer get 5 cards. A player folds (losing Ante, 3-5 Bonus and 5 Card
Bonus Only), plays 3-card poker (Play = 2 x Ante, with the 3 cards chosen in `Decision.cards`, against the
dealer's best 3 of 5) or 5-card poker (Play = Ante, against the dealer's 5; the dealer must qualify with
ace-king). The 3-5 Bonus pays the five-card table on the player's 5 cards plus the three-card table on the
best 3 of them; a played hand meeting neither is returned or lost per `bonus_nonqualifying` (RULES.md).

Settlement order: folded hands first (collected when the decision is made), then per RULES.md
`bonus_settlement`: "last" = Ante and Play of every seat, then the bonuses; "first" = the reverse.
Within a pass seats go from the highest number down to 1, as at the other tables. A voided round
(Irregularities a-d) returns every wager.

Worked example (defaults)::

    seat 1: ante 10, bonus35 10, bonus5 5; cards 7h 7d 7c Kh 2s; decision play5, play 10
    dealer: Ah Kd 9c 5s 3h (ace-king high: qualifies), best 3 = A-K-9
    settle(...) -> ante   win +10 (player_wins)                     order 0
                   play   win +10 (player_wins)                     order 1
                   bonus35 win +20 (three_of_a_kind+three_of_a_kind) order 2   5-card 1 + 3-card 1
                   bonus5 win +20 (three_of_a_kind, 4 to 1)          order 3
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .cards import CardError, parse_card
from .odds import WagerOdds
from .paytables import Paytable, paytable
from .poker import Eval, Hand5, best3, evaluate3, evaluate5
from .poker_paylines import (
    SettlementError,
    check_hand_paytable,
    is_void,
    known_cards,
    paid_line,
    settle_wager,
    void_reason,
)
from .round import Outcome, Round, Wager
from .settlement import Settlement, TableLimits

GAME = "pick-2-poker"
SPOTS: tuple[str, ...] = ("ante", "bonus35", "bonus5", "play")
SEATS: tuple[int, ...] = (1, 2, 3, 4)
DECISIONS: tuple[str, ...] = ("play3", "play5", "fold")
HAND_CARDS = 5
PLAY_MULTIPLE = {"play3": 2.0, "play5": 1.0}  # "Play (3 Card – 2x Ante or 5 Card = Ante)"
DEALER_QUALIFIER: Eval = (int(Hand5.HIGH_CARD), 14, 13)  # ace-king, 5-card poker only

RULE_FOLD = "Playing the game (a fold loses the Ante and Bonus wagers)"
RULE_PLAY = "Playing the game (higher hand wins, ties push, even money on Ante and Play)"
RULE_QUALIFY = "Playing the game (dealer qualifies with ace/king in 5 card poker)"
RULE_BONUS35 = "3-5 Bonus Wager (five card and three card pay tables)"
RULE_BONUS5 = "Optional 5 Card Bonus Only"
RULE_VOID = "Irregularities (all hands voided)"


class Settings(BaseModel):
    """Table settings; defaults from RULES.md."""

    model_config = ConfigDict(extra="forbid")
    nonqualify: Literal["ante_wins_play_pushes", "ante_and_play_push"] = Field(
        "ante_wins_play_pushes", description="5-card poker against a dealer without ace-king")
    bonus_nonqualifying: Literal["push", "lose"] = Field(
        "push", description="3-5 Bonus of a played hand that meets neither table")
    bonus_settlement: Literal["last", "first"] = Field(
        "last", description="bonuses after (Procedures b) or before (Playing the game) Ante and Play")
    bonus35_five_paytable: str = "manual"
    bonus35_three_paytable: str = "manual"
    bonus5_paytable: str = "manual"
    seats: tuple[int, ...] = SEATS
    limits: TableLimits = Field(default_factory=TableLimits)


def tables(settings: Settings) -> dict[str, Paytable]:
    out = {
        "five": paytable(GAME, "bonus35_five", settings.bonus35_five_paytable),
        "three": paytable(GAME, "bonus35_three", settings.bonus35_three_paytable),
        "bonus5": paytable(GAME, "bonus5", settings.bonus5_paytable),
    }
    check_hand_paytable(out["five"], three_card=False)
    check_hand_paytable(out["three"], three_card=True)
    check_hand_paytable(out["bonus5"], three_card=False)
    return out


def dealer_qualifies5(dealer: Eval) -> bool:
    return dealer >= DEALER_QUALIFIER


def bonus35_result(pt: dict[str, Paytable], e5: Eval, e3: Eval) -> tuple[str, float] | None:
    """Lines met on the five-card and three-card tables, joined by '+', and their summed pay."""
    hits = [h for h in (paid_line(pt["five"], e5, False), paid_line(pt["three"], e3, True)) if h]
    if not hits:
        return None
    return "+".join(h[0] for h in hits), sum(h[1] for h in hits)


def decision_of(round: Round, seat: int, cards: list[str] | None) -> tuple[str, list[str] | None]:
    """(action, the 3 chosen cards for play3). No decision and no Play wager means a fold."""
    actions = [d for d in sorted(round.decisions, key=lambda d: d.seq) if d.seat == seat]
    if not actions:
        play = round.wager(seat, "play")
        if play and play.amount > 0:
            raise SettlementError(f"round {round.round_id}: field decisions: seat {seat} has a Play wager "
                                  "but no play3/play5 decision")
        return "fold", None
    d = actions[-1]
    if d.action not in DECISIONS:
        raise SettlementError(f"round {round.round_id}: field decisions.action: seat {seat} "
                              f"{d.action!r} is not one of {DECISIONS}")
    if d.action != "play3":
        return d.action, None
    try:
        chosen = [parse_card(c) for c in d.cards or []]
    except CardError as e:
        raise SettlementError(f"round {round.round_id}: field decisions.cards: seat {seat}: {e}") from None
    if len(set(chosen)) != 3 or (cards is not None and not set(chosen) <= set(cards)):
        raise SettlementError(f"round {round.round_id}: field decisions.cards: seat {seat} chose {d.cards}; "
                              f"play3 needs 3 distinct cards of the seat's hand {cards}")
    return "play3", chosen


def _check_wagers(round: Round, settings: Settings) -> list[Wager]:
    if round.game != GAME:
        raise SettlementError(f"round {round.round_id}: field game: {round.game!r}, expected {GAME!r}")
    for w in round.wagers:
        if w.spot not in SPOTS:
            raise SettlementError(f"round {round.round_id}: field wagers.spot: {w.spot!r} (seat {w.seat}) "
                                  f"is not one of {SPOTS}")
        if w.seat not in settings.seats:
            raise SettlementError(f"round {round.round_id}: field wagers.seat: {w.seat} is not one of "
                                  f"{settings.seats}")
    return [w for w in round.wagers if w.amount > 0]


def settle(round: Round, settings: Settings) -> list[Settlement]:
    """Expected settlement of every wager of the round, in the configured order."""
    wagers = _check_wagers(round, settings)
    out: list[Settlement] = []

    def add(w: Wager | None, outcome: Outcome, pays: float, line: str, rule: str) -> None:
        if w is not None and w.amount > 0:
            out.append(settle_wager(w, outcome, pays, line, rule, len(out), settings.limits))

    seats = sorted({w.seat for w in wagers}, reverse=True)
    if is_void(round):
        for w in sorted(wagers, key=lambda w: (-w.seat, SPOTS.index(w.spot))):
            add(w, "returned", 0.0, void_reason(round), RULE_VOID)
        return out

    pt = tables(settings)
    hands: dict[int, tuple[str, list[str], list[str] | None]] = {}
    for seat in seats:
        cards = round.cards_of(f"seat:{seat}")
        action, chosen = decision_of(round, seat, cards if len(cards) == HAND_CARDS else None)
        if action == "fold":
            for spot in ("ante", "bonus35", "bonus5"):
                add(round.wager(seat, spot), "lose", 0.0, "fold", RULE_FOLD)
            add(round.wager(seat, "play"), "returned", 0.0, "fold", RULE_FOLD)
        else:
            hands[seat] = (action, known_cards(round, f"seat:{seat}", HAND_CARDS), chosen)
    if not hands:
        return out

    dealer = known_cards(round, "dealer", HAND_CARDS)
    dealer5 = evaluate5(dealer)
    dealer3, _ = best3(dealer)

    def ante_and_play(seat: int) -> None:
        action, cards, chosen = hands[seat]
        if action == "play3":
            player, against, qualified = evaluate3(chosen or []), dealer3, True
        else:
            player, against, qualified = evaluate5(cards), dealer5, dealer_qualifies5(dealer5)
        ante = round.wager(seat, "ante")
        play = round.wager(seat, "play")
        if play is None and ante is not None:  # played without Play chips seen: settle what is required
            play = Wager(seat=seat, spot="play", amount=round(ante.amount * PLAY_MULTIPLE[action], 2))
        if not qualified:
            ante_wins = settings.nonqualify == "ante_wins_play_pushes"
            add(ante, "win" if ante_wins else "push", 1.0, "dealer_not_qualified", RULE_QUALIFY)
            add(play, "returned", 0.0, "dealer_not_qualified", RULE_QUALIFY)
            return
        result: Outcome = "win" if player > against else "lose" if player < against else "push"
        line = {"win": "player_wins", "lose": "dealer_wins", "push": "tie"}[result]
        add(ante, result, 1.0, line, RULE_PLAY)
        add(play, result, 1.0, line, RULE_PLAY)

    def bonuses(seat: int) -> None:
        _, cards, _ = hands[seat]
        e5 = evaluate5(cards)
        hit = bonus35_result(pt, e5, best3(cards)[0])
        if hit:
            add(round.wager(seat, "bonus35"), "win", hit[1], hit[0], RULE_BONUS35)
        else:
            miss: Outcome = "push" if settings.bonus_nonqualifying == "push" else "lose"
            add(round.wager(seat, "bonus35"), miss, 0.0, "no_qualifying_hand", RULE_BONUS35)
        hit = paid_line(pt["bonus5"], e5, False)
        add(round.wager(seat, "bonus5"), "win" if hit else "lose", hit[1] if hit else 0.0,
            hit[0] if hit else "no_qualifying_hand", RULE_BONUS5)

    passes = (bonuses, ante_and_play) if settings.bonus_settlement == "first" else (ante_and_play, bonuses)
    for settle_pass in passes:
        for seat in hands:  # already highest seat first
            settle_pass(seat)
    return out


def odds(settings: Settings) -> list[WagerOdds]:
    """Exact odds of the 3-5 Bonus (assuming the player plays) and the 5 Card Bonus Only."""
    from .pick2_poker_odds import bonus_odds

    return bonus_odds(settings)


def house_edges(settings: Settings) -> dict[str, float]:
    """House edge per wager spot: bonus35 and bonus5 exact; ante, play and `game` (Ante + Play + 3-5 Bonus
    per unit Ante, folds included) Monte Carlo estimates under the strategy in pick2_poker_odds."""
    from .pick2_poker_odds import ante_play_estimate

    edges = {w.wager: w.house_edge for w in odds(settings)}
    est = ante_play_estimate(settings)
    for key in ("ante", "play", "game"):
        edges[key] = est[key]
    return edges
