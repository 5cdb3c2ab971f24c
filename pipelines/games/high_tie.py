"""High Tie Blackjack: blackjack with the High Tie side bet, versions 1-3 (manual 001_f27e61b0b71880bf).

Round document conventions (the registry contract):
- Spots: "main", "side", "double", "insurance"; seats 1-6. Before a split a seat's hand is hand 0 with
  cards owned "seat:N"; after a split hands 1, 2, ... own "seat:N.1", "seat:N.2", ... and the main
  wagers sit on hands 1, 2, ...; a double is its own spot "double" on the hand it doubles.
- The side bet (hand 0) is decided by the player's first two cards (the two lowest-seq cards owned
  "seat:N" / "seat:N.*") and, as the version needs, the dealer's first card. The dealer's first card is
  the up card (the manual's "dealer's first card"; it never says otherwise) and the second the hole card.
- Decisions: hit / stand / double / split / surrender / insurance per seat and hand; settlement reads
  only "surrender" (the other decisions show in the cards and wagers themselves).

Settlement order (HOW IS THE GAME DEALT: "The dealer first collects all losing side bets, then goes back
and pays any winning side bets"; then the blackjack round): losing side bets by seat, winning side bets
by seat, insurance by seat, then hands resolved during play (surrenders, naturals, busts) in play order,
then the remaining hands after the dealer's hand, by seat and hand, each main wager before its double.

Worked example (version 1, six decks, recommended table, $10 side, $25 main on seat 1):
the player is dealt Ah Kh, the dealer Ts 9c. The side bet meets "suited_blackjack" (15 to 1); the dealer
has no blackjack, so "high_tie" is not met. settle() returns
    [Settlement(seat=1, spot="side", outcome="win", net=150.0, line="suited_blackjack", order=0, ...),
     Settlement(seat=1, spot="main", outcome="win", net=37.5, line="blackjack", order=1, ...)]
The natural pays 3 to 2 (settings.blackjack_pays); had the dealer held As Kd instead, the side bet
would pay "high_tie" 50 to 1 and the main wager would push.
"""

from __future__ import annotations

from .blackjack_hand import is_natural
from .high_tie_blackjack import (
    MAX_SEATS,
    PlayerHand,
    RoundError,
    compare,
    dealer_cards,
    dealer_hand,
    first_two,
    player_hands,
)
from .high_tie_settings import HighTieConfigError, Settings, side_paytable, side_paytable_names
from .high_tie_side import MANUAL_HOUSE_EDGES, needs_dealer_hand, side_odds, side_result
from .odds import WagerOdds
from .round import Outcome, Round, Wager
from .settlement import Settlement, apply_limits, win

__all__ = [
    "MANUAL_HOUSE_EDGES",
    "SPOTS",
    "HighTieConfigError",
    "RoundError",
    "Settings",
    "house_edges",
    "odds",
    "settle",
    "side_paytable",
    "side_paytable_names",
]

SPOTS: tuple[str, ...] = ("main", "side", "double", "insurance")

SIDE_RULE = {
    1: "SIDE WAGER PAYOUTS: DEFINITION, VERSION 1; PAYTABLES AND PERCENTAGES, VERSION 1",
    2: "SIDE WAGER PAYOUTS: DEFINITION, VERSION 2; PAYTABLES AND PERCENTAGES, VERSION 2",
    3: "PAYTABLES AND PERCENTAGES, VERSION 3 – Paytable",
}
ROUND_RULE = "PROCEDURES FOR COMPLETION FOR A ROUND OF PLAY (c): standard blackjack under house rules"

# Phases of the settlement sequence, in order.
_SIDE_LOSERS, _SIDE_WINNERS, _INSURANCE, _DURING_PLAY, _AFTER_DEALER = range(5)


def _check_wagers(rnd: Round) -> None:
    for i, w in enumerate(rnd.wagers):
        if w.spot not in SPOTS:
            raise RoundError(f"round {rnd.round_id}: field wagers[{i}].spot={w.spot!r} is not a High Tie "
                             f"spot ({', '.join(SPOTS)})")
        if w.seat > MAX_SEATS:
            raise RoundError(f"round {rnd.round_id}: field wagers[{i}].seat={w.seat} (High Tie has seats "
                             f"1-{MAX_SEATS})")
        if w.spot in ("side", "insurance") and w.hand != 0:
            raise RoundError(f"round {rnd.round_id}: field wagers[{i}].hand={w.hand} ({w.spot} is a "
                             "hand-0 wager)")


