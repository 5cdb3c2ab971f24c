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

import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
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
from pipelines.vision.cover import CoverLog
from pipelines.vision.observe import ZoneChange, ZoneState
from pipelines.vision.outlines import polygon_gap_mm
from pipelines.vision.track import (
    DOUBTFUL_READINGS,
    FALL_FROM_DOUBT,
    RESTLESS_BESIDE_WAGER,
    RESTLESS_CHIPS,
    SHORT_ROW,
    payout_read_larger,
)

from .live import LiveRound, WagerSeen, ZoneDoubt, _doubt_wager, _observation_frame, _observation_note
from .settlement_doubts import SettlementDoubts
from .settlement_order import SettlementOrder
from .timeline import NOISE_FRAMES, STAGE_FRAMES, CardZone, ChipInstance, ChipZone, Slot
from .timings import (
    BESIDE_CARDS_MM,
    GONE_BEFORE_CLOSE_S,
    MISSED_GRACE_S,
    PAYOUT_LAG_S,
    REMNANT_S,
    SAME_TIME_S,
    TRANSIT_S,
    UNREAD_GONE_S,
)
from .zone_names import ZoneRef, parse_zone

DEFAULT_SESSION_START = datetime(2025, 1, 6, 20, 0, 0, tzinfo=UTC)  # the simulator's session start


def _drop_bump_doubts(live: LiveRound, zone: str, backs: list[int]) -> None:
    """A stack read as more for a moment, then surely as it was, with the more read with doubt more often than
    surely (`FALL_FROM_DOUBT`: a chip read then may have been none): the bump is dropped as noise
    (`ChipZone.settle_noise`), so the round already takes the more for no chip, and the doubt is answered (High Tie: a
    $100 Main read $200 for six frames, at 0.60-0.74, as the hand took the Side beside it, then $100 for good). A
    chip added after the close and taken back within `NOISE_FRAMES` would leave the same readings; it changes
    nothing that is paid."""
    for back in backs:
        note = f"{_observation_note(zone, back)}: {FALL_FROM_DOUBT}"
        if note in live.notes:
            live.notes.remove(note)
            live.note(f"inferred: {zone}: read as more only for a moment before frame {back}, mostly with doubt, "
                      "then surely as it was: no chip")


def _drop_unsure_bump(live: LiveRound, ch: ZoneChange) -> None:
    """A stack read as more with doubt, its doubt never lifted (the tracker lifts one once the total is read confidently
    in `stable_frames` frames), then surely as it was before: the more was no chip, however long it lasted. It is
    dropped from the stack's steps as a brief bump is (`ChipZone.settle_noise`, which takes those of up to
    `NOISE_FRAMES`), so no rise is claimed on it. (3 Card Monster: a $300 Royal of three $100 chips read $400 for 31
    frames, a fourth box at 0.37-0.56 as the hand reached for the stacks beside it, as for a frame now and then since
    it was laid, then $300 surely to the clearing.) A chip really added after the close and taken back again before
    the settlement would change nothing paid. A payout's more is dropped so only where it was never read surely since
    its spot was last empty (`ZoneState.read_surely`): what a payout was read as surely is weighed against what the
    rules pay (`SettlementDoubts`)."""
    chips = live.chips.get(ch.zone)
    cur = chips.current if chips is not None else None
    if cur is None or len(cur.steps) < 3 or ch.before.chip_total <= ch.after.chip_total + 0.005:
        return
    (_, was), (bumped, more), (back, now) = cur.steps[-3:]
    if back != ch.frame or back - bumped <= NOISE_FRAMES or bumped not in cur.doubtful:
        return
    if abs(was - now) > 0.005 or abs(more - ch.before.chip_total) > 0.005:
        return
    sure = any(abs(total - more) < 0.005 for total in ch.after.read_surely)
    if sure and parse_zone(ch.zone).area != "bet":
        return
    del cur.steps[-2:]
    cur.doubtful.discard(bumped)
    how = "its doubt never lifted" if sure else "never surely"
    live.note(f"inferred: {ch.zone}: read as {more:g} from frame {bumped}, {how}, then surely as {now:g} again from "
              f"frame {back}: no chip")


