"""The state machine every game shares: confirmed zone changes in frame order -> rounds and table events.

A round opens with the first stack or card on an empty table and closes when every card area and
every betting spot is empty again (the dealer cleared the layout). While it is open the machine only
records what each zone held (`timeline`); when it closes, the game machine reads that record:

- bets close at the first card of the round (King High: of each action round);
- a wager is what stood in its spot when bets closed (a Play, Double or split wager: when placed);
  later rises and falls are `wager_changed` events (past-posting, pinching);
- settlement per wager, in the order seen: a payout beside it is a win (the amount paid), the stack
  taken while cards are still out is a loss (or a return, where the game says the wager is returned),
  a stack left until the table is cleared is a push;
- decisions come from the cards and the action spots (per game).

Anything that does not add up makes the round `incomplete` with a note, never a confident wrong answer.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any

from pipelines.games.layout import layout_for
from pipelines.games.registry import game_module
from pipelines.games.round import (
    DealtCard,
    Decision,
    FrameRange,
    ObservedSettlement,
    Round,
    TableEvent,
    Wager,
    round_id_for,
)
from pipelines.games.settlement import Settlement
from pipelines.vision.cover import CoverLog
from pipelines.vision.observe import ZoneChange, ZoneState
from pipelines.vision.track import (
    RESTLESS_CHIPS,
    UNSTEADY_STACK,
    payout_read_larger,
    read_larger_briefly,
    read_less_steadily,
)
from pipelines.vision.zones import polygon_gap_mm

from .timeline import STAGE_FRAMES, CardZone, ChipInstance, ChipZone, Slot
from .zone_names import ZoneRef, parse_zone

PAYOUT_LAG_S = 0.8  # a payout is first seen this long after it was placed (under the dealer's hand)
SAME_TIME_S = 0.45  # settlements closer than this are in no visible order
# A stack grows only with a hand over it (the `CoverLog`) at most this long before: over twelve held-out video sets
# (GG-RR, `benchmarks/payout_growth.py`), 73 payouts grew as the hand left them, all within 0.8 s of it; 5 grew with
# no hand over them for 1.0 s or more, each a box that was no chip. (With `zones.IRREGULAR_STEPS` since, over thirteen
# sets GG-SS: 76 within 0.8 s, 5 no-chip at 1.3 s or more; the 1.0 s box is now read with doubt and does not confirm.)
CHIPS_ADDED_S = 0.9
# A payout's short-lived peak reading held this long with no hand over its spot was no hand read as chips
# (`RoundMachine._hand_over_peak`).
PEAK_UNHANDED_S = 0.5
TRANSIT_S = 0.5  # a stack in a paid spot no longer than this, as the payout lands beside it, was that payout in passing
# A round first seen this soon after frames a live camera lost may have begun among them (the tracker dates a
# change to the first frame it is seen, and confirms it over a few more).
MISSED_GRACE_S = 1.0
# A card area read with doubt as holding a card never read, neither face nor back, back as it was within this long:
# no card was there (`RoundMachine._unread_cards_gone`). A card really dealt stays until the clearing.
UNREAD_GONE_S = 2.0
# A wager's fall after its lock to a total first read this long before: the two were read by turns, no chips were
# seen taken (`_doubt_falls_read_before`); a hand over the stack as it is pinched reads it low just before.
FALL_READ_BEFORE_S = 1.0
# ... and held this long before the stack was settled or went: read low only as the hand came to pay or take it, it
# was under the hand (perfect observations, Pick 2: a $150 Play read $125 by turns, then for good four frames before
# it was taken; King High: a $20 High Run read $15 from nine frames before its payout).
FALL_HELD_S = 2.0
# A stack on a spot no longer than this, less than the one gone from it at most this long before, was that one seen
# in part as a hand left it (`ChipInstance.remnant_of`): a wager taken after bets closed (`_drop_remnants`), a payout
# (`_settle`), or one between two spells under the hand (`ChipZone.merge_gaps`).
REMNANT_S = 1.0
# A stack is taken by a hand: one gone from view with no hand over its spot for this long before was not seen taken
# (`RoundMachine._doubt_gone_unhanded`). Over nine stored video sets and half a tenth (3,580 wagers seen gone while play
# was on; a one-off probe), all but four had the hand over their spot within 0.5 s of going (3,571 in that very frame);
# the four, 1.3-1.9 s after the hand, lay in rounds read wrong: three wagers that were none (a payout's chips read in
# other spots) and a loser the dealer never collected.
UNHANDED_GONE_S = 1.0
BESIDE_CARDS_MM = 25.0  # a betting spot this close to its seat's card area has chips on the cards' edge
DEFAULT_SESSION_START = datetime(2025, 1, 6, 20, 0, 0, tzinfo=UTC)  # the simulator's session start


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
    hidden_at: int | None = None  # the frame the wager was read as less than it is, to stay, as its payout was laid
    payout: ChipInstance | None = None
    shrank_at: int | None = None  # the frame its payout fell from a short-lived peak (`_payout_shrank`)

    @property
    def key(self) -> tuple[int, str, int]:
        return (self.wager.seat, self.wager.spot, self.wager.hand)

    def rises(self) -> list[tuple[int, float]]:
        """(frame, total) of each reading above the amount locked, after it was locked (back to that amount after a
        dip is no rise)."""
        return [(f, after) for f, _, after in self.inst.changes_after(self.lock) if after > self.wager.amount + 0.005]

    def falls(self) -> list[tuple[int, float]]:
        """(frame, total) of each reading below the amount locked but not empty, after it was locked and before it
        was settled, never read as locked again before then (a dip under the hand is no fall)."""
        end = self.settled_at if self.settled_at is not None else math.inf
        changes = [(f, after) for f, _, after in self.inst.changes_after(self.lock) if f < end]
        back = [f for f, after in changes if after >= self.wager.amount - 0.005]
        return [(f, after) for f, after in changes
                if 0 < after < self.wager.amount - 0.005 and not any(b > f for b in back)]


def _confirmed(ch: ZoneChange) -> bool:
    """The tracker now reads confidently what it had confirmed with doubt (nothing else changed)."""
    return ch.before.uncertain and not ch.after.uncertain and replace(ch.before, uncertain=False) == ch.after


class RoundMachine:
    """Base of the per-game machines. Feed it the tracker's changes; it returns finished rounds."""

    game: str = ""
    round_spots: tuple[str, ...] = ()  # spots wagered before the deal; others are placed during play
    cards_in_table_order = False  # cards first seen together keep the order they lie in (rows dealt left to right)
    cards_stay = True  # a dealt card stays in its area until the clearing (King High moves them on)
    # A card may be dealt over the one before it (High Tie's hits, cascaded): a new identity read away from where a
    # hidden known card lay is one more card, not that card read again (`CardZone.update`).
    cards_dealt_over = False
    seat_cards: int | None = None  # cards dealt to each seat, where the game fixes it (not with hits or splits)

    def __init__(self, table_id: str, settings: Any | None = None, *, fps: float = 10.0,
                 session_start: datetime | None = None, dealer_id: str | None = None,
                 cover: CoverLog | None = None) -> None:
        if fps <= 0:
            raise ValueError(f"fps must be positive, got {fps}")
        self.table_id = table_id
        self.module = game_module(self.game)
        self.settings = settings if settings is not None else self.module.Settings()
        self.fps = float(fps)
        self.session_start = session_start or DEFAULT_SESSION_START
        self.dealer_id = dealer_id
        # Where the dealer's hand lay, frame by frame (`pipelines/vision/cover.py`): it orders settlements the
        # chips alone cannot (`_under_the_hand`). None: not known (no empty-table reference).
        self.cover = cover
        self.live: LiveRound | None = None
        self.states: dict[str, ZoneState] = {}
        self.rounds_done = 0
        self._beside_cards = spots_beside_cards(self.game)
        # pairs of settlements put in the manual's order against the times seen (see _in_dealer_order)
        self._assumed_order: list[tuple[tuple[int, str, int], tuple[int, str, int]]] = []
        # pairs put in the manual's order because a payout was laid out of view (see _laid_unseen_from)
        self._unseen_order: list[tuple[tuple[int, str, int], tuple[int, str, int]]] = []
        self._tangled_order = False  # the rules ordering settlements never agreed (see _in_dealer_order)
        self._missed: tuple[int, str] | None = None  # frames lost while no round was open: (last, note)

    # ------------------------------------------------------------------------------- feeding

    def feed(self, changes: Iterable[ZoneChange]) -> list[Round]:
        """Apply one batch of confirmed changes (one tracker update); returns rounds that ended."""
        out: list[Round] = []
        for ch in sorted(changes, key=lambda c: (c.frame, c.zone)):
            self.states[ch.zone] = ch.after
            if self.live is None:
                if ch.after.empty:
                    continue
                self.live = LiveRound(start=ch.frame, last=ch.frame)
                self.live.first_is_card = bool(ch.after.cards)
                if self._missed is not None and ch.frame <= self._missed[0] + MISSED_GRACE_S * self.fps:
                    self.live.note(self._missed[1])
                self._missed = None
            self._apply(self.live, ch)
        if self.live is not None and self._table_empty():
            out.append(self._close(self.live))
            self.live = None
        return out

    def frames_missed(self, first: int, last: int) -> None:
        """Frames `first`..`last` of a live camera were never analysed (the analysis had fallen behind it, or the
        camera sent none): the round open then, or one opening just after (its start may have been among
        them), did things that were not seen."""
        note = (f"frames {first}-{last} were not analysed (the analysis fell behind the camera, or the camera "
                "sent none): anything done then is unknown")
        if self.live is not None:
            self.live.note(note)
        else:
            self._missed = (last, note)

    def finish(self) -> list[Round]:
        """The video ended: close the open round (incomplete unless the table was cleared)."""
        if self.live is None:
            return []
        live, self.live = self.live, None
        if not self._table_empty():
            live.note("the video ended before the table was cleared")
        return [self._close(live)]

    def _table_empty(self) -> bool:
        return all(s.empty for s in self.states.values())

    def _apply(self, live: LiveRound, ch: ZoneChange) -> None:
        ref = parse_zone(ch.zone)
        live.last = max(live.last, ch.frame)
        live.states[ch.zone] = ch.after
        doubt = live.doubts.pop(ch.zone, None)
        # Same contents, now read confidently, or a doubtful total corrected: the doubt about them is gone.
        if _confirmed(ch) or ch.after.corrects:
            if doubt is not None and doubt.note in live.notes:
                live.notes.remove(doubt.note)
            if ch.zone in live.chips:
                if ch.after.corrects:
                    live.chips[ch.zone].confirm(ch.after.chip_total, ch.after.first_read)
                else:
                    live.chips[ch.zone].confirm()
            self._cards_sure(live, ch.zone, self.card_state(ref, ch.after), doubt.earlier if doubt else [])
            return
        earlier = list(doubt.earlier) if doubt is not None else []
        if doubt is not None and doubt.note in live.notes:
            earlier.append(doubt.note)
        if ch.after.uncertain:
            note = _observation_note(ch.zone, ch.frame)
            note += f": {ch.after.doubt}" if ch.after.doubt else ""
            live.note(note)
            live.doubts[ch.zone] = ZoneDoubt(note, ch.before, self._cards_trace(live, ch.zone), earlier)
        if ref.area in ("bet", "paid"):
            laid = self._laid_as(live, ch)
            if laid:
                live.laid_more[ch.zone] = laid
            elif ch.before.chip_total and abs(ch.after.chip_total - live.laid_more.get(ch.zone, -1.0)) < 0.005:
                live.read_whole.append((ch.frame, ch.zone))
            total = laid or ch.after.chip_total
            live.chips.setdefault(ch.zone, ChipZone(ch.zone)).update(ch.frame, total, ch.after.uncertain,
                                                                     ch.after.hidden_room, ch.after.first_read,
                                                                     ch.after.reach_into, ch.after.read_surely,
                                                                     ch.after.read_surely_at)
        if ref.area in ("cards", "dealer", "board") and ref.sub not in ("tray", "shoe"):
            state = self.card_state(ref, ch.after)
            zone = live.cards.setdefault(ch.zone, CardZone(ch.zone))
            # after the last card dealt: a card read twice may have been dropped (`CardZone._drop_read_over`)
            next_seq = 1 + max((s.seq for z in live.cards.values() for s in z.slots), default=-1)
            zone.update(ch.frame, state, next_seq=next_seq,
                        table_order=self.cards_in_table_order, rereads=self.cards_stay,
                        dealt_over=self.cards_dealt_over)
            if any(live.states[n].cards for n in live.cards if n in live.states):
                live.cleared = None
            elif live.slots and live.cleared is None:
                live.cleared = ch.frame
            if not ch.after.uncertain:
                self._cards_sure(live, ch.zone, state, earlier)
        if doubt is not None and _laid_while_restless(ch, doubt):
            live.chips[ch.zone].laid_before(ch.frame)
            if doubt.note in live.notes:
                live.notes.remove(doubt.note)
        if doubt is not None and doubt.note in live.notes:
            if self._doubt_undone(live, ch, doubt):
                live.notes.remove(doubt.note)
            elif not ch.after.uncertain and _part_of(ch.after, doubt.before):
                live.doubts[ch.zone] = doubt  # the hand still over the rest: what it shows next may undo the doubt

    @staticmethod
    def _laid_as(live: LiveRound, ch: ZoneChange) -> float:
        """The total a wager was read as, surely, as it was laid, where it is confirmed as less once another stack lies
        against it and a chip missed could lie under that stack's chip (`ZoneState.read_more`); else 0. A chip of it
        went under the stack laid beside it (a King High $2 High read $2 as it was laid, then $1 for good once a $20
        Seven was laid against it). The sure reading as laid was right in each of the five such wagers on the
        thirty-ninth and fortieth sessions' fresh sets (the lower one in none). A payout is left to the rules' amount:
        the dealer's hand over one as it is laid is read as chips."""
        if parse_zone(ch.zone).area != "bet" or ch.after.read_more <= ch.after.chip_total or ch.after.uncertain:
            return 0.0
        live.note(f"inferred: {ch.zone} at frame {ch.frame}: read as {ch.after.read_more:g}, surely, as it was laid, "
                  f"then as {ch.after.chip_total:g} beside another stack: a chip of it lies under that stack")
        return ch.after.read_more

    def _cards_sure(self, live: LiveRound, zone: str, shown: ZoneState, earlier: list[str]) -> None:
        """A card area read confidently: the cards in view are sure. With every card dealt there in view and
        sure, the doubts on its earlier readings are settled too (a card read as Qh, then Qd, while more cards
        arrived; a card under the dealer's hand read as an unreadable face, then read again as the next card
        lands); until then they wait in `live.unsettled` (one card under the hand as the others are read).
        A chip zone's earlier doubts stay: what it read meanwhile stays in its stack's steps."""
        cards = live.cards.get(zone)
        if cards is None:
            return
        cards.confirm(shown)
        dealt = self.seat_cards if parse_zone(zone).area == "cards" else None
        for card, frame in cards.drop_rereads(shown, dealt) if dealt else []:
            live.note(f"inferred: {zone}: the {card} read with doubt at frame {frame} was a card in view read "
                      f"again: {dealt} cards are dealt to a seat and all {dealt} were read surely")
        earlier = earlier + live.unsettled.pop(zone, [])
        if len(cards.present) == len(shown.cards) and not any(s.uncertain for s in cards.present):
            live.notes[:] = [n for n in live.notes if n not in earlier]
        elif waiting := [n for n in earlier if n in live.notes]:
            live.unsettled[zone] = waiting

    @staticmethod
    def _cards_trace(live: LiveRound, zone: str) -> tuple:
        return _trace(live.cards[zone].slots) if zone in live.cards else ()

    def _doubt_undone(self, live: LiveRound, ch: ZoneChange, doubt: ZoneDoubt) -> bool:
        """A zone read with doubt and then confidently as it was before, with no card dealt or turned in between, or
        only cards never read that are gone again (`_unread_cards_gone`), also where the area came back into view a card
        at a time (`_part_of`): the doubtful spell changed nothing (a hand over the dealer's face-down card read as an
        unreadable face). What a chip zone read meanwhile stays in its stack's steps, and doubts there
        (`_doubt_stacks_read_unsure`). A payout in doubt for a sure reading larger than its confirmed total
        (`PAYOUT_READ_LARGER`) and then confirmed as that larger total is answered too: the chip feared unseen was there
        (a 3 Card Monster $30 Play payout confirmed as $25 under the dealer's hand, read $30 surely once as the hand
        lifted, then confirmed $30)."""
        if ch.after.uncertain:
            return False
        if ch.before.doubt.endswith(payout_read_larger(ch.after.chip_total)):
            return True
        if ch.after != doubt.before:
            return False
        return self._cards_trace(live, ch.zone) == doubt.trace or self._unread_cards_gone(live, ch, doubt)

    def _unread_cards_gone(self, live: LiveRound, ch: ZoneChange, doubt: ZoneDoubt) -> bool:
        """A card area read as it was before its doubtful spell, whose only new slots since are cards never read,
        neither face nor back, first seen within `UNREAD_GONE_S`: those were no cards, so their slots go (with a
        note saying so). The detector read the dealer's white cuff at a High Tie seat's box as a card below its
        confidence for six frames, which the card classifier could not read; the seat had no wager and was dealt
        nothing. A card really dealt there stays in view until the clearing, where it is read; one hidden as long
        and seen again is a card in view again (`CardZone.update`). One read so until the clearing took it stays in
        doubt: `UNREAD_GONE_S` bounds the spell."""
        cards = live.cards.get(ch.zone)
        if cards is None or len(cards.slots) <= len(doubt.trace):
            return False
        kept, extra = cards.slots[:len(doubt.trace)], cards.slots[len(doubt.trace):]
        if (_trace(kept) != doubt.trace or len(kept) < cards.moved_on
                or not all(s.card is None and s.back is None and s.uncertain for s in extra)
                or ch.frame - extra[0].frame > UNREAD_GONE_S * self.fps):
            return False
        cards.slots = kept
        live.note(f"inferred: {ch.zone}: {len(extra)} card(s) read with doubt from frame {extra[0].frame}, neither "
                  f"face nor back read, gone at frame {ch.frame} with the area as it was before: no card")
        return True

    # ------------------------------------------------------------------------------- game hooks

    def card_state(self, ref: ZoneRef, state: ZoneState) -> ZoneState:
        """The part of a card area's contents that counts as dealt there (King High drops moved cards)."""
        return state

    def card_zones_for_deal(self) -> bool:
        return True

    def owner_of(self, slot: Slot) -> str | None:
        """Owner per the round.py convention; None to leave a card out (a nested area's copy)."""
        ref = parse_zone(slot.zone)
        if ref.area == "cards":
            return f"seat:{ref.seat}" if ref.sub is None else None
        if ref.area == "dealer":
            return "discard" if ref.sub == "discard" else "dealer"
        return None

    def spot_of(self, ref: ZoneRef) -> tuple[str, str | None]:
        """(wager spot, choice) of a betting zone."""
        return ref.spot or "", None

    def closing_frames(self, live: LiveRound, cards: list[DealtCard]) -> list[int]:
        """Frames at which betting closed (one per betting round)."""
        return [cards[0].frame] if cards and cards[0].frame is not None else []

    def hand_of(self, ref: ZoneRef, inst: ChipInstance, closes: list[int], live: LiveRound) -> int:
        return 0

    def settle_deadline(self, ws: WagerSeen, live: LiveRound, closes: list[int]) -> int | None:
        """A stack taken before this frame was collected; later it went back with the clearing."""
        return live.cleared

    def decisions(self, live: LiveRound, rnd: Round, seen: list[WagerSeen]) -> list[Decision]:
        return []

    def interpret(self, live: LiveRound, rnd: Round, seen: list[WagerSeen]) -> None:
        """Before settlement is read: voids, checks that make the round incomplete."""

    def review(self, ws: WagerSeen, expected: str | None, live: LiveRound) -> None:
        """Second look at one wager's outcome (None: neither taken nor paid, so a push or a left loser).
        A game whose procedure can hide a payout notes the doubt here."""

    def removed_outcome(self, ws: WagerSeen, expected: dict[tuple[int, str, int], str], rnd: Round) -> str:
        """A stack taken while play was on: lost, or returned where the game returns it."""
        if rnd.status == "voided" or expected.get(ws.key) == "returned":
            return "returned"
        return "lose"

    # ------------------------------------------------------------------------------- building

    def time_of(self, frame: int) -> str:
        return (self.session_start + timedelta(seconds=frame / self.fps)).isoformat()

    def merge_chips(self, live: LiveRound) -> None:
        """One stack per spot per round: a stack that vanished and came back was only covered."""
        for z in live.chips.values():
            z.merge_gaps(float("inf"), blip=REMNANT_S * self.fps)

    def _close(self, live: LiveRound) -> Round:
        self.merge_chips(live)
        for z in live.chips.values():
            z.settle_noise()
        started_at = self.time_of(live.start)
        rnd = Round(game=self.game, table_id=self.table_id, round_id=round_id_for(self.table_id, started_at),
                    started_at=started_at, ended_at=self.time_of(live.last + 1), dealer_id=self.dealer_id,
                    frames=FrameRange(start=live.start, end=live.last))
        if live.first_is_card:
            live.note("the round was already dealt when observation began")
        rnd.cards = self._cards(live)
        closes = self.closing_frames(live, rnd.cards)
        seen = self._wagers(live, closes)
        rnd.wagers = [ws.wager for ws in seen]
        rnd.decisions = self.decisions(live, rnd, seen)
        self.interpret(live, rnd, seen)
        self._settle(live, rnd, seen, closes)
        rnd.events = self._events(live, rnd, seen, closes)
        brief = UNREAD_GONE_S * self.fps
        for zone in live.cards.values():
            for known, new, frame in zone.doubts:
                live.note(f"{zone.name}: {new} seen where {known} was as more cards arrived (frame {frame}): "
                          f"{known} read again, or a new card covering it")
            for known, new, frame in zone.covered:
                if any(sl.card == known and zone.gone_at_once(sl, brief) for sl in zone.slots):
                    continue  # the card it would lie over was none: read for a moment as the hand passed
                live.note(f"{zone.name}: {new} dealt over {known}, which stayed hidden from frame {frame}: a card "
                          f"between them may lie unseen")
        if live.notes:
            rnd.notes = list(live.notes)
            if rnd.status == "complete" and any(not n.startswith("inferred") for n in live.notes):
                rnd.status = "incomplete"
        self.rounds_done += 1
        return Round.model_validate(rnd.model_dump())  # validated before anyone publishes it

    def card_order(self, live: LiveRound) -> list[Slot]:
        return live.slots

    def _cards(self, live: LiveRound) -> list[DealtCard]:
        out = []
        for slot in self.card_order(live):
            owner = self.owner_of(slot)
            if owner is None:
                continue
            out.append(DealtCard(seq=len(out), owner=owner, card=slot.card, face_up=slot.face_up,
                                 back=slot.back, frame=slot.frame, uncertain=slot.uncertain))
        return out

    def _wagers(self, live: LiveRound, closes: list[int]) -> list[WagerSeen]:
        seen: list[WagerSeen] = []
        for name, zone in sorted(live.chips.items()):
            ref = parse_zone(name)
            if ref.area != "bet" or ref.seat is None:
                continue
            spot, choice = self.spot_of(ref)
            self._drop_remnants(live, name, zone, closes)
            for inst in zone.instances:
                if live.cleared is not None and inst.start >= live.cleared:
                    live.note(f"chips appeared in {name} at frame {inst.start} after the cards were cleared")
                    continue
                lock = next((c for c in closes if c >= inst.start), inst.start)
                if spot not in self.round_spots:
                    lock = inst.start  # placed as a decision: locked when placed
                amount = inst.value_at(lock)
                hand = self.hand_of(ref, inst, closes, live)
                w = Wager(seat=ref.seat, spot=spot, amount=round(amount, 2), hand=hand, choice=choice,
                          frames=FrameRange(start=inst.start, end=inst.end if inst.end is not None else live.last),
                          uncertain=inst.uncertain)
                seen.append(WagerSeen(w, inst, lock, f"seat{ref.seat}.{ref.spot}.paid", uncertain=inst.uncertain))
        keys = [ws.key for ws in seen]
        for k in {k for k in keys if keys.count(k) > 1}:
            live.note(f"seat {k[0]} {k[1]} (hand {k[2]}): more than one stack in one round")
        return seen

    def _drop_remnants(self, live: LiveRound, name: str, zone: ChipZone, closes: list[int]) -> None:
        """A stack seen briefly on a spot just after the stack there was taken, after bets closed, and less than it,
        is that stack seen in part as the hand took it (`REMNANT_S`), not a second wager. (High Tie: a $20 Main, a
        chip pinched as the dealer came to take it, read empty under the hand, then $5 for seven frames as the hand
        lifted: the round said a $5 wager came after the $20.)"""
        kept: list[ChipInstance] = []
        for inst in zone.instances:
            prev = kept[-1] if kept else None
            if (prev is not None and prev.end is not None and any(prev.start <= c <= prev.end for c in closes)
                    and inst.remnant_of(prev, REMNANT_S * self.fps)):
                live.note(f"inferred: the {inst.peak:g} seen in {name} from frame {inst.start} to {inst.end} was the "
                          f"stack taken from it at frame {prev.end}, seen in part under the hand")
                continue
            kept.append(inst)
        zone.instances = kept

    def _settle(self, live: LiveRound, rnd: Round, seen: list[WagerSeen], closes: list[int]) -> None:
        used: set[int] = set()
        for ws in seen:
            deadline = self.settle_deadline(ws, live, closes)
            paid_zone = live.chips.get(ws.paid_zone)
            # A payout shows only once the dealer's hand has left it: perhaps after the wager went back.
            lag = PAYOUT_LAG_S * self.fps
            end = ws.inst.end if ws.inst.end is not None else live.last + 1
            for p in paid_zone.instances if paid_zone else []:
                if id(p) in used or p.start < ws.lock or p.start > end + lag or self._hand_read_as_chips(p):
                    continue
                if deadline is not None and p.start > deadline + lag:
                    continue
                used.add(id(p))
                ws.outcome, ws.paid, ws.settled_at = "win", round(p.peak, 2), p.start
                ws.settle_end, ws.payout = p.end, p
                ws.uncertain |= p.uncertain
                ws.moved_at = self._wager_moved_with_payout(ws, p)
                ws.hidden_at = self._wager_hidden_by_payout(ws, p)
                regrouped = self._payout_regrouped(ws, p)
                if regrouped is not None:
                    _doubt_wager(live, ws, f"payout read as {ws.paid:g} from frame {regrouped}, as the wager beside "
                                           "it fell below what was locked: the two stacks lie in one line, and the "
                                           "line between them moved")
                ws.shrank_at = self._payout_shrank(p, live)
                break
            if ws.outcome is None and ws.inst.end is not None and (deadline is None or ws.inst.end < deadline):
                ws.outcome, ws.settled_at = "removed", ws.inst.end
                self._doubt_gone_under_cards(ws, live)
        paid = {name: zone for name, zone in live.chips.items() if parse_zone(name).area == "paid"}
        for name, zone in paid.items():
            for p in zone.instances:
                if id(p) in used:
                    continue
                laid = self._laid_through(p, name, paid, used)
                before = next((q for q in reversed(zone.instances) if q.start < p.start), None)
                if laid is not None:
                    live.note(f"inferred: the stack seen in {name} from frame {p.start} to {p.end} was the payout "
                              f"being laid in {laid}")
                elif self._hand_read_as_chips(p):
                    live.note(f"inferred: the {p.peak:g} read with doubt in {name} from frame {p.start} to {p.end}, "
                              "only ever under the dealer's hand and gone before it left, was the hand read as chips")
                elif before is not None and id(before) in used and p.remnant_of(before, REMNANT_S * self.fps):
                    # A hand over a payout splits it in two on the tracker; what shows as the hand leaves may be
                    # only part of it, the rest under the hand or under another payout laid against it.
                    live.note(f"inferred: the {p.peak:g} seen in {name} from frame {p.start} to {p.end} was the "
                              f"payout there before it (gone at frame {before.end}), seen in part")
                else:
                    live.note(f"a payout in {name} at frame {p.start} matches no wager")
        # Lose or returned, and where pushes fall in the order: the game's own settlement of what was seen.
        try:
            expected = self.module.settle(rnd, self.settings)
        except Exception as e:
            live.note(f"the observed round cannot be settled by the rules: {e}")
            expected = []
        exp_outcome = {(x.seat, x.spot, x.hand): x.outcome for x in expected}
        self._payouts_shrunk(seen, expected, live)
        self._payouts_read_otherwise_as_rules_pay(seen, expected, live)
        self._doubt_short_payouts(seen, expected, live)
        self._doubt_payouts_read_less_after_hand(seen, live)
        self._paid_wagers_read_later(seen, expected, live)
        self._doubt_stacks_read_unsure(seen, expected, live)
        self._doubt_rises_read_before_close(seen, live)
        self._doubt_rises_as_stack_read_whole(seen, live)
        self._doubt_payouts_grown_unhanded(seen, expected, live)
        self._doubt_falls_read_before(seen, live)
        self._doubt_payout_read_with_wager(seen, exp_outcome, live)
        self._doubt_gone_unhanded(seen, live)
        exp_order = {(x.seat, x.spot, x.hand): x.order for x in expected}
        for ws in seen:
            if ws.outcome == "removed":
                ws.outcome = self.removed_outcome(ws, exp_outcome, rnd)
            self.review(ws, exp_outcome.get(ws.key), live)
        self._assumed_order, self._unseen_order, self._tangled_order = [], [], False
        visible = self._in_dealer_order([ws for ws in seen if ws.outcome is not None], exp_order)
        if self._tangled_order:
            live.note("settlement order: where the dealer's hand lay, the times seen and the manual's order disagree "
                      "in a circle, so the order the settlements were made in is not known; they are listed as seen")
        for pairs, why in ((self._assumed_order, "seen the other way round but too close in time to tell"),
                           (self._unseen_order, "a payout was laid while its wager was out of view, so which "
                                                "came first is unknown")):
            for a, b in pairs:
                live.note(f"settlement order of seat {a[0]} {a[1]} (hand {a[2]}) and seat {b[0]} {b[1]} "
                          f"(hand {b[2]}): {why}; the manual's order is assumed")
        pushes = sorted((ws for ws in seen if ws.outcome is None),
                        key=lambda w: (exp_order.get(w.key, 10**6), w.key))
        for ws in pushes:
            ws.outcome = "push"
        ordered: list[WagerSeen] = []
        for ws in visible:  # a push is passed over where the manual's order puts it
            while pushes and exp_order.get(pushes[0].key, 10**6) < exp_order.get(ws.key, 10**6):
                ordered.append(pushes.pop(0))
            ordered.append(ws)
        ordered += pushes
        rnd.settlements = []
        for i, ws in enumerate(ordered):
            start = ws.settled_at if ws.settled_at is not None else (ws.inst.end or live.last)
            end = ws.settle_end if ws.settle_end is not None else start
            rnd.settlements.append(ObservedSettlement(
                seat=ws.wager.seat, spot=ws.wager.spot, hand=ws.wager.hand, outcome=ws.outcome,
                paid=ws.paid if ws.outcome == "win" else 0.0, seq=i,
                frames=FrameRange(start=start, end=max(start, end)), uncertain=ws.uncertain))

    def _laid_through(self, p: ChipInstance, name: str, paid: dict[str, ChipZone], used: set[int]) -> str | None:
        """The paid spot of the same seat where a payout matched to its wager appeared just as `p`, a stack
        matched to none, went after a moment: the dealer's hand carried the payout over `p`'s spot on its
        way (a $40 Low payout read for 3 frames in the High's paid spot). None if there is none."""
        if p.end is None or p.end - p.start > TRANSIT_S * self.fps:
            return None
        seat, near = parse_zone(name).seat, SAME_TIME_S * self.fps
        return next((other for other, zone in paid.items() if other != name and parse_zone(other).seat == seat
                     and any(id(q) in used and abs(q.start - p.end) <= near for q in zone.instances)), None)

    def _hand_read_as_chips(self, p: ChipInstance) -> bool:
        """Whether a stack in a paid spot was read only with doubt, with the dealer's hand over the spot (`CoverLog`)
        from the frame it showed to the frame it was gone: no payout, for a payout laid stays once the hand leaves
        it. (3 Card Monster, sets QQ and RR: a $5 Play returned, and as the hand took its chip a box read below the
        detector's confidence in the Play's paid spot for four frames, $1 in one, $100 in the other: a win claimed
        with doubt. Over thirteen held-out sets it changed no other round.)"""
        return (self.cover is not None and p.uncertain and p.end is not None
                and self.cover.covered_through(p.zone, p.start, p.end))

    def _doubt_gone_under_cards(self, ws: WagerSeen, live: LiveRound) -> None:
        """A stack beside its seat's cards gone from view just as a card was dealt to the seat is most likely
        under the card (Pick 2's ante lies against the cards' edge), not taken: when and how it was settled
        was not seen. (Further from the cards, a stack taken as a card lands is a bust collected.) A card whose area
        read empty again within `UNREAD_GONE_S` was no card dealt, and hides nothing: a High Tie dealer's hand taking
        a losing Side read as a 4d beside the seat's cards for seven frames."""
        if ws.inst.zone not in self._beside_cards:
            return
        near, brief = SAME_TIME_S * self.fps, UNREAD_GONE_S * self.fps
        refs = {name: parse_zone(name) for name in live.cards}
        dealt = [s.frame for name, zone in live.cards.items() for s in zone.slots
                 if refs[name].seat == ws.wager.seat and refs[name].area == "cards" and not zone.gone_at_once(s, brief)]
        end = ws.inst.end
        if end is not None and any(abs(f - end) <= near for f in dealt):
            _doubt_wager(live, ws, f"gone from view at frame {end} as a card was dealt to the seat (under the "
                                   "card?); its settlement was not seen")

    def _doubt_gone_unhanded(self, seen: list[WagerSeen], live: LiveRound) -> None:
        """A wager gone from view while play was on, with no hand over its spot in the `UNHANDED_GONE_S` before it
        went: a stack is taken by a hand, so it was hidden, or left, not seen taken; the round says so rather than
        settling it as collected. (High Tie, held-out video: a losing $100 Side the dealer never collected, the
        seat's split cards over it, read as gone with no hand near, then seen again in single frames until the
        clearing: a missed collection read as a loser collected.)"""
        if self.cover is None:
            return
        for ws in seen:
            if ws.outcome != "removed":
                continue
            end = ws.inst.end
            hand = self.cover.last_covered_before(ws.inst.zone, end + 1)
            if hand is None or end - hand > UNHANDED_GONE_S * self.fps:
                _doubt_wager(live, ws, f"gone from view at frame {end} with no hand over its spot"
                                       f"{'' if hand is None else f' since frame {hand}'}: not seen taken (hidden, or "
                                       "left on the table); its settlement was not seen")

    @staticmethod
    def _payouts_read_otherwise_as_rules_pay(seen: list[WagerSeen], expected: list[Settlement],
                                             live: LiveRound) -> None:
        """A payout in doubt only for a sure reading of more chips for a moment (`PAYOUT_READ_LARGER`), confirmed as
        exactly what the rules pay (on the wager as it lay when paid): for the chip read then to be the payout's, the
        dealer would have had to overpay by just that chip, and the detector to miss it in every other frame, so it
        is no doubt, as for a payout read with doubt as the rules' amount (`_doubt_stacks_read_unsure`). So a chip
        counted now with the payout, now with its wager (`WAGER_READ_LESS`: a Pick 2 $400 Play payout read $500 for
        one frame as its $400 wager read $300, and $400 over 40 frames), or a chip of the next stack read in it for
        one frame as the player's hand came to gather them (a Pick 2 $50 Ante payout read $75). Confirmed as another
        amount, the doubt stays: that is where a missed chip would hide a short pay (a High Tie $84 Side payout read
        $83). A payout confirmed as the rules pay but read surely as one chip less in many frames
        (`PAYOUT_READ_LESS`) is so answered too: for it to be short, the detector would have had to read a chip that
        is not there, of just the shortfall, in most of its frames. Confirmed as another amount, read less as the rules
        pay, that doubt stays: a fourth box among three chips lying close would claim an overpay (a Pick 2 $15 Play
        payout read $20). So too a payout in doubt for being read as other totals more often than as its own
        (`UNSTEADY_STACK`) on its way to the rules' amount (a King High $300 High payout of three $100 chips lying
        close, confirmed $100 under the hand, read $100, $200 and $300 by turns, then $300 surely until taken)."""
        for ws, p, _ in _paid_as_rules_pay(seen, expected, live):
            otherwise = [(f, n) for n in live.notes
                         if (read_larger_briefly(n) or read_less_steadily(n) or n.endswith(UNSTEADY_STACK))
                         and (f := _observation_frame(n, p.zone)) is not None and p.start <= f]
            if not otherwise:
                continue
            for f, n in otherwise:
                live.notes.remove(n)
                p.doubtful.discard(f)
            ws.uncertain = ws.inst.uncertain or p.uncertain
            live.note(f"inferred: {_about(ws)}: payout read as {ws.paid:g}, what the rules pay, though read surely as "
                      "other totals in frames too few to confirm")

    @staticmethod
    def _paid_wagers_read_later(seen: list[WagerSeen], expected: list[Settlement], live: LiveRound) -> None:
        """A winning wager read with doubt only once its payout showed, read as the rules pay: what it read then is
        no fact of the round (its amount is the one locked, its settlement the payout, and a change after the payout
        is no past-post or pinch), so the doubt goes. The payout's first chip over the wager's top one leaves the chip
        below it half covered, read now and then (a King High $20 High read $15 and $10 by turns beside its $20
        payout). The payout itself may be read with doubt: a misreading would have to make up for a payout error to
        the chip, as `_doubt_stacks_read_unsure` lets such a payout through (a King High $40 Suit read $30 and $35 by
        turns under its $120 payout, read with doubt for chips reaching into the Suit spot beside it). A wager
        raised after its bets closed and paid on what lay there is read so too: its payout is what the rules pay on
        that (a Pick 2 $20 Ante past-posted to $22, paid $22, then read $21 surely and $22 with doubt by turns under
        the payout's chip)."""
        for ws, p, on_table in _paid_as_rules_pay(seen, expected, live):
            end = ws.inst.end if ws.inst.end is not None else live.last + 1
            later = [n for n in live.notes if (f := _observation_frame(n, ws.inst.zone)) is not None
                     and p.start <= f <= end]
            ws.inst.doubtful -= {f for f in ws.inst.doubtful if f >= p.start}
            if not later or ws.inst.uncertain:
                continue
            for n in later:
                live.notes.remove(n)
            ws.uncertain = False
            live.note(f"inferred: {_about(ws)}: read with doubt only once its payout of {ws.paid:g} showed (frame "
                      f"{p.start}), read surely as the rules pay on the {on_table:g} it was paid on")

    @staticmethod
    def _doubt_payout_read_with_wager(seen: list[WagerSeen], exp_outcome: dict[tuple[int, str, int], str],
                                      live: LiveRound) -> None:
        """A wager the rules say won, with no payout seen, that read more than was locked after its bets closed:
        its payout, laid against it, may have been read with it, so an unpaid winner is not to be claimed (a King
        High $2 Pokerpot read $5 as its $4 payout was laid, the fourth chip read in the Low Run beside it). A
        wager grown so with a payout seen is a past-post's to judge, not this."""
        for ws in seen:
            if ws.outcome not in (None, "removed") or exp_outcome.get(ws.key) != "win":
                continue
            grew = next(iter(ws.rises()), None)
            if grew is not None:
                _doubt_wager(live, ws, f"won by the rules, no payout seen, and read as {grew[1]:g} from frame "
                                       f"{grew[0]}: its payout may have been read with it")

    def _doubt_stacks_read_unsure(self, seen: list[WagerSeen], expected: list[Settlement], live: LiveRound) -> None:
        """A wager or payout whose total rests on a doubtful reading: a chip below the detector's confidence, or a
        stack the zones cannot place with certainty (chips reaching into another spot, a row of an odd length;
        `ZoneMapper.group_stacks`). The note names both, as the reading does not say which.

        A payout read with doubt as exactly what the rules pay is no doubt. Where its one doubt is that its chips
        reach into another betting spot (a King High payout of five chips laid beside its wager runs into the empty
        spot next to it), another stack read with it would make it the rules' amount only if the dealer had also
        underpaid by just that stack, whose own spot would read short or empty. Where a chip of it was read below
        the detector's confidence, a misreading would have to make up for a payout error to the chip. On the
        thirty-ninth session's four fresh sets (King High), each of seven payouts so read as the rules' amount was
        right, and each of three read with doubt as another amount was wrong (a $4 Pokerpot payout read $503): the doubt
        matters where the reading would flag the dealer, and a misread chip that hid a payout error exactly is
        the one it lets through. Nor is a payout doubted only for chips lying in betting spots that held no stack of
        their own (`_reaches_only_into_bare_spots`), whatever it reads."""
        net = _rules_net(expected)
        for ws in seen:
            for inst in (ws.inst, ws.payout):
                if inst is ws.payout and inst is not None and inst.uncertain and (
                        (ws.outcome == "win" and _as_rules_pay(net, ws, ws.paid))
                        or _reaches_only_into_bare_spots(inst, live)):
                    continue
                if inst is not None and inst.uncertain:
                    _doubt_wager(live, ws, f"{inst.zone} read with doubt at frame {inst.doubtful_frames()[0]} (a chip "
                                           "below the detector's confidence, or chips reaching into another spot)")

    @staticmethod
    def _doubt_rises_read_before_close(seen: list[WagerSeen], live: LiveRound) -> None:
        """A wager that rose after it was locked to a total already read before then: the chips were there when bets
        closed, read short in most frames, or were added after; a past-post is not claimed on that. (A King High
        $200 Seven, its bottom $100 lying on the Pokerpot's chips, read $100 in most frames and $200 in a few from
        the frame it was laid, then surely $200 after bets closed, as the hand came to take it.)"""
        for ws in seen:
            for f, after in ws.rises():
                first = ws.inst.first_read.get(f)
                if first is not None and first < ws.lock:
                    _doubt_wager(live, ws, f"read as {after:g} from frame {f}, after it was locked at "
                                           f"{ws.wager.amount:g}, but read so already at frame {first}: a chip of "
                                           "it may have been missed until then, or chips were added after bets "
                                           "closed")
                    break

    @staticmethod
    def _doubt_rises_as_stack_read_whole(seen: list[WagerSeen], live: LiveRound) -> None:
        """A wager that rose after it was locked, within a frame of a stack beside it being read whole again: one read
        as less than it was laid once another stack lay against it (`_laid_as`). The two were read apart again, and
        a chip of this one that lay hidden where they met may have come back into view with it; a past-post is not
        claimed on that. (A King High $300 Suit, laid against a $40 High, read $200 surely from then while the High
        read $35; both read whole again in the same frame, six frames before the Suit was taken: a $100 past-post
        was claimed.) A wager raised while a stack beside it comes back from under the hand is no such thing: that
        stack was read whole when laid."""
        for ws in seen:
            if not ws.inst.hidden_room:
                continue
            for f, after in ws.rises():
                beside = next((z for g, z in live.read_whole if z != ws.inst.zone and abs(g - f) <= 1), None)
                if beside is not None:
                    _doubt_wager(live, ws, f"read as {after:g} from frame {f}, after it was locked at "
                                           f"{ws.wager.amount:g}, just as {beside} beside it was read whole again: a "
                                           "chip of it may have lain hidden where the two met, or chips were added "
                                           "after bets closed")
                    break

    def _doubt_payouts_grown_unhanded(self, seen: list[WagerSeen], expected: list[Settlement], live: LiveRound
                                      ) -> None:
        """A payout read as more than it was first confirmed as, where nothing lay over its spot in the
        `CHIPS_ADDED_S` before (`CoverLog`): chips are laid by a hand, so the growth is a box that is no chip, or a
        chip the detector saw only now; the round is unsure rather than claiming either payout. (A 3 Card Monster
        $402 Ante payout read so for 24 frames, then $902 surely for 20: a second box 0.8 of a step off its bottom
        $100 chip, read as a $500, and a $500 overpay claimed.) A payout the hand adds to, or leaves in full after
        laying it in part, grows as the hand leaves it: within `CHIPS_ADDED_S`. A payout that grew to exactly what the
        rules pay is no doubt: for the growth to be a box that is no chip, the dealer would have had to underpay by
        just that box (a 3 Card Monster $75 Ante payout read $50 for 80 frames, $75 surely in moments among them, then
        $75 for good)."""
        net = _rules_net(expected)
        for ws in seen:
            if ws.outcome == "win" and _as_rules_pay(net, ws, ws.paid):
                continue
            for f, total, most, hand in self._growths_under_hand(ws):
                if hand is None or hand < f - CHIPS_ADDED_S * self.fps:
                    _doubt_wager(live, ws, f"payout read as {total:g} from frame {f}, more than the {most:g} it was "
                                           f"read as from frame {ws.payout.start}, with no hand over it since "
                                           f"{'it was laid' if hand is None else f'frame {hand}'}: a box read in it "
                                           "may be no chip")
                    break

    def _doubt_payouts_read_less_after_hand(self, seen: list[WagerSeen], live: LiveRound) -> None:
        """A payout read surely as more than it is taken to be, in a frame with no hand over its spot, before the hand
        came back over it and the payout was confirmed as less: a chip of it was seen, then missed or taken back,
        and which is not known. (3 Card Monster, set TT, seed 12043: a $250 Play overpaid $350, read $350 surely in
        the one frame between the hand laying it and the hand coming back, then $250 surely for good, its bottom $100
        never boxed again; $250 is what the rules pay, so the overpay went unseen.) A payout short of what the rules
        pay and read surely as the rules' amount so is that amount already (`_paid_as_read_surely`)."""
        if self.cover is None:
            return
        for ws in seen:
            p = ws.payout
            if p is None or ws.outcome != "win":
                continue
            for total, f in sorted(p.read_surely_at.items()):
                if total <= ws.paid + 0.005 or f >= p.start or self.cover.last_covered_before(p.zone, f + 1) == f:
                    continue
                hand = self.cover.last_covered_before(p.zone, p.start)
                if hand is not None and hand > f:
                    _doubt_wager(live, ws, f"payout read surely as {total:g} at frame {f}, with no hand over it, "
                                           f"then as {ws.paid:g} from frame {p.start}, once the hand had come back "
                                           "over it: a chip of it may have been missed since, or taken back")
                    break

    def _growths_under_hand(self, ws: WagerSeen) -> list[tuple[int, float, float, int | None]]:
        """(frame, total, the most before it, the last frame the hand lay over the spot up to it, or None) of each step
        the wager's payout was read as more than it had been (`_growths`); none without a payout or a `CoverLog`."""
        p = ws.payout
        if p is None or self.cover is None:
            return []
        return [(f, total, most, self.cover.last_covered_before(p.zone, f + 1)) for f, total, most in _growths(p)]

    def _doubt_falls_read_before(self, seen: list[WagerSeen], live: LiveRound) -> None:
        """A wager that fell after it was locked to a total it had already been read as, after the lock and a while
        before the fall (`FALL_READ_BEFORE_S` or more): it was read by turns as both, so the fall is the
        tracker settling on one of two readings, not chips seen taken; a pinch is not claimed on that. (A King High
        $100 Pokerpot, one chip, drew a second box half a chip off it, confidently in some frames: read $200 by
        turns with $100 from the close, then $100 for good; the round said $200 was wagered.) A fall that holds less
        than `FALL_HELD_S` before the stack is settled or goes is the hand over it as it comes to pay or take it, and
        is left alone."""
        for ws in seen:
            end = min(x for x in (ws.settled_at, ws.inst.end, live.last) if x is not None)
            for f, after in ws.falls():
                first = ws.inst.first_read.get(f)
                if (first is not None and ws.lock <= first <= f - FALL_READ_BEFORE_S * self.fps
                        and end - f >= FALL_HELD_S * self.fps):
                    _doubt_wager(live, ws, f"read as {after:g} from frame {f}, below the {ws.wager.amount:g} locked "
                                           f"at frame {ws.lock}, but read so already at frame {first}: a chip read in "
                                           "some frames may be none, or chips were taken after bets closed")
                    break

    def _payout_regrouped(self, ws: WagerSeen, p: ChipInstance) -> int | None:
        """The frame a payout grew to its peak, if that was after it was first read and just as its wager's
        reading fell below its locked amount, to stay there: chips went from the wager's reading to the
        payout's, not from the dealer's hand. (A Pick 2 $150 Ante payout laid in line with its $250 wager read
        $250 from the moment the Play beside them went back, the wager $225: a short pay read as paid in full.
        A wager read back as locked as its payout grows is the hand leaving both: 3 of 50 3 Card Monster
        rounds, perfect observations; one read as more is `_wager_moved_with_payout`'s. A wager that fell before
        its payout was seen at all lost no chip to it: its top chip went under the hand laying the payout, then
        under the payout's first chip, and the payout grew as the hand left; 2 of 50 King High rounds, perfect
        observations, the payout read right.)"""
        near = SAME_TIME_S * self.fps
        grew = next((f for f, v in p.steps if v == p.peak), None)
        if grew is None or p.peak == p.steps[0][1]:
            return None
        locked = ws.wager.amount - 0.005
        fell = any(abs(f - grew) <= near and f >= p.start and after < locked
                   for f, _, after in ws.inst.changes_after(ws.lock))
        return grew if fell and ws.inst.value_at(int(grew + near)) < locked else None

    def _payout_shrank(self, p: ChipInstance, live: LiveRound) -> int | None:
        """The frame a payout fell from its peak, if the peak was held for less time than a lower total read
        after it: a payout once laid stays as laid until it is taken, so the short-lived peak was most likely
        the dealer's hand over it, read as a chip (a 3 Card Monster $75 Ante payout read $100 for three
        frames as the hand left, then $50 beside a wager read $125), or chips of it went to another reading.
        (A payout taken in stages falls only in its last frames, for less time than its peak was held.)"""
        ends = [f for f, _ in p.steps[1:]] + [p.end if p.end is not None else live.last + 1]
        held = [(v, end - f) for (f, v), end in zip(p.steps, ends, strict=True)]
        top = next(i for i, (v, _) in enumerate(held) if v == p.peak)
        longer = [i for i in range(top + 1, len(held)) if held[i][0] < p.peak and held[i][1] > held[top][1]]
        return p.steps[top + 1][0] if longer else None

    def _payouts_shrunk(self, seen: list[WagerSeen], expected: list[Settlement], live: LiveRound) -> None:
        """A payout read lower after a short-lived peak (`_payout_shrank`) is what it was read as after, where that is
        exactly what the rules pay, or what they pay on a wager raised after its bets closed as it lay when paid (a
        Pick 2 Ante past-posted from $5 to $15 and paid $15, read $20 for three frames as the hand lay over the Ante
        beside it): the peak is then the dealer's hand over it, read as chips, and for it to be the
        payout the dealer would have had to overpay and the lasting reading miss just the overpayment. Otherwise one
        of the two readings is wrong, and the round says so. (A 3 Card Monster $10 Monster payout read $100 for
        three frames as the hand left it and the wager beside it was out of view, then $10 for 26 frames; on the
        thirty-ninth and fortieth sessions' fresh sets the lasting reading was right in each of three such.) Where
        the cover log says the hand had left the spot `PEAK_UNHANDED_S` or more before the peak fell
        (`_hand_over_peak`), the peak was no hand: a High Tie $450 Side payout, the dealer paying a past-posted $9
        at 50 to 1, read so for 11 frames after the hand left, then $250 (what the rules pay on the $5 locked) as
        two of its $100 chips were read with the wager and not at all; the round said $250 was paid."""
        net = _rules_net(expected)
        for ws in seen:
            if ws.shrank_at is None or ws.payout is None:
                continue
            later = ws.payout.value_at(ws.shrank_at)
            on_table = ws.inst.value_at(ws.payout.start)
            rules = _as_rules_pay(net, ws, later)
            raised = not rules and _as_rules_pay_on_raised(net, ws, on_table, later)
            if (rules or raised) and self._hand_over_peak(ws.payout, ws.shrank_at):
                pays = f"what the rules pay on the {on_table:g} it was paid on" if raised else "what the rules pay"
                live.note(f"inferred: {_about(ws)}: payout read as {ws.paid:g} only until frame {ws.shrank_at}, then "
                          f"as {later:g}, {pays}, until it was taken: the first reading was the dealer's hand over it")
                ws.paid = later
            else:
                _doubt_wager(live, ws, f"payout read as {ws.paid:g} only until frame {ws.shrank_at}, then as "
                                       f"{later:g} until it was taken: a laid payout does not shrink, so one of the "
                                       "two readings is wrong")

    def _hand_over_peak(self, p: ChipInstance, fell: int) -> bool:
        """Whether the dealer's hand was over the payout's spot (`CoverLog`) until less than `PEAK_UNHANDED_S` before
        its peak reading fell, at `fell`; True where that is not known (no cover log)."""
        if self.cover is None:
            return True
        top = next(f for f, total in p.steps if total == p.peak)
        hand = self.cover.last_covered_before(p.zone, fell)
        return hand is not None and fell - max(hand + 1, top) < PEAK_UNHANDED_S * self.fps

    def _wager_moved_with_payout(self, ws: WagerSeen, p: ChipInstance) -> int | None:
        """A payout laid against its wager forms one row with it, and the line between the two zones falls
        where the boxes put it: a wager read as more than it is just as its payout appears may hold some of
        the payout's chips. The first such frame, if any. (Read as less, it is most often the dealer's hand
        over it, laying the payout; read as less to stay, `_wager_hidden_by_payout`.)"""
        return next((f for f, after in self._wager_read_as_payout_came(ws, p) if after > ws.wager.amount), None)

    def _wager_hidden_by_payout(self, ws: WagerSeen, p: ChipInstance) -> int | None:
        """The frame a wager's reading fell below what was locked just as its payout appeared, to stay there
        until it was taken: a payout laid over the wager's top chip hides it, and the two chips where they meet
        may read as none (a King High $400 Low and its $400 payout read $300 and $300, sure of both, the bottom
        payout chip lying 3 mm along and 5 mm across the wager's top one: a short pay claimed that was none)."""
        locked = ws.wager.amount - 0.005
        end = ws.inst.end if ws.inst.end is not None else ws.inst.steps[-1][0] + 1
        fell = next((f for f, after in self._wager_read_as_payout_came(ws, p) if 0 < after < locked), None)
        return fell if fell is not None and 0 < ws.inst.value_at(end - 1) < locked else None

    def _wager_read_as_payout_came(self, ws: WagerSeen, p: ChipInstance) -> list[tuple[int, float]]:
        """(frame, total) of each change of the wager's reading after it was locked, around the moment its
        payout appeared (the payout shows `PAYOUT_LAG_S` after it is laid)."""
        near, lag = SAME_TIME_S * self.fps, PAYOUT_LAG_S * self.fps
        return [(f, after) for f, _, after in ws.inst.changes_after(ws.lock)
                if p.start - lag - near <= f <= p.start + near]

    def _doubt_short_payouts(self, seen: list[WagerSeen], expected: list[Settlement], live: LiveRound) -> None:
        """A payout read short of what the rules pay is a short pay only where all of it could be seen;
        otherwise the round says it is unsure instead of claiming one:
        - its wager was read as more than it is just as the payout appeared: the zones' line may have
          counted some of the payout's chips with the wager. Where the payout read and that surplus add up
          to just what the rules pay, the surplus was the payout's (`_surplus_was_payout`). Otherwise (adding
          it back regardless was tried, and matched the rules by chance as often as not) the round is in
          doubt. With a surplus as large as the payout read,
          even a payout read as the rules pay is in doubt: the whole payout may be in the wager's reading
          and the chips read as the payout another stack's (a 3 Card Monster $300 Play payout, an
          overpay, read as the $200 the rules pay while the $200 wager read $500);
        - its wager was read as less than it is from the moment the payout appeared until it was taken
          (`_wager_hidden_by_payout`): a chip of each may lie hidden where they meet;
        - a chip of it missed could have lain unseen (`ChipInstance.hidden_room`): over a card's edge
          (`ZoneMapper._card_edge_room`; the detector misses chips lying over a card's edge: found 92 % of 160 on
          held-out frames, against all of 4,516 elsewhere; a $30 Play payout read as $5 while its $25 lay on the
          card), or under another stack's chip (`ZoneMapper._under_chip_room`; a 3 Card Monster $15 Ante payout
          read $11 against the Monster payout laid beside it), or at the end of a stack lying off its spot's centre
          (`ZoneMapper._off_centre_room`; a $300 Ante payout read $200). Where all of it could be seen, the short pay
          stands (a true short pay against another stack is sent to review instead: 1 of 328 held-out rounds)."""
        net = _rules_net(expected)
        for ws in seen:
            if ws.outcome != "win":
                continue
            short = ws.paid < net.get(ws.key, 0.0) - 0.005
            surplus = ws.inst.value_at(ws.moved_at) - ws.wager.amount if ws.moved_at is not None else 0.0
            if short and ws.moved_at is not None and _as_rules_pay(net, ws, ws.paid + surplus):
                self._surplus_was_payout(ws, surplus, live)
            elif ws.moved_at is not None and (short or surplus >= ws.paid - 0.005):
                _doubt_wager(live, ws, f"payout read as {ws.paid:g} while the wager beside it was read as more "
                                       f"than it is (frame {ws.moved_at}); some of the payout's chips may have been "
                                       "counted with the wager")
            elif short and ws.hidden_at is not None:
                _doubt_wager(live, ws, f"payout read as {ws.paid:g}, less than the rules pay, while the wager "
                                       f"beside it read as {ws.inst.value_at(ws.hidden_at):g} from frame "
                                       f"{ws.hidden_at}: the payout may lie over the wager's top chip, hiding a "
                                       "chip of each")
            elif short and ws.payout is not None and (ws.payout.hidden_room or ws.payout.doubtful) \
                    and _read_surely_as_rules_pay(net, ws):
                self._paid_as_read_surely(ws, net[ws.key], live)
            elif short and (ws.payout is None or ws.payout.hidden_room):
                _doubt_wager(live, ws, f"payout read as {ws.paid:g}, less than the rules pay, where a chip of it "
                                       "could lie unseen (over a card's edge, under another stack's chip, or at "
                                       "the end of a stack lying off its spot's centre)")

    @staticmethod
    def _paid_as_read_surely(ws: WagerSeen, rules_pay: float, live: LiveRound) -> None:
        """A payout confirmed short of what the rules pay, where a chip of it could lie unseen (`hidden_room`) or
        its reading was in doubt, that was read surely as exactly the rules' amount in frames too few to confirm
        (`ChipInstance.read_surely`), is the rules' amount: a King High $3 High payout of three $1 chips read so
        surely as it was laid, then $2 for good, its third chip under another stack's; a $200 payout of two $100
        chips lying almost one on the other, read as one box in five of its six frames. For it to be a short pay
        the detector would have had to read a chip that was not there, surely, of just the shortfall. The doubt the
        tracker raised for a sure reading larger than the confirmed one (`PAYOUT_READ_LARGER`) is so answered."""
        live.note(f"inferred: {_about(ws)}: payout read as {ws.paid:g}, less than the rules pay, where a chip of it "
                  f"could lie unseen, but read surely as {rules_pay:g}, what the rules pay, in frames too few to "
                  "confirm")
        answered = payout_read_larger(rules_pay)
        live.notes[:] = [n for n in live.notes if not (_observation_frame(n, ws.payout.zone) is not None
                                                        and n.endswith(answered))]
        ws.paid = rules_pay

    @staticmethod
    def _surplus_was_payout(ws: WagerSeen, surplus: float, live: LiveRound) -> None:
        """A payout read short by just what its wager was read over its locked amount as the payout came: the
        payout's chips nearest the wager were counted with it, and the payout is what the two readings add up
        to. A true short pay read so would need a second misreading that makes up the shortfall to the chip
        (a High Tie $20 Double payout read $15 beside its $20 wager read $25; three such payouts in 328
        held-out rounds, each paid in full)."""
        live.note(f"inferred: {_about(ws)}: the payout read as {ws.paid:g} and "
                  f"the {surplus:g} its wager was read over its locked amount from frame {ws.moved_at} are one "
                  f"payout of {ws.paid + surplus:g} laid against the wager")
        ws.paid += surplus

    def _in_dealer_order(self, done: list[WagerSeen], exp_order: dict[tuple[int, str, int], int]
                         ) -> list[WagerSeen]:
        """Settlements in the order the dealer made them. A payout shows only once the dealer's hand
        has left it (`PAYOUT_LAG_S` later than a stack taken away); settlements closer together than
        `SAME_TIME_S` (one of them a payout) cannot be told apart in time and keep the manual's order, unless
        where the hand lay orders them (`_under_the_hand`: it had left one's spot before it came over the
        other's; a High Tie Main taken, then, 0.4 s later, the next seat's Main paid)."""
        lag, near = PAYOUT_LAG_S * self.fps, SAME_TIME_S * self.fps

        def when(ws: WagerSeen) -> float:
            return (ws.settled_at or 0) - (lag if ws.outcome == "win" else 0.0)

        def whole(ws: WagerSeen) -> float:
            """When a payout first read whole, as `when` reads time: one seen first in part and revealed in
            stages as the hand left it was laid at some moment up to then (a 3 Card Monster payout read $5, then
            $60 half a second later with the two laid before it: seen first, it was laid last)."""
            p = ws.payout
            if ws.outcome != "win" or p is None or ws.settled_at is None:
                return when(ws)
            full = next(f for f, v in p.steps if v == p.peak)
            upto = [v for f, v in p.steps if f <= full]
            rising = all(b > a for a, b in pairwise(upto))
            return when(ws) + (full - ws.settled_at) if rising and full - ws.settled_at <= STAGE_FRAMES else when(ws)

        # A stack gone from view in the same frame as a settlement of its box that the manual puts first was
        # most likely covered by the hand making that one, and taken later: when, is not known (with a frame
        # or two fewer analysed, a Pick 2 bonus vanished with the Ante and was ordered before the 3-5 Bonus
        # taken after it). Within its box it keeps the manual's order.
        gone_with = {id(ws) for ws in done if ws.outcome != "win" and any(
            o is not ws and o.wager.seat == ws.wager.seat and o.settled_at == ws.settled_at
            and exp_order.get(o.key, 0) < exp_order.get(ws.key, 0) for o in done)}

        # A stack of a box gone in the frame the hand came over a wager of that box it then paid was covered, and
        # taken at some moment of the hand's stay: not before it was covered. Seen covered after the payout, it
        # was taken after it; seen covered before, it may have been taken before or after, as the manual says.
        covered = {id(ws) for ws in done if ws.outcome != "win" and any(
            o.wager.seat == ws.wager.seat and o.outcome == "win" and o.settled_at is not None
            and any(gone == ws.settled_at and gone <= o.settled_at <= back + lag for gone, back in o.inst.hidden)
            for o in done)}

        # A stack read as gone as the hand left its spot was taken at some moment of the hand's stay there, up to as
        # long before as a payout shows after it is laid (a 3 Card Monster Play returned under the hand, read gone
        # 7 frames later, after the Ante's payout laid beside it showed): the frame the stay began, where there is one.
        stay_from = {id(ws): f for ws in done if ws.outcome != "win" and self.cover is not None
                     and ws.settled_at is not None
                     and (f := self.cover.covered_until_near(ws.inst.zone, ws.settled_at, round(near))) is not None}

        def earliest(ws: WagerSeen) -> float:
            """The earliest moment `ws` may have been settled, against another settlement of its box."""
            first = stay_from.get(id(ws))
            return when(ws) if first is None else max(first, (ws.settled_at or 0) - lag)

        def too_close(a: WagerSeen, b: WagerSeen) -> bool:
            if a.wager.seat == b.wager.seat and (id(a) in gone_with or id(b) in gone_with):
                return True
            first = earliest if a.wager.seat == b.wager.seat else when
            gap = max(first(a) - whole(b), first(b) - whole(a), 0.0)  # between the spans each may have been laid in
            # Two stacks taken away are ordered by the frames they left view, unless they share a box: the hand
            # sweeping it covers one on its way to take the other (a King High $1 Suit gone under the sleeve three
            # frames before the $2 High the hand took first, then the Suit).
            return gap <= (near if "win" in (a.outcome, b.outcome) or a.wager.seat == b.wager.seat else 1.0)

        laid_from = {id(ws): f for ws in done if (f := self._laid_unseen_from(ws)) is not None}

        def unseen_between(a: WagerSeen, b: WagerSeen) -> bool:
            """`b` is a payout laid at an unseen moment after `a` was settled, or `a` one laid after `b`."""
            return any(id(w) in laid_from and laid_from[id(w)] - near <= when(o) <= (w.settled_at or 0) + near
                       for w, o in ((a, b), (b, a)))

        spans = {id(ws): span for ws in done if (span := self._under_the_hand(ws)) is not None}

        def before(a: WagerSeen, b: WagerSeen) -> bool:
            """The hand had left `a`'s spot, having settled it, when it came over `b`'s, and not the other way round:
            two stacks taken within one frame (spans of a frame each, alike) are ordered by neither."""
            sa, sb = spans.get(id(a)), spans.get(id(b))
            return sa is not None and sb is not None and sa[1] <= sb[0] and not sb[1] <= sa[0]

        out = sorted(done, key=when)
        # Bubble neighbours that are too close in time into the manual's order. The rules need not agree (the hand's
        # path may put a before b, b before c, and the times seen c before a), so the passes are bounded: where they
        # never settle, no order is known.
        for _ in range(len(out) ** 2 + 1):
            changed = False
            for i in range(len(out) - 1):
                a, b = out[i], out[i + 1]
                if before(b, a):
                    out[i], out[i + 1] = b, a
                    changed = True
                    continue
                if exp_order.get(a.key, 0) <= exp_order.get(b.key, 0) or before(a, b):
                    continue
                if too_close(a, b):
                    out[i], out[i + 1] = b, a
                    changed = True
                    # Seen the other way round between two boxes (the hand moved from one to the
                    # other): the order is in doubt. Within one box it is one sweep of the hand, unless
                    # a stack of it went under the hand that had paid (`covered`).
                    if when(a) < when(b) and (a.wager.seat != b.wager.seat or id(b) in covered):
                        self._assumed_order.append((b.key, a.key))
                elif unseen_between(a, b):
                    out[i], out[i + 1] = b, a
                    changed = True
                    self._unseen_order.append((b.key, a.key))
            if not changed:
                return out
        self._tangled_order = True
        self._assumed_order, self._unseen_order = [], []  # swaps of a circle say nothing of any one pair
        return sorted(done, key=when)

    def _under_the_hand(self, ws: WagerSeen) -> tuple[int, int] | None:
        """(first, last) frames a settlement was made within, from where the dealer's hand lay (`self.cover`,
        `CoverLog.laid_within` and `taken_within`). None where that is not known: the order then rests on the
        times seen."""
        if self.cover is None or ws.settled_at is None:
            return None
        if ws.outcome == "win":
            return self.cover.laid_within(ws.paid_zone, ws.settled_at)
        if ws.outcome in ("lose", "returned"):
            return self.cover.taken_within(ws.inst.zone, ws.settled_at)
        return None

    def _laid_unseen_from(self, ws: WagerSeen) -> int | None:
        """A payout whose wager was out of view (under the dealer's hand) just before the payout showed was laid
        at some moment of that spell, not `PAYOUT_LAG_S` before it showed: the frame the spell began. (A 3 Card
        Monster Ante payout laid as the hand went on to the Monster: the Ante and its payout hidden for a second,
        the payout seen 1.3 s after the Monster was taken, as if laid after it.)"""
        if ws.outcome != "win" or ws.settled_at is None:
            return None
        lag, near = PAYOUT_LAG_S * self.fps, SAME_TIME_S * self.fps
        spells = [gone for gone, back in ws.inst.hidden if 0 <= ws.settled_at - back <= lag + near]
        return min(spells) if spells else None

    def _events(self, live: LiveRound, rnd: Round, seen: list[WagerSeen], closes: list[int]) -> list[TableEvent]:
        raw: list[tuple[int, int, dict[str, Any]]] = []  # (frame, tie-break, fields)
        for k, f in enumerate(closes):
            raw.append((f, 0, dict(type="bets_closed", hand=k + 1 if len(closes) > 1 else 0)))
        slots = {s.seq: s for s in live.slots}
        for c in rnd.cards:
            seat = int(c.owner[5:].split(".")[0]) if c.owner.startswith("seat:") else None
            raw.append((c.frame or 0, 1, dict(type="card_dealt", card=c.card if c.face_up else None,
                                              owner=c.owner, seat=seat, uncertain=c.uncertain)))
        for s in slots.values():
            if s.exposed_frame is not None:
                owner = self.owner_of(s)
                if owner:
                    seat = int(owner[5:].split(".")[0]) if owner.startswith("seat:") else None
                    raw.append((s.exposed_frame, 2, dict(type="card_exposed", card=s.card, owner=owner, seat=seat)))
        for ws in seen:
            w = ws.wager
            base = dict(seat=w.seat, spot=w.spot, hand=w.hand, uncertain=ws.uncertain)
            raw.append((ws.inst.start, 3, dict(type="wager_placed", after=ws.inst.first, **base)))
            for f, a, b in ws.inst.changes_after(ws.inst.start):
                raw.append((f, 4, dict(type="wager_changed", before=a, after=b, **base)))
            if ws.outcome == "win":
                raw.append((ws.settled_at or 0, 5, dict(type="payout_placed", after=ws.paid, **base)))
            elif ws.outcome in ("lose", "returned"):
                before = ws.inst.value_at((ws.inst.end or 1) - 1)
                kind = "wager_collected" if ws.outcome == "lose" else "wager_returned"
                raw.append((ws.settled_at or 0, 5, dict(type=kind, before=before, after=0.0, **base)))
        for d in rnd.decisions:
            raw.append((d.frame or 0, 3, dict(type="decision", seat=d.seat, hand=d.hand,
                                               spot="play" if d.action.startswith("play") else None)))
        if rnd.void is not None:
            raw.append((rnd.void.frame or 0, 6, dict(type="round_voided")))
        raw.append((live.last, 9, dict(type="round_complete")))
        raw.sort(key=lambda t: (t[0], t[1]))
        return [TableEvent(seq=i, frame=max(0, f), **fields) for i, (f, _, fields) in enumerate(raw)]


