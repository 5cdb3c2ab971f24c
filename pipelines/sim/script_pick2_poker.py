"""Pick 2 Poker round script (manual 003, "How is the game dealt", "Irregularities").

Dealt from an automatic shuffler with a second deck: the two decks have different back colours and
alternate round by round (red on even rounds, blue on odd). Each occupied spot gets 5 cards face down,
then the dealer. Player rule (simple and sound): a pair or better in five cards plays 5-card poker
(Play = Ante); a three-card straight or better among the five plays 3-card poker with that best three
(Play = 2 x Ante); ace-king high plays 5-card poker; anything else folds.

Folds are collected when made; the dealer exposes his five cards, then settles in settle()'s order
(Ante and Play, then the bonuses: RULES.md `bonus_settlement`), exposing each hand as he reaches it.
A wrong number of cards or a dealer card exposed early voids the round (Irregularities b, c): every
wager is returned.
"""

from __future__ import annotations

import random

from pipelines.games.cards import BACK_COLOURS, DECK
from pipelines.games.poker import Hand3, Hand5, best3, evaluate5
from pipelines.games.round import DealtCard, Round, VoidInfo, Wager
from pipelines.games.settlement import Settlement

from .faults import MISDEALS, FaultDraft
from .script_base import GameScript, Take, box_row, decision, pick_amount

HAND = 5


def choose(cards: list[str]) -> tuple[str, list[str] | None]:
    """play5, play3 (with the three cards) or fold."""
    e5 = evaluate5(cards)
    e3, three = best3(cards)
    if e5[0] >= Hand5.PAIR:
        return "play5", None
    if e3[0] >= Hand3.STRAIGHT:
        return "play3", list(three)
    if e5[1:3] == (14, 13):
        return "play5", None
    return "fold", None


def _other(back: str) -> str:
    return BACK_COLOURS[1 - BACK_COLOURS.index(back)]


