"""Injected dealer and player faults: what the simulator does wrong on purpose, and its labels.

Every injected fault is labelled in the ground truth (`Fault`) with its type, where it happened (seat,
spot, hand), the frames that show it and the money at stake, so the detector and the reconciliation can
be scored against it. Rates are per round and per type: with rate 0.2 for `pinch`, about one round in
five has one pinch (when the round has a losing wager to pinch).

Settlement faults (past_post, pinch, payout_error, missed_collection, procedure/settlement_order) are
planned here on the dealer's settlement sequence; deal faults (misdeal, procedure/action_without_base)
need the game's deal procedure and are applied by each game's script.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pipelines.games.round import FrameRange, Outcome
from pipelines.games.settlement import Settlement

from .scene import chips_for

FaultType = Literal["past_post", "pinch", "payout_error", "missed_collection", "misdeal", "procedure"]
FAULT_TYPES: tuple[str, ...] = (
    "past_post", "pinch", "payout_error", "missed_collection", "misdeal", "procedure",
)
# Faults that change the money the dealer moves, so an observed settlement disagrees with settle().
MONEY_FAULTS: tuple[str, ...] = ("past_post", "payout_error", "missed_collection")

# Misdeal subtypes by game: which ones the game's procedure makes possible.
MISDEALS: dict[str, tuple[str, ...]] = {
    "king-high": ("wrong_card_count",),
    "high-tie": ("dealer_card_exposed_early", "duplicate_card"),
    "3-card-monster": ("dealer_card_exposed_early", "duplicate_card"),
    "pick-2-poker": ("wrong_card_count", "dealer_card_exposed_early", "duplicate_card", "wrong_deck_back"),
}


class Fault(BaseModel):
    """One injected fault, as the ground truth labels it."""

    model_config = ConfigDict(extra="forbid")
    type: FaultType
    subtype: str = Field(description="over | under | settlement_order | action_without_base | "
                                     "wrong_card_count | dealer_card_exposed_early | duplicate_card | "
                                     "wrong_deck_back | capped_winner | pinched_loser | left_at_round_end")
    round_id: str
    seat: int | None = Field(None, ge=1, le=8)
    spot: str | None = None
    hand: int = 0
    frames: FrameRange
    amount: float = Field(0.0, description="money at stake: chips added/removed, payout difference, "
                                           "wager left, or the wager involved")
    detail: str = ""


class FaultRates(BaseModel):
    """Per-round probability of each fault type."""

    model_config = ConfigDict(extra="forbid")
    past_post: float = Field(0.0, ge=0, le=1)
    pinch: float = Field(0.0, ge=0, le=1)
    payout_error: float = Field(0.0, ge=0, le=1)
    missed_collection: float = Field(0.0, ge=0, le=1)
    misdeal: float = Field(0.0, ge=0, le=1)
    procedure: float = Field(0.0, ge=0, le=1)

    @classmethod
    def uniform(cls, rate: float) -> FaultRates:
        return cls(**{t: rate for t in FAULT_TYPES})

    @classmethod
    def of(cls, rate: float | dict[str, float] | FaultRates | None) -> FaultRates:
        if rate is None:
            return cls()
        if isinstance(rate, FaultRates):
            return rate
        if isinstance(rate, dict):
            unknown = set(rate) - set(FAULT_TYPES)
            if unknown:
                raise ValueError(f"fault rates: unknown type(s) {sorted(unknown)}; types are {FAULT_TYPES}")
            return cls(**rate)
        return cls.uniform(float(rate))

    def draw(self, rng: random.Random) -> set[str]:
        """The fault types wanted in one round (each drawn independently, always in the same order)."""
        return {t for t in FAULT_TYPES if rng.random() < getattr(self, t)}


@dataclass
class FaultDraft:
    """A fault being injected: frames are filled in while the round is animated."""

    type: str
    subtype: str
    seat: int | None = None
    spot: str | None = None
    hand: int = 0
    amount: float = 0.0
    detail: str = ""
    start: int | None = None
    end: int | None = None

    def mark(self, frame: int) -> None:
        self.start = frame if self.start is None else min(self.start, frame)
        self.end = frame if self.end is None else max(self.end, frame)

    def final(self, round_id: str) -> Fault:
        if self.start is None or self.end is None:
            raise RuntimeError(f"fault {self.type}/{self.subtype} was planned but never animated")
        return Fault(type=self.type, subtype=self.subtype, round_id=round_id, seat=self.seat,
                     spot=self.spot, hand=self.hand, frames=FrameRange(start=self.start, end=self.end),
                     amount=round(self.amount, 2), detail=self.detail)


@dataclass
class Step:
    """One wager as the dealer settles it: the expected result and what the dealer actually does."""

    expected: Settlement
    outcome: Outcome
    paid: float
    on_table: float  # chips in the betting spot when the dealer reaches it
    change_to: float | None = None  # a player changes the stack just before (past-post, pinch)
    leave: bool = False  # a losing wager the dealer fails to collect
    faults: list[FaultDraft] = field(default_factory=list)

    @property
    def key(self) -> tuple[int, str, int]:
        return (self.expected.seat, self.expected.spot, self.expected.hand)


def steps_from(settlements: list[Settlement], on_table: dict[tuple[int, str, int], float]) -> list[Step]:
    return [Step(expected=s, outcome=s.outcome, paid=s.paid,
                 on_table=on_table.get((s.seat, s.spot, s.hand), s.wagered)) for s in settlements]


def _chip_top(amount: float) -> float:
    """The smallest chip of a dealer-coloured stack of `amount`: what a pincher slides off the top."""
    return float(min(chips_for(amount, max_chips=60)))


def _chip_count(amount: float) -> int:
    return len(chips_for(amount, max_chips=60))


def plan_settlement_faults(
    rng: random.Random, wanted: set[str], phases: list[list[Step]], max_for: dict[str, float]
) -> list[FaultDraft]:
    """Choose the wagers the wanted settlement faults hit and change the dealer's steps accordingly.

    `phases` are the dealer's settlement passes (King High settles once per card); a step's order may
    only be broken within its phase. `max_for` is the table maximum per spot (a past-post stays in
    limits, so only the camera can catch it). Returns the drafts, in a fixed order.
    """
    drafts: list[FaultDraft] = []
    used: set[int] = set()
    steps = [s for phase in phases for s in phase]

    def pick(cands: list[Step]) -> Step | None:
        cands = [s for s in cands if id(s) not in used]
        if not cands:
            return None
        s = rng.choice(cands)
        used.add(id(s))
        return s

    if "past_post" in wanted:
        cands = [s for s in steps if s.outcome == "win" and s.expected.amount == s.on_table
                 and s.expected.wagered < max_for.get(s.expected.spot, 1e9) and id(s) not in used]
        rng.shuffle(cands)
        for s in cands:
            room = max_for.get(s.expected.spot, 1e9) - s.on_table
            odds = s.expected.net / s.expected.amount
            base = _base_chip(s.on_table)
            # chips a player could slip on that the dealer can pay in whole chips (3 to 2 needs even)
            options = [a for a in sorted({base, 2 * base, 3 * base, 2, 4, 10}) if a <= room
                       and abs(odds * (s.on_table + a) - round(odds * (s.on_table + a))) < 1e-9]
            if not options:
                continue
            used.add(id(s))
            added = float(rng.choice(options))
            s.change_to = s.on_table + added
            s.paid = round(odds * s.change_to, 2)
            d = FaultDraft("past_post", "capped_winner", *s.key, amount=added,
                           detail=f"wager {s.on_table:g} -> {s.change_to:g} after the outcome was visible")
            s.faults.append(d)
            drafts.append(d)
            break
    if "pinch" in wanted:
        s = pick([s for s in steps if s.outcome == "lose" and _chip_count(s.on_table) >= 2])
        if s:
            removed = _chip_top(s.on_table)
            s.change_to = s.on_table - removed
            d = FaultDraft("pinch", "pinched_loser", *s.key, amount=removed,
                           detail=f"wager {s.on_table:g} -> {s.change_to:g} before collection")
            s.faults.append(d)
            drafts.append(d)
    if "payout_error" in wanted:
        s = pick([s for s in steps if s.outcome == "win" and s.paid > 0])
        if s:
            over = s.paid < 2 or rng.random() < 0.5
            delta = float(_base_chip(s.paid)) if over else float(min(_base_chip(s.paid), s.paid - 1))
            delta = delta or 1.0
            s.paid = round(s.paid + delta if over else s.paid - delta, 2)
            d = FaultDraft("payout_error", "over" if over else "under", *s.key, amount=delta,
                           detail=f"paid {s.paid:g}, paytable says {s.expected.paid:g}")
            s.faults.append(d)
            drafts.append(d)
    if "missed_collection" in wanted:
        s = pick([s for s in steps if s.outcome == "lose"])
        if s:
            s.leave = True
            s.outcome = "push"  # to the camera, a wager left in place looks like a standoff
            d = FaultDraft("missed_collection", "left_at_round_end", *s.key, amount=s.on_table,
                           detail="losing wager not collected")
            s.faults.append(d)
            drafts.append(d)
    if "procedure" in wanted:
        d = _break_order(rng, phases)
        if d:
            drafts.append(d)
    return drafts


def _base_chip(amount: float) -> int:
    """A chip a player would plausibly add or a dealer mis-count: the largest one not above the amount."""
    for d in (100, 25, 5, 1):
        if amount >= 2 * d:
            return d
    return 1


def _break_order(rng: random.Random, phases: list[list[Step]]) -> FaultDraft | None:
    """Settle one wager too early: a winner paid before a loser is taken, or a later box first."""
    options: list[tuple[list[Step], int, int]] = []
    for phase in phases:
        for j in range(1, len(phase)):
            for i in range(j):
                if phase[i].key != phase[j].key and phase[i].expected.order < phase[j].expected.order and (
                    (phase[i].outcome == "lose" and phase[j].outcome != "lose")
                    or phase[i].expected.seat != phase[j].expected.seat
                ):
                    options.append((phase, i, j))
                    break
    if not options:
        return None
    phase, i, j = rng.choice(options)
    moved = phase.pop(j)
    phase.insert(i, moved)
    d = FaultDraft("procedure", "settlement_order", *moved.key, amount=moved.expected.wagered,
                   detail=f"settled before seat {phase[i + 1].expected.seat} {phase[i + 1].expected.spot} "
                          f"(manual order {moved.expected.order}, which comes after {phase[i + 1].expected.order})")
    moved.faults.append(d)
    return d
