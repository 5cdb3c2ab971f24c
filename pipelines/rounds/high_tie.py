"""High Tie Blackjack (manual 001, "How is the game dealt"; house rules per RULES.md).

Cards are dealt face up to the seats' card areas, the dealer's hole card face down; a burn card after a
shuffle goes face down to the discard. Decisions are read from the cards and the spots: each card after
a hand's first two is a hit (the last one a double when Double chips were placed), a live hand under 21
that stops drawing stood.

- Split: the second hand's wager stands in its own circle (`seatN.main.2`, paid at `seatN.main.2.paid`;
  its double at `seatN.double.2`). The seat's two original cards stay "seat:N" (the first is hand 1's,
  the second hand 2's); cards dealt after them into the split areas `seatN.cards.H` are "seat:N.H".
- Surrender: the dealer collects a surrendered hand's cards at once, takes half the wager and returns
  the rest. Read from a two-card hand whose cards left the layout while other cards were still out and
  before its wager was settled, or whose Main was taken before the hole card was turned over.
- A dealer blackjack ends the round before any decision. The dealer checks the hole card before
  turning a blackjack over, so the camera sees it face down first; a hole card first seen face up was
  dealt face up (a misdeal), whatever it makes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from pipelines.games.blackjack_hand import card_points, is_natural, total
from pipelines.games.round import Decision, Round

from .live import LiveRound, WagerSeen, _observation_frame
from .machine import RoundMachine
from .timeline import ChipInstance, Slot
from .zone_names import ZoneRef, parse_zone

SPLIT_HAND = ".2"  # suffix of the second split hand's betting spots


class HighTieMachine(RoundMachine):
    game = "high-tie"
    round_spots = ("main", "side")
    cards_dealt_over = True  # hits cascade over the cards before them

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)
        self._owners: dict[int, str | None] = {}  # slot seq -> owner, for the round being closed

    # ------------------------------------------------------------------------------- split hands

    @staticmethod
    def _split_seats(live: LiveRound) -> dict[int, int]:
        """Seat -> the frame its second split wager was put down (the split), for seats that split."""
        out = {}
        for name, zone in live.chips.items():
            ref = parse_zone(name)
            if ref.area == "bet" and ref.spot == "main" + SPLIT_HAND and zone.instances and ref.seat:
                out[ref.seat] = zone.instances[0].start
        return out

    def spot_of(self, ref: ZoneRef) -> tuple[str, str | None]:
        spot = ref.spot or ""
        return (spot.removesuffix(SPLIT_HAND), None)

    def hand_of(self, ref: ZoneRef, inst: ChipInstance, closes: list[int], live: LiveRound) -> int:
        spot = ref.spot or ""
        if spot.endswith(SPLIT_HAND):
            return 2
        return 1 if spot in ("main", "double") and ref.seat in self._split_seats(live) else 0

    def card_order(self, live: LiveRound) -> list[Slot]:
        """Also decides each card's owner: nested areas repeat the cards of the seat's area."""
        split = self._split_seats(live)
        fixed = {seat: self._originals(live, seat) for seat in split}
        self._owners = {}
        out = []
        for slot in live.slots:
            ref = parse_zone(slot.zone)
            owner = self._owner(slot, live, split)
            if ref.seat in fixed and ref.area == "cards" and ref.sub is None and owner is not None:
                originals = fixed[ref.seat]
                k = next(i for i, s in enumerate(live.cards[slot.zone].slots[:2]) if s is slot)
                if originals is not None:
                    slot = replace(slot, card=originals[k])
            self._owners[slot.seq] = owner
            out.append(slot)
        return out

    @staticmethod
    def _split_areas(live: LiveRound, seat: int, split_at: int
                     ) -> tuple[list[Slot], dict[int, list[Slot]], dict[int, list[Slot]]]:
        """(the seat area's slots, per split hand the cards seen before the split wager, and after:
        the dealer moves the pair apart, the player puts the second wager down, then cards are dealt)."""
        parent = live.cards[f"seat{seat}.cards"].slots if f"seat{seat}.cards" in live.cards else []
        before: dict[int, list[Slot]] = {}
        after: dict[int, list[Slot]] = {}
        for h in (1, 2):
            zone = live.cards.get(f"seat{seat}.cards.{h}")
            slots = zone.slots if zone is not None else []
            before[h] = [s for s in slots if s.frame <= split_at]
            after[h] = [s for s in slots if s.frame > split_at]
        return parent, before, after

    def _originals(self, live: LiveRound, seat: int) -> tuple[str, str] | None:
        """The split pair, first card first. The seat's area re-reads its cards in table order once they
        lie side by side, so after a split its first two slots may name a later card: the pair is what it
        holds besides the new cards, and hand 2's card is the one seen in the second split area."""
        split_at = self._split_seats(live)[seat]
        parent, before, after = self._split_areas(live, seat, split_at)
        pair = Counter(s.card for s in parent if s.card) - Counter(s.card for h in (1, 2) for s in after[h])
        seen = self._pair_seen_apart(before, split_at)
        if sum(pair.values()) != 2 or sum(len(after[h]) for h in (1, 2)) != len(parent) - 2:
            # The seat's area lost count (a card dealt over another as the hands were moved apart), but each
            # split area saw its own original card before the split wager: those are the pair.
            if seen is not None:
                return seen
            live.note(f"seat {seat}: split, but the original pair cannot be told from the later cards")
            return None
        cards = sorted(pair.elements())
        if card_points(cards[0]) != card_points(cards[1]):  # a half-covered split card misread, most likely
            if seen is not None and set(seen) & set(cards):
                # The split areas saw a pair before the split wager, sharing a card with this reading: the
                # other was misread later, under the hit card dealt over it.
                live.note(f"inferred: seat {seat}'s split pair is {seen[0]} {seen[1]}, as each split area saw "
                          f"its card before the split wager (the seat's area read {cards[0]} {cards[1]})")
                return seen
            live.note(f"seat {seat}: split, but the pair reads {cards[0]} {cards[1]}, which is no pair "
                      "(a card misread, or a split the rules do not allow)")
            return None
        if cards[0] == cards[1]:
            return cards[0], cards[1]
        for h in (2, 1):
            seen = {s.card for s in before[h]} & set(cards)
            if len(seen) == 1:
                mine = seen.pop()
                other = cards[1] if mine == cards[0] else cards[0]
                return (other, mine) if h == 2 else (mine, other)
        live.note(f"seat {seat}: split, but which original card went to which hand was not seen")
        return None

    @staticmethod
    def _pair_seen_apart(before: dict[int, list[Slot]], split_at: int) -> tuple[str, str] | None:
        """The pair as the two split areas saw it before the split wager (at `split_at`), one card each, when it
        is a pair: a card may be read again later, under the hit card dealt over it."""
        seen = [s.card_at(split_at) for h in (1, 2) for s in before[h]]
        if len(before[1]) == len(before[2]) == 1 and all(seen) and card_points(seen[0]) == card_points(seen[1]):
            return seen[0], seen[1]
        return None

    @staticmethod
    def _owner(slot: Slot, live: LiveRound, split: dict[int, int]) -> str | None:
        ref = parse_zone(slot.zone)
        if ref.area == "dealer":
            return "burn" if ref.sub == "discard" else "dealer"
        if ref.area != "cards" or ref.seat is None:
            return None
        parent = live.cards.get(f"seat{ref.seat}.cards")
        if ref.sub is None:  # the seat's whole area holds every card it was dealt
            if ref.seat in split and parent is not None and not any(slot is s for s in parent.slots[:2]):
                return None  # a split hand's card: read from its own area
            return f"seat:{ref.seat}"
        if ref.seat not in split or slot.frame <= split[ref.seat]:
            return None  # an original card seen in (or moved into) a split area
        return f"seat:{ref.seat}.{ref.sub}"

    def owner_of(self, slot: Slot) -> str | None:
        if slot.seq in self._owners:
            return self._owners[slot.seq]
        ref = parse_zone(slot.zone)
        if ref.area == "dealer":
            return "burn" if ref.sub == "discard" else "dealer"
        return f"seat:{ref.seat}" if ref.area == "cards" and ref.sub is None else None

    # ------------------------------------------------------------------------------- reading play

    def interpret(self, live: LiveRound, rnd: Round, seen: list[WagerSeen]) -> None:
        split = self._split_seats(live)
        surrendered = {d.seat for d in rnd.decisions if d.action == "surrender"}
        for ws in seen:
            if ws.wager.spot == "main" and ws.wager.seat in surrendered:
                _drop_half_take(ws)
        self._drop_unsplit_area_doubts(live, split)
        for seat in split:
            originals = rnd.cards_of(f"seat:{seat}")
            if len(originals) != 2 or not rnd.cards_of(f"seat:{seat}.1") or not rnd.cards_of(f"seat:{seat}.2"):
                live.note(f"seat {seat}: a second split wager, but the cards do not show two split hands")

    def holds_round_cards(self, live: LiveRound, area: str) -> bool:
        """A split area of a seat that did not split holds no card of its own: the seat's area holds its cards
        (`_owner`), and a card lost from view there is lost from the seat's area too, which says so itself. (A 5h hit
        lying across into seat 2's split area 2 went out of it as the 2d and As were dealt over its corner, all three
        in view in the seat's area: taken for a card hidden under the 2d, it held a round read right from review.)"""
        return not _unsplit_area(parse_zone(area), self._split_seats(live))

    @staticmethod
    def _drop_unsplit_area_doubts(live: LiveRound, split: dict[int, int]) -> None:
        """Doubts about a split area of a seat that did not split concern no card of the round: the seat's own area
        holds its cards (`_owner`). A 6d hit card lying across the boundary between seat 3's two split areas, read as
        a 5d under the dealer's hand in one of them, held a round read right from review."""
        for name in live.cards:
            ref = parse_zone(name)
            if not _unsplit_area(ref, split):
                continue
            doubts = [n for n in live.notes if _observation_frame(n, name) is not None]
            for n in doubts:
                live.notes.remove(n)
            if doubts:
                live.note(f"inferred: seat {ref.seat} did not split: {len(doubts)} doubt(s) read in {name} concern "
                          "no card of the round")

    def decisions(self, live: LiveRound, rnd: Round, seen: list[WagerSeen]) -> list[Decision]:
        dealer = rnd.cards_of("dealer")
        if len(dealer) >= 2 and is_natural(dealer[:2]):
            return []
        hole = next((s for s in live.slots if self.owner_of(s) == "dealer" and not s.face_up), None)
        reveal = hole.exposed_frame if hole is not None else None
        split = self._split_seats(live)
        out: list[Decision] = []
        for seat in sorted({ws.wager.seat for ws in seen if ws.wager.spot == "main"}):
            def wager(spot: str, hand: int, seat: int = seat) -> WagerSeen | None:
                return next((ws for ws in seen if ws.key == (seat, spot, hand)), None)

            cards = rnd.cards_of(f"seat:{seat}")
            frames = [c.frame for c in rnd.cards if c.owner == f"seat:{seat}"]
            if len(cards) < 2:
                live.note(f"seat {seat}: {len(cards)} card(s) seen")
                continue
            if seat in split:
                second = wager("main", 2)
                out.append(Decision(seat=seat, action="split", hand=0, seq=len(out),
                                    frame=second.inst.start if second else None))
                aces = cards[0][0] == cards[1][0] == "A"  # split aces take one card each
                for h in (1, 2):
                    own = [c for c in rnd.cards if c.owner == f"seat:{seat}.{h}" and c.card]
                    hand = [cards[h - 1], *(c.card for c in own)]
                    if aces:
                        if len(hand) != 2:
                            live.note(f"seat {seat}: split aces, but hand {h} holds {len(hand)} cards")
                        continue
                    self._play(live, out, seat, h, hand, [None, *(c.frame for c in own)], wager("double", h))
                continue
            if is_natural(cards):
                continue
            main = wager("main", 0)
            double = wager("double", 0)
            if len(cards) == 2 and main is not None and self._surrendered(live, seat, main, reveal):
                out.append(Decision(seat=seat, action="surrender", seq=len(out), frame=main.inst.end))
                continue
            self._play(live, out, seat, 0, cards, frames, double)
        return out

    @staticmethod
    def _play(live: LiveRound, out: list[Decision], seat: int, hand: int, cards: list[str],
              frames: list[int | None], double: WagerSeen | None) -> None:
        """Hits, a double, and a stand, read from one hand's cards."""
        if any(total(cards[:i]).value >= 21 for i in range(2, len(cards))):
            # e.g. a split whose second wager was not seen: its two hands' cards read as one
            live.note(f"seat {seat} hand {hand}: cards dealt after the hand reached 21 or busted")
        for i in range(2, len(cards)):
            act = "double" if double is not None and i == len(cards) - 1 else "hit"
            out.append(Decision(seat=seat, hand=hand, action=act, seq=len(out), frame=frames[i]))
        if double is not None and len(cards) != 3:
            live.note(f"seat {seat} hand {hand}: doubled but holds {len(cards)} cards")
        if double is None and total(cards).value < 21:
            out.append(Decision(seat=seat, hand=hand, action="stand", seq=len(out), frame=frames[-1]))

    def _surrendered(self, live: LiveRound, seat: int, main: WagerSeen, reveal: int | None) -> bool:
        if not getattr(self.settings, "surrender", True):
            return False
        paid = live.chips.get(f"seat{seat}.main.paid")
        if paid is not None and any(p.start >= main.lock for p in paid.instances):
            return False
        area = live.cards.get(f"seat{seat}.cards")
        gone = area.empty_since if area is not None else None
        if gone is not None and live.cleared is not None and gone < live.cleared and (
                main.inst.end is None or main.inst.end >= gone):
            return True  # the cards were collected while play went on, before the wager was settled
        return main.inst.end is not None and reveal is not None and main.inst.end < reveal


def _drop_half_take(ws: WagerSeen) -> None:
    """A surrendered Main falls to half (the dealer's take) before the rest goes back: that fall is
    the settlement, not a pinch, so it is not reported as a change of the wager."""
    steps = ws.inst.steps
    if len(steps) >= 2 and abs((steps[-2][1] - steps[-1][1]) - ws.wager.amount / 2) < 0.01:
        del steps[-1]


def _unsplit_area(ref: ZoneRef, split: dict[int, int]) -> bool:
    """`ref` is a split area of a seat that did not split (`split`: `HighTieMachine._split_seats`)."""
    return ref.area == "cards" and ref.sub is not None and ref.seat is not None and ref.seat not in split
