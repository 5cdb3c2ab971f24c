"""Common machinery of the round scripts: a round is planned, settled by the games core, then animated.

1. Plan: the game script chooses occupied seats and wagers (within the table's limits, in whole dollars
   the chip set can make), draws the cards in the manual's deal order and takes each player's decisions.
2. Settle: the planned round goes through the game's `settle()`; its `order` is the dealer's sequence.
3. Faults: settlement faults (faults.py) change what the dealer does; deal faults change the plan.
4. Animate: `Take` keeps the table as the camera sees it (cards, chip stacks, the dealer's hand) and
   emits one `Scene` per frame; every change is recorded in the `Round` with its frame number.

Frame numbers are session-wide (the video's), so a round document points straight into the video.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from pipelines.games.layout import Layout, layout_for
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
from pipelines.games.settlement import Settlement, TableLimits

from .faults import Fault, FaultDraft, FaultRates, Step, plan_settlement_faults, steps_from
from .scene import CARD_H_MM, CARD_W_MM, ChipStack, Occluder, PlacedCard, Scene, chips_for

WagerKey = tuple[int, str, int]  # seat, spot, hand

SESSION_START = datetime(2025, 1, 6, 20, 0, 0, tzinfo=UTC)
REACH_FRAMES = 2  # frames the dealer's hand takes to travel to where it acts
ACT_FRAMES = 2  # frames a change stays under the hand before it moves on
PAYOUT_MAX_CHIPS = 60


def chip_stack(amount: float, max_chips: int = 12) -> list[int]:
    """Chips for an amount; large payouts may use more chips than a wager. Cents cannot be shown in
    chips, so a fractional amount (only a limit-capped payout can make one) is drawn rounded up."""
    return chips_for(float(math.ceil(amount - 1e-9)), max_chips=max_chips)


def pick_amount(rng: random.Random, limits: TableLimits, spot: str, even: bool = False,
                cap: float | None = None) -> float:
    """A plausible wager: a round figure within the spot's limits, small bets more likely."""
    lo, hi = limits.for_spot(spot)
    if cap is not None:
        hi = min(hi, cap)
    menu = (1, 2, 5, 10, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500, 1000)
    options = [a for a in menu if lo <= a <= hi and (not even or a % 2 == 0)]
    if not options:
        a = math.ceil(lo)
        if even and a % 2:
            a += 1
        if a > hi:
            raise ValueError(f"table limits for {spot!r}: no whole{' even' if even else ''} amount in "
                             f"[{lo}, {hi}]")
        return float(a)
    weights = [1.0 / (1 + i) for i in range(len(options))]
    return float(rng.choices(options, weights)[0])


def row_positions(layout: Layout, zone: str, n: int) -> list[tuple[float, float]]:
    """n card centres laid side by side along the zone's longer side (overlapping if it is short)."""
    poly = layout.zone(zone).polygon
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    if n <= 1:
        return [(cx, cy)]
    horizontal = w >= h or w >= n * CARD_W_MM
    length, card = (w, CARD_W_MM) if horizontal else (h, CARD_H_MM)
    step = min(card + 6.0, max((length - card) / (n - 1), card * 0.3))
    start = -step * (n - 1) / 2
    if horizontal:
        return [(cx + start + i * step, cy) for i in range(n)]
    return [(cx, cy + start + i * step) for i in range(n)]


def box_row(layout: Layout, zone: str, n: int) -> list[tuple[float, float, float]]:
    """n cards (centre x, y and angle in degrees) side by side along the zone's longer side and turned with
    it, as a dealer squares a player's cards to a card box set at the seat's angle. (`row_positions` keeps
    cards upright: at a box turned 50 degrees its row ran out of the box and over the Play and Ante spots.)"""
    poly = layout.zone(zone).polygon
    (ax, ay), length = _long_side(poly)
    if (ax if abs(ax) >= abs(ay) else ay) < 0:  # dealt in table order: left to right, or top to bottom
        ax, ay = -ax, -ay  # when nearer upright (as vision/zones.py reads a row)
    angle = math.degrees(math.atan2(ay, ax))
    angle = angle - 180.0 if angle > 90.0 else angle + 180.0 if angle <= -90.0 else angle  # 180 degrees alike
    return [(x, y, angle) for x, y in _stepped(_centroid(poly), (ax, ay), length, CARD_W_MM, n)]


