"""Which manual section each check rests on, quoted by the manual's own section names."""

from __future__ import annotations

_KING_HIGH = {
    "payout": "King High manual, 8. PAYOUT ODDS",
    "limits": "King High manual, 7. PERMISSIBLE WAGERS",
    "base_wager": "King High manual, 7. PERMISSIBLE WAGERS (NOTE: action round wagering needs a "
    "Pokerpot wager)",
    "order": "King High manual, 10. PROCEDURE FOR PAYING AND TAKING WAGERS",
    "collection": "King High manual, 9. DEALING THE CARDS (remove losing wagers)",
    "protection": "King High manual, GAME PROTECTION (past posting)",
    "deal": "King High manual, 9. DEALING THE CARDS",
    "void": "King High manual, 12. IRREGULARITIES",
}
_HIGH_TIE = {
    "payout": "High Tie Blackjack, PAYTABLES AND PERCENTAGES",
    "limits": "High Tie Blackjack, WAGERS (b) the casino establishes the betting limits",
    "base_wager": "High Tie Blackjack, PLAYING THE GAME",
    "order": "High Tie Blackjack, HOW IS THE GAME DEALT (losing side bets first, then winners)",
    "collection": "High Tie Blackjack, PROCEDURES FOR COMPLETION FOR A ROUND OF PLAY",
    "protection": "High Tie Blackjack, PROCEDURES FOR COMPLETION FOR A ROUND OF PLAY (a)",
    "deal": "High Tie Blackjack, HOW IS THE GAME DEALT",
    "void": "High Tie Blackjack, PROCEDURES FOR COMPLETION FOR A ROUND OF PLAY",
}
_MONSTER = {
    "payout": "3 Card Monster, Dealer Procedures 5 (payout on or collect)",
    "limits": "3 Card Monster, Dealer Procedures 1 (wagers)",
    "base_wager": "3 Card Monster, Dealer Procedures 1 (Ante and 3 Card Monster required)",
    "order": "3 Card Monster, Dealer Procedures 4-5 (folds first; position six to one; Play, Ante, "
    "3 Card Monster, then Royal Family)",
    "collection": "3 Card Monster, Dealer Procedures 4-5 (collect losing wagers)",
    "protection": "3 Card Monster, Dealer Procedures 1 and 4",
    "deal": "3 Card Monster, Dealer Procedures 2 (3-card dealer packet, 4-card player packets)",
    "dealer_exposed": "3 Card Monster, Dealer Procedures 5A (dealer exposes after all decisions)",
    "void": "3 Card Monster, Dealer Procedures",
}
_PICK2 = {
    "payout": "Pick 2 Poker, PLAYING THE GAME and 3-5 Bonus Wager pay tables",
    "limits": "Pick 2 Poker, WAGERS (a)",
    "base_wager": "Pick 2 Poker, PLAYING THE GAME (3-5 Bonus and Ante required, equal)",
    "order": "Pick 2 Poker, PROCEDURES FOR COMPLETION FOR A ROUND OF PLAY (b)",
    "collection": "Pick 2 Poker, PROCEDURES FOR COMPLETION FOR A ROUND OF PLAY (c)",
    "protection": "Pick 2 Poker, PROCEDURES FOR COMPLETION FOR A ROUND OF PLAY (a)",
    "deal": "Pick 2 Poker, IRREGULARITIES (b) incorrect number of cards",
    "dealer_exposed": "Pick 2 Poker, IRREGULARITIES (c) dealer's cards exposed",
    "duplicate": "Pick 2 Poker, HOW IS THE GAME DEALT (single 52-card deck)",
    "deck_back": "Pick 2 Poker, Automatic Shuffle Machine (c) decks alternate every other round",
    "void": "Pick 2 Poker, IRREGULARITIES",
}
CITATIONS: dict[str, dict[str, str]] = {
    "king-high": _KING_HIGH, "high-tie": _HIGH_TIE, "3-card-monster": _MONSTER, "pick-2-poker": _PICK2,
}


def cite(game: str, concern: str) -> str:
    table = CITATIONS.get(game, {})
    if concern in table:
        return table[concern]
    if concern in ("duplicate", "deck_back", "dealer_exposed") and "deal" in table:
        return table["deal"]
    return f"{game}: {concern}"
