"""The round document: what happened at a table in one round of play.

One shape serves every producer and consumer: the simulator writes it as ground truth, `rounds/`
reconstructs it from video, `reconcile/` settles it with the games core and compares, `store/` keeps it.
Its JSON Schema (`schemas/round.schema.json`) is generated from these models.

Conventions
- Seats are numbered from 1 as the manual numbers positions (King High "boxes", blackjack "betting
  positions"); 0 is the dealer/house.
- Amounts are in table currency units (dollars), floats rounded to cents.
- `hand` on a wager: 0 for the round-level wager; blackjack split hands 1, 2, ...; King High action
  wagers carry the action round (card number 1-5) they ride on.
- A card's `owner` is "dealer", "seat:N" (blackjack split hands "seat:N.H"), "board" (King High's drawn
  cards, in order), "burn" or "discard".
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

GameId = Literal["king-high", "high-tie", "3-card-monster", "pick-2-poker"]
GAME_IDS: tuple[str, ...] = ("king-high", "high-tie", "3-card-monster", "pick-2-poker")

Outcome = Literal["win", "lose", "push", "returned"]
"""returned: handed back as if never placed (Play against a non-qualifying dealer, void rounds)."""

EventType = Literal[
    "bets_closed",
    "card_dealt",
    "card_exposed",
    "wager_placed",
    "wager_changed",
    "decision",
    "payout_placed",
    "wager_collected",
    "wager_returned",
    "round_voided",
    "round_complete",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


class FrameRange(_Model):
    start: int = Field(ge=0)
    end: int = Field(ge=0)


class Wager(_Model):
    seat: int = Field(ge=1, le=8)
    spot: str = Field(description="game-specific wager name, e.g. pokerpot, high, ante, play, main, side")
    amount: float = Field(ge=0)
    hand: int = Field(0, ge=0, description="0 round-level; split hand index; King High action round 1-5")
    choice: str | None = Field(None, description="a chosen option, e.g. the suit of a King High suit bet")
    frames: FrameRange | None = None
    uncertain: bool = Field(False, description="an observation below the detector's confidence touched it")


class DealtCard(_Model):
    seq: int = Field(ge=0, description="deal order within the round")
    owner: str = Field(description="dealer | seat:N | seat:N.H | board | burn | discard")
    card: str | None = Field(None, description="rank+suit, e.g. Ah; None while unseen (face down)")
    face_up: bool = True
    back: str | None = Field(None, description="back colour, for two-deck rotations")
    frame: int | None = None
    uncertain: bool = False


class Decision(_Model):
    seat: int = Field(ge=1, le=8)
    hand: int = 0
    action: str = Field(
        description="fold | play | play3 | play5 | hit | stand | double | split | surrender | insurance"
    )
    cards: list[str] | None = Field(None, description="cards the player chose to play (Pick 2 Poker)")
    seq: int = 0
    frame: int | None = None


class ObservedSettlement(_Model):
    """What the dealer actually did with one wager."""

    seat: int = Field(ge=1, le=8)
    spot: str
    hand: int = 0
    outcome: Outcome
    paid: float = Field(0.0, ge=0, description="chips paid to the player beside the wager (0 unless won)")
    seq: int = Field(0, description="order in which the dealer settled it")
    frames: FrameRange | None = None
    uncertain: bool = False


class TableEvent(_Model):
    seq: int = Field(ge=0)
    type: EventType
    frame: int = Field(ge=0)
    seat: int | None = None
    spot: str | None = None
    hand: int = 0
    before: float | None = None
    after: float | None = None
    card: str | None = None
    owner: str | None = None
    uncertain: bool = False


class VoidInfo(_Model):
    reason: str = Field(description="e.g. shuffler_failure, no_shuffle_after_cut, face_up_card_in_deck")
    after_cards: int = Field(ge=0, description="cards exposed before the round was voided")
    frame: int | None = None


class Round(_Model):
    schema_version: Literal[1] = 1
    game: GameId
    table_id: str
    round_id: str
    started_at: str = Field(description="ISO 8601 time the round began (bets open)")
    ended_at: str | None = None
    dealer_id: str | None = None
    frames: FrameRange | None = None
    wagers: list[Wager] = Field(default_factory=list)
    cards: list[DealtCard] = Field(default_factory=list)
    decisions: list[Decision] = Field(default_factory=list)
    settlements: list[ObservedSettlement] = Field(default_factory=list)
    events: list[TableEvent] = Field(default_factory=list)
    void: VoidInfo | None = None
    status: Literal["complete", "incomplete", "voided"] = "complete"
    notes: list[str] = Field(default_factory=list, description="why a round is incomplete or uncertain")

    def cards_of(self, owner: str) -> list[str]:
        """Known cards of one owner in deal order."""
        return [c.card for c in sorted(self.cards, key=lambda c: c.seq) if c.owner == owner and c.card]

    def seats(self) -> list[int]:
        return sorted({w.seat for w in self.wagers})

    def wager(self, seat: int, spot: str, hand: int = 0) -> Wager | None:
        for w in self.wagers:
            if w.seat == seat and w.spot == spot and w.hand == hand:
                return w
        return None


def round_id_for(table_id: str, started_at: str) -> str:
    """Deterministic id: a replayed or redelivered round overwrites the same rows."""
    import hashlib

    return hashlib.sha1(f"{table_id}|{started_at}".encode()).hexdigest()[:16]
