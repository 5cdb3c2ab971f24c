"""3 Card Monster with the 4 Card Royal Family Bonus: settlement (manual 002, "Dealer Procedures").

Each seat gets 4 cards and plays its best 3-card hand; the dealer gets 3 (the 4th card of the dealer's
packet is a discard). The dealer qualifies with king high or better (5A); if not, Play wagers are returned
and the Ante and 3 Card Monster are still resolved (RULES.md). The manual prints no paytables and no Play
amount: both are table settings; the bundled paytables are labelled examples (`example: true`).

Settlement order (4, 5B, 5C): folded hands' Ante, 3 Card Monster and Royal Family first, then positions
6 down to 1, each Play, Ante, 3 Card Monster, then Royal Family.

Worked example (example paytables, Play = 1 x Ante)::

    seat 2: ante 10, monster 10, royal 5, plays with Kh Qh Jh 2c; play 10
    dealer: Ah 9c 4d (ace high: qualifies)
    best 3 of 4 = Kh Qh Jh, a straight flush, beats the dealer:
    settle(...) -> play  win +10 (line player_wins)       order 0
                   ante  win +10 (player_wins)             order 1
                   monster win +200 (straight_flush, 20 to 1) order 2
                   royal win +500 (kqj_suited, 100 to 1)   order 3
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from .odds import WagerOdds
from .paytables import Paytable, PaytableError, paytable
from .poker import Eval, Hand3, best3, evaluate3
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
from .three_card_monster_royal import ROYAL_LINES, royal_lines_met

GAME = "3-card-monster"
SPOTS: tuple[str, ...] = ("ante", "monster", "royal", "play")
SEATS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
DECISIONS: tuple[str, ...] = ("play", "fold")
PLAYER_CARDS = 4
DEALER_CARDS = 3
DEALER_QUALIFIER: Eval = (int(Hand3.HIGH_CARD), 13)  # king high or better (Dealer Procedures 5A)

RULE_FOLD = "Dealer Procedures 4 (folds collected first)"
RULE_QUALIFY = "Dealer Procedures 5A (dealer qualifies with king high)"
RULE_RESOLVE = "Dealer Procedures 5B (Play, Ante, 3 Card Monster in that order)"
RULE_ROYAL = "Dealer Procedures 5C (4 Card Royal Family Bonus last)"
RULE_VOID = "Dealer Procedures (no irregularity rules: a voided round returns every wager)"


class Settings(BaseModel):
    """Table settings; the manual leaves all of them to the posted signage (RULES.md)."""

    model_config = ConfigDict(extra="forbid")
    play_multiple: float = Field(1.0, gt=0, description="Play wager as a multiple of the Ante")
    ante_play_paytable: str = Field("example", description="paytables/3-card-monster/ante_play.<name>.json")
    monster_paytable: str = Field("example", description="paytables/3-card-monster/monster.<name>.json")
    royal_paytable: str = Field("example", description="paytables/3-card-monster/royal.<name>.json")
    limits: TableLimits = Field(default_factory=TableLimits)


def tables(settings: Settings) -> dict[str, Paytable]:
    """The three paytables the settings name, checked for lines this game can settle."""
    ante_play = paytable(GAME, "ante_play", settings.ante_play_paytable)
    monster = paytable(GAME, "monster", settings.monster_paytable)
    royal = paytable(GAME, "royal", settings.royal_paytable)
    for needed in ("ante", "play"):
        if ante_play.pays(needed) is None:
            raise PaytableError(f"paytable {GAME}/ante_play.{ante_play.name}: field lines: no {needed!r} line")
    check_hand_paytable(monster, three_card=True)
    order = [x.line for x in royal.lines]
    unknown = [x for x in order if x not in ROYAL_LINES]
    if unknown or order != sorted(order, key=ROYAL_LINES.index):
        raise PaytableError(f"paytable {GAME}/royal.{royal.name}: field lines: {order} must be drawn from "
                            f"{list(ROYAL_LINES)} in that order")
    return {"ante_play": ante_play, "monster": monster, "royal": royal}


def dealer_qualifies(dealer: Eval) -> bool:
    return dealer >= DEALER_QUALIFIER


def royal_line(table: Paytable, cards: list[str]) -> tuple[str, float] | None:
    met = royal_lines_met(cards)
    for entry in table.lines:
        if entry.line in met:
            return entry.line, entry.pays
    return None


def decision_of(round: Round, seat: int) -> str:
    """The seat's last play/fold decision; without one, a Play wager on the felt means play."""
    actions = [d for d in sorted(round.decisions, key=lambda d: d.seq) if d.seat == seat]
    if not actions:
        play = round.wager(seat, "play")
        return "play" if play and play.amount > 0 else "fold"
    action = actions[-1].action
    if action not in DECISIONS:
        raise SettlementError(f"round {round.round_id}: field decisions: seat {seat} action {action!r} "
                              f"is not one of {DECISIONS}")
    return action


