"""The blackjack round of High Tie Blackjack: hands from a round document, the dealer's hand under
the house rules, and the main / double / insurance outcomes.

The manual defers the round itself to the house ("When all side wagers are settled, the dealer
continues to deal a standard blackjack round", Procedures for Completion for a Round of Play (c));
the house rules are table settings (RULES.md). Conventions read from the round document:
- a seat's cards are owned "seat:N" before a split and "seat:N.H" (H = 1, 2, ...) after it; if the
  two original cards were left as "seat:N", the first goes to hand 1 and the second to hand 2;
- the dealer's cards are owned "dealer" in deal order; the first is the up card, the second the hole
  card (American hole-card deal: the dealer checks for blackjack before the players act);
- the dealer's hand is the cards the house rule makes the dealer take: drawing stops at 17 (or at a
  hard 17 / soft 18 when the dealer hits soft 17) and cards past that point are not counted.
"""

from __future__ import annotations

from dataclasses import dataclass

from .blackjack_hand import is_natural, total
from .round import Round

MAX_SEATS = 6


class RoundError(ValueError):
    """A round document that cannot be settled as High Tie Blackjack."""


@dataclass(frozen=True)
class PlayerHand:
    seat: int
    hand: int  # 0 before any split, 1, 2, ... after
    cards: tuple[str, ...]
    surrendered: bool

    @property
    def natural(self) -> bool:
        # Two-card 21 after a split is an ordinary 21, not a blackjack.
        return self.hand == 0 and is_natural(self.cards)

    @property
    def bust(self) -> bool:
        return total(self.cards).bust


def seat_of_owner(owner: str) -> tuple[int, int] | None:
    """"seat:3" -> (3, 0), "seat:3.2" -> (3, 2); anything else -> None."""
    if not owner.startswith("seat:"):
        return None
    seat_text, _, hand_text = owner[5:].partition(".")
    try:
        return int(seat_text), int(hand_text) if hand_text else 0
    except ValueError:
        return None


def seat_cards(rnd: Round, seat: int) -> list[tuple[int, int, str]]:
    """(seq, hand, card) of a seat's known cards in deal order."""
    out = []
    for c in sorted(rnd.cards, key=lambda c: c.seq):
        where = seat_of_owner(c.owner)
        if where and where[0] == seat and c.card:
            out.append((c.seq, where[1], c.card))
    return out


def first_two(rnd: Round, seat: int) -> list[str]:
    """The player's first two cards: the two lowest-seq cards among "seat:N" and "seat:N.*"."""
    return [card for _, _, card in seat_cards(rnd, seat)[:2]]


def dealer_cards(rnd: Round) -> list[str]:
    return rnd.cards_of("dealer")


def player_hands(rnd: Round, seat: int) -> list[PlayerHand]:
    cards = seat_cards(rnd, seat)
    split_hands = sorted({h for _, h, _ in cards if h > 0}
                         | {w.hand for w in rnd.wagers if w.seat == seat and w.spot == "main" and w.hand > 0})
    surrendered = {d.hand for d in rnd.decisions if d.seat == seat and d.action == "surrender"}
    if not split_hands:
        return [PlayerHand(seat, 0, tuple(c for _, _, c in cards), 0 in surrendered)]
    originals = [c for _, h, c in cards if h == 0]
    if len(originals) > 2:
        raise RoundError(f"round {rnd.round_id}: seat {seat} was split but owner 'seat:{seat}' holds "
                         f"{len(originals)} cards ({', '.join(originals)}); expected at most 2")
    hands = []
    for h in split_hands:
        own = [c for _, hh, c in cards if hh == h]
        if h <= len(originals):
            own = [originals[h - 1], *own]
        hands.append(PlayerHand(seat, h, tuple(own), h in surrendered))
    return hands


def dealer_hand(cards: list[str], hits_soft_17: bool, must_draw: bool, round_id: str) -> list[str]:
    """The cards that make up the dealer's hand under the house rule.

    `must_draw` is False when no player hand is still live (all busted, surrendered or naturals):
    the dealer then stands on the first two cards.
    """
    if len(cards) < 2:
        raise RoundError(f"round {round_id}: field cards: the dealer has {len(cards)} known card(s), "
                         "needs 2 to settle the blackjack round")
    hand = cards[:2]
    if is_natural(hand) or not must_draw:
        return hand
    rest = iter(cards[2:])
    while True:
        t = total(hand)
        if t.value > 17 or (t.value == 17 and not (t.soft and hits_soft_17)):
            return hand
        nxt = next(rest, None)
        if nxt is None:
            rule = "hits soft 17" if hits_soft_17 else "stands on soft 17"
            raise RoundError(f"round {round_id}: field cards: the dealer's hand ends at "
                             f"{'soft ' if t.soft else ''}{t.value} ({', '.join(hand)}); a dealer who "
                             f"{rule} must draw another card")
        hand.append(nxt)


def compare(player: PlayerHand, dealer: list[str]) -> tuple[str, str]:
    """(outcome, line) of a hand's main wager against the dealer's final hand."""
    dealer_natural = is_natural(dealer)
    if player.natural:
        return ("push", "blackjack_push") if dealer_natural else ("win", "blackjack")
    if dealer_natural:
        return "lose", "dealer_blackjack"
    if player.bust:
        return "lose", "bust"
    d = total(dealer)
    if d.bust:
        return "win", "dealer_bust"
    p = total(player.cards).value
    if p > d.value:
        return "win", "higher_total"
    if p < d.value:
        return "lose", "lower_total"
    return "push", "tie"