def cascade_positions(layout: Layout, zone: str, n: int) -> list[tuple[float, float]]:
    """n upright card centres for a blackjack hand in a small area (High Tie's split areas): side by side
    or in a column (`row_positions`), or stepped along the area's slant, whichever hides less of each card
    under the next (a column 37 mm apart hid 59 % of a card, at the renderer's limit for a visible one)."""
    options = [row_positions(layout, zone, n), _slant_positions(layout, zone, n)]
    return min(options, key=most_hidden)


def most_hidden(centres: list[tuple[float, float]]) -> float:
    """The largest share of an upright card covered by the next one laid on it."""
    return max((max(0.0, 1 - abs(b[0] - a[0]) / CARD_W_MM) * max(0.0, 1 - abs(b[1] - a[1]) / CARD_H_MM)
                for a, b in itertools.pairwise(centres)), default=0.0)


def _slant_positions(layout: Layout, zone: str, n: int) -> list[tuple[float, float]]:
    """n upright card centres stepped along the zone's longer side, about its centroid."""
    poly = layout.zone(zone).polygon
    (ax, ay), length = _long_side(poly)
    along = abs(ax) * CARD_W_MM + abs(ay) * CARD_H_MM  # an upright card's extent along that side
    return _stepped(_centroid(poly), (ax, ay), length, along, n)


def _centroid(poly: list[tuple[float, float]]) -> tuple[float, float]:
    return sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)


def _stepped(centre: tuple[float, float], direction: tuple[float, float], length: float, along: float,
             n: int) -> list[tuple[float, float]]:
    """n centres of cards `along` mm long in `direction`, stepped about `centre` over `length` mm: side by
    side with a gap where they fit, overlapping (down to 0.3 of a card apart) where they do not."""
    (cx, cy), (ax, ay) = centre, direction
    if n <= 1:
        return [(cx, cy)]
    step = min(along + 6.0, max((length - along) / (n - 1), along * 0.3))
    start = -step * (n - 1) / 2
    return [(cx + (start + i * step) * ax, cy + (start + i * step) * ay) for i in range(n)]


def _long_side(poly: list[tuple[float, float]]) -> tuple[tuple[float, float], float]:
    """The unit direction of the polygon's longest edge (pointing down the table, +y, or right) and its length."""
    edges = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(poly, [*poly[1:], poly[0]], strict=True)]
    dx, dy = max(edges, key=lambda e: math.hypot(*e))
    length = math.hypot(dx, dy)
    if dy < 0 or (dy == 0 and dx < 0):
        dx, dy = -dx, -dy
    return (dx / length, dy / length), length


