"""One card in a zone, followed from frame to frame: its identity is the majority of its confident readings
(`CardTrack.pool`), with swaps and readings back (`CardTrack.vote`); `ZoneTracker` keeps one per card it sees.
See `track.py`'s docstring for how the tracker uses it."""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

from .observe import CardObs

# The share of its deciding readings a card's identity needs to be clear: below it no card counts as read
# consistently (settled), and one whose majority changed hands is not known (contested).
CLEAR_SHARE = 0.75
# A card reading at or above this is right 99.93 % of the time, one between 0.995 and this 95 %, one between
# `card_sure_conf` (0.9) and 0.995 80 % (benchmarks/card_calibration.py on eight video sets, GG, MM, PP and UU-YY:
# the dealer's hands and fans half covering cards): where a card's readings at this agree, only they decide it
# (`CardTrack.pool`).
CERTAIN_CARD_CONF = 0.9995
# ... and only where the detector's box is as sure (`CardObs.box_confidence`): of readings at CERTAIN_CARD_CONF on the
# same eight sets, those in a box at 0.9 or more are right 99.995 % of the time (20 wrong of 368,034), those in a box
# below it 99.35 % (272 of 42,153), a hand half over the card (a 2c read 3c at 0.9997, its top under the dealer's
# fingers, the box at 0.83). Below CERTAIN_CARD_CONF the box splits the readings as much: 0.9-0.9995 is right 97 % in
# a sure box, 78 % in a doubtful one.
CERTAIN_BOX_CONF = 0.9


@dataclass
class CardTrack:
    """A card of a zone, matched by position from frame to frame (`ZoneTracker._match`), and what it was read as."""

    id: int
    x: float
    y: float
    votes: Counter = field(default_factory=Counter)
    sure: Counter = field(default_factory=Counter)  # the readings at or above the tracker's card_sure_conf
    certain: Counter = field(default_factory=Counter)  # the readings at or above CERTAIN_CARD_CONF
    backs: Counter = field(default_factory=Counter)
    identity: str | None = None
    flips: int = 0  # times the majority identity changed from one card to another
    unconfirmed: int = 0  # readings a swapped-in identity still needs before it counts as known
    last_seen: int = 0
    recent: deque = field(default_factory=lambda: deque(maxlen=64))
    # (identity, votes, sure, certain) when its readings were last set aside for a swap (`vote`)
    before_swap: tuple[str, Counter, Counter, Counter] | None = None
    read_back: bool = False  # its readings from before a swap are its own again (`_read_back`)

    @property
    def pool(self) -> Counter:
        """The readings the identity is the majority of: the certain ones (`CERTAIN_CARD_CONF`, in a box at
        `CERTAIN_BOX_CONF`) where one identity holds `CLEAR_SHARE` of them, else the sure ones once there are any,
        so readings below `card_sure_conf` never overturn a sure one (a half-covered card read as another at 0.6 for
        a few frames), nor sure ones below certain the certain ones (a fan's first card, its index half under the
        next card, read as Qs at 1.0 and as Qc at 0.9-0.98 by turns; a Ts under the dealer's fingers read as 9s at
        0.95-0.99). Certain readings that disagree say no more than the sure ones (a Qs read as Qc at 0.996+ five
        times, as Qs twice)."""
        certain = self.certain
        if certain and max(certain.values()) >= CLEAR_SHARE * sum(certain.values()):
            return certain
        return self.sure or self.votes

    def vote(self, c: CardObs, min_conf: float, swap_after: int, sure_conf: float = 1.0) -> None:
        if c.face_up and c.card and not c.uncertain and c.confidence >= min_conf:
            self.recent.append(c.card)
            last = list(self.recent)[-swap_after:]
            swapped = self.identity is not None and len(last) == swap_after and set(last) == {c.card} != {self.identity}
            certain = c.confidence >= CERTAIN_CARD_CONF and c.box_confidence >= CERTAIN_BOX_CONF
            if swapped:
                # Read as the same other card many times running: it was swapped, or a hand hides a pip for as long
                # (a 5 read as a 4): not known until read as it that often again (held-out video).
                self.before_swap = (self.identity, self.votes, self.sure, self.certain)
                self.votes, self.sure, self.certain = Counter(), Counter(), Counter()
                self.identity = None
                self.unconfirmed = swap_after
            elif self.unconfirmed and not self._read_back(c.card, certain) and c.card == self.identity:
                self.unconfirmed -= 1
            self.votes[c.card] += 1
            if c.confidence >= sure_conf:
                self.sure[c.card] += 1
            if certain:
                self.certain[c.card] += 1
            pool = self.pool
            top = max(pool.values())
            if self.identity is None or pool[self.identity] < top:  # ties keep the earlier answer
                self.flips += self.identity is not None
                self.identity = next(k for k, v in pool.items() if v == top)
        if c.back:
            self.backs[c.back] += 1

    def _read_back(self, card: str, certain: bool) -> bool:
        """Read certainly, while a swap is unconfirmed, as the card it was read certainly as before, and never
        certainly as another: no swap, but a hand over its pips for as long (a Pick 2 dealer's 6h read 5h at 0.72-0.92
        for six frames under the fingers, then 6h at 1.0 again before the sweep). Its readings from before the swap are
        its own again, and this reading is counted with them (`vote`). Read certainly as the other too, it stays unknown
        (`pool`)."""
        old = self.before_swap
        if not (certain and old and old[0] == card and set(old[3]) == {card} and set(self.certain) <= {card}):
            return False
        self.identity, self.votes, self.sure, self.certain = old
        self.unconfirmed, self.before_swap, self.read_back = 0, None, True
        return True

    def settled(self, face_up: bool, min_votes: int) -> bool:
        """Read often and consistently enough that one more doubtful frame of it changes nothing."""
        if not face_up:
            return sum(self.backs.values()) >= min_votes
        if self.identity is None:
            return False
        return self.votes[self.identity] >= min_votes and self._clear

    @property
    def contested(self) -> bool:
        """No identity yet, a swapped-in one not yet read as often again, or the majority changed hands and is
        still not clear: a covered card's index is read as the card laid over it (a hole card as the hit
        card), or one rank as another, for frames on end; or read as two identities and never surely (an
        uncovered Ks, turned in its box, read as Kc at 0.7-0.83 three times in four for 150 frames)."""
        return (self.identity is None or self.unconfirmed > 0 or (self.flips > 0 and not self._clear)
                or (not self.sure and len(self.votes) > 1))

    @property
    def _clear(self) -> bool:
        """The identity holds at least `CLEAR_SHARE` of the readings that decide it."""
        return self.pool[self.identity] >= CLEAR_SHARE * sum(self.pool.values())

    @property
    def back(self) -> str | None:
        """The back colour seen most often (ties keep the earlier one), None if never seen."""
        return self.backs.most_common(1)[0][0] if self.backs else None