class Pick2PokerScript(GameScript):
    game = "pick-2-poker"

    def script(self, rng: random.Random, take: Take, wanted: set[str], drafts: list[FaultDraft]
               ) -> list[Settlement]:
        seats = self.seats(rng)
        wagers: list[Wager] = []
        for seat in seats:
            cap = min(self.limits.for_spot("play")[1] / 2, self.limits.for_spot("bonus35")[1])
            ante = pick_amount(rng, self.limits, "ante", cap=cap)
            wagers.append(Wager(seat=seat, spot="ante", amount=ante))
            wagers.append(Wager(seat=seat, spot="bonus35", amount=ante))  # must equal the Ante
            if rng.random() < 0.5:
                wagers.append(Wager(seat=seat, spot="bonus5", amount=pick_amount(rng, self.limits, "bonus5")))
        deck = list(DECK)
        rng.shuffle(deck)
        owners = [f"seat:{s}" for s in seats] + ["dealer"]
        hands = {o: deck[i * HAND:(i + 1) * HAND] for i, o in enumerate(owners)}
        # The decks alternate: the right deck is the other one from the deck the last round actually used.
        last = getattr(self, "_last_back", None)
        back = BACK_COLOURS[self.round_index % 2] if last is None else _other(last)

        misdeal = rng.choice(MISDEALS[self.game]) if "misdeal" in wanted else None
        draft = FaultDraft("misdeal", misdeal) if misdeal else None
        if draft:
            drafts.append(draft)
        short_seat = exposed = dup_seat = None
        if misdeal == "wrong_card_count":
            short_seat = rng.choice(seats)
            draft.seat = short_seat
            extra = rng.random() < 0.5
            hands[f"seat:{short_seat}"] = (hands[f"seat:{short_seat}"] + [deck[len(owners) * HAND]]
                                           if extra else hands[f"seat:{short_seat}"][:4])
            draft.detail = f"seat {short_seat} dealt {len(hands[f'seat:{short_seat}'])} cards; round voided"
        elif misdeal == "dealer_card_exposed_early":
            exposed = rng.randrange(HAND)
            draft.detail = "a dealer card dealt face up; round voided"
        elif misdeal == "duplicate_card":
            dup_seat = rng.choice(seats)
            draft.seat = dup_seat
            hands[f"seat:{dup_seat}"][rng.randrange(HAND)] = hands["dealer"][rng.randrange(HAND)]
            draft.detail = f"a dealer card appears again in seat {dup_seat}'s hand from a single deck"
        elif misdeal == "wrong_deck_back":
            back = _other(back)  # the same deck as the last round
            draft.detail = f"round {self.round_index} dealt with the {back} deck, which the last round used"
        voided = misdeal in ("wrong_card_count", "dealer_card_exposed_early")
        self._last_back = back

        choices = {s: choose(hands[f"seat:{s}"]) for s in seats} if not voided else {}
        plan = Round(game=self.game, table_id=take.round.table_id, round_id=take.round.round_id,
                     started_at=take.round.started_at)
        plan.wagers = [w.model_copy() for w in wagers]
        for s, (action, _) in choices.items():
            if action != "fold":
                ante = next(w.amount for w in wagers if w.seat == s and w.spot == "ante")
                plan.wagers.append(Wager(seat=s, spot="play", amount=ante * (2 if action == "play3" else 1)))
        seq = 0
        for o in owners:
            for c in hands[o]:
                plan.cards.append(DealtCard(seq=seq, owner=o, card=c, face_up=False, back=back))
                seq += 1
        plan.decisions = [decision(s, a, i, cards=three) for i, (s, (a, three)) in enumerate(choices.items())]
        if voided:
            plan.void = VoidInfo(reason=misdeal, after_cards=seq)
            plan.status = "voided"
        expected = self.module.settle(plan, self.settings)

        for w in wagers:
            take.place_wager(w, self.wager_xy(take, w.seat, w.spot))
        take.pause(0.5)
        take.event("bets_closed", take.emit())

        slots: dict[str, list[str]] = {}
        for o in owners:
            zone = "dealer.cards" if o == "dealer" else f"seat{o[5:]}.cards"
            pos = box_row(take.layout, zone, max(HAND, len(hands[o])))
            slots[o] = []
            for i, c in enumerate(hands[o]):
                slot = f"{o}.{i}"
                up = o == "dealer" and i == exposed
                x, y, angle = pos[i]
                dc = take.deal(slot, o, c, (x, y), face_up=up, back=back, angle=angle)
                slots[o].append(slot)
                if draft and (up or misdeal == "wrong_deck_back"
                              or (o == f"seat:{short_seat}" and i >= 3)
                              or (o == f"seat:{dup_seat}" and c in hands["dealer"])):
                    draft.mark(dc.frame)
        take.withdraw()
        take.pause(0.5)

        if voided:
            frame = take.emit(3)
            assert draft is not None
            draft.mark(frame)
            take.round.void = VoidInfo(reason=misdeal, after_cards=seq, frame=frame)
            take.round.status = "voided"
            take.event("round_voided", frame)
            phases = self.settle_phases(rng, take, wanted - {"procedure"}, drafts, [expected])
            self.run_steps(take, phases[0])
            return expected

        for i, seat in enumerate(seats):
            action, three = choices[seat]
            frame = take.emit(3)
            take.round.decisions.append(decision(seat, action, i, frame, cards=three))
            take.event("decision", frame, seat=seat)
            if action != "fold":
                w = next(w for w in plan.wagers if w.seat == seat and w.spot == "play")
                take.place_wager(w.model_copy(), self.wager_xy(take, seat, "play"))
        folds = [s for s in expected if s.line == "fold"]
        rest = [s for s in expected if s.line != "fold"]
        phases = self.settle_phases(rng, take, wanted, drafts, [folds, rest])
        folded = [s for s in seats if choices[s][0] == "fold"]
        if folded:
            take.remove_cards([slot for s in folded for slot in slots[f"seat:{s}"]])
        self.run_steps(take, phases[0])
        for i, slot in enumerate(slots["dealer"]):
            if i != exposed:
                take.expose(slot, "dealer")
        take.withdraw()  # the hand leaves the last card turned over, so the table sees the whole hand
        take.pause(0.5)
        shown: set[int] = set()
        for step in phases[1]:
            seat = step.expected.seat
            if seat not in shown:
                shown.add(seat)
                for slot in slots[f"seat:{seat}"]:
                    frame = take.expose(slot, f"seat:{seat}")
                if draft and seat == dup_seat:
                    draft.mark(frame)
            self.run_steps(take, [step])
        return expected