def _settlement(w: Wager, settings: Settings, outcome: Outcome, odds: float, line: str, rule: str,
                loss: float = 1.0) -> Settlement:
    """`odds` X to 1 on a win; `loss` the fraction lost on a loss (0.5 for a surrender)."""
    amount, violation = apply_limits(w.amount, w.spot, settings.limits)
    if outcome == "win":
        net = win(amount, odds)
    elif outcome == "lose":
        net = -round(amount * loss, 2)
    else:
        net = 0.0
    return Settlement(seat=w.seat, spot=w.spot, hand=w.hand, wagered=w.amount, amount=amount,
                      outcome=outcome, net=net, line=line, order=0, rule=rule, limit_violation=violation)


def _side_bets(rnd: Round, settings: Settings, dealer: list[str]) -> list[tuple[tuple, Settlement]]:
    table = settings.side_table()
    version = settings.side_version
    out = []
    for w in sorted((w for w in rnd.wagers if w.spot == "side"), key=lambda w: w.seat):
        player = first_two(rnd, w.seat)
        need_player = 1 if version == 2 else 2
        if len(player) < need_player:
            raise RoundError(f"round {rnd.round_id}: field cards: seat {w.seat} has {len(player)} known "
                             f"card(s); the version {version} side bet needs {need_player}")
        need_dealer = 1 if version == 2 else (2 if needs_dealer_hand(version, player) else 0)
        if len(dealer) < need_dealer:
            raise RoundError(f"round {rnd.round_id}: field cards: the dealer has {len(dealer)} known "
                             f"card(s); seat {w.seat}'s version {version} side bet needs {need_dealer}")
        line, pays = side_result(table, player, dealer[:2])
        outcome: Outcome = "lose" if line == "lose" else "win"
        phase = _SIDE_LOSERS if outcome == "lose" else _SIDE_WINNERS
        out.append(((phase, w.seat, 0, 0), _settlement(w, settings, outcome, pays, line, SIDE_RULE[version])))
    return out


def _insurance(rnd: Round, settings: Settings, dealer: list[str]) -> list[tuple[tuple, Settlement]]:
    out = []
    for w in sorted((w for w in rnd.wagers if w.spot == "insurance"), key=lambda w: w.seat):
        if dealer[0][0] != "A":
            s = _settlement(w, settings, "returned", 0, "insurance_not_offered", ROUND_RULE)
        elif is_natural(dealer[:2]):
            s = _settlement(w, settings, "win", settings.insurance_pays, "dealer_blackjack", ROUND_RULE)
        else:
            s = _settlement(w, settings, "lose", 0, "no_dealer_blackjack", ROUND_RULE)
        out.append(((_INSURANCE, w.seat, 0, 0), s))
    return out


def _hand_wagers(rnd: Round, seat: int, hands: dict[int, PlayerHand]) -> list[tuple[Wager, PlayerHand]]:
    pairs = []
    for i, w in enumerate(rnd.wagers):
        if w.seat != seat or w.spot not in ("main", "double"):
            continue
        if w.hand not in hands:
            raise RoundError(f"round {rnd.round_id}: field wagers[{i}].hand={w.hand}: seat {seat} has "
                             f"hand(s) {sorted(hands)}")
        pairs.append((w, hands[w.hand]))
    return pairs