def _about(ws: WagerSeen) -> str:
    """How the round's notes name a wager."""
    return f"seat {ws.key[0]} {ws.key[1]} (hand {ws.key[2]})"


def _trace(slots: list[Slot]) -> tuple:
    """What a card area's slots held (card, face up, when turned): changed by any card dealt, turned or read again."""
    return tuple((s.card, s.face_up, s.exposed_frame) for s in slots)


def _doubted(live: LiveRound, ws: WagerSeen) -> bool:
    """The round's notes already doubt this wager (`_doubt_wager`)."""
    return any(n.startswith(f"{_about(ws)}: ") for n in live.notes)


def _growths(p: ChipInstance) -> list[tuple[int, float, float]]:
    """(frame, total, the most before it) of each step a payout was read as more than it had been before."""
    out, most = [], p.steps[0][1]
    for f, total in p.steps[1:]:
        if total > most + 0.005:
            out.append((f, total, most))
        most = max(most, total)
    return out


def _part_of(shown: ZoneState, before: ZoneState) -> bool:
    """A card area read confidently as some of the cards it held before its doubtful spell and nothing else: the
    dealer's hand still lies over the rest. Such a reading neither confirms nor undoes the doubt; the next may
    (`_doubt_undone`): a High Tie seat's first split hand, 9c Ks, came back from under the hand a card at a time, its
    Ks three frames before its 9c, and the unreadable face read beside them meanwhile was gone with the hand."""
    if not shown.cards or shown.chip_total != before.chip_total or len(shown.cards) >= len(before.cards):
        return False
    return not Counter(shown.cards) - Counter(before.cards)


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