def _payout_laid_in_stages(live: LiveRound, zone: ChipZone) -> None:
    """A payout first read with doubt, then, within `STAGE_FRAMES`, surely as more: the doubtful reading was the
    payout being laid, no fact of what was paid (its peak). `ChipZone.settle_noise` so drops the doubt of every such
    step after a stack's first by keeping only a staged run's end; the first stays, as it dates the payout. (3 Card
    Monster: a $310 Play payout read $5 with doubt as its first chip was laid, hidden by the hand, then $310 surely
    seven frames later.)"""
    if parse_zone(zone.name).area == "bet":
        return
    for inst in zone.instances:
        if len(inst.steps) < 2:
            continue
        (laid, first), (full, more) = inst.steps[:2]
        if laid in inst.doubtful and full not in inst.doubtful and more > first and full - laid <= STAGE_FRAMES:
            inst.doubtful.discard(laid)
            note = next((n for n in live.notes if _observation_frame(n, zone.name) == laid), None)
            if note is not None:
                live.notes.remove(note)
            live.note(f"inferred: {zone.name}: read with doubt as {first:g} at frame {laid} as it was laid, surely as "
                      f"{more:g} from frame {full}")


def _confirmed(ch: ZoneChange) -> bool:
    """The tracker now reads confidently what it had confirmed with doubt (nothing else changed)."""
    return ch.before.uncertain and not ch.after.uncertain and replace(ch.before, uncertain=False) == ch.after