def _blackjack_round(rnd: Round, settings: Settings, dealer: list[str]) -> list[tuple[tuple, Settlement]]:
    out = _insurance(rnd, settings, dealer)
    seats = sorted({w.seat for w in rnd.wagers if w.spot in ("main", "double")})
    wagered: list[tuple[Wager, PlayerHand]] = []
    for seat in seats:
        hands = {h.hand: h for h in player_hands(rnd, seat)}
        wagered += _hand_wagers(rnd, seat, hands)
    for w, hand in wagered:
        if not hand.cards:
            raise RoundError(f"round {rnd.round_id}: field cards: seat {w.seat} hand {w.hand} has a "
                             f"{w.spot} wager but no known cards")

    dealer_natural = is_natural(dealer[:2])
    # Late surrender: offered only after the dealer has checked for blackjack.
    surrenders = settings.surrender and not dealer_natural

    def decided_early(hand: PlayerHand) -> bool:
        return (surrenders and hand.surrendered) or hand.natural or hand.bust

    live = any(not decided_early(h) for _, h in wagered)
    final = dealer_hand(dealer, settings.dealer_hits_soft_17, live, rnd.round_id)
    for w, hand in wagered:
        spot_order = 0 if w.spot == "main" else 1
        phase = _DURING_PLAY if decided_early(hand) and not dealer_natural else _AFTER_DEALER
        key = (phase, w.seat, w.hand, spot_order)
        if surrenders and hand.surrendered and w.spot == "main":
            s = _settlement(w, settings, "lose", 0, "surrender", ROUND_RULE, loss=0.5)
        else:
            outcome, line = compare(hand, final)
            odds = settings.blackjack_pays if line == "blackjack" and w.spot == "main" else 1.0
            s = _settlement(w, settings, outcome, odds, line, ROUND_RULE)
        out.append((key, s))
    return out


def settle(round: Round, settings: Settings) -> list[Settlement]:
    """Expected settlement of every wager, in the manual's order (see the module docstring)."""
    rnd = round
    if rnd.game != "high-tie":
        raise RoundError(f"round {rnd.round_id}: field game={rnd.game!r}, expected 'high-tie'")
    _check_wagers(rnd)
    dealer = dealer_cards(rnd)
    keyed = _side_bets(rnd, settings, dealer)
    if any(w.spot != "side" for w in rnd.wagers):
        if len(dealer) < 2:
            raise RoundError(f"round {rnd.round_id}: field cards: the dealer has {len(dealer)} known "
                             "card(s), needs 2 to settle the blackjack round")
        keyed += _blackjack_round(rnd, settings, dealer)
    keyed.sort(key=lambda pair: pair[0])
    return [s.model_copy(update={"order": i}) for i, (_, s) in enumerate(keyed)]


def odds(settings: Settings) -> list[WagerOdds]:
    """Exact distribution and house edge of the side bet under the configured version, decks and table."""
    return [side_odds(settings.side_table(), settings.decks)]


# Main wager: approximate basic-strategy house edge from a standard rule-variation table (the
# widely published effects, e.g. blackjackreview.com "Blackjack Rule Variations", after Griffin and
# Wattenberger): base game six decks, double any two cards, no double after split, resplit pairs
# but not aces, dealer stands on soft 17, no surrender, 3 to 2 -> house edge 0.56 %. Each entry is
# the change in the player's expectation, in percent of the wager.
_MAIN_BASE_EDGE = 0.56
_DECK_EFFECT = {1: 0.50, 2: 0.20, 4: 0.05, 6: 0.0, 8: -0.02}
_DAS_EFFECT, _SURRENDER_EFFECT, _H17_EFFECT, _NO_RESPLIT_EFFECT = 0.14, 0.08, -0.20, -0.04
_PER_UNIT_BLACKJACK_PAY = 1.36 / 0.3  # 6 to 5 instead of 3 to 2 costs 1.36 %; linear in the payout


def main_house_edge(settings: Settings) -> float:
    player = _DECK_EFFECT[settings.decks]
    player += _DAS_EFFECT if settings.double_after_split else 0.0
    player += _SURRENDER_EFFECT if settings.surrender else 0.0
    player += _H17_EFFECT if settings.dealer_hits_soft_17 else 0.0
    player += 0.0 if settings.resplit else _NO_RESPLIT_EFFECT
    player += (settings.blackjack_pays - 1.5) * _PER_UNIT_BLACKJACK_PAY
    return (_MAIN_BASE_EDGE - player) / 100


def insurance_house_edge(settings: Settings) -> float:
    """Exact: the dealer shows an ace and nothing else is known, so the hole card is a ten with
    probability 16n / (52n - 1) for n decks (the players' cards are averaged over, not removed)."""
    n = settings.decks
    p_ten = 16 * n / (52 * n - 1)
    return 1 - (settings.insurance_pays + 1) * p_ten


def house_edges(settings: Settings) -> dict[str, float]:
    """{"side": exact, "main": basic-strategy approximation, "insurance": exact}, as fractions."""
    return {
        "side": odds(settings)[0].house_edge,
        "main": main_house_edge(settings),
        "insurance": insurance_house_edge(settings),
    }