def _rules_net(expected: list[Settlement]) -> dict[tuple[int, str, int], float]:
    """Each wager's net by the rules (on a win, what they pay), by (seat, spot, hand)."""
    return {(x.seat, x.spot, x.hand): x.net for x in expected}


def _as_rules_pay(net: dict[tuple[int, str, int], float], ws: WagerSeen, amount: float) -> bool:
    """`amount` is exactly what the rules pay `ws` (`net` from `_rules_net`)."""
    return ws.key in net and abs(amount - net[ws.key]) < 0.005


def _read_surely_as_rules_pay(net: dict[tuple[int, str, int], float], ws: WagerSeen) -> bool:
    """`ws`'s payout was read confidently as exactly what the rules pay in frames too few to confirm
    (`ChipInstance.read_surely`)."""
    return ws.payout is not None and any(_as_rules_pay(net, ws, total) for total in ws.payout.read_surely)


def _as_rules_pay_on_raised(net: dict[tuple[int, str, int], float], ws: WagerSeen, on_table: float,
                            amount: float) -> bool:
    """`ws` was raised after its bets closed to `on_table`, and `amount` is exactly what the rules pay on that: their
    pay on the locked amount, scaled (a wager pays at fixed odds)."""
    locked = ws.wager.amount
    return (ws.key in net and 0 < locked < on_table - 0.005
            and abs(amount - net[ws.key] * on_table / locked) < 0.005)