@dataclass
class Take:
    """The table as the camera sees it during one round, and the round document being written."""

    layout: Layout
    round: Round
    start_frame: int
    fps: int
    frame: int = 0  # the next frame to emit
    scenes: list[Scene] = field(default_factory=list)
    cards: dict[str, PlacedCard] = field(default_factory=dict)  # slot -> card on the felt
    chips: dict[str, ChipStack] = field(default_factory=dict)  # stack name -> stack
    hand: Occluder = field(default_factory=lambda: Occluder(0.0, 0.0))
    home: tuple[float, float] = (0.0, 0.0)
    card_seq: int = 0
    settle_seq: int = 0
    wager_first_frame: dict[WagerKey, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.frame = self.start_frame
        try:
            x, y = self.layout.zone("dealer.tray").centre
        except KeyError:
            x, y = self.layout.width_mm / 2, 80.0
        self.home = (x, y + 60.0)
        self.hand = Occluder(*self.home)

    # --- frames ---

    def emit(self, n: int = 1) -> int:
        """Show the current table for n frames; returns the first of them."""
        scene = Scene(cards=list(self.cards.values()), chips=list(self.chips.values()), occluders=[self.hand])
        self.scenes.extend([scene] * n)
        first = self.frame
        self.frame += n
        return first

    def pause(self, seconds: float) -> None:
        self.emit(max(1, round(seconds * self.fps)))

    def reach(self, xy: tuple[float, float], frames: int = REACH_FRAMES) -> None:
        """Move the dealer's hand to a point over `frames` frames."""
        x0, y0 = self.hand.x, self.hand.y
        for i in range(1, frames + 1):
            t = i / frames
            self.hand = Occluder(x0 + (xy[0] - x0) * t, y0 + (xy[1] - y0) * t)
            self.emit()

    def withdraw(self) -> None:
        self.reach(self.home)

    def zone_xy(self, name: str, fallback: tuple[float, float] | None = None) -> tuple[float, float]:
        try:
            return self.layout.zone(name).centre
        except KeyError:
            if fallback is None:
                raise
            return fallback

    # --- round document ---

    def event(self, type_: str, frame: int, **kw: object) -> TableEvent:
        ev = TableEvent(seq=len(self.round.events), type=type_, frame=frame, **kw)
        self.round.events.append(ev)
        return ev

    # --- chips ---

    def put_chips(self, name: str, amount: float, xy: tuple[float, float], max_chips: int = 12) -> None:
        if amount <= 0:
            self.chips.pop(name, None)
            return
        self.chips[name] = ChipStack(chip_stack(amount, max_chips), *xy)

    def place_wager(self, w: Wager, xy: tuple[float, float]) -> int:
        """A player puts a wager down (players' hands are not drawn)."""
        self.put_chips(f"w:{w.seat}:{w.spot}:{w.hand}", w.amount, xy)
        frame = self.emit()
        self.wager_first_frame[(w.seat, w.spot, w.hand)] = frame
        self.round.wagers.append(w)
        self.event("wager_placed", frame, seat=w.seat, spot=w.spot, hand=w.hand, after=w.amount)
        return frame

    def change_wager(self, key: WagerKey, amount: float) -> int:
        """A player changes a stack (a past-post or pinch when betting is closed)."""
        name = f"w:{key[0]}:{key[1]}:{key[2]}"
        before = self.chips[name].value
        stack = self.chips[name]
        self.put_chips(name, amount, (stack.x, stack.y))
        frame = self.emit()
        self.event("wager_changed", frame, seat=key[0], spot=key[1], hand=key[2], before=before, after=amount)
        return frame

    def wager_on_table(self, key: WagerKey) -> float:
        stack = self.chips.get(f"w:{key[0]}:{key[1]}:{key[2]}")
        return stack.value if stack else 0.0

    # --- cards ---

    def deal(self, slot: str, owner: str, card: str, xy: tuple[float, float], face_up: bool,
             back: str = "red", angle: float = 0.0, shown: str | None = None) -> DealtCard:
        """Deal a card to a spot on the felt. `shown` is what the camera sees (a duplicate-card misdeal)."""
        self.reach(xy)
        self.cards[slot] = PlacedCard(card, xy[0], xy[1], face_up=face_up, back=back, angle=angle)
        frame = self.emit(ACT_FRAMES - 1 or 1)
        dc = DealtCard(seq=self.card_seq, owner=owner, card=card, face_up=face_up, back=back, frame=frame)
        self.card_seq += 1
        self.round.cards.append(dc)
        self.event("card_dealt", frame, card=card if face_up else None, owner=owner,
                   seat=_seat_of(owner))
        return dc

    def expose(self, slot: str, owner: str) -> int:
        pc = self.cards[slot]
        self.reach((pc.x, pc.y))
        self.cards[slot] = dataclasses.replace(pc, face_up=True)
        frame = self.emit()
        self.event("card_exposed", frame, card=pc.card, owner=owner, seat=_seat_of(owner))
        return frame

    def move_card(self, slot: str, xy: tuple[float, float], new_slot: str | None = None,
                  face_up: bool | None = None, angle: float | None = None) -> None:
        pc = self.cards.pop(slot)
        self.reach((pc.x, pc.y), 1)
        self.reach(xy, 1)
        self.cards[new_slot or slot] = dataclasses.replace(
            pc, x=xy[0], y=xy[1], face_up=pc.face_up if face_up is None else face_up,
            angle=pc.angle if angle is None else angle)
        self.emit()

    def remove_cards(self, slots: list[str]) -> None:
        for s in slots:
            pc = self.cards.pop(s, None)
            if pc is not None:
                self.reach((pc.x, pc.y), 1)
        self.emit()

    # --- settlement ---

    def settle_step(self, step: Step, wager_xy: tuple[float, float], paid_xy: tuple[float, float]) -> None:
        """The dealer settles one wager: take it, pay beside it, leave it, or push it back."""
        key = step.key
        seat, spot, hand = key
        if step.change_to is not None:
            frame = self.change_wager(key, step.change_to)
            for f in step.faults:
                f.mark(frame)
            self.emit(2)
        on_table = self.wager_on_table(key)
        self.reach(wager_xy)
        start = self.frame
        name = f"w:{seat}:{spot}:{hand}"
        if step.outcome == "lose" and not step.leave:
            self.chips.pop(name, None)
            frame = self.emit(ACT_FRAMES)
            self.event("wager_collected", frame, seat=seat, spot=spot, hand=hand, before=on_table, after=0.0)
        elif step.outcome == "win":
            self.reach(self.zone_xy("dealer.tray", self.home), 1)
            self.reach(paid_xy, 1)
            self.put_chips(f"p:{seat}:{spot}:{hand}", step.paid, paid_xy, PAYOUT_MAX_CHIPS)
            frame = self.emit(ACT_FRAMES)
            self.event("payout_placed", frame, seat=seat, spot=spot, hand=hand, after=step.paid)
        elif step.outcome == "returned":
            self.chips.pop(name, None)
            frame = self.emit(ACT_FRAMES)
            self.event("wager_returned", frame, seat=seat, spot=spot, hand=hand, before=on_table, after=0.0)
        else:  # push, or a loser the dealer passes over
            frame = self.emit(1)
        for f in step.faults:
            f.mark(start)
            f.mark(frame)
        self.round.settlements.append(ObservedSettlement(
            seat=seat, spot=spot, hand=hand, outcome=step.outcome, paid=step.paid if step.outcome == "win" else 0.0,
            seq=self.settle_seq, frames=FrameRange(start=start, end=frame)))
        self.settle_seq += 1

    def clear_table(self) -> int:
        """Winners, their payouts and pushes go back to the players; the cards go to the discard."""
        discard = self.zone_xy("dealer.discard", self.home)
        for slot in sorted(self.cards):
            pc = self.cards[slot]
            self.reach((pc.x, pc.y), 1)
        self.cards.clear()
        self.reach(discard, 2)
        self.chips.clear()
        self.withdraw()
        return self.emit(2)


def _seat_of(owner: str) -> int | None:
    if owner.startswith("seat:"):
        return int(owner[5:].split(".")[0])
    return None


@dataclass
class ScriptedRound:
    """One simulated round: the frames (scenes), the round document and the injected faults."""

    round: Round
    scenes: list[Scene]
    faults: list[Fault]
    expected: list[Settlement]

    @property
    def frame_count(self) -> int:
        return len(self.scenes)


class GameScript:
    """Base of the per-game scripts. A script keeps shoe state between rounds of one session."""

    game: str = ""

    def __init__(self, settings: object | None = None, *, seed: int = 0, table_id: str = "T1", fps: int = 10,
                 faults: float | dict[str, float] | FaultRates | None = None, layout: Layout | None = None,
                 seat_probability: float = 0.6) -> None:
        self.module = game_module(self.game)
        self.settings = settings if settings is not None else self.module.Settings()
        self.seed = seed
        self.table_id = table_id
        self.fps = fps
        self.rates = FaultRates.of(faults)
        self.layout = layout or layout_for(self.game)
        self.seat_probability = seat_probability
        self.rng = random.Random(f"{self.game}|{seed}|session")

    @property
    def limits(self) -> TableLimits:
        return self.settings.limits

    def seats(self, rng: random.Random) -> list[int]:
        allowed = getattr(self.settings, "seats", None) or self.layout.seats
        places = [s for s in self.layout.seats if s in allowed]
        seats = [s for s in places if rng.random() < self.seat_probability]
        return seats or [rng.choice(places)]

    def max_for(self) -> dict[str, float]:
        return {spot: self.limits.for_spot(spot)[1] for spot in self.module.SPOTS}

    def play_round(self, index: int, start_frame: int = 0) -> ScriptedRound:
        """Plan, settle, fault and animate round `index` starting at video frame `start_frame`."""
        rng = random.Random(f"{self.game}|{self.seed}|round|{index}")
        self.round_index = index
        started = SESSION_START + timedelta(seconds=start_frame / self.fps)
        started_at = started.isoformat()
        rnd = Round(game=self.game, table_id=self.table_id, round_id=round_id_for(self.table_id, started_at),
                    started_at=started_at)
        take = Take(layout=self.layout, round=rnd, start_frame=start_frame, fps=self.fps)
        wanted = self.rates.draw(rng)
        drafts: list[FaultDraft] = []
        expected = self.script(rng, take, wanted, drafts)
        end = take.clear_table()
        for d in drafts:  # a wager left behind is visible until the table is cleared
            if d.type == "missed_collection":
                d.mark(end)
        take.event("round_complete", end)
        take.emit(max(1, self.fps // 2))
        rnd.frames = FrameRange(start=start_frame, end=take.frame - 1)
        rnd.ended_at = (SESSION_START + timedelta(seconds=take.frame / self.fps)).isoformat()
        for w in rnd.wagers:
            first = take.wager_first_frame.get((w.seat, w.spot, w.hand), start_frame)
            w.frames = FrameRange(start=first, end=rnd.frames.end)
        faults = [d.final(rnd.round_id) for d in drafts]
        return ScriptedRound(round=rnd, scenes=take.scenes, faults=faults, expected=expected)

    # --- per game ---

    def script(self, rng: random.Random, take: Take, wanted: set[str], drafts: list[FaultDraft]
               ) -> list[Settlement]:
        """Play one round on `take`; return the expected settlements (settle() of the planned round)."""
        raise NotImplementedError

    # --- helpers the games share ---

    def wager_xy(self, take: Take, seat: int, spot: str, hand: int = 0) -> tuple[float, float]:
        return take.zone_xy(f"seat{seat}.{spot}")

    def paid_xy(self, take: Take, seat: int, spot: str, hand: int = 0) -> tuple[float, float]:
        x, y = self.wager_xy(take, seat, spot, hand)
        return take.zone_xy(f"seat{seat}.{spot}.paid", (x + 45.0, y))

    def settle_phases(self, rng: random.Random, take: Take, wanted: set[str], drafts: list[FaultDraft],
                      phases: list[list[Settlement]]) -> list[list[Step]]:
        """Turn settle()'s result into the dealer's steps and plan the settlement faults on them."""
        on_table = {(w.seat, w.spot, w.hand): w.amount for w in take.round.wagers}
        step_phases = [steps_from(p, on_table) for p in phases]
        drafts.extend(plan_settlement_faults(rng, wanted, step_phases, self.max_for()))
        return step_phases

    def run_steps(self, take: Take, steps: list[Step]) -> None:
        for step in steps:
            seat, spot, hand = step.key
            take.settle_step(step, self.wager_xy(take, seat, spot, hand), self.paid_xy(take, seat, spot, hand))


def planned_round(take: Take) -> Round:
    """A copy of the round as planned, for settle() (cards known, frames irrelevant)."""
    return take.round.model_copy(deep=True)


def decision(seat: int, action: str, seq: int, frame: int | None = None, hand: int = 0,
             cards: list[str] | None = None) -> Decision:
    return Decision(seat=seat, hand=hand, action=action, seq=seq, frame=frame, cards=cards)
