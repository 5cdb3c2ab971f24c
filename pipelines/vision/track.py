"""Debounced zone states from per-frame observations: `ZoneTracker.update(frame, FrameObs) -> [ZoneChange]`.

- A zone's new contents count once seen unchanged for `stable_frames` consecutive analysed frames, so a
  hand passing over the felt neither creates nor erases anything.
- Contents that *shrink* (cards or chips gone, everything left still matching) look exactly like a hand
  covering part of the zone, so a loss needs `removal_frames` (longer) before it counts; the change is
  still dated to the first frame it was seen.
- A blip shorter than `stable_frames` inside a run of new contents does not move the date of the run.
- A frame that reads a zone as confirmed, the dealer's hand over it (`covered`), amid new contents that hold a card
  more, neither ends nor counts towards their run: the hand hides the card (`_hidden_by_hand`).
- Chips gone for `stable_frames` (too briefly to count as a loss) and replaced by other chips were taken
  away and others put down: reported as the spot emptied, then filled, not as one stack changing.
- Cards are followed by position within their zone; a card's identity is the majority of its confident
  readings over all frames (ties keep the earlier answer), so one misread frame changes nothing; once a
  card has readings at `card_sure_conf` or above, only those count, and once it has readings at `CERTAIN_CARD_CONF`
  in boxes the detector is sure of (`CERTAIN_BOX_CONF`) that agree, only those; one read as two identities and
  never at `card_sure_conf` is not known (its state is uncertain). When a confirmed card's majority identity
  changes later, that is reported as a change too. One read as another card `removal_frames` times running was
  swapped, and is not known until read as it as often again; but read back certainly as the card it was read
  certainly as before, and never certainly as the other, it is that card, at once (`CardTrack._read_back`,
  `_contest_answered`): a hand lay over its pips.
- Uncertain observations (below the detector's confidence) make the state `uncertain` unless it was also
  seen confidently: new contents confirm as certain once `stable_frames` of their frames were confident,
  and wait up to `stable_frames` more frames for that before they confirm as uncertain (the change is
  dated to its first frame either way). A state confirmed as uncertain becomes certain once read
  with high confidence (`sure_conf`) for `stable_frames` more frames: a change that differs only in
  `uncertain`.
- Each card keeps the back colour it showed most often (`ZoneState.backs`), also once turned face up.
- A confirmed stack read confidently as other totals in `OUTREAD_MIN` of the last `RESTLESS_WINDOW` frames and
  more often than as its own, the dealer's hand not over it (`covered`), none of them long enough to confirm,
  becomes uncertain (`_unsteady`): chips counted now with it, now with its neighbour. New contents confirmed dated
  before all but a few of those readings answer that doubt: the readings were of them (`_outread_was_new`); so do
  more chips confirmed after readings of more since the stack was last read as it (a payout laid on it).
- A confirmed payout read surely as more for a spell too short to confirm, then as confirmed again, becomes
  uncertain (`_payout_read_larger_briefly`): a chip of it may go unseen in its other frames. Where its wager read
  surely as less in that spell, reading it as confirmed again does not lift the doubt: the chip where the two meet
  was counted now with one, now with the other.
- A run of loss readings, each too short to confirm, after a stack's spot first read empty is one blip: the
  removal keeps the date of the empty run it interrupted.
- New chips read in most of the last `RESTLESS_WINDOW` frames without ever reading alike long enough to
  confirm are confirmed as uncertain (their most frequent confident reading, else their most frequent):
  something is there, so the round says it is unsure rather than passing it over. Chips read only with doubt
  over a stack still read confidently as confirmed are no new chips (`_restless`). A wager read so that was read
  surely whole while clear of every other stack, and since only as fewer chips against another, is that whole,
  with no doubt (`_whole_before_met`).
- A stack confirmed from readings below the detector's confidence alone, then read surely as one smaller total in
  plain view in `OUTREAD_MIN` of the last `RESTLESS_WINDOW` frames (or confirmed with doubt for a chip counted in a
  gap, read so as that total and never as its own), is that smaller total (`_gap_read_away`, `_box_read_away`); the
  doubtful total seen again only with doubt is no chip added (`_gap_again`).
- A payout spot that read chips for `BRIEF_FRAMES` frames running, never alike long enough to confirm, and
  then empty held a payout laid and taken at once: confirmed as uncertain from its first frame to the empty one.
- Chips confirmed on an empty spot that were read confidently as more since it was last read empty, where a chip
  missed could lie under another stack's chip, carry the larger reading (`ZoneState.read_more`): a chip of it may
  have gone under the stack laid beside it. So do some of a stack's own chips, confirmed in its place where it was
  confirmed in plain view. The round machine weighs it.
- Every uncertain state says why (`ZoneState.doubt`), in the words the round's note gives the reviewer.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from .card_track import CardTrack
from .chip_stacks import _wager_of
from .observe import CardObs, FrameObs, ZoneChange, ZoneObs, ZoneState

# New chips read in this share of the last RESTLESS_WINDOW frames without confirming are confirmed as uncertain.
RESTLESS_WINDOW, RESTLESS_SHARE = 20, 0.6
# ... unless read only with doubt, beside a confirmed stack read confidently in this share of the window: the frames
# since the stack was confirmed, at most RESTLESS_WINDOW (`ZoneTracker._restless`).
STEADY_SHARE = 0.25
# A confirmed stack read confidently as another total in this many of the last RESTLESS_WINDOW frames, and more often
# than as its own, the dealer's hand not over it, is unsteady (`_unsteady`).
OUTREAD_MIN = 6
BRIEF_FRAMES = 4  # a payout spot read as holding chips this many frames running, then empty, held a payout
Signature = tuple[tuple[tuple[int, bool], ...], float]  # ((track id, face up) in table order, chip total)
# Why a state is uncertain, in the words a round's note gives a reviewer (`ZoneState.doubt`).
DOUBTFUL_READINGS = ("read with doubt in most of its frames (below the detector's confidence, a card read through "
                     "chips on it, or chips reaching into another spot)")
CONTESTED_CARD = "a card read as more than one card and never surely"
RESTLESS_CHIPS = f"chips read in most of the last {RESTLESS_WINDOW} frames, never alike long enough to confirm"
# ... where some of those frames read none in the payout spot and its wager as more than it is (`_wager_read_over`)
RESTLESS_BESIDE_WAGER = ("chips read in it, or counted with its wager beside it, in most of the last "
                         f"{RESTLESS_WINDOW} frames, never alike long enough to confirm: a payout in one line with its "
                         "wager may read as part of it")
REACHING_CHIPS = ("read with doubt: chips of it lie in another betting spot (two players' stacks in one line "
                  "may read as one)")
BRIEF_PAYOUT = ("read for a moment only, never alike long enough to confirm, then gone: a payout laid and taken "
                "with its wager")
PAYOUT_READ_LARGER = ("read surely as {more} for a moment, more than it was confirmed as: a chip of it may have gone "
                    "unseen in its other frames")
# ... said first where its wager read surely as less in those frames (`_payout_read_larger_briefly`)
# A wager confirmed as a lone row short of a full one, lying off its spot's centre as the row a chip longer would in
# every frame that confirmed it (`ZoneObs.chips_short_row`), as it was laid on an empty spot (a stack read short as a
# hand passes over it, or while chips are taken, is no such thing); lifted once read centred (`_update_zone`).
SHORT_ROW = ("its one row lay off its spot's centre in every frame that confirmed it, as the same row a chip longer "
             "would: a chip at its end may have gone unseen, or the box at its other end be none")
WAGER_READ_LESS = "its wager beside it read surely as less meanwhile, so a chip where the two meet may be either's; "
# A payout read confidently, the hand not over it, as one smaller total in OUTREAD_MIN or more of the last
# RESTLESS_WINDOW frames, though as its own more often (`_payout_read_less_steadily`)
PAYOUT_READ_LESS = ("read surely as {less} in {times} of the last {window} frames, the dealer's hand not over it, and "
                    "as more in the others: a chip read in those may not be there")
# A stack read surely as fewer chips, with no hand over it, where its total before had been read with doubt more often
# than surely (`ZoneTracker._fall_from_doubt`).
FALL_FROM_DOUBT = ("read surely as fewer chips with no hand over it, where it had been read with doubt more often than "
                   "surely as the more: a chip read then may have been none (a box drawn twice on one chip), not one "
                   "taken")
# A wager whose doubt was lifted, read with doubt as its total in most frames since, against another stack
# (`ZoneTracker._doubt_goes_on`).
DOUBT_GOES_ON = (f"read with doubt in most of the {RESTLESS_WINDOW} frames after its doubt was lifted, lying against "
                 "another stack: a box of it comes and goes below the detector's confidence (a chip drawn where there "
                 "is none, or one half hidden), so its total is not certain")
UNSTEADY_STACK = (f"its stack read confidently as other totals in {OUTREAD_MIN} or more of the last {RESTLESS_WINDOW} "
                  "frames, more often than as its own (chips counted now with it, now with the stack beside it)")


def read_larger_briefly(doubt: str) -> bool:
    """Whether `doubt` (or a note ending with it) is the one a payout read surely as more for a moment is given
    (`payout_read_larger`), whatever the total and whether or not its wager read less meanwhile."""
    return doubt.endswith(PAYOUT_READ_LARGER.split("{more}")[1])


def payout_read_less(less: float, times: int) -> str:
    """The doubt a confirmed payout read surely as `less` in `times` of the last frames is given
    (`PAYOUT_READ_LESS`)."""
    return PAYOUT_READ_LESS.format(less=f"{less:g}", times=times, window=RESTLESS_WINDOW)


def read_less_steadily(doubt: str) -> bool:
    """Whether `doubt` (or a note ending with it) is the one `payout_read_less` gives, whatever the totals."""
    return doubt.endswith(PAYOUT_READ_LESS.split("{window}")[1])


def payout_read_larger(more: float, wager_less: bool = False) -> str:
    """The doubt a confirmed payout read surely as `more` for a moment is given (`PAYOUT_READ_LARGER`), with its
    wager read surely as less meanwhile where `wager_less` (`WAGER_READ_LESS`); the round machine matches its end
    to tell when that doubt is answered."""
    return (WAGER_READ_LESS if wager_less else "") + PAYOUT_READ_LARGER.format(more=f"{more:g}")


@dataclass
class _Zone:
    tracks: dict[int, CardTrack] = field(default_factory=dict)
    stable_sig: Signature = ((), 0.0)
    stable: ZoneState = field(default_factory=ZoneState)
    cand_sig: Signature | None = None
    cand_first: int = 0
    cand_count: int = 0
    cand_uncertain: int = 0  # how many of the candidate's frames were uncertain
    cand_other: int = 0  # how many for another reason than chips reaching into another spot
    cand_gap: int = 0  # how many read with doubt for a chip counted unseen in a gap alone (`ZoneObs.chips_gap_only`)
    cand_short: int = 0  # how many read as a wager's lone row short of a full one, off its spot (`ZoneObs`)
    cand_hidden_room: bool = True  # a missed chip could have lain unseen in a candidate frame (`ZoneObs`)
    cand_reach_into: set[str] = field(default_factory=set)  # other betting spots its chips lay in (`ZoneObs`)
    cand_hand: bool = False  # the dealer's hand lay over some spot of its seat in a candidate frame
    sure_again: int = 0  # confident frames of a state confirmed as uncertain, since it was confirmed
    emptied: int | None = None  # the candidate follows an empty run from this frame (see _emptied_first)
    prev_cand: tuple[Signature, int, int] | None = None  # the candidate before this one: (sig, first, left)
    seen_again: int = 0  # frames running read as confirmed, since another reading (`_resumed_first`)
    # the last readings of a zone: (frame, the reading, read with doubt) where it read new chips or its confirmed
    # contents, else None (`_restless`)
    restless: deque = field(default_factory=lambda: deque(maxlen=RESTLESS_WINDOW))
    # the last readings of a zone holding a confirmed stack: (frame, "own" or "other") where read confidently as its
    # total or as another, the hand not over it, (frame, "unsure") as its total with doubt, (frame, "hand") under the
    # hand or as some of its chips where another stack may hide one (`_hidden_under`), else (frame, None); each with
    # the total read (_unsteady, _fall_from_doubt)
    unsteady: deque = field(default_factory=lambda: deque(maxlen=RESTLESS_WINDOW))
    # the frames of the other readings that made it unsteady, each with the total read
    outread: list[tuple[int, float]] = field(default_factory=list)
    # the chips-only total the confirmed chips grew from on their spot, the spot not read empty between; else 0
    # (`_grown_read_back`)
    grown_from: float = 0.0
    read_as_confirmed: bool = False  # the confirmed stack was read as its total since, the hand not over it
    read_as_at: int = -1  # the last frame it was read as its confirmed contents (`_outread_was_new`)
    lifted: bool = False  # a wager's doubt for readings below the detector's confidence lifted (`_doubt_goes_on`)
    # the last frames its chips were read with doubt lying against another stack's (`_doubt_goes_on`)
    met: deque = field(default_factory=lambda: deque(maxlen=RESTLESS_WINDOW))
    # the last readings of a zone holding a stack confirmed with doubt, the hand not over it: ("gap", total) where
    # read with doubt for a chip counted unseen in a gap alone, ("other", total) with doubt for more, ("sure",
    # total) confidently; None for no chips or cards (`_gap_read_away`)
    gap_reads: deque = field(default_factory=lambda: deque(maxlen=RESTLESS_WINDOW))
    # the last frames it was read with doubt for a chip counted unseen in a gap alone, whatever it held (`_restless`)
    gap_frames: deque = field(default_factory=lambda: deque(maxlen=RESTLESS_WINDOW))
    # the doubtful total a stack was confirmed as and read away from as a gap read for a chip (`_gap_read_away`);
    # the same gap reading again is that artefact, no new chips (`_restless`); else 0
    gapped_away: float = 0.0
    # chip totals read since the zone last read empty: total -> [first frame read, last frame read confidently or -1]
    since_empty: dict[float, list[int]] = field(default_factory=dict)
    # chip totals read confidently since the zone last read empty, lying against no other stack (`_doubt_goes_on`)
    clear_sure: set[float] = field(default_factory=set)
    # a payout spot confirmed empty: its readings of chips since it last read empty, (frame, reading, with doubt)
    brief: list[tuple[int, Signature, bool]] = field(default_factory=list)
    # the last frames its confirmed chips were read confidently as fewer, not none (`_payout_read_larger_briefly`)
    read_less: deque = field(default_factory=lambda: deque(maxlen=RESTLESS_WINDOW))
    # the last frame it was read in, the chip total read, and whether with doubt for a chip counted in a gap alone
    # (`_wager_read_over`)
    read_at: tuple[int, float, bool] = (-1, 0.0, False)
    own_chips: tuple[int, ...] = ()  # its chips, the last frame read confidently as confirmed (`_hidden_under`)


class ZoneTracker:
    """Stable per-zone state from a stream of analysed frames."""

    def __init__(self, stable_frames: int = 3, removal_frames: int | None = None, match_mm: float = 35.0,
                 vote_min_conf: float = 0.5, sure_conf: float = 0.8, card_sure_conf: float = 0.9) -> None:
        # Cards need more than chips to count as surely read: a card reading at 0.8-0.9 is right 94 % of the time,
        # at 0.9 and above 99.5 % (benchmarks/detector_accuracy.py, calibration on dealt frames).
        if stable_frames < 1:
            raise ValueError(f"ZoneTracker: stable_frames must be at least 1, got {stable_frames}")
        self.stable_frames = stable_frames
        self.removal_frames = removal_frames if removal_frames is not None else 2 * stable_frames
        if self.removal_frames < stable_frames:
            raise ValueError(f"ZoneTracker: removal_frames ({self.removal_frames}) must be at least "
                             f"stable_frames ({stable_frames})")
        self.match_mm = match_mm
        self.vote_min_conf = vote_min_conf
        self.sure_conf = sure_conf
        self.card_sure_conf = card_sure_conf
        self._zones: dict[str, _Zone] = {}
        self._next_id = 0

    @property
    def pending(self) -> bool:
        """True while some zone has contents seen but not yet confirmed (keep analysing frames)."""
        return any(z.cand_sig is not None for z in self._zones.values())

    def pending_zones(self) -> list[str]:
        """The zones whose contents are seen but not yet confirmed."""
        return [name for name, z in self._zones.items() if z.cand_sig is not None]

    def states(self) -> dict[str, ZoneState]:
        """The confirmed state of every zone that is not empty."""
        return {name: z.stable for name, z in self._zones.items() if not z.stable.empty}

    def update(self, frame_index: int, obs: FrameObs, occluded: set[str] | frozenset[str] = frozenset(),
               covered: set[str] | frozenset[str] = frozenset()) -> list[ZoneChange]:
        """One analysed frame. `occluded`: zones known to be covered now (e.g. `ZoneMapper.occluded_zones`);
        a loss there is not counted towards confirmation, whatever it lasts. `covered`: zones the dealer's hand
        lay over in the frame as the `CoverMeter` saw it; a stack read as another total there, or anywhere in a
        seat one of whose spots the hand lay over, says nothing about how steadily it is read (`_unsteady`)."""
        changes: list[ZoneChange] = []
        hand_at = {_seat(z) for z in covered}
        for name in sorted(set(self._zones) | set(obs)):
            zone = self._zones.setdefault(name, _Zone())
            made = self._update_zone(name, zone, frame_index, obs.get(name) or ZoneObs(), name in occluded,
                                     name in covered, obs.get(f"{name}.paid"), _seat(name) in hand_at)
            for change in made:
                self._own_rise(change)
            changes += made
        return changes

    def _own_rise(self, change: ZoneChange) -> None:
        """A wager confirmed as more chips from `change.frame`: where its payout spot, empty, took its readings of
        more since then as a payout's chips counted with it (`_wager_read_over`), they were the wager's own, read as
        confirmed now. They no longer count as chips read in the payout spot, nor date the payout (a King High $2
        Low past-posted to $4, read 4 from 583 and confirmed so; its $4 payout, laid at 590 and confirmed restless,
        was dated 583 and so ordered before the Seven taken at 581)."""
        paid = self._zones.get(f"{change.zone}.paid")  # none for a payout spot itself
        if (paid is None or change.after.cards or change.before.cards
                or change.after.chip_total <= change.before.chip_total):
            return
        paid.restless = deque(((r[0], paid.stable_sig, True) if r is not None and r[1] is None and r[0] >= change.frame
                               else r for r in paid.restless), maxlen=RESTLESS_WINDOW)

    # --------------------------------------------------------------------------------------------

    def _match(self, zone: _Zone, cards: list[CardObs], frame: int) -> list[CardTrack]:
        """Each observed card -> its track (nearest unclaimed within match_mm), new tracks for the rest."""
        pairs = sorted(
            (math.hypot(c.x_mm - t.x, c.y_mm - t.y), i, t.id)
            for i, c in enumerate(cards) for t in zone.tracks.values()
        )
        got: dict[int, CardTrack] = {}
        claimed: set[int] = set()
        for d, i, tid in pairs:
            if d > self.match_mm:
                break
            if i in got or tid in claimed:
                continue
            got[i] = zone.tracks[tid]
            claimed.add(tid)
        out = []
        for i, c in enumerate(cards):
            t = got.get(i)
            if t is None:
                t = CardTrack(self._next_id, c.x_mm, c.y_mm)
                self._next_id += 1
                zone.tracks[t.id] = t
            else:  # cards are still once dealt; follow slowly so a jittery box does not drag it
                t.x, t.y = 0.7 * t.x + 0.3 * c.x_mm, 0.7 * t.y + 0.3 * c.y_mm
            t.vote(c, self.vote_min_conf, self.removal_frames, self.card_sure_conf)
            t.last_seen = frame
            out.append(t)
        return out

    def _state(self, zone: _Zone, sig: Signature, uncertain: bool, why: str = DOUBTFUL_READINGS) -> ZoneState:
        """The state `sig` reads as; `why` says why it is uncertain when `uncertain`."""
        cards = tuple((zone.tracks[tid].identity if up else None, up) for tid, up in sig[0])
        unread = any(up and zone.tracks[tid].contested for tid, up in sig[0])
        backs = tuple(zone.tracks[tid].back for tid, _ in sig[0])
        doubt = why if uncertain else CONTESTED_CARD if unread else ""
        spots = tuple((zone.tracks[tid].x, zone.tracks[tid].y) for tid, _ in sig[0])
        return ZoneState(cards=cards, chip_total=sig[1], uncertain=uncertain or unread,
                         backs=backs if any(backs) else (), doubt=doubt, spots=spots)

    def _contest_answered(self, name: str, zone: _Zone, frame: int) -> ZoneChange | None:
        """A confirmed state in doubt only for a card read as more than one (`CONTESTED_CARD`), that card since read
        back certainly as what it was before (`CardTrack._read_back`): the doubt is answered at once, whatever else
        the frame reads (the dealer's hand over other cards as it sweeps them)."""
        if zone.stable.doubt != CONTESTED_CARD:  # checked first: this runs for every zone in every frame
            return None
        tracks = [zone.tracks.get(tid) for tid, up in zone.stable_sig[0] if up]
        if None in tracks or not any(t.read_back for t in tracks) or any(t.contested for t in tracks):
            return None
        now = self._state(zone, zone.stable_sig, False)
        answered = replace(zone.stable, cards=now.cards, uncertain=False, doubt="")
        for t in tracks:
            t.read_back = False
        change = ZoneChange(name, frame, zone.stable, answered)
        zone.stable = answered
        return change

    def _is_loss(self, stable: Signature, new: Signature) -> bool:
        """New contents are the stable ones with something missing: what a covering hand looks like."""
        old_ids, new_ids = dict(stable[0]), dict(new[0])
        fewer_cards = set(new_ids) <= set(old_ids) and all(old_ids[k] == v for k, v in new_ids.items())
        return fewer_cards and new[1] <= stable[1] and new != stable

    def _update_zone(self, name: str, zone: _Zone, frame: int, zo: ZoneObs, occluded: bool,
                     covered: bool = False, payout: ZoneObs | None = None, hand_at_seat: bool = False
                     ) -> list[ZoneChange]:
        """`payout`: what its payout spot reads in the frame, where it is a wager with one (`_hidden_under`).
        `hand_at_seat`: the dealer's hand lay over some spot of the zone's seat (`_unsteady`)."""
        cards = zo.cards  # in table order already (ZoneMapper sorts them along the line they lie in)
        tracks = self._match(zone, cards, frame)
        sig: Signature = (tuple((t.id, c.face_up) for t, c in zip(tracks, cards, strict=True)),
                          round(zo.chip_total, 2))
        # A doubtful reading of a card already read consistently over many frames is no doubt about it.
        card_doubt = any(c.uncertain and not t.settled(c.face_up, self.stable_frames)
                         for t, c in zip(tracks, cards, strict=True))
        uncertain = zo.chips_uncertain or card_doubt
        other = card_doubt or (uncertain and not zo.chips_reach_only)
        gap_doubt = zo.chips_uncertain and zo.chips_gap_only  # in doubt for a chip counted in a gap alone
        zone.read_at = (frame, sig[1], gap_doubt)
        if gap_doubt:
            zone.gap_frames.append(frame)
        change, leading = None, []  # leading: changes reported before `change` (a doubt answered, a take)
        self._note_since_empty(zone, frame, sig, uncertain, covered, not zo.chips_against_other)
        if not uncertain and not sig[0] and not zone.stable_sig[0] and 0 < sig[1] < zone.stable_sig[1]:
            zone.read_less.append(frame)
        brief = self._brief_payout(name, zone, frame, sig, uncertain, covered)
        if brief:
            return brief
        if zo.chips_uncertain and (zo.chips_under_room or zo.chips_reach_into):
            zone.met.append(frame)  # before the candidate is weighed: `_sure_as_candidate` counts this frame too
        if (answered := self._contest_answered(name, zone, frame)) is not None:
            leading.append(answered)
        zone.seen_again = zone.seen_again + 1 if sig == zone.stable_sig else 0
        if sig == zone.stable_sig:
            zone.read_as_at = frame
            more = self._payout_read_larger_briefly(name, zone, frame)
            if not self._hidden_by_hand(zone, sig, covered):
                zone.cand_sig = None
            if zone.seen_again >= self.stable_frames:
                zone.prev_cand = None  # seen as confirmed long enough: no blip, and what came before it is over
            if more is not None:
                # the frame that ends the spell reads it as confirmed again: the first of those that lift the doubt
                zone.sure_again = int(not uncertain and self._sure(zo, tracks))
                return [more]
            # an empty payout spot whose chips its wager took in: a reading of chips there (`_restless`)
            over = zone.stable.empty and self._wager_read_over(name, frame)
            zone.restless.append((frame, None, True) if over else (frame, sig, uncertain))
            # A state confirmed as uncertain and then read confidently for `stable_frames` frames is
            # certain after all (the hand that half-covered a chip has moved away). Not so a stack read by turns as
            # other totals (`RESTLESS_CHIPS`) read alike under the dealer's hand: the hand hides chips (a King High $2
            # Seven read $1, $2 and $3 by turns, then $1 mostly under the hand dealing the next card; set A64).
            zone.sure_again += (zone.stable.uncertain and not uncertain and self._sure(zo, tracks)
                                and not (covered and zone.stable.doubt in (RESTLESS_CHIPS, RESTLESS_BESIDE_WAGER))
                                and not self._room_for_more(name, zone, zo)
                                and not (zone.stable.doubt == SHORT_ROW and zo.chips_short_row))
            doubt = zone.stable.uncertain and (zone.sure_again < self.stable_frames
                                               or zone.stable.doubt.startswith(WAGER_READ_LESS)
                                               or read_less_steadily(zone.stable.doubt)
                                               or zone.stable.doubt in (FALL_FROM_DOUBT, DOUBT_GOES_ON))
            if zone.stable.uncertain and not doubt:
                zone.unsteady.clear()  # the doubt is lifted: what was read before it weighs no more
                zone.gap_reads.clear()
                zone.lifted = (not zone.stable_sig[0] and not name.endswith(".paid")
                               and zone.stable.doubt == DOUBTFUL_READINGS)
            refreshed = replace(self._state(zone, sig, doubt, zone.stable.doubt or DOUBTFUL_READINGS),
                                hidden_room=zone.stable.hidden_room or zo.chips_hidden_room)
            if refreshed != zone.stable:  # a confirmed card's majority identity changed
                change = ZoneChange(name, frame, zone.stable, refreshed)
                zone.stable = refreshed
        else:
            loss = self._is_loss(zone.stable_sig, sig)
            if loss and occluded:
                pass  # covered: what vanished may be under the hand; keep the state and the candidate as is
            elif self._chips_under_hand(name, zone, sig, covered):
                pass  # some of the candidate's chips, the rest under the dealer's hand: its run goes on
            elif sig == zone.cand_sig:
                zone.cand_count += 1
                zone.cand_uncertain += uncertain
                zone.cand_other += other
                zone.cand_gap += gap_doubt
                zone.cand_short += zo.chips_short_row
                zone.cand_hidden_room |= zo.chips_hidden_room
                zone.cand_reach_into |= zo.chips_reach_into
                zone.cand_hand |= hand_at_seat
            else:
                first = self._resumed_first(zone, sig, frame)
                # Contents read before the empty run they follow were there through it: the hand, not a take.
                zone.emptied = self._emptied_at(zone, sig) if first == frame else None
                if zone.cand_sig is not None and not self._loss_blips(zone, frame):
                    zone.prev_cand = (zone.cand_sig, zone.cand_first, frame)
                zone.cand_sig, zone.cand_first, zone.cand_count, zone.cand_uncertain = sig, first, 1, int(uncertain)
                zone.cand_other, zone.cand_hidden_room = int(other), zo.chips_hidden_room
                zone.cand_gap = int(gap_doubt)
                zone.cand_short = int(zo.chips_short_row)
                zone.cand_reach_into = set(zo.chips_reach_into)
                zone.cand_hand = hand_at_seat
            need = self.removal_frames if loss else self.stable_frames
            sure = zone.cand_count - zone.cand_uncertain
            # Certain once enough frames read it confidently; a partly hidden chip is often read
            # confidently a few frames later, so wait a little before settling for uncertain.
            ready = sure >= need or zone.cand_count >= need + self.stable_frames
            if sig == zone.cand_sig and zone.cand_count >= need and ready and not self._gap_again(zone, sig):
                why = DOUBTFUL_READINGS if zone.cand_other else REACHING_CHIPS
                read_away = 0.0
                if sure < need and (whole := self._whole_read_clear(name, zone, sig)) is not None:
                    read_away, sig, sure = sig[1], whole, need
                    zone.cand_first = zone.since_empty[whole[1]][0]
                reached = tuple(sorted(zone.cand_reach_into)) if sure < need and not zone.cand_other else ()
                if read_away:
                    pass  # the whole read in plain view: the candidate's own doubts were about the box read away
                elif sure >= need and self._fall_from_doubt(zone, sig):
                    sure, why = 0, FALL_FROM_DOUBT
                elif sure >= need and zone.cand_short == zone.cand_count and _laid_anew(zone):
                    sure, why = 0, SHORT_ROW
                after = replace(self._state(zone, sig, sure < need, why), hidden_room=zone.cand_hidden_room,
                                reach_into=reached,
                                read_more=self._read_more(zone, sig, zo),
                                first_read=None if sig[0] else zone.since_empty.get(sig[1], [None])[0],
                                read_surely=() if sig[0] else self._read_surely(zone),
                                read_surely_at=() if sig[0] else self._read_surely_at(zone))
                answered = self._outread_was_new(name, zone, sig)
                if answered is not None:
                    leading.append(answered)
                if zone.emptied is not None:  # taken away, then other chips put down
                    leading.append(ZoneChange(name, zone.emptied, zone.stable, ZoneState()))
                    zone.stable = ZoneState()
                if after != zone.stable:
                    change = ZoneChange(name, zone.cand_first, zone.stable, after)
                grown_from = zone.stable_sig[1] if not sig[0] and not zone.stable_sig[0] and zone.emptied is None \
                    and 0 < zone.stable_sig[1] < sig[1] else 0.0
                self._settle_on(zone, sig, after)
                zone.gapped_away = read_away  # read so again, only with doubt, it is the same box (`_gap_again`)
                zone.sure_again = self._sure_as_candidate(name, zone, sig, after, sure)
                zone.grown_from = grown_from
                zone.prev_cand = None  # what came before a confirmed state is no blip's background
                live = {tid for tid, _ in sig[0]}
                zone.tracks = {tid: t for tid, t in zone.tracks.items() if tid in live}  # gone is gone
            elif not occluded:
                change = self._restless(name, zone, frame, sig, uncertain, not uncertain and not covered
                                        and _other_chips(zone, sig, zo))
        if sig == zone.stable_sig and not uncertain:
            zone.own_chips = tuple(zo.chips)
        if change is None and not leading:
            change = (self._gap_read_away(name, zone, frame, sig, uncertain, zo, covered)
                      if zone.stable.uncertain else
                      self._unsteady(name, zone, frame, sig, uncertain,
                                     covered or hand_at_seat or self._hidden_under(name, zone, sig, zo, payout)))
        self._forget(zone, frame)
        return [*leading, *([change] if change is not None else [])]

    def _payout_read_larger_briefly(self, name: str, zone: _Zone, frame: int) -> ZoneChange | None:
        """A payout confirmed and read again as confirmed after a spell, too short to confirm, read surely as more
        chips, in every frame of it: a chip of it may be missed in the other frames (a King High $200 High payout
        of two $100 chips lying almost one on the other, read as one box in five of the six frames it lay before
        the player took it, as two in the sixth; a $100 short pay was claimed). It stays in doubt until read
        confidently as it again (`sure_again`); a payout that grows as the dealer's hand leaves it confirms as
        the larger total instead.

        Where its wager was read surely as less in a frame of the spell, the chip where the two meet was counted now
        with one, now with the other, and reading the payout as confirmed again does not tell which it is: the doubt
        stays until the payout confirms as something else (a High Tie $84 Side payout on a past-posted $14, its
        bottom $1 chip over the wager's top one, read $83 for 60 frames and $84 surely in one, the wager read $12 in
        that one and $14 in the others).

        A spell read while the dealer's hand lay over some spot of the seat says nothing, as it says nothing of how
        steadily a stack is read (`_unsteady`): the hand moves chips and its edge hides them (a Pick 2 $125 Ante
        payout, a true short pay read $125 in plain view for 100 frames, read $150 surely in one as the hand
        gathered the seat's cards; the round lifted it to the rules' $150; set A70, seed 15094)."""
        cand, steady = zone.cand_sig, zone.stable_sig
        if (cand is None or not name.endswith(".paid") or zone.stable.uncertain or zone.cand_uncertain
                or zone.cand_hand or cand[0] or steady[0] or not 0 < steady[1] < cand[1]):
            return None
        zone.sure_again = 0
        wager = self._zones.get(_wager_of(name))
        less = wager is not None and any(zone.cand_first <= f < frame for f in wager.read_less)
        doubted = replace(zone.stable, uncertain=True, doubt=payout_read_larger(cand[1], less),
                          read_surely=(cand[1],))
        change = ZoneChange(name, zone.cand_first, zone.stable, doubted)
        zone.stable = doubted
        return change

    def _unsteady(self, name: str, zone: _Zone, frame: int, sig: Signature, uncertain: bool,
                  covered: bool) -> ZoneChange | None:
        """A confirmed stack read confidently as other totals (not nothing) in `OUTREAD_MIN` or more of the last
        `RESTLESS_WINDOW` frames, and more often than confidently as its own, never one of them long enough to
        confirm, is in doubt: chips are being counted now with it, now with the stack beside it (a Pick 2 Ante
        and its payout laid in one line, the payout read as $100, $75, $50, $25 frame after frame; a King High $40
        High read $30 surely and $40 only with doubt as its $60 payout, read $85, lay against it). It is read as
        its confirmed total, uncertain, until read confidently as it again. Frames the dealer's hand lay over it
        (`covered`) say nothing either way: the hand hides chips (a 3 Card Monster $10 Monster read $5 surely in
        six frames as the hand paid the Ante beside it and past-posted it). Nor do frames it lay over another spot
        of the same seat: its edge, too small to count the spot covered, hides chips there (a 3 Card Monster $30 Ante
        read $5, $15, $25 and $45 by turns as the hand took the Play beside it and paid it; held-out set A64). Nor
        do readings below the detector's confidence: most often a chip half hidden, by a hand or the payout laid
        against it. A stack not read as its confirmed total since it was confirmed, but where the hand lay, is no
        such doubt: the total was confirmed as the hand hid chips, and the tracker confirms what it is read as (a
        Pick 2 $20 Ante confirmed $5 under the hand laying its payout, then read $20 as the hand came and went, and
        confirmed so). A payout read so as one smaller total, but as its own more often, is in doubt too
        (`_payout_read_less_steadily`)."""
        steady = zone.stable_sig
        chips = bool(steady[1] and sig[1] and not steady[0] and not sig[0] and not covered)
        own = sig[1] == steady[1]
        zone.read_as_confirmed |= chips and own
        zone.unsteady.append((frame, "other", sig[1]) if chips and not own and not uncertain else
                             (frame, "own", sig[1]) if chips and own and not uncertain else
                             (frame, "unsure", sig[1]) if chips and own else
                             (frame, "hand" if covered else None, sig[1]))
        kinds = [kind for _, kind, _ in zone.unsteady]
        if self._doubt_goes_on(zone, kinds):
            return self._doubt_again(name, zone, frame, DOUBT_GOES_ON)
        others = kinds.count("other")
        if zone.stable.uncertain or others < OUTREAD_MIN or not zone.read_as_confirmed:
            return None
        if others <= kinds.count("own"):
            return self._payout_read_less_steadily(name, zone, frame, others)
        if (back := self._grown_read_back(name, zone, frame, kinds.count("own"))) is not None:
            return back
        zone.outread = [(f, total) for f, kind, total in zone.unsteady if kind == "other"]
        return self._doubt_again(name, zone, frame, UNSTEADY_STACK)

    @staticmethod
    def _doubt_again(name: str, zone: _Zone, frame: int, why: str) -> ZoneChange:
        """The confirmed stack put in doubt from `frame`, for `why`."""
        zone.unsteady.clear()
        zone.sure_again = 0
        doubted = replace(zone.stable, uncertain=True, doubt=why)
        change = ZoneChange(name, frame, zone.stable, doubted)
        zone.stable = doubted
        return change

    @staticmethod
    def _doubt_goes_on(zone: _Zone, kinds: list[str | None]) -> bool:
        """A wager confirmed with doubt for readings below the detector's confidence (`DOUBTFUL_READINGS`), the doubt
        lifted once it was read surely as its total in `stable_frames` frames, read with doubt as that total in more
        of the `RESTLESS_WINDOW` frames since than any other way, the dealer's hand over it in none: the lift rested on
        the frames a box that comes and goes read surely (a 3 Card Monster $300 Royal in one line with the $300
        Monster, a seventh $100 box where the two meet, now at the Royal's end, now at the Monster's, read at 0.45-0.57
        in most frames and 0.9 or more in the rest: the Royal read $400 throughout, its doubt lifted by three scattered
        sure frames). The doubt stays: being read surely now and then does not lift it again.

        Not a payout: the round machine weighs it against what the rules pay. Nor where the hand lay over the stack in
        the window: a chip half under it reads with doubt (a 3 Card Monster $400 Play read so in 13 of 20 frames as
        the hand paid beside it, right). Nor a doubt lifted for other reasons (chips reaching into another spot, or
        read by turns). On the 29 stored video sets (a one-off replay, sixty-fifth session) the rule without these
        limits kept six exact rounds in doubt, for the one wrong round it made a review item.

        Only where most of those frames read it lying against another stack (`ZoneObs.chips_under_room`, or chips in
        another spot): where stacks meet the detector draws a box more. A stack clear of every other, its chips read
        in the same places frame after frame, one of them below the detector's confidence, is a chip half seen (a King
        High $200 High Run of two $100 chips, the lower one boxed at 0.50-0.67 in every frame and read surely by the
        chip verifier now and then: right, in doubt; held-out set A33, seed 13601). Nor a stack read surely as its
        total while it lay against no other (`_Zone.clear_sure`), as it was laid: the box that comes and goes where
        stacks meet was not there to count (a 3 Card Monster $400 Ante of four $100 chips read surely as laid, then
        with doubt, a chip of it room to lie under the Monster laid against it, as $400 in every frame: right;
        held-out set A36, seed 13723). `kinds`: `zone.unsteady`'s."""
        if not zone.lifted or zone.stable.uncertain or len(kinds) < RESTLESS_WINDOW or "hand" in kinds:
            return False
        if zone.stable_sig[1] in zone.clear_sure:
            return False
        unsure = [f for f, kind, _ in zone.unsteady if kind == "unsure"]
        met = sum(f in zone.met for f in unsure)
        return len(unsure) > len(kinds) - len(unsure) and met > len(unsure) - met

    @staticmethod
    def _fall_from_doubt(zone: _Zone, sig: Signature) -> bool:
        """A confirmed stack read surely as fewer chips (not none), where in the frames before (`_Zone.unsteady`, at
        most `RESTLESS_WINDOW`) it was read with doubt as its total more often than surely, and the dealer's hand lay
        over it in none: a stack loses chips to a hand, so the chip read before was most likely none (a High Tie $300
        Main of three $100 chips read $400 for 55 frames, the top chip boxed twice, half a chip's width apart, in some
        frames, and with a chip counted unseen in the gap between the two boxes in most; then $300 surely until its
        surrender: a $100 pinch claimed with no hand near). The fall is confirmed with doubt, a review item rather than
        a pinch, and reading the fewer chips surely again does not answer it: the doubt is about the chips before."""
        steady = zone.stable_sig
        if sig[0] or steady[0] or not 0 < sig[1] < steady[1] or zone.emptied is not None:
            return False
        if any(kind == "hand" for _, kind, _ in zone.unsteady):
            return False
        before = [kind for f, kind, _ in zone.unsteady if f < zone.cand_first]
        return before.count("unsure") > before.count("own")

    def _hidden_under(self, name: str, zone: _Zone, sig: Signature, zo: ZoneObs, payout: ZoneObs | None) -> bool:
        """A confirmed stack, every chip of it in plain view as it was confirmed (`ZoneState.hidden_room` unset), read
        as some of its own chips and no others (`_Zone.own_chips`) where a chip of it could lie under another stack's
        chip (`ZoneObs.chips_under_room`), its payout spot empty: another stack laid against it hides a chip (a King
        High $2 High Run read $1 surely in 15 of 20 frames once a $400 Low lay against it, $2 only where the Low read
        $300). Such a frame says nothing of how steadily it is read (`_unsteady`), as one under the dealer's hand. Its
        own payout laid against it is not this: the payout may hold chips of it (a King High $40 High read $30 as its
        $60 payout, read $85, lay against it), or lend it some (a Pick 2 $5 Bonus read as three $1 chips of its payout
        before the payout's spot read any)."""
        if not _short_of_own(zone, sig, zo):
            return False
        held = self._zones.get(f"{name}.paid")
        return not (payout is not None and payout.chips) and not (held is not None and held.stable_sig[1] > 0)

    def _grown_read_back(self, name: str, zone: _Zone, frame: int, own: int) -> ZoneChange | None:
        """A stack confirmed as grown from a smaller one on its spot (`_Zone.grown_from`), then read confidently as that
        smaller total in `OUTREAD_MIN` or more of the last `RESTLESS_WINDOW` frames, and more often than as its own,
        the dealer's hand not over it: the growth was a box that came and went, and the stack is the smaller total
        again, confirmed in place of the larger (`ZoneState.corrects`), first read when it was (a High Tie $5 Side
        read $105 for six frames, a phantom $100 box there in half of them, confirmed $105, then read $5 surely in
        nine of the next eleven frames: a $100 past-post claimed with doubt). A chip really added stays in view
        once the hand leaves it."""
        less = zone.grown_from
        if not less or sum(kind == "other" and total == less for _, kind, total in zone.unsteady) <= max(
                own, OUTREAD_MIN - 1):
            return None
        after = replace(self._state(zone, ((), less), False), corrects=True, hidden_room=zone.stable.hidden_room,
                        first_read=zone.since_empty.get(less, [None])[0])
        change = ZoneChange(name, frame, zone.stable, after)
        self._settle_on(zone, ((), less), after)
        return change

    @staticmethod
    def _payout_read_less_steadily(name: str, zone: _Zone, frame: int, times: int) -> ZoneChange | None:
        """A payout read confidently, the dealer's hand not over it, as one and the same smaller total in `times`
        (`OUTREAD_MIN` or more) of the last `RESTLESS_WINDOW` frames, and as its confirmed total in more: the
        detector reads a chip in most frames that it misses in the others, or one that is not there (a Pick 2 $15 Play
        payout of three $5 chips read $20 with a fourth box in two frames of three, $15 in the third, over 55 frames;
        a $5 overpay was claimed). It stays in doubt while it lies, whatever it is read as meanwhile; the round machine
        weighs the two totals against what the rules pay."""
        if not name.endswith(".paid") or zone.stable_sig[0]:
            return None
        less = {total for _, kind, total in zone.unsteady if kind == "other"}
        if len(less) != 1 or not 0 < min(less) < zone.stable_sig[1]:
            return None
        zone.unsteady.clear()
        doubted = replace(zone.stable, uncertain=True, doubt=payout_read_less(min(less), times),
                          read_surely=tuple(sorted({*zone.stable.read_surely, min(less)})))
        change = ZoneChange(name, frame, zone.stable, doubted)
        zone.stable = doubted
        return change

    def _outread_was_new(self, name: str, zone: _Zone, sig: Signature) -> ZoneChange | None:
        """A stack in doubt for being read as other totals (`_unsteady`), whose new contents now confirm dated before
        all but fewer than `OUTREAD_MIN` of those readings: they were the new contents, not chips counted now with
        it, now with its neighbour. The doubt is answered (the stack read confidently as it was) before the new
        contents are reported, dated as they are so it comes first (a 3 Card Monster $20 Ante past-posted to $22 under
        the dealer's hand, read $22 and $21 by turns as the hand left, in doubt one frame before $22 confirmed). Where
        the stack was taken before the new contents came (`_Zone.emptied`), the answer is dated as the take, so it
        comes before that too: answered after it, it would put the stack back on the emptied spot (a King High $40
        High paid and taken, a $100 High of the next round put down, read $100 twice before it confirmed).

        Where the new contents are more chips than the stack held, readings of more since it was last read as it were
        chips being laid on it, the hand coming and going, not chips of a neighbour: they do not count against the
        answer (a Pick 2 $150 5-card Bonus read as $150 for twenty frames, then as $253, $154 and $153 in five frames
        and $50 in two as its $3 payout was laid in one line with it, then $153 for good: in doubt one frame before
        $153 confirmed, the doubt stayed; held-out set A52, seed 14364). Readings of more with the stack read as it
        between are a neighbour's chips counted now with it, now not, as before."""
        if zone.stable.doubt != UNSTEADY_STACK:
            return None
        grows = not sig[0] and not zone.stable_sig[0] and sig[1] > zone.stable_sig[1]
        against = [f for f, total in zone.outread if f < zone.cand_first
                   and not (grows and total > zone.stable_sig[1] + 0.005 and f > zone.read_as_at)]  # laying
        if len(against) >= OUTREAD_MIN:
            return None
        answered = replace(zone.stable, uncertain=False, doubt="")
        at = zone.cand_first if zone.emptied is None else min(zone.emptied, zone.cand_first)
        change = ZoneChange(name, at, zone.stable, answered)
        zone.stable = answered
        return change

    def _gap_read_away(self, name: str, zone: _Zone, frame: int, sig: Signature, uncertain: bool, zo: ZoneObs,
                       covered: bool) -> ZoneChange | None:
        """A stack confirmed with doubt, read confidently as one smaller total in `OUTREAD_MIN` or more of the last
        `RESTLESS_WINDOW` frames and never as its own, its every doubtful reading there its confirmed total with a
        chip counted unseen in a gap between two runs of it (`ZoneObs.chips_gap_only`): the gap was the detector's
        box on a half-covered chip drawn off its place, not a chip missed. A chip missed in a gap leaves the gap in
        every frame, so no confident reading without it (a King High $2 High, two $1 chips, read $3 with doubt in
        14 of 20 frames, the lower chip's box 1.4 steps from the upper one's, and surely $2 in the other six, 1.15
        steps apart). It is confirmed as that smaller total in place of the doubtful one (`ZoneState.corrects`), first
        read when that total was (a wager's rise so confirmed may be to a total read before bets closed).

        So too a box below the detector's confidence (`_box_read_away`)."""
        steady = zone.stable_sig
        if sig[0] or steady[0] or covered or not sig[1]:
            zone.gap_reads.append(None)
        else:
            kind = "sure" if not uncertain else "gap" if zo.chips_gap_only else "other"
            zone.gap_reads.append((kind, sig[1], zo.chips_hidden_room))
        reads = [r for r in zone.gap_reads if r is not None]
        sure = [t for kind, t, _ in reads if kind == "sure"]
        less = sure[0] if sure else 0.0
        if (len(sure) < OUTREAD_MIN or len(set(sure)) != 1 or not 0 < less < steady[1]
                or any(kind == "other" or (kind == "gap" and t != steady[1]) for kind, t, _ in reads)):
            less = self._box_read_away(zone, reads)
            if not less:
                return None
        after = replace(self._state(zone, ((), less), False), corrects=True, hidden_room=zone.stable.hidden_room,
                        first_read=zone.since_empty.get(less, [None])[0])
        change = ZoneChange(name, frame, zone.stable, after)
        self._settle_on(zone, ((), less), after)
        zone.gapped_away = steady[1]
        return change

    @staticmethod
    def _box_read_away(zone: _Zone, reads: list[tuple[str, float, bool]]) -> float:
        """The smaller total a stack confirmed from readings below the detector's confidence alone (`DOUBTFUL_READINGS`,
        its total never read confidently since the spot was last read empty) was read confidently as in `OUTREAD_MIN`
        or more of the last `RESTLESS_WINDOW` frames (`_Zone.gap_reads`), more often than as any other, never as more,
        and each time with no room for a chip of it to lie unseen (`ZoneObs.chips_hidden_room`): the chips it grew by
        were a box that comes and goes below the detector's confidence, and every confident reading of the stack in
        plain view says it is the smaller total. A chip really added is read confidently once the hand leaves it (a
        King High $2 High of two $1 chips read $27 with a $25 box at 0.26-0.68 in 17 of 27 frames, $2 surely in eight
        of the others and $1 in one: confirmed $27 with doubt, the round read a $27 wager; held-out set A52, seed
        14361). Else 0."""
        steady = zone.stable_sig
        if zone.stable.doubt != DOUBTFUL_READINGS or zone.since_empty.get(steady[1], [0, -1])[1] >= 0:
            return 0.0
        sure = Counter(t for kind, t, _ in reads if kind == "sure")
        if not sure:
            return 0.0
        (less, times), *rest = sure.most_common()
        if (times < OUTREAD_MIN or any(n == times for _, n in rest) or not 0 < less < steady[1]
                or max(sure) > less or any(room for kind, t, room in reads if kind == "sure" and t == less)):
            return 0.0
        return less

    @staticmethod
    def _gap_again(zone: _Zone, sig: Signature) -> bool:
        """Whether the candidate is more chips than a stack confirmed surely, read in every frame of it with doubt for
        a chip counted unseen in a gap alone, where the stack was read surely as itself in `STEADY_SHARE` of the last
        `RESTLESS_WINDOW` frames, or the candidate is the doubtful total it was read away from (`_gap_read_away`): a
        gap a chip really missed leaves in every frame, so this one is the detector's box drawn off its chip, not
        chips added (a 3 Card Monster $400 Play of four $100 chips, read $500 that way in 65 % of the frames, $400
        surely in the rest; a King High $2 High read so for 17 frames, then $3 that way in 12 of 17). A chip really
        added is boxed, not counted in a gap. So too a candidate that is the doubtful total the stack was read away
        from (`_gap_read_away`, `_box_read_away`), read with doubt in every frame of it, whatever the doubt."""
        steady = zone.stable_sig
        if zone.stable.uncertain or steady[0] or sig[0] or not 0 < steady[1] < sig[1]:
            return False
        if sig[1] == zone.gapped_away and zone.cand_uncertain == zone.cand_count:
            return True  # the doubtful total read away, read again only with doubt: the same gap or box
        if zone.cand_gap != zone.cand_count:
            return False
        surely = sum(r is not None and r[1] == steady and not r[2] for r in zone.restless)
        return surely >= STEADY_SHARE * len(zone.restless) > 0

    def _restless(self, name: str, zone: _Zone, frame: int, sig: Signature, uncertain: bool,
                  other_chips: bool = False) -> ZoneChange | None:
        """New chips read in a spot in most of the last `RESTLESS_WINDOW` frames, never the same long enough
        to confirm: something is there that cannot be read (a payout half under a card, flickering between
        totals). It is confirmed as uncertain, as its most frequent reading among those read confidently (else
        among all), so the round says it is unsure instead of passing it over.

        New chips read only with doubt, beside a stack read confidently as confirmed in `STEADY_SHARE` of the
        window, are no new chips: a box below the detector's confidence that comes and goes over a stack whose
        every confident reading says it is as it was (a High Tie $5 side wager read $105 with doubt in 12 of 20
        frames, $5 surely in the rest). A chip really added shows confidently once the hand leaves it. The window
        holds the frames since the stack was confirmed, fewer than `RESTLESS_WINDOW` soon after: the share is of
        those (a Pick 2 $20 payout read $120 with doubt in 12 of the 16 frames since, $20 surely in four).

        Nor is the gap reading a stack was read away from (`_gap_again`), when it comes again. And new chips read
        surely as one total, and otherwise only as more for a chip counted in a gap, are that total, surely
        (`_gaps_beyond_sure`).

        Fewer chips read surely in plain view are new chips too where they are not some of the stack's own
        (`other_chips`, `_other_chips`) and the stack was read with them as well (`_read_with_them`): chips laid on it
        that hide it, not chips of it gone (a 3 Card Monster $100 Ante past-posted with four $1 chips laid over it
        after the deal, read $4 surely and $104 only with doubt, never $100 again; held-out set A66, seed 14943).
        Read so by turns with the two together, it is the two together, in doubt (`_laid_over`). Chips not its own
        never read with it are no such thing (a Pick 2 $5 Bonus read as three $1 chips of its payout, below).

        A frame that reads the spot empty in plain view confirms no new chips: it is the stack going, or the hand's
        shadow, and the removal (`removal_frames`) weighs it. (A 3 Card Monster $400 Ante read $500 with doubt by turns
        beside its payout: as the table was cleared, the empty frames pushed the sure $400 readings out of the window
        and the $500 was confirmed on an empty frame, so the spot never went; held-out set A68, seed 15013.)"""
        new = (_chips_only(zone, sig) and sig[1] > 0
               and (not self._is_loss(zone.stable_sig, sig) or (other_chips and _read_with_them(zone, sig))))
        if new and uncertain and sig == ((), zone.gapped_away):
            new = False  # the gap or box the stack was read away from, seen again with doubt (`_gap_again`)
        zone.restless.append((frame, sig, uncertain) if new else None)
        if sig == ((), 0.0) and not uncertain:
            return None  # read empty in plain view: the stack may be going, which the removal weighs, not this
        seen = [r for r in zone.restless if r is not None and r[1] != zone.stable_sig]
        own = [r for r in seen if r[1] is not None]  # the rest: its chips read with its wager's (`_wager_read_over`)
        if len(seen) < RESTLESS_SHARE * RESTLESS_WINDOW or not own:
            return None
        sure = [r for r in own if not r[2]]
        steady = sum(r is not None and r[1] == zone.stable_sig and not r[2] for r in zone.restless)
        if not sure and zone.stable_sig[1] > 0 and steady >= STEADY_SHARE * len(zone.restless):
            return None
        whole = self._whole_before_met(name, zone, own)
        if whole is not None:
            first = zone.since_empty[whole[1]][0]
            after = replace(self._state(zone, whole, False), first_read=first,
                            read_surely=self._read_surely(zone), read_surely_at=self._read_surely_at(zone))
            change = ZoneChange(name, first, zone.stable, after)
            self._settle_on(zone, whole, after)
            return change
        best = Counter(s for _, s, _ in sure or own).most_common(1)[0][0]  # ties: the one seen first
        doubt = not self._gaps_beyond_sure(zone, own, sure, best)
        best = _laid_over(zone, own, best)
        after = self._state(zone, best, doubt, RESTLESS_CHIPS if len(own) == len(seen) else RESTLESS_BESIDE_WAGER)
        change = ZoneChange(name, seen[0][0], zone.stable, after)
        self._settle_on(zone, best, after)
        return change

    def _gaps_beyond_sure(self, zone: _Zone, own: list[tuple[int, Signature, bool]],
                          sure: list[tuple[int, Signature, bool]], best: Signature) -> bool:
        """Whether new chips read restlessly were read confidently as one total only, in `stable_frames` frames or
        more, and in every other frame as more with doubt for a chip counted unseen in a gap alone
        (`ZoneObs.chips_gap_only`): they are that total, surely. A chip really missed in a gap leaves the gap in
        every frame, so no confident reading without it; a gap that comes and goes is the detector's box drawn off
        its chip (a King High $300 High of three $100 chips read $400 so in 16 of 20 frames, $300 surely in the other
        four, never three running; held-out set A63, seed 14821). What `_gap_again` is to a confirmed stack, this is
        to new chips."""
        return (not best[0] and len(sure) >= self.stable_frames and all(r[1] == best for r in sure)
                and all(r[0] in zone.gap_frames and not r[1][0] and r[1][1] > best[1] for r in own if r[2]))

    @staticmethod
    def _whole_read_clear(name: str, zone: _Zone, sig: Signature) -> Signature | None:
        """The chips a wager laid on an empty spot were read as, surely, while they lay clear of every other stack
        (`_Zone.clear_sure`), where the candidate about to be confirmed with doubt is another total read with doubt in
        every frame, each where the stack met another (`_Zone.met`), and no total but the whole was ever read surely
        since the spot was empty. Where stacks meet, the detector draws a chip of one as the other's (a King High $40
        High Run of three $5 and a $25, read surely as laid, then, the seat's $200 Low Run of two $100 laid against
        it, as three $5 and a $100 below the detector's confidence in every frame until it was taken; held-out set
        A61, seed 14751): the reading in plain view is the stack. Else None; a payout is left to the round machine,
        which weighs its readings against what the rules pay. What `_whole_before_met` is to a stack read restlessly,
        this is to one read steadily with doubt."""
        if (name.endswith(".paid") or sig[0] or not _laid_anew(zone) or len(zone.clear_sure) != 1
                or zone.cand_uncertain != zone.cand_count):
            return None
        whole = next(iter(zone.clear_sure))
        if abs(whole - sig[1]) < 0.005 or any(sure >= 0 and abs(total - whole) > 0.005
                                              for total, (_, sure) in zone.since_empty.items()):
            return None
        if sum(f >= zone.cand_first for f in zone.met) < zone.cand_count:
            return None
        return ((), whole)

    @staticmethod
    def _whole_before_met(name: str, zone: _Zone, own: list[tuple[int, Signature, bool]]) -> Signature | None:
        """The chips a wager laid on an empty spot were read as, surely, while they lay clear of every other stack,
        where they were read restlessly since (`_restless`) only as fewer chips lying against another stack: surely
        only as totals never read surely clear (`_Zone.clear_sure`), with doubt only where they met another
        (`_Zone.met`). A chip of a stack can go under the one laid against it, not come back from nowhere: the whole,
        read in plain view, is the stack (a King High $20 High of four $5 chips read surely whole in the two frames
        before the seat's Seven was laid against it, then as $10 and $15 by turns, with doubt or against the Seven,
        for ten frames: confirmed with doubt, the round was left incomplete). Else None: a payout is left to the
        round machine, which weighs its readings against what the rules pay."""
        if name.endswith(".paid") or zone.stable_sig != ((), 0.0) or len(zone.clear_sure) != 1:
            return None
        whole = next(iter(zone.clear_sure))
        if any(total > whole + 0.005 for total in zone.since_empty):
            return None
        met = set(zone.met)
        for frame, sig, doubt in own:
            if sig[0] or (sig[1] != whole and doubt and frame not in met):
                return None
        return ((), whole)

    def _wager_read_over(self, name: str, frame: int) -> bool:
        """Whether `name` is a payout spot whose wager was read in `frame` as more than its confirmed chips. A payout
        is laid in one line with its wager, and the boxes can make one stack of the two: frame by frame its chips are
        read now in its own spot, now with the wager (a King High $2 Pokerpot and its $4 payout, read 2 and 4 in 8 of
        19 frames and 4 or 5 and nothing in 10, never alike long enough to confirm: read as a push). Zones update in
        name order, so the wager's reading of the frame is in. A reading of more only for a chip counted unseen in a
        gap of the wager's row is no payout's chip: one laid against it is boxed (a High Tie $400 Main read $500 that
        way in 12 of 15 frames before its payout was laid: the payout was dated to the first of them, before the seat
        paid ahead of it)."""
        wager = self._zones.get(_wager_of(name))
        return (wager is not None and wager.read_at[0] == frame and not wager.stable_sig[0] and not wager.read_at[2]
                and 0 < wager.stable_sig[1] < wager.read_at[1] - 0.005)

    def _brief_payout(self, name: str, zone: _Zone, frame: int, sig: Signature, uncertain: bool, covered: bool
                      ) -> list[ZoneChange]:
        """A payout spot confirmed empty that read chips in `BRIEF_FRAMES` or more frames running, never alike long
        enough to confirm, and then empty again: a payout laid and taken before it could be confirmed (King High's
        last payout of an action round goes back with the wager and the card within half a second of being laid,
        and the dealer's hand over it leaves 4-6 frames of readings that differ). It is confirmed, with doubt, as
        its most frequent confident reading (else its most frequent), from its first frame to the empty one. A
        half-laid payout is not caught here: its spot fills, it does not empty. Nor is a hand passing over the spot
        with chips in it, read for fewer frames. Read empty under the dealer's hand (`covered`) is no empty spot: the
        hand hides the chips (a 3 Card Monster $75 Ante payout read $100 once, $75 once, $25 with doubt thrice, hidden
        by the hand as it paid the Monster beside it, then $75 for good: confirmed as $100 from the first five)."""
        if not name.endswith(".paid") or not zone.stable.empty or zone.stable_sig[0] or sig[0]:
            zone.brief.clear()
            return []
        if sig[1] > 0:
            zone.brief.append((frame, sig, uncertain))
            return []
        if covered:
            return []
        run, zone.brief = zone.brief, []  # analysed frames running: any frame read empty ends the run
        if len(run) < BRIEF_FRAMES or zone.cand_sig is None:
            return []
        sure = [s for _, s, doubt in run if not doubt]
        best = Counter(sure or [s for _, s, _ in run]).most_common(1)[0][0]  # ties: the one read first
        laid = replace(self._state(zone, best, True, BRIEF_PAYOUT), first_read=run[0][0])
        zone.cand_sig, zone.restless = None, deque(maxlen=RESTLESS_WINDOW)
        return [ZoneChange(name, run[0][0], zone.stable, laid), ZoneChange(name, frame, laid, zone.stable)]

    @staticmethod
    def _note_since_empty(zone: _Zone, frame: int, sig: Signature, uncertain: bool, covered: bool, clear: bool
                          ) -> None:
        """Keep when each chip total was read since the zone last read empty (`_read_more`), and which were read
        confidently while the stack lay against no other (`clear`; `_Zone.clear_sure`). Read empty under the
        dealer's hand (`covered`) is no such reading: the hand hides the chips (a 3 Card Monster $40 Play payout read
        whole, surely, in the one frame between the hand laying it and the hand over it again, then $15 for good,
        its $25 under the Play's chips)."""
        if sig == ((), 0.0):
            if not covered:
                zone.since_empty.clear()
                zone.clear_sure.clear()
        elif not sig[0]:
            seen = zone.since_empty.setdefault(sig[1], [frame, -1])
            if not uncertain:
                seen[1] = frame
                if clear:
                    zone.clear_sure.add(sig[1])

    @staticmethod
    def _read_more(zone: _Zone, sig: Signature, zo: ZoneObs) -> float:
        """The larger total new chips on an empty spot were read as, confidently, since the spot last read empty
        and only before they were first read as they are, where a chip missed could now lie under another stack's
        chip (`ZoneState.read_more`); else 0. A larger total read confidently again since is a box that comes and
        goes, not a chip gone under (a phantom $100 past a 3 Card Monster wager's top chip, read now and then).
        Taken and other chips put down, the spot read empty in between (`_emptied_first`). So too a stack confirmed
        with every chip in plain view, then read as some of its own chips and no others: the stack laid against it
        came after it was confirmed (a King High $20 High Run of four $5 chips read whole for six frames, then $15 for
        23 as the seat's $40 Low was laid against it; locked at $15, it was in doubt once read whole again)."""
        if sig[0] or not zo.chips_under_room:
            return 0.0
        fell = not zone.stable.uncertain and _short_of_own(zone, sig, zo)
        if not (_laid_anew(zone) or fell):
            return 0.0
        first = zone.since_empty.get(sig[1], [0])[0]
        larger = {total: sure for total, (_, sure) in zone.since_empty.items() if total > sig[1] + 0.005 and sure >= 0}
        return max(larger) if larger and max(larger.values()) < first else 0.0

    def _sure_as_candidate(self, name: str, zone: _Zone, sig: Signature, state: ZoneState, sure: int) -> int:
        """The frames a stack just confirmed with doubt for readings below the detector's confidence
        (`DOUBTFUL_READINGS`) was read confidently as a candidate, where its spot read no other chip total since it was
        last read empty: they count toward lifting the doubt (`sure_again`), as frames read so after it was confirmed
        do. Every reading said the same total, and some said it surely. (A King High $300 Low of three $100 chips, read
        $300 surely in the first and third frames it lay there, then with a chip at 0.36-0.56 in every frame but one
        until it was taken, and as no other total.) Else 0.

        A wager read surely as its total while it lay against no other stack (`_Zone.clear_sure`), and with doubt only
        where it lay against one (`_Zone.met`), is no doubt at all: the box that comes and goes where stacks meet was
        not there to count when it was read surely, and it read no other total since (a King High $300 High of three
        $100 chips read surely in the frame it was laid, then, the seat's Seven laid against it, with a chip at
        0.35-0.55 in every frame until it was taken; held-out set A47, seed 14181)."""
        if not state.uncertain or state.doubt != DOUBTFUL_READINGS or sig[0] or set(zone.since_empty) != {sig[1]}:
            return 0
        met = sum(f >= zone.cand_first for f in zone.met)
        if not name.endswith(".paid") and sig[1] in zone.clear_sure and met >= zone.cand_uncertain:
            return self.stable_frames
        return sure

    @staticmethod
    def _room_for_more(name: str, zone: _Zone, zo: ZoneObs) -> bool:
        """Whether a confident reading of a wager confirmed as restless (`_restless`: read by turns as other totals,
        never alike long enough to confirm) leaves room for a chip of it unseen (`ZoneObs.chips_hidden_room`) where it
        was read confidently as more since the spot was last read empty: such a reading cannot say the larger total
        was wrong, so it does not lift the doubt (`sure_again`). (A King High $2 Seven read $1 and $2 by turns, six
        frames each, a chip of it able to lie under a neighbour's in every frame; confirmed as the $1 read first and
        read so surely for three frames, the doubt was lifted and the round said $1 was wagered.) A payout is left
        to the round machine, which weighs its readings against what the rules pay (a 3 Card Monster $20 Ante
        payout read $20 and more by turns, right at $20, was kept in doubt)."""
        if (name.endswith(".paid") or zone.stable.doubt != RESTLESS_CHIPS or not zo.chips_hidden_room
                or zone.stable_sig[0]):
            return False
        return ZoneTracker._read_surely_above(zone, zone.stable_sig[1])

    @staticmethod
    def _read_surely(zone: _Zone) -> tuple[float, ...]:
        """The chip totals read confidently since the spot last read empty (`ZoneState.read_surely`)."""
        return tuple(total for total, _, _ in ZoneTracker._read_surely_at(zone))

    @staticmethod
    def _read_surely_above(zone: _Zone, total: float) -> bool:
        """Whether a chip total larger than `total` was read confidently since the spot last read empty."""
        return any(t > total + 0.005 for t in ZoneTracker._read_surely(zone))

    @staticmethod
    def _read_surely_at(zone: _Zone) -> tuple[tuple[float, int, bool], ...]:
        """(total, the last frame it was read so, whether so in a frame it lay against no other stack) of each chip
        total read confidently since the spot last read empty (`ZoneState.read_surely_at`)."""
        return tuple(sorted((total, sure, total in zone.clear_sure)
                            for total, (_, sure) in zone.since_empty.items() if sure >= 0))

    @staticmethod
    def _settle_on(zone: _Zone, sig: Signature, state: ZoneState) -> None:
        """Make `state` (read as `sig`) the zone's confirmed state, with nothing pending."""
        zone.stable_sig, zone.stable, zone.cand_sig, zone.sure_again = sig, state, None, 0
        zone.restless.clear()
        zone.unsteady.clear()
        zone.outread = []
        zone.gap_reads.clear()
        zone.read_as_confirmed = False
        zone.lifted = False
        zone.grown_from = 0.0
        zone.gapped_away = 0.0

    def _resumed_first(self, zone: _Zone, sig: Signature, frame: int) -> int:
        """The frame new contents date from: the start of the candidate before the last one when they are
        that candidate again after a blip too short to confirm (a chip read for 3 frames in a spot just
        emptied), so the blip does not make a removal look later than the one next to it. A blip that is less
        than the confirmed contents needs `removal_frames` to confirm, so it is a blip for as long (a $500 Play
        taken, then a $1 chip read in its spot for 4 frames, as the hand went on to the Ante). The confirmed contents
        read again for `stable_frames` running end it: the stack was there after all (a Pick 2 $30 5-card Bonus read
        empty as the hand passed over it to return the Ante, then whole for three frames, then taken: dated from the
        pass, it was taken before the 3-card Bonus collected after it)."""
        prev = zone.prev_cand
        if prev is None or prev[0] != sig:
            return frame
        blip = zone.cand_sig
        short = self.removal_frames if blip is not None and self._is_loss(zone.stable_sig, blip) else self.stable_frames
        return prev[1] if frame - prev[2] <= short else frame

    def _hidden_by_hand(self, zone: _Zone, sig: Signature, covered: bool) -> bool:
        """A frame that reads the zone as confirmed, the dealer's hand over it, amid new contents that hold a card
        more: the hand hides the card, so the run of the new contents goes on (neither ended nor counted). A 3 Card
        Monster dealer's third card lies face up for four frames before the hand sweeps the cards away, and the
        hand over it in the third of those left it never confirmed: "never seen face up"."""
        cand = zone.cand_sig
        return covered and cand is not None and len(cand[0]) > len(sig[0]) and self._is_loss(cand, sig)

    def _chips_under_hand(self, name: str, zone: _Zone, sig: Signature, covered: bool) -> bool:
        """A frame the dealer's hand lies over an empty spot (`covered`) that reads fewer chips than the new ones
        being read there, some still: the hand hides the rest, so the new chips' run goes on (neither ended nor
        counted), as `_hidden_by_hand` for a card. Chips really taken are read so once the hand leaves. (A King High
        $2 Suit of two $1 chips read $2 in every frame clear of the hand and $1 in every frame under it as the dealer
        dealt beside it: confirmed $1 from three frames under the hand, it was locked at $1; held-out set A54, seed
        14441.) Not a payout spot: the hand lays a payout chip by chip, and what it shows under the hand is the round
        machine's to weigh (a 3 Card Monster Play payout so read, its readings then never alike long enough, was left in
        doubt; held-out set A53, seed 14423). Nor new chips read only with doubt, where no more than the frame reads was
        ever read surely since the spot was empty: a box below the detector's confidence is no stack the hand could
        hide part of (a King High $1 High Run read $1 surely, then $101 with doubt in one frame clear of the hand, then
        $1 surely in eight under it: it was confirmed only as read by turns, in doubt; held-out set A68, seed 15001).
        Read surely as more once, the chips are there to hide (a King High $2 Seven read $3 with doubt, $2 surely, $3
        with doubt, then $1 under the hand dealing beside it; set A64, seed 14851)."""
        cand = zone.cand_sig
        if not (covered and not name.endswith(".paid") and cand is not None and zone.stable_sig == ((), 0.0)
                and not cand[0] and not sig[0] and sig[1] > 0 and self._is_loss(cand, sig)):
            return False
        return zone.cand_uncertain < zone.cand_count or self._read_surely_above(zone, sig[1])

    def _loss_blips(self, zone: _Zone, frame: int) -> bool:
        """The candidate being replaced is one more of a run of losses, each read for fewer than `stable_frames`
        frames, that follow the candidate before them (a $1 chip read as $1, $2, $1 in a spot just emptied):
        the run is one blip, and what came before it stays the candidate it interrupted."""
        prev = zone.prev_cand
        return (prev is not None and zone.cand_sig is not None and zone.cand_sig != prev[0]
                and zone.cand_count < self.stable_frames and self._is_loss(zone.stable_sig, zone.cand_sig)
                and frame - prev[2] <= self.removal_frames)

    def _emptied_at(self, zone: _Zone, new: Signature) -> int | None:
        """The first frame of the empty run the chips-only `new` contents follow (`_emptied_first`), also where other
        new chips came between: read for a frame as they were put down, before the player's next stack against them
        hid a chip (a King High $100 Low won and taken, the spot empty for five frames, a $400 Low read whole for one
        frame, then $300 for good as a $2 Suit was laid over one of its chips)."""
        first = self._emptied_first(zone, new)
        if first is not None or zone.emptied is None or zone.cand_sig is None:
            return first
        after_empty = _chips_only(zone, zone.cand_sig) and zone.cand_sig[1] > 0
        chips = _chips_only(zone, new) and new[1] > 0 and new != zone.stable_sig
        return zone.emptied if after_empty and chips else None

    def _emptied_first(self, zone: _Zone, new: Signature) -> int | None:
        """The first frame of a run of empty frames, at least `stable_frames` long, that the chips-only
        `new` contents follow in place of other chips: what was there was taken away (too briefly to confirm
        as a loss, which waits `removal_frames` for a covering hand to move) and other chips put down, as a
        King High dealer returns a winner and its payout and the player bets the next card on the spot."""
        empty: Signature = ((), 0.0)
        chips_only = _chips_only(zone, new) and zone.stable_sig[1] > 0
        if chips_only and zone.cand_sig == empty and zone.cand_count >= self.stable_frames and new != zone.stable_sig:
            return zone.cand_first
        return None

    def _sure(self, zo: ZoneObs, tracks: list[CardTrack]) -> bool:
        """Read with high confidence: what it takes to lift a doubt already confirmed (a reading between
        the detector's confidence and this is right only ~95 % of the time, benchmarks/detector_accuracy.py)."""
        cards_sure = all(c.confidence >= self.card_sure_conf or t.settled(c.face_up, self.stable_frames)
                         for t, c in zip(tracks, zo.cards, strict=True))
        return cards_sure and zo.chips_min_confidence >= self.sure_conf  # 1.0 where there are no chips

    def _forget(self, zone: _Zone, frame: int) -> None:
        """Drop card tracks neither in the confirmed state nor seen lately."""
        keep = {tid for tid, _ in zone.stable_sig[0]}
        if zone.cand_sig is not None:
            keep |= {tid for tid, _ in zone.cand_sig[0]}
        horizon = self.removal_frames + self.stable_frames
        for tid in [t for t, tr in zone.tracks.items() if t not in keep and frame - tr.last_seen > horizon]:
            del zone.tracks[tid]


def _seat(zone: str) -> str:
    """The seat (or dealer's area) a zone lies in: its name's first part."""
    return zone.split(".", 1)[0]


def _chips_only(zone: _Zone, sig: Signature) -> bool:
    """Neither the reading nor the zone's confirmed state holds a card."""
    return not sig[0] and not zone.stable_sig[0]


def _laid_anew(zone: _Zone) -> bool:
    """The candidate lies on a spot that was empty, or read empty since its last stack was taken."""
    return zone.stable.empty or zone.emptied is not None


def _read_with_them(zone: _Zone, sig: Signature) -> bool:
    """Chips only: the stack was read, since it was confirmed, as itself with the chips `sig` holds (`_restless`)."""
    return _read_as(zone.restless, zone.stable_sig[1] + sig[1])


def _read_as(readings: Iterable[tuple[int, Signature | None, bool] | None], total: float) -> bool:
    """Whether any of `readings` (`_Zone.restless`) is chips alone totalling `total`."""
    return any(r is not None and r[1] is not None and not r[1][0] and abs(r[1][1] - total) < 0.005 for r in readings)


def _laid_over(zone: _Zone, own: list[tuple[int, Signature, bool]], best: Signature) -> Signature:
    """Chips only: where the most frequent of a stack's restless readings is fewer chips than it was confirmed as
    (`_Zone.own_chips`: other chips, `_other_chips`) and it was read as well as the two together, the two together:
    chips laid over the stack hide it from the detector, which reads it with them now and then (a 3 Card Monster $100
    Ante with four $1 chips laid over it read $4 and $104 by turns). Else `best`."""
    if best[0] or zone.stable_sig[0] or not 0 < best[1] < zone.stable_sig[1]:
        return best
    both = round(zone.stable_sig[1] + best[1], 2)
    return ((), both) if _read_as(own, both) else best


def _other_chips(zone: _Zone, sig: Signature, zo: ZoneObs) -> bool:
    """Chips only: a confirmed stack read as fewer chips, not all of them its own (`_Zone.own_chips`)."""
    return bool(not sig[0] and not zone.stable_sig[0] and zone.own_chips and 0 < sig[1] < zone.stable_sig[1]
                and not Counter(zo.chips) <= Counter(zone.own_chips))


def _short_of_own(zone: _Zone, sig: Signature, zo: ZoneObs) -> bool:
    """Chips only: a stack confirmed with every chip in plain view (`ZoneState.hidden_room` unset), read as some of
    its own chips and no others (`_Zone.own_chips`) where a chip of it could lie under another stack's chip
    (`ZoneObs.chips_under_room`): a stack laid against it may hide one (`ZoneTracker._hidden_under`, `_read_more`)."""
    return bool(zo.chips_under_room and not zone.stable.hidden_room and not sig[0] and not zone.stable_sig[0]
                and 0 < sig[1] < zone.stable_sig[1] and Counter(zo.chips) < Counter(zone.own_chips))