def _reaches_only_into_bare_spots(inst: ChipInstance, live: LiveRound) -> bool:
    """Each total of the stack read with doubt was doubted only because chips of it lay in other betting spots, and
    none of those held a stack of its own in the round before the stack was gone: no other stack could have been read
    with it. (A King High $18 Suit payout of six chips, laid beside its $6 wager, ran into the empty Suit spot next
    to it.) A stack there read as one with it would have been read on its own spot as it was laid."""
    frames = inst.doubtful_frames()
    if not frames or any(f not in inst.reached for f in frames):
        return False
    end = inst.end if inst.end is not None else live.last
    spots = {z for f in frames for z in inst.reached[f]}
    return not any(other.start <= end for z in spots if z in live.chips for other in live.chips[z].instances)


def _paid_as_rules_pay(seen: list[WagerSeen], expected: list[Settlement], live: LiveRound
                       ) -> Iterator[tuple[WagerSeen, ChipInstance, float]]:
    """(wager, payout, what the wager was read as when paid) of each winning wager the notes do not doubt, paid
    exactly what the rules pay on its locked amount or on what lay there when paid (`_as_rules_pay_on_raised`). The
    notes are read as each is reached, so a caller's changes to them count for the wagers after."""
    net = _rules_net(expected)
    for ws in seen:
        p = ws.payout
        if ws.outcome != "win" or p is None or _doubted(live, ws):
            continue
        on_table = ws.inst.value_at(p.start)
        if _as_rules_pay(net, ws, ws.paid) or _as_rules_pay_on_raised(net, ws, on_table, ws.paid):
            yield ws, p, on_table