def _check_wagers(round: Round) -> list[Wager]:
    if round.game != GAME:
        raise SettlementError(f"round {round.round_id}: field game: {round.game!r}, expected {GAME!r}")
    for w in round.wagers:
        if w.spot not in SPOTS:
            raise SettlementError(f"round {round.round_id}: field wagers.spot: {w.spot!r} (seat {w.seat}) "
                                  f"is not one of {SPOTS}")
        if w.seat not in SEATS:
            raise SettlementError(f"round {round.round_id}: field wagers.seat: {w.seat} is not one of {SEATS}")
    return [w for w in round.wagers if w.amount > 0]


def settle(round: Round, settings: Settings) -> list[Settlement]:
    """Expected settlement of every wager of the round, in the manual's order."""
    wagers = _check_wagers(round)
    limits = settings.limits
    out: list[Settlement] = []

    def add(w: Wager | None, outcome: Outcome, pays: float, line: str, rule: str) -> None:
        if w is not None and w.amount > 0:
            out.append(settle_wager(w, outcome, pays, line, rule, len(out), limits))

    if is_void(round):
        for w in sorted(wagers, key=lambda w: (-w.seat, SPOTS.index(w.spot))):
            add(w, "returned", 0.0, void_reason(round), RULE_VOID)
        return out

    pt = tables(settings)
    seats = sorted({w.seat for w in wagers}, reverse=True)  # position 6 down to 1
    playing = [s for s in seats if decision_of(round, s) == "play"]
    for seat in seats:
        if seat in playing:
            continue
        for spot in ("ante", "monster", "royal"):
            add(round.wager(seat, spot), "lose", 0.0, "fold", RULE_FOLD)
        add(round.wager(seat, "play"), "returned", 0.0, "fold", RULE_FOLD)  # a Play beside a fold
    if not playing:
        return out

    dealer = evaluate3(known_cards(round, "dealer", DEALER_CARDS))
    qualified = dealer_qualifies(dealer)
    ante_pays = pt["ante_play"].pays("ante") or 0.0
    play_pays = pt["ante_play"].pays("play") or 0.0
    for seat in playing:
        cards = known_cards(round, f"seat:{seat}", PLAYER_CARDS)
        player, _ = best3(cards)
        result = "win" if player > dealer else "lose" if player < dealer else "push"
        line = {"win": "player_wins", "lose": "dealer_wins", "push": "tie"}[result]
        play = round.wager(seat, "play")
        if play is None:  # a play decision with no Play chips seen: settle what the setting requires
            ante = round.wager(seat, "ante")
            if ante is not None:
                play = Wager(seat=seat, spot="play", amount=round_cents(ante.amount * settings.play_multiple))
        if qualified:
            add(play, result, play_pays, line, RULE_RESOLVE)
        else:
            add(play, "returned", 0.0, "dealer_not_qualified", RULE_QUALIFY)
        add(round.wager(seat, "ante"), result, ante_pays, line, RULE_RESOLVE)
        hit = paid_line(pt["monster"], player, three_card=True)
        add(round.wager(seat, "monster"), "win" if hit else "lose", hit[1] if hit else 0.0,
            hit[0] if hit else "no_qualifying_hand", RULE_RESOLVE)
        hit = royal_line(pt["royal"], cards)
        add(round.wager(seat, "royal"), "win" if hit else "lose", hit[1] if hit else 0.0,
            hit[0] if hit else "no_qualifying_hand", RULE_ROYAL)
    return out


def round_cents(x: float) -> float:
    return round(x, 2)


def odds(settings: Settings) -> list[WagerOdds]:
    """Exact odds of the 3 Card Monster and Royal Family bonuses (single deck, player's 4 cards)."""
    from .three_card_monster_odds import bonus_odds

    return bonus_odds(settings)


def house_edges(settings: Settings) -> dict[str, float]:
    """House edge per wager spot: monster and royal exact; ante and play a Monte Carlo estimate under
    the simple strategy in three_card_monster_odds (see `ante_play_estimate`)."""
    from .three_card_monster_odds import ante_play_estimate

    edges = {w.wager: w.house_edge for w in odds(settings)}
    est = ante_play_estimate(settings)
    edges["ante"] = est["ante"]
    edges["play"] = est["play"]
    return edges
