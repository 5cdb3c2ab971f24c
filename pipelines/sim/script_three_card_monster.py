"""3 Card Monster round script (manual 002, "Dealer Procedures").

Deal (2, 2A, 2B): from the shuffler's single deck, a 4-card packet for the dealer first: its top 3 cards
go face down into dealer.card1..3, the 4th is turned sideways as a discard; then a 4-card packet to
each occupied position, 1 to 6. Players play when their best 3 of 4 is queen-six-four or better (the
classic three-card threshold), otherwise fold. Folds are collected first (4); the dealer exposes his
hand (5A), then each position from 6 down to 1 is exposed and settled in settle()'s order (5B, 5C).
"""

from __future__ import annotations

import random

from pipelines.games.cards import DECK
from pipelines.games.poker import Hand3, best3
from pipelines.games.round import DealtCard, Round, Wager
from pipelines.games.settlement import Settlement

from .faults import MISDEALS, FaultDraft
from .script_base import GameScript, Take, box_row, decision, pick_amount

PLAY_THRESHOLD = (int(Hand3.HIGH_CARD), 12, 6, 4)  # Q-6-4


class ThreeCardMonsterScript(GameScript):
    game = "3-card-monster"

    def _wagers(self, rng: random.Random, seats: list[int]) -> list[Wager]:
        multiple = float(self.settings.play_multiple)
        out = []
        for seat in seats:
            ante = pick_amount(rng, self.limits, "ante", cap=self.limits.for_spot("play")[1] / multiple)
            while ante * multiple != round(ante * multiple):  # a Play the chips can make
                ante += 1
            out.append(Wager(seat=seat, spot="ante", amount=ante))
            out.append(Wager(seat=seat, spot="monster", amount=pick_amount(rng, self.limits, "monster")))
            if rng.random() < 0.5:
                out.append(Wager(seat=seat, spot="royal", amount=pick_amount(rng, self.limits, "royal")))
        return out

    def script(self, rng: random.Random, take: Take, wanted: set[str], drafts: list[FaultDraft]
               ) -> list[Settlement]:
        seats = self.seats(rng)
        wagers = self._wagers(rng, seats)
        deck = list(DECK)
        rng.shuffle(deck)
        packets = {"dealer": deck[0:4]}
        for i, seat in enumerate(seats):
            packets[f"seat:{seat}"] = deck[4 + 4 * i: 8 + 4 * i]
        misdeal = rng.choice(MISDEALS[self.game]) if "misdeal" in wanted else None
        exposed_early = rng.randrange(3) if misdeal == "dealer_card_exposed_early" else None
        dup_seat = None
        if misdeal == "duplicate_card":  # a card of the dealer's packet shows up again in a player's packet
            dup_seat = rng.choice(seats)
            packets[f"seat:{dup_seat}"][rng.randrange(4)] = packets["dealer"][rng.randrange(3)]
        plays = {s: best3(packets[f"seat:{s}"])[0] >= PLAY_THRESHOLD for s in seats}

        # Plan and settle.
        plan = Round(game=self.game, table_id=take.round.table_id, round_id=take.round.round_id,
                     started_at=take.round.started_at)
        plan.wagers = [w.model_copy() for w in wagers]
        for s in seats:
            if plays[s]:
                ante = next(w.amount for w in wagers if w.seat == s and w.spot == "ante")
                plan.wagers.append(Wager(seat=s, spot="play", amount=ante * self.settings.play_multiple))
        seq = 0
        for owner, cards in packets.items():
            for i, c in enumerate(cards):
                own = "discard" if owner == "dealer" and i == 3 else owner
                plan.cards.append(DealtCard(seq=seq, owner=own, card=c, face_up=False))
                seq += 1
        plan.decisions = [decision(s, "play" if plays[s] else "fold", i) for i, s in enumerate(seats)]
        expected = self.module.settle(plan, self.settings)

        # Bets.
        for w in wagers:
            take.place_wager(w, self.wager_xy(take, w.seat, w.spot))
        take.pause(0.5)
        take.event("bets_closed", take.emit())

        # Deal: dealer packet, then players 1..6.
        draft = None
        if misdeal:
            draft = FaultDraft("misdeal", misdeal, seat=dup_seat)
            drafts.append(draft)
        boxes = [take.zone_xy(f"dealer.card{k}") for k in (1, 2, 3)]
        for i, c in enumerate(packets["dealer"][:3]):
            early = i == exposed_early
            dc = take.deal(f"dealer{i}", "dealer", c, boxes[i], face_up=early)
            if early and draft:
                draft.mark(dc.frame)
                draft.detail = f"dealer card {c} dealt face up"
        dx, dy = take.zone_xy("dealer.discard")
        take.deal("dealer_discard", "discard", packets["dealer"][3], (dx, dy), face_up=False, angle=90.0)
        slots: dict[int, list[str]] = {}
        for seat in seats:
            owner = f"seat:{seat}"
            positions = box_row(take.layout, f"seat{seat}.cards", 4)
            slots[seat] = []
            for i, c in enumerate(packets[owner]):
                slot = f"s{seat}.{i}"
                x, y, angle = positions[i]
                dc = take.deal(slot, owner, c, (x, y), face_up=False, angle=angle)
                slots[seat].append(slot)
                if draft and seat == dup_seat and c in packets["dealer"][:3]:
                    draft.mark(dc.frame)
                    draft.detail = f"{c} dealt to the dealer and to seat {seat} from one deck"
        take.withdraw()
        take.pause(0.5)

        # Decisions: a Play wager beside the ante, or the cards pushed forward face down.
        for i, seat in enumerate(seats):
            frame = take.emit(3)
            take.round.decisions.append(decision(seat, "play" if plays[seat] else "fold", i, frame))
            take.event("decision", frame, seat=seat, spot="play" if plays[seat] else None)
            if plays[seat]:
                w = next(w for w in plan.wagers if w.seat == seat and w.spot == "play")
                take.place_wager(w.model_copy(), self.wager_xy(take, seat, "play"))

        folds = [s for s in expected if s.line == "fold"]
        rest = [s for s in expected if s.line != "fold"]
        phases = self.settle_phases(rng, take, wanted, drafts, [folds, rest])
        # Folded hands and their wagers are collected first (Dealer Procedures 4).
        folded = [s for s in seats if not plays[s]]
        if folded:
            take.remove_cards([slot for s in folded for slot in slots[s]])
        self.run_steps(take, phases[0])
        # The dealer exposes his hand (5A), then each position is exposed and resolved (5B, 5C).
        for i in range(3):
            if i == exposed_early:
                if draft:
                    draft.mark(take.frame)
                continue
            take.expose(f"dealer{i}", "dealer")
        take.pause(0.5)
        shown: set[int] = set()
        for step in phases[1]:
            seat = step.expected.seat
            if seat not in shown:
                shown.add(seat)
                for slot, c in zip(slots[seat], packets[f"seat:{seat}"], strict=True):
                    take.expose(slot, f"seat:{seat}")
                    if draft and seat == dup_seat and c in packets["dealer"][:3]:
                        draft.mark(take.frame)
            self.run_steps(take, [step])
        if draft and draft.start is None:  # a duplicate in a folded hand is still seen at the deal
            draft.mark(take.frame)
        return expected