def _laid_while_restless(ch: ZoneChange, doubt: ZoneDoubt) -> bool:
    """A payout spot that was empty, read by turns as totals that never confirmed (`RESTLESS_CHIPS`, taken with doubt
    as the likeliest), then confirmed surely as more than that and than every total read surely since it was empty:
    the turns were the payout being laid, chip by chip under the dealer's hand, and it is what it was laid as (a 3 Card
    Monster $400 Play payout read $100, $200 and $300 by turns for 15 frames, then surely $400). A payout read surely as
    more on the way, then confirmed as less, keeps its doubt: a chip of it may have gone unseen, or been taken back."""
    return (parse_zone(ch.zone).area == "paid" and ch.before.doubt == RESTLESS_CHIPS and doubt.before.empty
            and not ch.after.uncertain and ch.after.chip_total > ch.before.chip_total
            and ch.after.chip_total >= max(ch.after.read_surely, default=0.0) - 0.005)


def _doubt_wager(live: LiveRound, ws: WagerSeen, why: str) -> None:
    """The wager's facts are not sure: flag it, and say why in the round's notes."""
    ws.uncertain = True
    live.note(f"{_about(ws)}: {why}")


def spots_beside_cards(game: str) -> set[str]:
    """Betting spots within `BESIDE_CARDS_MM` of their own seat's card area on the game's layout."""
    layout = layout_for(game)
    cards = [z for z in layout.zones if z.kind == "cards"]
    return {z.name for z in layout.zones if z.kind == "bet"
            and any(parse_zone(c.name).seat == parse_zone(z.name).seat
                    and polygon_gap_mm(z.polygon, c.polygon) <= BESIDE_CARDS_MM for c in cards)}
