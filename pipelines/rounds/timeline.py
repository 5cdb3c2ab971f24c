"""What each zone held over one round, as the tracker confirmed it: the raw facts the game machines read.

Nothing here knows a game. Chip zones keep a list of (frame, total) steps split into *instances* (a
stack appearing on an empty spot until the spot is empty again); card zones keep the cards dealt into
them. A card that vanishes is not taken to be removed (a hand or a later stack can hide it): cards are
only ever added or turned face up here, and the game machines decide what a disappearance means.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from pipelines.vision.observe import ZoneState

STAGE_FRAMES = 10  # steps of one direction this close together are one change seen in stages
NOISE_FRAMES = 20  # a stack that dips and comes back to the same total within this many frames was hidden
# A card read as a new identity within this distance of where a known card lay is that card read again. On held-out
# video (benchmarks/reconstruction.py sets 9201/9401/9701) a card read again moved at most 7 mm, a card dealt
# beside a hidden one lay 13 mm or more from it (a split hand's fan) and usually 30-200 mm.
REREAD_MM = 9.0
# A back read where a known face-up card lay, out of view, within this distance is that card under the dealer's hand,
# in an area whose cards lie side by side (a quarter of a card's width): a Pick 2 3s read as a back 9.9 mm off, its
# box cut short by the fingers. Where cards are dealt over one another (High Tie's cascades, 13 mm steps and more)
# `REREAD_MM` holds: there a back 18.7 mm off was the card read again, one 20.3 mm off a new card (one-off count over
# the eleven stored sets, benchmarks/RESULTS.md, fifty-fifth session).
REREAD_BACK_MM = 16.0


@dataclass
class Slot:
    """One card dealt this round."""

    seq: int
    zone: str
    card: str | None
    face_up: bool  # as dealt
    frame: int
    exposed_frame: int | None = None
    uncertain: bool = False
    back: str | None = None  # back colour, where the tracker saw one
    read_at: int | None = None  # frame its present identity was first read (turned over, added or read again)
    at: tuple[float, float] | None = None  # where it lay on the felt (mm) when last seen, where the tracker says
    # (frame, identity) for each identity it held until that frame, when read again as another card
    earlier: list[tuple[int, str | None]] = field(default_factory=list)
    # First seen as a face the classifier could not read, and no back seen in its area since: read later, it was
    # dealt face up, not turned over (`CardZone.update`).
    face_unread: bool = False

    @property
    def seen(self) -> bool:
        return self.card is not None

    def read_as(self, card: str, frame: int, at: tuple[float, float] | None, uncertain: bool) -> None:
        """Its identity is now `card`, read at `frame` where it lies at `at`."""
        if card != self.card:
            self.earlier.append((frame, self.card))
        self.card, self.read_at, self.at = card, frame, at
        self.uncertain |= uncertain

    def card_at(self, frame: int) -> str | None:
        """The identity it held at `frame`, before any later reading of it as another card."""
        return next((card for until, card in self.earlier if frame < until), self.card)


@dataclass
class ChipInstance:
    """A stack on one spot, from the frame it appeared to the frame the spot was empty again."""

    zone: str
    start: int
    steps: list[tuple[int, float]]  # (frame, total), the first one the placement
    end: int | None = None  # the frame it was gone; None while still there
    doubtful: set[int] = field(default_factory=set)  # frames of steps read below the detector's confidence
    hidden: list[tuple[int, int]] = field(default_factory=list)  # (gone, back) spells it was out of view (`absorb`)
    hidden_room: bool = True  # a chip of it missed could have lain unseen (`ZoneState.hidden_room`)
    first_read: dict[int, int] = field(default_factory=dict)  # step frame -> its total first read (`ZoneState`)
    # doubtful step frame -> the other betting spots chips of it lay in, where that was its only doubt (`ZoneState`)
    reached: dict[int, tuple[str, ...]] = field(default_factory=dict)
    read_surely: set[float] = field(default_factory=set)  # totals read confidently in frames too few to confirm
    read_surely_at: dict[float, int] = field(default_factory=dict)  # ... and the last frame each was read so
    read_clear: set[float] = field(default_factory=set)  # ... those read so lying against no other stack
    # frames of steps confirmed from readings below the detector's confidence, their doubt lifted since by a few
    # frames read confidently (`ChipZone.confirm`)
    lifted: set[int] = field(default_factory=set)
    # step frame -> `hidden_room` as that step was confirmed (`ChipZone.update`); `hidden_room` where none was kept
    room: dict[int, bool] = field(default_factory=dict)
    why: dict[int, str] = field(default_factory=dict)  # doubtful step frame -> why, as the tracker said (`ZoneState`)
    # (frame first read, total) of each confirmed rise read surely that came back down quickly, dropped as noise
    # (`ChipZone.settle_noise`): gone from the steps, still a reading (`SettlementDoubts._wager_read_as_payout_came`)
    bumps: list[tuple[int, float]] = field(default_factory=list)

    @property
    def uncertain(self) -> bool:
        """A total this stack's facts rest on was read below the detector's confidence. A doubtful reading
        since dropped as noise, or read again confidently, is not one of them."""
        return bool(self.doubtful_frames())

    def doubtful_frames(self) -> list[int]:
        return [f for f, _ in self.steps if f in self.doubtful]

    def peak_had_room(self) -> bool:
        """Whether a chip of it missed could have lain unseen in some step that read its peak: a stack read short with
        room for a chip unseen, then read larger for good in plain view, was seen whole at its largest."""
        return any(self.room.get(f, self.hidden_room) for f, v in self.steps if abs(v - self.peak) < 0.005)

    def _same_again(self, kept: tuple[int, float], again: tuple[int, float]) -> None:
        """`again` reads what `kept` read and is dropped: read confidently, it clears `kept`'s doubt; read with
        doubt, its doubt joins `kept`'s."""
        if again[0] not in self.doubtful:
            self.doubtful.discard(kept[0])
        elif kept[0] in self.reached:
            if again[0] in self.reached:
                self.reached[kept[0]] = tuple(sorted({*self.reached[kept[0]], *self.reached[again[0]]}))
            else:
                del self.reached[kept[0]]  # doubted for more than its reach

    def remnant_of(self, gone: ChipInstance, within: float) -> bool:
        """This stack was seen no longer than `within` frames, from at most that long after `gone`, the stack before
        it on its spot, went, and read less than `gone` last did: `gone` seen in part as a hand left it."""
        return (gone.end is not None and self.end is not None and 0 <= self.start - gone.end <= within
                and self.end - self.start <= within and self.peak < gone.steps[-1][1] - 0.005)

    def continued_by(self, later: ChipInstance) -> bool:
        """`later` may be this stack seen again after it was covered: it is read, at its most, as at least half of
        the least this stack was read as. (A $1 chip read for three frames in a Play spot after its $30 was
        taken is no $30 stack seen again; taken as one, the Play looked settled last.)"""
        return self.end is not None and 2 * later.peak >= min(v for _, v in self.steps) - 0.005

    def absorb(self, later: ChipInstance) -> None:
        """`later` was this stack again (it had only been covered): one instance from here on."""
        if self.end is not None:
            self.hidden.append((self.end, later.start))
        self.steps += later.steps
        self.end = later.end
        self.doubtful |= later.doubtful
        self.hidden_room |= later.hidden_room
        self.room |= later.room
        self.why |= later.why
        self.hidden += later.hidden
        self.first_read |= later.first_read
        self.reached |= later.reached
        self.read_surely |= later.read_surely
        self.note_read_surely_at((t, f, t in later.read_clear) for t, f in later.read_surely_at.items())
        self.lifted |= later.lifted
        self.bumps += later.bumps

    def note_read_surely_at(self, readings: Iterable[tuple[float, int, bool]]) -> None:
        """Totals read confidently, each with the last frame it was read so (the later frame is kept) and whether so
        in a frame its chips lay against no other stack's."""
        for total, frame, clear in readings:
            self.read_surely_at[total] = max(frame, self.read_surely_at.get(total, frame))
            if clear:
                self.read_clear.add(total)

    def split_at(self, frame: int) -> ChipInstance:
        """End this stack at `frame` and return the rest as a new stack placed then with the total read then."""
        before = [s for s in self.steps if s[0] <= frame]
        carried = (frame, before[-1][1])
        tail = ChipInstance(self.zone, frame, [carried, *(s for s in self.steps if s[0] > frame)], self.end,
                            {f for f in self.doubtful if f > frame}, [h for h in self.hidden if h[1] > frame],
                            self.hidden_room, {f: r for f, r in self.first_read.items() if f > frame},
                            {f: r for f, r in self.reached.items() if f > frame})
        tail.room = {f: r for f, r in self.room.items() if f > frame}
        tail.room[frame] = self.room.get(before[-1][0], self.hidden_room)
        tail.why = {f: w for f, w in self.why.items() if f > frame}
        tail.lifted = {f for f in self.lifted if f > frame} | ({frame} if before[-1][0] in self.lifted else set())
        if before[-1][0] in self.doubtful:  # the carried total keeps the doubt it was read with
            tail.doubtful.add(frame)
            if before[-1][0] in self.why:
                tail.why[frame] = self.why[before[-1][0]]
            if before[-1][0] in self.reached:
                tail.reached[frame] = self.reached[before[-1][0]]
        self.steps, self.end = before, frame
        self.hidden = [h for h in self.hidden if h[1] <= frame]
        return tail

    @property
    def first(self) -> float:
        return self.steps[0][1]

    @property
    def peak(self) -> float:
        return max(v for _, v in self.steps)

    def value_at(self, frame: int) -> float:
        value = self.steps[0][1]
        for f, v in self.steps:
            if f > frame:
                break
            value = v
        return value

    def last_read(self) -> float:
        """Its total as last read before it went (as read now, while it still lies)."""
        end = self.end if self.end is not None else self.steps[-1][0] + 1
        return self.value_at(end - 1)

    def changes_after(self, frame: int) -> list[tuple[int, float, float]]:
        """(frame, before, after) for every change of the total after `frame` (placement excluded)."""
        out = []
        for (_, a), (f, b) in zip(self.steps, self.steps[1:], strict=False):
            if f > frame and a != b:
                out.append((f, a, b))
        return out


