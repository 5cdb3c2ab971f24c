"""What a round machine holds while a round is open: the round seen so far (`LiveRound`), the doubt on a zone's
present reading (`ZoneDoubt`) and each wager as reconstructed (`WagerSeen`), with the notes that doubt a wager."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pipelines.games.round import Wager
from pipelines.vision.observe import ZoneState

from .timeline import CardZone, ChipInstance, ChipZone, Slot


@dataclass
class LiveRound:
    """Everything seen in the round being played."""

    start: int
    cards: dict[str, CardZone] = field(default_factory=dict)
    chips: dict[str, ChipZone] = field(default_factory=dict)
    states: dict[str, ZoneState] = field(default_factory=dict)
    last: int = 0
    cleared: int | None = None  # first frame with no card left on the layout
    notes: list[str] = field(default_factory=list)
    first_is_card: bool = False
    doubts: dict[str, ZoneDoubt] = field(default_factory=dict)  # zone -> the doubt on its present state
    # card area -> notes on its earlier doubtful readings, read confidently since but not yet with every card
    # dealt there in view (a hand over one of them): settled once they all are (RoundMachine._cards_sure)
    unsettled: dict[str, list[str]] = field(default_factory=dict)
    laid_more: dict[str, float] = field(default_factory=dict)  # zone -> its total as laid (RoundMachine._laid_as)
    # (frame, zone) of each stack read as its total as laid again, after it was confirmed as less (`laid_more`)
    read_whole: list[tuple[int, str]] = field(default_factory=list)

    @property
    def slots(self) -> list[Slot]:
        return sorted((s for z in self.cards.values() for s in z.slots), key=lambda s: s.seq)

    def wager_placed_at(self, paid_zone: str) -> int | None:
        """The frame a stack was first read this round on the spot payout zone `paid_zone` (`X.paid`) pays; None for
        another zone, or a spot that held none."""
        wager = self.chips.get(paid_zone.removesuffix(".paid")) if paid_zone.endswith(".paid") else None
        return min((i.start for i in wager.instances), default=None) if wager is not None else None

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

@dataclass
class ZoneDoubt:
    """A zone's present state was confirmed with doubt."""

    note: str  # the round's note on it
    before: ZoneState  # the state before it, and what the zone's cards were then (RoundMachine._doubt_undone)
    trace: tuple
    # notes on earlier doubtful states of the zone, each replaced by the next doubtful one before it was read
    # confidently (RoundMachine._cards_sure)
    earlier: list[str] = field(default_factory=list)

@dataclass
class WagerSeen:
    """One wager as reconstructed: its stack, where it is paid, and what happened to it."""

    wager: Wager
    inst: ChipInstance
    lock: int  # the frame its amount was locked
    paid_zone: str
    outcome: str | None = None
    paid: float = 0.0
    settled_at: int | None = None
    settle_end: int | None = None
    uncertain: bool = False
    moved_at: int | None = None  # a frame the wager was read as more than it is while its payout was laid
    moved_to: float = 0.0  # ... and what it was read as then
    hidden_at: int | None = None  # the frame the wager was read as less than it is, to stay, as its payout was laid
    payout: ChipInstance | None = None
    shrank_at: int | None = None  # the frame its payout fell from a short-lived peak (`_payout_shrank`)
    # the frame its payout showed, where that payout is what the rules pay: its readings from then are no fact of the
    # round (`_paid_wagers_read_later`)
    paid_as_rules_from: int | None = None
    # its amount is what the wager the rules tie it to says, not what it was read as (3 Card Monster's Ante and Play,
    # `ThreeCardMonsterMachine._tie_ante_and_play`)
    tied: bool = False

    @property
    def key(self) -> tuple[int, str, int]:
        return (self.wager.seat, self.wager.spot, self.wager.hand)

    def rises(self) -> list[tuple[int, float]]:
        """(frame, total) of each reading above the amount locked, after it was locked (back to that amount after a
        dip is no rise), and before a payout the rules' amount showed (`paid_as_rules_from`)."""
        end = self.paid_as_rules_from if self.paid_as_rules_from is not None else math.inf
        return [(f, after) for f, _, after in self.inst.changes_after(self.lock)
                if after > self.wager.amount + 0.005 and f < end]

    def falls(self) -> list[tuple[int, float]]:
        """(frame, total) of each reading below the amount locked but not empty, after it was locked and before it
        was settled, never read as locked again before then (a dip under the hand is no fall)."""
        end = self.settled_at if self.settled_at is not None else math.inf
        changes = [(f, after) for f, _, after in self.inst.changes_after(self.lock) if f < end]
        back = [f for f, after in changes if after >= self.wager.amount - 0.005]
        return [(f, after) for f, after in changes
                if 0 < after < self.wager.amount - 0.005 and not any(b > f for b in back)]


def _about(ws: WagerSeen) -> str:
    """How the round's notes name a wager."""
    return f"seat {ws.key[0]} {ws.key[1]} (hand {ws.key[2]})"


def _doubted(live: LiveRound, ws: WagerSeen) -> bool:
    """The round's notes already doubt this wager (`_doubt_wager`)."""
    return any(n.startswith(f"{_about(ws)}: ") for n in live.notes)


def _doubt_wager(live: LiveRound, ws: WagerSeen, why: str) -> None:
    """The wager's facts are not sure: flag it, and say why in the round's notes."""
    ws.uncertain = True
    live.note(f"{_about(ws)}: {why}")


def _observation_note(zone: str, frame: int | str) -> str:
    """The head of the note on a zone's reading confirmed with doubt (`RoundMachine._apply`)."""
    return f"uncertain observation in {zone} at frame {frame}"


def _observation_frame(note: str, zone: str) -> int | None:
    """The frame of an `_observation_note` about `zone`, else None."""
    head = _observation_note(zone, "")
    if not note.startswith(head):
        return None
    digits = note[len(head):].split(":", 1)[0]
    return int(digits) if digits.isdigit() else None
