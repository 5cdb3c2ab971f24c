"""High Tie Blackjack round script (manual 001, "How is the game dealt"; house rules per RULES.md).

Dealt from a shoe of `settings.decks` decks kept between rounds (reshuffled when the cut card is
reached, one card burned after each shuffle). Deal: one card face up to each occupied position from
seat 1, the dealer's up card, a second card to each position, the dealer's hole card face down. A dealer
showing an ace or ten checks for blackjack and turns it over when he has one. Side bets are settled
next (losers, then winners), then each position plays by basic strategy (blackjack_strategy), with
busts, surrenders and naturals settled as they happen; the dealer plays by the house rule and the
remaining hands are settled. Wagers are even, so 3 to 2 pays whole chips. Insurance is never taken
(basic strategy).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from pipelines.games.blackjack_hand import card_points, is_natural, total
from pipelines.games.round import DealtCard, FrameRange, ObservedSettlement, Round, Wager
from pipelines.games.settlement import Settlement
from pipelines.games.shoe import Shoe

from .faults import FaultDraft, Step
from .script_base import ACT_FRAMES, GameScript, Take, cascade_positions, decision, pick_amount, row_positions


def basic_action(cards: list[str], up: str, can_double: bool, can_split: bool, can_surrender: bool,
                 hits_soft_17: bool) -> str:
    """Multi-deck basic strategy (the common published chart; H17 only changes 11 against an ace)."""
    u = 11 if up[0] == "A" else card_points(up)
    t = total(cards)
    pair = len(cards) == 2 and card_points(cards[0]) == card_points(cards[1])
    surrender_hand = (t.value == 16 and u >= 9) or (t.value == 15 and u == 10)
    if can_surrender and surrender_hand and len(cards) == 2 and not t.soft and not (pair and cards[0][0] == "8"):
        return "surrender"
    if can_split and pair:
        r = card_points(cards[0])
        if (r in (1, 8) or (r == 9 and u in (2, 3, 4, 5, 6, 8, 9)) or (r in (2, 3, 7) and u <= 7)
                or (r == 6 and u <= 6) or (r == 4 and u in (5, 6))):
            return "split"
    v = t.value
    if t.soft:
        if v >= 19:
            return "stand"
        if v == 18:
            if can_double and 3 <= u <= 6:
                return "double"
            return "stand" if u <= 8 else "hit"
        lo = {17: 3, 16: 4, 15: 4, 14: 5, 13: 5}[v] if v >= 13 else 99
        return "double" if can_double and lo <= u <= 6 else "hit"
    if v >= 17:
        return "stand"
    if v >= 13:
        return "stand" if u <= 6 else "hit"
    if v == 12:
        return "stand" if 4 <= u <= 6 else "hit"
    if v == 11:
        return "double" if can_double and (u != 11 or hits_soft_17) else "hit"
    if v == 10:
        return "double" if can_double and u <= 9 else "hit"
    if v == 9:
        return "double" if can_double and 3 <= u <= 6 else "hit"
    return "hit"


@dataclass
class _Hand:
    seat: int
    hand: int  # 0 unsplit, 1 and 2 after a split
    cards: list[str] = field(default_factory=list)
    slots: list[str] = field(default_factory=list)
    doubled: bool = False
    surrendered: bool = False
    split_aces: bool = False

    @property
    def zone_suffix(self) -> str:
        return "" if self.hand == 0 else f".{self.hand}"

    def decided_early(self, dealer_natural: bool, surrender_allowed: bool) -> bool:
        if dealer_natural:
            return False
        natural = self.hand == 0 and is_natural(self.cards)
        return natural or total(self.cards).bust or (self.surrendered and surrender_allowed)


class HighTieScript(GameScript):
    game = "high-tie"

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)
        self.shoe = Shoe(decks=self.settings.decks, seed=self.rng.randrange(2**31))
        self.fresh = True  # the shoe was just shuffled: burn a card

    def wager_xy(self, take: Take, seat: int, spot: str, hand: int = 0) -> tuple[float, float]:
        # A split's second hand has its own circle (and double spot): `seatN.main.2`, `seatN.double.2`.
        return take.zone_xy(f"seat{seat}.{spot}.2" if hand == 2 else f"seat{seat}.{spot}")

    def paid_xy(self, take: Take, seat: int, spot: str, hand: int = 0) -> tuple[float, float]:
        return take.zone_xy(f"seat{seat}.{spot}.2.paid" if hand == 2 else f"seat{seat}.{spot}.paid")

    def run_steps(self, take: Take, steps: list[Step]) -> None:
        for step in steps:
            if step.expected.line == "surrender" and step.outcome == "lose" and not step.leave:
                self.surrender_step(take, step)
            else:
                super().run_steps(take, [step])

    def surrender_step(self, take: Take, step: Step) -> None:
        """A surrendered hand (its cards already collected): the dealer takes half the wager to the
        tray, and the other half goes back to the player (off the layout)."""
        seat, spot, hand = key = step.key
        if step.change_to is not None:  # a pinch before the dealer gets there
            frame = take.change_wager(key, step.change_to)
            for f in step.faults:
                f.mark(frame)
            take.emit(2)
        xy = self.wager_xy(take, seat, spot, hand)
        on_table = take.wager_on_table(key)
        lost = min(on_table, -step.expected.net)
        take.reach(xy)
        start = take.frame
        name = f"w:{seat}:{spot}:{hand}"
        take.put_chips(name, on_table - lost, xy)
        frame = take.emit(ACT_FRAMES)
        take.event("wager_collected", frame, seat=seat, spot=spot, hand=hand, before=on_table,
                   after=on_table - lost)
        take.reach(take.zone_xy("dealer.tray", take.home))
        take.pause(0.4)  # the half left for the player stays in the circle a moment
        if name in take.chips:
            take.reach(xy)
            take.chips.pop(name)
            frame = take.emit(ACT_FRAMES)
            take.event("wager_returned", frame, seat=seat, spot=spot, hand=hand, before=on_table - lost, after=0.0)
        for f in step.faults:
            f.mark(start)
            f.mark(frame)
        take.round.settlements.append(ObservedSettlement(
            seat=seat, spot=spot, hand=hand, outcome="lose", paid=0.0, seq=take.settle_seq,
            frames=FrameRange(start=start, end=frame)))
        take.settle_seq += 1

    def script(self, rng: random.Random, take: Take, wanted: set[str], drafts: list[FaultDraft]
               ) -> list[Settlement]:
        s = self.settings
        if self.shoe.cut_card_reached or self.shoe.remaining < 60:
            self.shoe.shuffle()
            self.fresh = True
        seats = self.seats(rng)
        wagers: list[Wager] = []
        for seat in seats:
            wagers.append(Wager(seat=seat, spot="main", amount=pick_amount(rng, self.limits, "main", even=True,
                                                                           cap=self.limits.for_spot("double")[1])))
            if rng.random() < 0.6:
                wagers.append(Wager(seat=seat, spot="side", amount=pick_amount(rng, self.limits, "side")))
        misdeals = ["dealer_card_exposed_early"] + (["duplicate_card"] if s.decks == 1 else [])
        misdeal = rng.choice(misdeals) if "misdeal" in wanted else None
        draft = FaultDraft("misdeal", misdeal) if misdeal else None
        if draft:
            drafts.append(draft)

        # --- plan: cards in deal order, decisions, wager changes ---
        ops: list[tuple] = []
        plan = Round(game=self.game, table_id=take.round.table_id, round_id=take.round.round_id,
                     started_at=take.round.started_at)
        plan.wagers = [w.model_copy() for w in wagers]
        dealt: list[str] = []
        dup_seq: list[int] = []  # seq of a duplicated card, marked when it is animated

        def draw(owner: str) -> str:
            card = self.shoe.draw()[0]
            if misdeal == "duplicate_card" and owner.startswith("seat:") and dealer and not draft.detail:
                card = dealer[0]  # the dealer's up card shows up again: impossible from one deck
                draft.seat = int(owner[5:].split(".")[0])
                draft.detail = f"{card} dealt twice from a single deck"
                dup_seq.append(len(plan.cards))
            dealt.append(card)
            plan.cards.append(DealtCard(seq=len(plan.cards), owner=owner, card=card))
            return card

        if self.fresh:
            ops.append(("burn", draw("burn")))
            self.fresh = False
        hands = {seat: [_Hand(seat, 0)] for seat in seats}
        dealer: list[str] = []
        for rnd_no in (0, 1):
            for seat in seats:
                hands[seat][0].cards.append(draw(f"seat:{seat}"))
                ops.append(("deal", seat, 0, rnd_no))
            dealer.append(draw("dealer"))
            ops.append(("dealer", rnd_no))
        dealer_natural = is_natural(dealer)
        if dealer_natural:
            ops.append(("peek",))
        ops.append(("side",))
        decisions = 0
        if not dealer_natural:
            for seat in seats:
                queue = list(hands[seat])
                while queue:
                    h = queue.pop(0)
                    while not h.split_aces and total(h.cards).value < 21 and not (h.hand == 0 and is_natural(h.cards)):
                        first = len(h.cards) == 2
                        act = basic_action(
                            h.cards, dealer[0], can_double=first and (h.hand == 0 or s.double_after_split),
                            can_split=first and h.hand == 0, can_surrender=first and h.hand == 0 and s.surrender,
                            hits_soft_17=s.dealer_hits_soft_17)
                        plan.decisions.append(decision(seat, act, decisions, hand=h.hand))
                        ops.append(("decide", seat, h.hand, act, decisions))
                        decisions += 1
                        if act == "stand":
                            break
                        if act == "surrender":
                            h.surrendered = True
                            break
                        if act == "split":
                            main = plan.wager(seat, "main", 0)
                            main.hand = 1
                            plan.wagers.append(Wager(seat=seat, spot="main", hand=2, amount=main.amount))
                            aces = h.cards[0][0] == "A"
                            a, b = _Hand(seat, 1, [h.cards[0]], split_aces=aces), _Hand(seat, 2, [h.cards[1]],
                                                                                         split_aces=aces)
                            hands[seat] = [a, b]
                            ops.append(("split", seat))
                            for new in (a, b):
                                new.cards.append(draw(f"seat:{seat}.{new.hand}"))
                                ops.append(("hit", seat, new.hand))
                            queue = [a, b]
                            break
                        h.cards.append(draw(f"seat:{seat}" + h.zone_suffix))
                        if act == "double":
                            h.doubled = True
                            amount = plan.wager(seat, "main", h.hand).amount
                            plan.wagers.append(Wager(seat=seat, spot="double", hand=h.hand, amount=amount))
                            ops.append(("double", seat, h.hand))
                            break
                        ops.append(("hit", seat, h.hand))
                ops.append(("seat_done", seat))
        live = any(not h.decided_early(dealer_natural, s.surrender) for hs in hands.values() for h in hs)
        ops.append(("reveal",))
        if live and not dealer_natural:
            while True:
                t = total(dealer)
                if t.value > 17 or (t.value == 17 and not (t.soft and s.dealer_hits_soft_17)):
                    break
                dealer.append(draw("dealer"))
                ops.append(("dealer", len(dealer) - 1))
        ops.append(("final",))
        expected = self.module.settle(plan, s)

        # --- settlement phases ---
        early = {(h.seat, h.hand) for hs in hands.values() for h in hs
                 if h.decided_early(dealer_natural, s.surrender)}
        side = [x for x in expected if x.spot == "side"]
        per_seat = {seat: [x for x in expected if x.spot != "side" and (x.seat, x.hand) in early and x.seat == seat]
                    for seat in seats}
        final = [x for x in expected if x.spot != "side" and (x.seat, x.hand) not in early]
        step_phases = self.settle_phases(rng, take, wanted, drafts, [side, *per_seat.values(), final])
        side_steps, final_steps = step_phases[0], step_phases[-1]
        seat_steps = dict(zip(per_seat, step_phases[1:-1], strict=True))

        # --- animate ---
        counts: dict[str, int] = {}
        for c in plan.cards:
            counts[c.owner] = counts.get(c.owner, 0) + 1
        for w in wagers:
            take.place_wager(w, self.wager_xy(take, w.seat, w.spot))
        take.pause(0.5)
        take.event("bets_closed", take.emit())
        cards = iter(plan.cards)
        dealer_slots: list[str] = []
        split_done: set[int] = set()
        for op in ops:
            kind = op[0]
            if kind == "burn":
                c = next(cards)
                take.deal("burn", "burn", c.card, take.zone_xy("dealer.discard"), face_up=False)
            elif kind == "deal":
                seat, _, i = op[1:]
                c = next(cards)
                pos = row_positions(take.layout, f"seat{seat}.cards", counts[f"seat:{seat}"])[i]
                take.deal(f"s{seat}.0.{i}", c.owner, c.card, pos, face_up=True)
            elif kind == "dealer":
                c = next(cards)
                i = op[1]
                pos = row_positions(take.layout, "dealer.cards", max(2, counts["dealer"]))[i]
                up = i != 1 or misdeal == "dealer_card_exposed_early"
                dc = take.deal(f"d{i}", "dealer", c.card, pos, face_up=up)
                dealer_slots.append(f"d{i}")
                if i == 1 and misdeal == "dealer_card_exposed_early":
                    draft.mark(dc.frame)
                    draft.detail = f"hole card {c.card} dealt face up"
            elif kind == "peek" or kind == "reveal":
                if kind == "peek":  # the dealer checks the hole card before turning a blackjack over
                    take.withdraw()
                    take.pause(0.5)
                if misdeal == "dealer_card_exposed_early" and draft.end is not None and draft.end < take.frame:
                    draft.mark(take.frame)
                if not take.cards["d1"].face_up:
                    take.expose("d1", "dealer")
                take.pause(0.3)
            elif kind == "side":
                take.withdraw()
                self.run_steps(take, side_steps)
            elif kind == "decide":
                seat, hand, act, seq = op[1:]
                frame = take.emit(3)
                take.round.decisions.append(decision(seat, act, seq, frame, hand=hand))
                take.event("decision", frame, seat=seat, hand=hand)
                if act == "surrender":  # the dealer collects a surrendered hand's cards at once
                    take.remove_cards(sorted(k for k in take.cards if k.startswith(f"s{seat}.0.")))
            elif kind == "split":
                seat = op[1]
                split_done.add(seat)
                for i in (0, 1):
                    n = counts[f"seat:{seat}.{i + 1}"] + 1
                    pos = cascade_positions(take.layout, f"seat{seat}.cards.{i + 1}", n)[0]
                    take.move_card(f"s{seat}.0.{i}", pos, new_slot=f"s{seat}.{i + 1}.0")
                main = take.round.wager(seat, "main", 0)
                old = f"w:{seat}:main:0"
                take.chips[f"w:{seat}:main:1"] = take.chips.pop(old)
                main.hand = 1
                take.wager_first_frame[(seat, "main", 1)] = take.wager_first_frame.pop((seat, "main", 0))
                take.withdraw()  # the player puts the second wager down before the dealer deals on
                take.place_wager(Wager(seat=seat, spot="main", hand=2, amount=main.amount),
                                 self.wager_xy(take, seat, "main", 2))
                take.pause(0.3)
            elif kind in ("hit", "double"):
                seat, hand = op[1:]
                if kind == "double":
                    amount = take.round.wager(seat, "main", hand).amount
                    take.place_wager(Wager(seat=seat, spot="double", hand=hand, amount=amount),
                                     self.wager_xy(take, seat, "double", hand))
                c = next(cards)
                if hand == 0:
                    n = counts[f"seat:{seat}"]
                    i = sum(1 for k in take.cards if k.startswith(f"s{seat}.0."))
                    pos = row_positions(take.layout, f"seat{seat}.cards", n)[i]
                else:
                    n = counts[f"seat:{seat}.{hand}"] + 1
                    i = sum(1 for k in take.cards if k.startswith(f"s{seat}.{hand}."))
                    pos = cascade_positions(take.layout, f"seat{seat}.cards.{hand}", n)[i]
                take.deal(f"s{seat}.{hand}.{i}", c.owner, c.card, pos, face_up=True,
                          angle=90.0 if kind == "double" else 0.0)
            elif kind == "seat_done":
                take.withdraw()
                self.run_steps(take, seat_steps[op[1]])
            elif kind == "final":
                take.withdraw()
                take.pause(0.3)
                self.run_steps(take, final_steps)
        for seq in dup_seq:
            draft.mark(take.round.cards[seq].frame)
        return expected