@dataclass
class ChipZone:
    name: str
    instances: list[ChipInstance] = field(default_factory=list)

    @property
    def current(self) -> ChipInstance | None:
        if self.instances and self.instances[-1].end is None:
            return self.instances[-1]
        return None

    def update(self, frame: int, total: float, uncertain: bool, hidden_room: bool = True,
               first_read: int | None = None, reach_into: tuple[str, ...] = (),
               read_surely: tuple[float, ...] = (), read_surely_at: tuple[tuple[float, int, bool], ...] = (),
               why: str = "") -> None:
        """A confirmed total; `hidden_room`: a chip of it missed could lie unseen (over a card's edge, under another
        stack's chip, or at the end of a payout lying off its spot's centre); `first_read`: the frame that total was
        first read; `reach_into`: the other betting spots chips of it lay in, where that is its only doubt;
        `read_surely`: totals read confidently on the spot in frames too few to confirm, `read_surely_at` with the last
        frame each was read so and whether so lying against no other stack; `why`: why it is uncertain (`ZoneState`)."""
        cur = self.current
        if total > 0:
            if cur is None:
                cur = ChipInstance(self.name, frame, [(frame, total)], hidden_room=hidden_room)
                self.instances.append(cur)
            else:
                cur.steps.append((frame, total))
                cur.hidden_room |= hidden_room
            cur.room[frame] = bool(hidden_room)
            if uncertain:
                cur.doubtful.add(frame)
                if why:
                    cur.why[frame] = why
                if reach_into:
                    cur.reached[frame] = reach_into
            if first_read is not None:
                cur.first_read[frame] = first_read
            cur.read_surely |= set(read_surely)
            cur.note_read_surely_at(read_surely_at)
        elif cur is not None:
            cur.end = frame

    def confirm(self, total: float | None = None, first_read: int | None = None, lifted: bool = False) -> None:
        """The stack's present total, read with doubt, was since read confidently; as `total`, where that is given
        (`ZoneState.corrects`): the doubtful total was a misreading, and `total` takes its place, first read at
        `first_read` where that is known. `lifted`: its doubt was for readings below the detector's confidence in most
        of its frames, lifted by a few read confidently since (`ChipInstance.lifted`)."""
        cur = self.current
        if cur is None:
            return
        frame = cur.steps[-1][0]
        if lifted and total is None and frame in cur.doubtful:
            cur.lifted.add(frame)
        cur.doubtful.discard(frame)
        if total is not None:
            cur.steps[-1] = (frame, total)
            if first_read is not None:
                cur.first_read[frame] = first_read
            if len(cur.steps) > 1 and cur.steps[-2][1] == total:  # it never changed
                cur.steps.pop()

    def laid_before(self, frame: int) -> None:
        """The present stack's doubtful readings before `frame` were it being laid: they are no doubt about it."""
        cur = self.current
        if cur is not None:
            cur.doubtful = {f for f in cur.doubtful if f >= frame}

    def merge_gaps(self, max_gap: float, blip: float = 0.0, apart_at: int | None = None) -> None:
        """Join a stack that vanished and came back within `max_gap` frames: it was covered, not taken. A stack
        read between the two for no more than `blip` frames, and less than the one that went, was that one seen in
        part under the hand: it joins them (a 3 Card Monster $250 Ante payout read $50 for four frames under the
        hand paying the Play beside it, then $250 again: taken for a second payout, it matched no wager). Stacks
        on either side of frame `apart_at` are two (a payout spot's, before and after its wager was placed)."""
        merged: list[ChipInstance] = []
        rest = list(self.instances)

        def joins(prev: ChipInstance, later: ChipInstance) -> bool:
            return (prev.continued_by(later) and later.start - prev.end <= max_gap
                    and not (apart_at is not None and prev.end <= apart_at <= later.start))

        while rest:
            inst = rest.pop(0)
            prev = merged[-1] if merged else None
            if prev is not None and joins(prev, inst):
                prev.absorb(inst)
            elif prev is not None and rest and inst.remnant_of(prev, blip) and joins(prev, rest[0]):
                prev.absorb(inst)
                prev.absorb(rest.pop(0))
            else:
                merged.append(inst)
        self.instances = merged

    def settle_noise(self) -> list[int]:
        """Drop dips and bumps that return to the previous total quickly (something passed over it). Returns the
        frames at which each bump dropped came back down (`machine._drop_bump_doubts`)."""
        bumps: list[int] = []
        for inst in self.instances:
            steps = inst.steps
            changed = True
            while changed:
                changed = False
                for i in range(1, len(steps) - 1):
                    if steps[i - 1][1] == steps[i + 1][1] and steps[i + 1][0] - steps[i][0] <= NOISE_FRAMES:
                        inst._same_again(steps[i - 1], steps[i + 1])
                        if steps[i][1] > steps[i + 1][1]:
                            bumps.append(steps[i + 1][0])
                            if steps[i][0] not in inst.doubtful:
                                inst.bumps.append((inst.first_read.get(steps[i][0], steps[i][0]), steps[i][1]))
                        del steps[i:i + 2]
                        changed = True
                        break
            # consecutive equal totals carry nothing
            kept: list[tuple[int, float]] = []
            for step in steps:
                if kept and kept[-1][1] == step[1]:
                    inst._same_again(kept[-1], step)
                else:
                    kept.append(step)
            steps = kept
            # a stack revealed (or covered) in stages is one change: keep the run's end
            i = 1
            while i < len(steps) - 1:
                up = steps[i][1] > steps[i - 1][1]
                if (steps[i + 1][1] > steps[i][1]) == up and steps[i + 1][0] - steps[i][0] <= STAGE_FRAMES:
                    del steps[i]
                else:
                    i += 1
            inst.steps = steps
        return bumps