class RoundMachine(SettlementDoubts, SettlementOrder):
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

    @staticmethod
    def _short_row_filled(live: LiveRound, ch: ZoneChange) -> bool:
        """A wager confirmed with doubt as a lone row lying off its spot as one a chip short would (`SHORT_ROW`), now
        read surely as more: the chip missed came into view, and the doubt on the total before is answered (a rise
        after bets closed is weighed as any other). Its doubtful step is no doubt about the stack any more."""
        if not (ch.before.uncertain and ch.before.doubt == SHORT_ROW and not ch.after.uncertain
                and ch.after.chip_total > ch.before.chip_total + 0.005 and ch.zone in live.chips):
            return False
        cur = live.chips[ch.zone].current
        if cur is not None:
            cur.doubtful.discard(cur.steps[-1][0])
        return True

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
                    live.chips[ch.zone].confirm(lifted=ch.before.doubt == DOUBTFUL_READINGS)
            self._cards_sure(live, ch.zone, self.card_state(ref, ch.after), doubt.earlier if doubt else [])
            return
        laid = self._laid_as(live, ch)
        if laid and ch.after.doubt == SHORT_ROW:
            # read surely whole as it was laid: the chip its short row lacks lies under the stack laid beside it
            ch = replace(ch, after=replace(ch.after, uncertain=False, doubt=""))
            live.states[ch.zone] = ch.after
        if self._short_row_filled(live, ch) and doubt is not None:
            if doubt.note in live.notes:
                live.notes.remove(doubt.note)
            doubt = None
        earlier = list(doubt.earlier) if doubt is not None else []
        if doubt is not None and doubt.note in live.notes:
            earlier.append(doubt.note)
        if ch.after.uncertain:
            note = _observation_note(ch.zone, ch.frame)
            note += f": {ch.after.doubt}" if ch.after.doubt else ""
            live.note(note)
            live.doubts[ch.zone] = ZoneDoubt(note, ch.before, self._cards_trace(live, ch.zone), earlier)
        if ref.area in ("bet", "paid"):
            if laid:
                live.laid_more[ch.zone] = laid
            elif ch.before.chip_total and abs(ch.after.chip_total - live.laid_more.get(ch.zone, -1.0)) < 0.005:
                live.read_whole.append((ch.frame, ch.zone))
            total = laid or ch.after.chip_total
            live.chips.setdefault(ch.zone, ChipZone(ch.zone)).update(ch.frame, total, ch.after.uncertain,
                                                                     ch.after.hidden_room, ch.after.first_read,
                                                                     ch.after.reach_into, ch.after.read_surely,
                                                                     ch.after.read_surely_at, ch.after.doubt)
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
                _drop_unsure_bump(live, ch)
            elif not ch.after.uncertain and _part_of(ch.after, doubt.before):
                live.doubts[ch.zone] = doubt  # the hand still over the rest: what it shows next may undo the doubt

    @staticmethod
    def _laid_as(live: LiveRound, ch: ZoneChange) -> float:
        """The total a wager was read as, surely, as it was laid, where it is confirmed as less once another stack lies
        against it and a chip missed could lie under that stack's chip (`ZoneState.read_more`); else 0. A chip of it
        went under the stack laid beside it (a King High $2 High read $2 as it was laid, then $1 for good once a $20
        Seven was laid against it). The sure reading as laid was right in each of the five such wagers on the
        thirty-ninth and fortieth sessions' fresh sets (the lower one in none). A payout is left to the rules' amount:
        the dealer's hand over one as it is laid is read as chips. A wager in doubt only as a row a chip short
        (`SHORT_ROW`) is so answered: the chip it lacks is that one."""
        if (parse_zone(ch.zone).area != "bet" or ch.after.read_more <= ch.after.chip_total
                or (ch.after.uncertain and ch.after.doubt != SHORT_ROW)):
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

    def _drop_unread_beyond_packet(self, live: LiveRound) -> None:
        """A seat's card area holding every card the game deals a seat (`seat_cards`), each read, and more slots first
        seen no sooner than the last of them was read, never read as a face or a back and only with doubt: those are
        no cards (3 Card Monster, held-out sets A47 and A48: three times in 108 rounds, after a seat's four cards were
        read surely, a fifth box over the overlap of two of them, at 0.73-0.76 and unreadable, from the settlement to
        the clearing; held-out set A75, seed 15283, round cb66b4f8: the dealer's sleeve, boxed at 0.65-0.74 beside the
        packet from the frame its fourth card was turned over). A card dealt in excess is a card: its face or back is
        read. As `_cards_sure` drops a card read again where all the cards dealt were read surely."""
        dealt = self.seat_cards
        if not dealt:
            return
        for name, zone in live.cards.items():
            ref = parse_zone(name)
            if ref.area != "cards" or ref.sub is not None:
                continue
            read = [s for s in zone.slots if s.seen]
            extra = [s for s in zone.slots if not s.seen]
            if (len(read) != dealt or not extra or not all(s.back is None and s.uncertain for s in extra)
                    or min(s.frame for s in extra) < max(s.read_at or s.frame for s in read)):
                continue
            gone = {id(s) for s in extra}
            zone.slots = read
            live.slots[:] = [s for s in live.slots if id(s) not in gone]
            frames = {s.frame for s in extra}
            live.notes[:] = [n for n in live.notes if _observation_frame(n, name) not in frames]
            live.note(f"inferred: {name}: {len(extra)} card(s) first seen at frame {min(frames)}, once all {dealt} "
                      f"cards dealt to a seat were read, never read as a face or a back: no card")

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

    @staticmethod
    def _read_before_its_wager(p: ChipInstance, name: str, live: LiveRound) -> bool:
        """Whether payout-spot stack `p` was read with doubt in every frame it was confirmed in and was gone before a
        wager was first placed on its spot: a payout is laid after its wager, so it was a misreading (a 3 Card Monster
        Play payout spot read $5 for four frames at 0.26-0.47 beside the cards, forty frames before the Play)."""
        placed = live.wager_placed_at(name)
        return (placed is not None and p.end is not None and p.end <= placed
                and all(f in p.doubtful for f, _ in p.steps))

    def merge_chips(self, live: LiveRound) -> None:
        """One stack per spot per round: a stack that vanished and came back was only covered. Not a payout spot's
        across its wager's placing: a payout is laid after its wager, so what was read there before is something
        else (a 3 Card Monster Play payout spot read $5 for four frames with doubt, forty frames before the Play was
        placed, then paid $75: taken for one stack, the payout dated from before the Play and matched no wager)."""
        for name, z in live.chips.items():
            z.merge_gaps(float("inf"), blip=REMNANT_S * self.fps, apart_at=live.wager_placed_at(name))

    def _close(self, live: LiveRound) -> Round:
        self.merge_chips(live)
        for name, z in live.chips.items():
            _drop_bump_doubts(live, name, z.settle_noise())
            _payout_laid_in_stages(live, z)
        self._drop_unread_beyond_packet(live)
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
            if not self.holds_round_cards(live, zone.name):
                continue
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

    def holds_round_cards(self, live: LiveRound, area: str) -> bool:
        """Whether card area `area` holds cards of the round in its own right, so that a card it lost from view
        may be one the round missed. A game with nested areas says which of them repeat another's cards."""
        return True

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
                hand = self.hand_of(ref, inst, closes, live)
                if spot not in self.round_spots:
                    lock = inst.start  # placed as a decision: locked when placed
                elif (inst.end is not None and inst.end < lock - GONE_BEFORE_CLOSE_S * self.fps
                      and (hand > 0 or lock == closes[0])):
                    # Nothing rides on a stack gone before the bets that would lock it closed: placed and taken
                    # back, or another stack's chips carried over the spot. (King High: a High payout's chips read
                    # as $5 in the empty Seven spot for four frames as the dealer laid it, 2.8 s before the next
                    # card's bets closed: the round said a $5 Seven was wagered on that card and lost.) One wagered
                    # on the whole round first seen after its bets closed is placed late (below), whenever it went.
                    live.note(f"inferred: the {inst.peak:g} seen in {name} from frame {inst.start} to {inst.end} "
                              f"was gone before bets closed at frame {lock}: no wager")
                    continue
                amount = inst.value_at(lock)
                w = Wager(seat=ref.seat, spot=spot, amount=round(amount, 2), hand=hand, choice=choice,
                          frames=FrameRange(start=inst.start, end=inst.end if inst.end is not None else live.last),
                          uncertain=inst.uncertain)
                seen.append(WagerSeen(w, inst, lock, f"seat{ref.seat}.{ref.spot}.paid", uncertain=inst.uncertain))
                # Wagered before the deal, a stack first seen after bets closed is no wager made: placed late, or
                # another stack's chips read in its spot (a Pick 2 Bonus payout's $25 read in the empty 5-card Bonus
                # spot for three frames under the hand). A split hand's wager (hand > 0) is laid in play. Bets close
                # for it with the first close: King High closes again for each card (a Suit bet's $5 chip, carried
                # by the hand that took it, read in the High Run spot for three frames as the third card's bets
                # were settled: the round said a $5 High Run was wagered and lost).
                if spot in self.round_spots and hand == 0 and closes and inst.start > closes[0]:
                    _doubt_wager(live, seen[-1], f"first seen at frame {inst.start}, after bets closed at frame "
                                                 f"{closes[0]}: placed late, or chips of another stack read in "
                                                 "its spot")
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
                if (id(p) in used or p.start < ws.lock or p.start > end + lag or self._hand_read_as_chips(p)
                        or self._carried_under_hand(p, ws.paid_zone, live)):
                    continue
                if deadline is not None and p.start > deadline + lag:
                    continue
                used.add(id(p))
                ws.outcome, ws.paid, ws.settled_at = "win", round(p.peak, 2), p.start
                ws.settle_end, ws.payout = p.end, p
                ws.uncertain |= p.uncertain
                ws.moved_at, ws.moved_to = self._wager_moved_with_payout(ws, p) or (None, 0.0)
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
                elif (taken := self._collected_through(p, name, live)) is not None:
                    live.note(f"inferred: the {p.peak:g} seen in {name} from frame {p.start} to {p.end} was "
                              f"{taken[0]}'s stack, gone at frame {taken[1]}, carried over the spot")
                elif self._read_before_its_wager(p, name, live):
                    live.note(f"inferred: the {p.peak:g} read with doubt in {name} from frame {p.start} to {p.end}, "
                              "gone before a wager was placed on its spot, was no payout")
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
        self._falls_to_plain_view(seen, live)  # before the rules settle what was wagered
        # Lose or returned, and where pushes fall in the order: the game's own settlement of what was seen.
        try:
            expected = self.module.settle(rnd, self.settings)
        except Exception as e:
            live.note(f"the observed round cannot be settled by the rules: {e}")
            expected = []
        exp_outcome = {(x.seat, x.spot, x.hand): x.outcome for x in expected}
        self._payouts_shrunk(seen, expected, live)
        self._payouts_read_otherwise_as_rules_pay(seen, expected, live)
        self._unhanded_growths_read_unsure(seen, expected, live)
        self._doubt_short_payouts(seen, expected, live)
        self._doubt_overpays_lifted(seen, expected, live)
        self._doubt_payouts_read_less_after_hand(seen, live)
        self._paid_wagers_read_later(seen, expected, live)
        self._doubt_stacks_read_unsure(seen, expected, live)
        self._doubt_rises_read_before_close(seen, live)
        self._doubt_read_more_before_close(seen, live)
        self._doubt_rises_as_stack_read_whole(seen, live)
        self._doubt_payouts_grown_unhanded(seen, expected, live)
        self._doubt_falls_read_before(seen, live)
        self._doubt_payout_read_with_wager(seen, exp_outcome, live)
        self._doubt_payouts_read_as_one(seen, expected, live)
        self._doubt_losers_paid_beside_short_payouts(seen, expected, live)
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
                           (self._unseen_order, "a payout was laid out of view (its wager hidden, or its spot "
                                                "under the dealer's hand), so which came first is unknown")):
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
        """The paid spot of the same seat where a payout matched to its wager appeared, or grew by at least `p`'s
        total, just as `p`, a stack matched to none, went after a moment: the dealer's hand carried the payout over
        `p`'s spot on its way (a $40 Low payout read for 3 frames in the High's paid spot), or the zones counted the
        payout's end chips in `p`'s spot until they read its row whole (King High, held-out set A65, seed 14891: the
        $375 Low payout's two $25 chips read as $50 in the empty Suit's paid spot for four frames, gone as the Low's
        payout rose from $25 to $375 with no hand over either). None if there is none."""
        if p.end is None or p.end - p.start > TRANSIT_S * self.fps:
            return None
        seat, near = parse_zone(name).seat, SAME_TIME_S * self.fps

        def landed(q: ChipInstance) -> bool:
            return abs(q.start - p.end) <= near or any(abs(f - p.end) <= near and total - before >= p.peak - 0.005
                                                       for (_, before), (f, total) in itertools.pairwise(q.steps))
        return next((other for other, zone in paid.items() if other != name and parse_zone(other).seat == seat
                     and any(id(q) in used and landed(q) for q in zone.instances)), None)

    def _collected_through(self, p: ChipInstance, name: str, live: LiveRound) -> tuple[str, int] | None:
        """The betting spot, and the frame, whose stack went just before `p`, a stack in a paid spot matched to no
        wager, showed there for a moment, where it was of the same seat and read at least `p`'s total: the hand that
        took it carried it over `p`'s spot on its way to the rack (Pick 2 Poker: a $5 5 Card Bonus collected, and a $5
        chip read surely in the returned Play's paid spot for the next three frames). The hand carries a stack over
        other seats too, on its way to collect there: from another seat's spot, the stack taken must read just as `p`
        does (King High: a $50 High Run of two $25 chips collected at seat 2, read as $50 in seat 4's empty Suit paid
        spot for three frames as the hand went on to take seat 4's High Run; held-out set A59, seed 14661, round
        03aa7beb). None if there is none."""
        if p.end is None or p.end - p.start > TRANSIT_S * self.fps:
            return None
        seat, near = parse_zone(name).seat, SAME_TIME_S * self.fps
        for other, zone in live.chips.items():
            ref = parse_zone(other)
            if ref.area != "bet":
                continue
            for q in zone.instances:
                took = q.steps[-1][1]
                if (q.end is not None and 0 <= p.start - q.end <= near
                        and (took >= p.peak - 0.005 if ref.seat == seat else abs(took - p.peak) < 0.005)):
                    return other, q.end
        return None

    def _carried_under_hand(self, p: ChipInstance, name: str, live: LiveRound) -> bool:
        """Whether `p`, a stack in a paid spot, lay under the dealer's hand from the frame it showed to the frame it was
        gone, just as a stack of its seat was collected (`_collected_through`): the chips in the hand that took it,
        read surely as they passed over the spot, not a payout, for a payout laid stays once the hand leaves it
        (3 Card Monster, set A67, seed 14973, round 1ef4ecde: as the hand took a $40 Play to return it, $1 read surely
        under the hand in the Play's paid spot for four frames: "win 1")."""
        return self._under_hand_throughout(p) and self._collected_through(p, name, live) is not None

    def _hand_read_as_chips(self, p: ChipInstance) -> bool:
        """Whether a stack in a paid spot was read only with doubt, with the dealer's hand over the spot (`CoverLog`)
        from the frame it showed to the frame it was gone: no payout, for a payout laid stays once the hand leaves
        it. (3 Card Monster, sets QQ and RR: a $5 Play returned, and as the hand took its chip a box read below the
        detector's confidence in the Play's paid spot for four frames, $1 in one, $100 in the other: a win claimed
        with doubt. Over thirteen held-out sets it changed no other round.)"""
        return p.uncertain and self._under_hand_throughout(p)

    def _under_hand_throughout(self, p: ChipInstance) -> bool:
        """Whether the dealer's hand lay over `p`'s spot (`CoverLog`) from the frame `p` showed to the frame it was
        gone: one spell, so `p` was never seen in plain view."""
        return self.cover is not None and p.end is not None and self.cover.covered_through(p.zone, p.start, p.end)


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