@dataclass
class CardZone:
    """Cards dealt into one zone: face-down slots are filled in as the cards are turned over."""

    name: str
    slots: list[Slot] = field(default_factory=list)
    visible: tuple[tuple[str | None, bool], ...] = ()
    empty_since: int | None = None
    emptied: list[int] = field(default_factory=list)  # frames at which the area was seen empty
    # Slots before this index have left the area (a game machine saw them arrive elsewhere, e.g. a King
    # High action card on its holding box): a card of the same identity seen here later is a new card.
    moved_on: int = 0
    visible_since: int | None = None  # frame of the last confirmed change of what the area shows
    # (known card, new identity, frame): a known card out of view read as another while more cards arrived,
    # taken as a re-read though it may be a new card covering it; withdrawn once the known card shows again
    doubts: list[tuple[str, str, int]] = field(default_factory=list)
    # (known card, new card, frame): a new card read away from where a known card lay as that card went out of
    # view, with no more cards in view than before: dealt over it. A card between the two may lie as hidden (a
    # split hand's cascade, where two hits covered the cards before them); withdrawn once the known card shows
    covered: list[tuple[str, str, int]] = field(default_factory=list)
    # frames a face-up card was read in it, where a game machine keeps them (King High's holding boxes, where only
    # face-down burns count as cards: `KingHighMachine.card_state`)
    up_seen: list[int] = field(default_factory=list)

    @property
    def present(self) -> list[Slot]:
        return self.slots[self.moved_on:]

    def known(self) -> Counter:
        return Counter(s.card for s in self.present if s.card is not None)

    def face_down_left(self) -> list[Slot]:
        return [s for s in self.present if s.card is None]

    def gone_at_once(self, slot: Slot, within: float) -> bool:
        """The area read empty again within `within` frames of `slot` showing: a card dealt stays until the clearing,
        so that was no card (the dealer's hand read as one)."""
        return any(slot.frame < e <= slot.frame + within for e in self.emptied)

    def confirm(self, state: ZoneState) -> None:
        """What the area shows, read with doubt, was since read confidently: the cards in view are sure. A card
        in view accounts first for a slot already sure of it (two slots read 8d, one surely: one 8d in view
        leaves the other in doubt)."""
        shown = Counter(c for c, up in state.cards if up and c is not None)
        down = sum(1 for c, up in state.cards if not up)
        for slot in sorted(self.present, key=lambda s: s.uncertain):
            if slot.card is not None and shown[slot.card] > 0:
                shown[slot.card] -= 1
                slot.uncertain = False
            elif slot.card is None and down > 0:
                down -= 1
                slot.uncertain = False

    def drop_rereads(self, shown: ZoneState, dealt: int) -> list[tuple[str, int]]:
        """Drop the slots that were a card read twice, given that exactly `dealt` cards are dealt here and
        `shown`, read confidently, holds `dealt` cards face up. The surplus: where the slots read surely are
        those cards and every other slot was read only with doubt as one of them (a Qc under the hand read as
        a second Qs). A card really dealt twice is read surely as both; a card too many keeps a slot. A
        face-down card taken as turned over into that misreading was turned over later, into the face-up card
        then first seen: it keeps its place in the deal. Returns (card, frame read) of each dropped reading."""
        up = [c for c, face_up in shown.cards if face_up and c is not None]
        present = self.present
        if len(shown.cards) != dealt or len(up) != dealt or len(present) <= dealt:
            return []
        sure = Counter(s.card for s in present if not s.uncertain)
        surplus = [s for s in present if s.uncertain]
        if sure != Counter(up) or not all(s.card in sure for s in surplus):
            return []
        dropped: list[tuple[str, int]] = []
        gone: set[int] = set()  # by identity: two slots may hold equal fields
        taken = {id(s) for s in surplus}
        for s in surplus:
            read = s.read_at if s.read_at is not None else s.frame
            dropped.append((s.card, read))
            later = [t for t in present if t.face_up and id(t) not in taken and t.frame >= read]
            if s.face_up or not later:
                gone.add(id(s))
                continue
            t = min(later, key=lambda t: t.frame)
            taken.add(id(t))
            gone.add(id(t))
            s.card, s.exposed_frame, s.read_at, s.uncertain = t.card, t.frame, t.frame, t.uncertain
            s.back = s.back or t.back
        self.slots = [s for s in self.slots if id(s) not in gone]
        self._order_from(shown)
        return dropped

    def update(self, frame: int, state: ZoneState, next_seq: int, table_order: bool = False,
               rereads: bool = False, dealt_over: bool = False) -> tuple[list[Slot], list[Slot]]:
        """Apply a new confirmed state. Returns (new slots, slots exposed now). Cards first seen in one
        update are new face-up ones then face-down ones, or with `table_order` as they lie (a row dealt
        left to right, some face up). With `rereads` (cards stay in their area until the clearing), a
        new identity while no more cards are in view than were dealt here corrects a known one; with `dealt_over`
        (a card may be dealt over the one before it), only one read where that one lay."""
        self.visible, self.visible_since = state.cards, frame
        self.empty_since = frame if not state.cards else None
        if not state.cards:
            self.emptied.append(frame)
        backs_seen = sum(1 for _, up in state.cards if not up)
        down_seen = backs_seen + sum(1 for c, up in state.cards if up and c is None)  # backs and unread faces
        seen = Counter(c for c, up in state.cards if up and c is not None)
        known = self.known()
        exposed: list[Slot] = []
        backs = state.backs or (None,) * len(state.cards)
        spots = state.spots or (None,) * len(state.cards)
        fresh = self._fresh(state, spots, known)
        down_at = [pos for pos, (c, up) in enumerate(state.cards) if not up or c is None]
        hidden_down = self.face_down_left()
        if backs_seen >= len(hidden_down):
            for slot in hidden_down:  # as many backs in view as cards unread: each of them is a back
                slot.face_unread = False
        self.doubts = [d for d in self.doubts if seen[d[0]] == 0]
        self._drop_read_over(seen)
        self.covered = [d for d in self.covered if seen[d[0]] == 0]
        added: list[tuple[int, Slot]] = []
        # Known cards not in view now: with no more cards in view than were dealt here, a new identity is
        # one of these read again (the tracker's vote for a half-covered card changed), not a new card.
        misread = self._out_of_view(state, spots) if rereads else []
        # With new cards in view as well, where each lies tells a known card read again (in its own place)
        # from one more card (elsewhere, the known card hidden under it or under the dealer's hand).
        arrived = len(state.cards) > len(self.present)
        back_within = REREAD_MM if dealt_over else REREAD_BACK_MM
        for pos, c in fresh:
            # A face where a face-down card lay is that card turned over, though a box that is no card may read as
            # one more unread card meanwhile (3 Card Monster, held-out set A75, seed 15283, round cb66b4f8: the
            # dealer's sleeve read as an unread face beside the packet as the fourth card was turned, taken for a
            # fifth card and the fourth for never turned).
            in_place = [s for s in hidden_down if _mm(s.at, spots[pos]) <= back_within]
            # A face-down card no longer seen face down, and one more face-up card: it was turned over.
            if len(hidden_down) > down_seen or in_place:
                # A face first seen unread is the likelier one read now (High Tie: a 7h under the hand read as a
                # face for a few frames, then read, was taken for a card dealt face down and turned over).
                slot = in_place[0] if in_place else next((s for s in hidden_down if s.face_unread), hidden_down[0])
                hidden_down.remove(slot)
                slot.read_as(c, frame, spots[pos], state.uncertain)
                slot.back = slot.back or backs[pos]
                if slot.face_unread:
                    slot.face_up, slot.face_unread = True, False
                else:
                    slot.exposed_frame = frame
                    exposed.append(slot)
            elif misread and _mm((near := _nearest(misread, spots[pos])).at, spots[pos]) <= REREAD_MM:
                misread.remove(near)  # the known card, in its own place, read again
                near.read_as(c, frame, spots[pos], state.uncertain)
            elif misread and len(state.cards) <= len(self.present) + len(added) and not (
                    (arrived or dealt_over) and spots[pos] is not None and all(sl.at is not None for sl in misread)):
                slot = misread.pop(min(pos, len(misread) - 1))
                if arrived:
                    # New cards arrived too, and where the known card lay is not known: c may be one more,
                    # dealt over the known card and hiding it.
                    self.doubts.append((slot.card, c, frame))
                slot.read_as(c, frame, spots[pos], state.uncertain)
            else:
                if misread and not arrived:  # where each lies says another card, yet no more are in view
                    self.covered.append((_nearest(misread, spots[pos]).card, c, frame))
                added.append((pos, Slot(0, self.name, c, True, frame, uncertain=state.uncertain, back=backs[pos],
                                        read_at=frame, at=spots[pos])))
        more_down = max(0, down_seen - len(hidden_down))
        # The new unread cards that are faces, not backs (which of them lies where does not matter: none is read).
        faces = down_seen - backs_seen - sum(s.face_unread for s in hidden_down)
        for pos in down_at[len(down_at) - more_down:] if more_down else []:  # dealt left to right: new ones last
            if misread and _mm((near := _nearest(misread, spots[pos])).at, spots[pos]) <= back_within:
                # A known face-up card out of view, in its own place, read as a back: dealt cards are not turned
                # back down, so it is that card under the dealer's hand (a High Tie Qd read as a back for four
                # frames as the hand dealt the next card, and taken for a fourth card the seat never had).
                misread.remove(near)
                continue
            added.append((pos, Slot(0, self.name, None, False, frame, uncertain=state.uncertain, back=backs[pos],
                                    at=spots[pos], face_unread=faces > 0)))
            faces -= 1
        if table_order:
            added.sort(key=lambda t: t[0])
        new = [slot for _, slot in added]
        for i, slot in enumerate(new):
            slot.seq = next_seq + i
        self.slots.extend(new)
        self._order_from(state)
        self._place(state)
        return new, exposed

    def _drop_read_over(self, seen: Counter) -> None:
        """A card taken as dealt over a known one (`covered`) that is gone from view as the known card shows again was
        that card read under the dealer's hand: a card dealt over another lies on it, in view while it is. Held-out
        High Tie (set A2, seed 12362, round 7ff4f9fc): a 5d under the hand read as 6d 14 mm from it for six frames,
        taken for a hit dealt over it; the 5d then showed with the two hits dealt after it, and the 6d never again."""
        gone = {(new, frame) for known, new, frame in self.covered if seen[known] > 0 and seen[new] == 0}
        if gone:
            self.slots = [s for s in self.slots if (s.card, s.frame) not in gone or s.earlier]

    def _fresh(self, state: ZoneState, spots: tuple, known: Counter) -> list[tuple[int, str]]:
        """(position, identity) of the cards in view not yet accounted for, in table order (the order a dealer turns
        a row over). Of more cards of one identity in view than are known, the known ones are those lying where
        they lay, where that is known: a High Tie dealer's 6h read by turns as 7h, then a 7h dealt beside it, the
        new 7h is the one in the new place (taken for the old one's place, the 6h read again later became one
        more card)."""
        fresh: list[tuple[int, str]] = []
        for c in dict.fromkeys(c for c, up in state.cards if up and c is not None):
            at = [pos for pos, (x, up) in enumerate(state.cards) if up and x == c]
            if len(at) <= known[c]:
                continue
            holders = [sl for sl in self.present if sl.card == c]
            if all(sl.at is not None for sl in holders) and all(spots[pos] is not None for pos in at):
                for sl in holders:
                    at.remove(min(at, key=lambda pos: _mm(sl.at, spots[pos])))
            else:
                at = at[:len(at) - known[c]]
            fresh += [(pos, c) for pos in at]
        return sorted(fresh)

    def _out_of_view(self, state: ZoneState, spots: tuple) -> list[Slot]:
        """The known face-up cards not in view now: of more known cards of one identity than are in view, those
        farthest from where it shows (each card in view accounts for the nearest)."""
        left = [sl for sl in self.present if sl.card is not None]
        for (c, up), spot in zip(state.cards, spots, strict=True):
            holders = [sl for sl in left if up and sl.card == c]
            if holders:
                left.remove(_nearest(holders, spot))
        return left

    def _place(self, state: ZoneState) -> None:
        """Note where each face-up card in view lies, on the slot that holds its identity."""
        if not state.spots:
            return
        for (c, up), spot in zip(state.cards, state.spots, strict=True):
            holders = [s for s in self.present if up and s.card == c]
            if holders:
                _nearest(holders, spot).at = spot

    def _order_from(self, state: ZoneState) -> None:
        """A full face-up view fixes the order: cards lie in the order they were dealt."""
        full = [c for c, up in state.cards if up and c is not None]
        present = self.present
        if len(full) == len(present) == len(state.cards) and Counter(full) == self.known():
            for slot, c in zip(present, full, strict=True):
                slot.card = c


def _nearest(slots: list[Slot], spot: tuple[float, float] | None) -> Slot:
    return min(slots, key=lambda s: _mm(s.at, spot))


def _mm(a: tuple[float, float] | None, b: tuple[float, float] | None) -> float:
    """Distance on the felt; infinite where either place is unknown."""
    return math.inf if a is None or b is None else math.dist(a, b)