def _trace(slots: list[Slot]) -> tuple:
    """What a card area's slots held (card, face up, when turned): changed by any card dealt, turned or read again."""
    return tuple((s.card, s.face_up, s.exposed_frame) for s in slots)


def _part_of(shown: ZoneState, before: ZoneState) -> bool:
    """A card area read confidently as some of the cards it held before its doubtful spell and nothing else: the
    dealer's hand still lies over the rest. Such a reading neither confirms nor undoes the doubt; the next may
    (`_doubt_undone`): a High Tie seat's first split hand, 9c Ks, came back from under the hand a card at a time, its
    Ks three frames before its 9c, and the unreadable face read beside them meanwhile was gone with the hand."""
    if not shown.cards or shown.chip_total != before.chip_total or len(shown.cards) >= len(before.cards):
        return False
    return not Counter(shown.cards) - Counter(before.cards)


def _laid_while_restless(ch: ZoneChange, doubt: ZoneDoubt) -> bool:
    """A payout spot that was empty, read by turns as totals that never confirmed (`RESTLESS_CHIPS`, taken with doubt
    as the likeliest), then confirmed surely as more than that and than every total read surely since it was empty:
    the turns were the payout being laid, chip by chip under the dealer's hand, and it is what it was laid as (a 3 Card
    Monster $400 Play payout read $100, $200 and $300 by turns for 15 frames, then surely $400). A payout read surely as
    more on the way, then confirmed as less, keeps its doubt: a chip of it may have gone unseen, or been taken back."""
    return (parse_zone(ch.zone).area == "paid" and ch.before.doubt in (RESTLESS_CHIPS, RESTLESS_BESIDE_WAGER)
            and doubt.before.empty
            and not ch.after.uncertain and ch.after.chip_total > ch.before.chip_total
            and ch.after.chip_total >= max(ch.after.read_surely, default=0.0) - 0.005)


def spots_beside_cards(game: str) -> set[str]:
    """Betting spots within `BESIDE_CARDS_MM` of their own seat's card area on the game's layout."""
    layout = layout_for(game)
    cards = [z for z in layout.zones if z.kind == "cards"]
    return {z.name for z in layout.zones if z.kind == "bet"
            and any(parse_zone(c.name).seat == parse_zone(z.name).seat
                    and polygon_gap_mm(z.polygon, c.polygon) <= BESIDE_CARDS_MM for c in cards)}
