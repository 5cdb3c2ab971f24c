"""King High round script (manual 000, §7 Permissible Wagers, §9 Dealing the Cards, §10 Paying and Taking).

Before the first card each occupied box places its Pokerpot and, sometimes, a High or Low Run. Before
each of the 5 action rounds boxes holding a Pokerpot may place High or Low, Suit and Seven wagers (they
ride on that card: `hand` = the card number). Then betting closes; with a manual shoe the dealer burns 2
cards face down onto the next holding box (§9), and deals one card face up to the action box. Boxes are
settled 1 to 8 in settle()'s order (losers, then winners, runs when they end), winning and standing-off
action wagers go back to their players, and the card moves onto its holding box. After the fifth card the
Pokerpot is settled and the table cleared. The mechanical shuffler gets its 5 cards back every round;
a manual shoe keeps its cards, with the cut card about four rounds in (§9: "approximately 50 cards").
"""

from __future__ import annotations

import random

from pipelines.games.round import DealtCard, Round, Wager
from pipelines.games.settlement import Settlement
from pipelines.games.shoe import Shoe

from .faults import FaultDraft
from .scene import CARD_H_MM, CARD_W_MM
from .script_base import GameScript, Take, pick_amount

CARDS = 5
SUIT_CHOICES = "cdhs"
# A burn pile is squared loosely: each burn lands a little down and to the right of the one before, so
# an overhead camera sees every card's corner (less than the renderer's 60 % hidden limit is covered).
BURN_STEP_MM = (0.25 * CARD_W_MM, 0.25 * CARD_H_MM)
PAYOUT_DWELL_S = 0.4  # the last payout of an action round is in view before the wagers go back


def burn_xy(box: tuple[float, float], i: int, n: int) -> tuple[float, float]:
    """Where burn i of n lands in a holding box: fanned about the box's centre."""
    off = i - (n - 1) / 2
    return box[0] + off * BURN_STEP_MM[0], box[1] + off * BURN_STEP_MM[1]


def _streak_end(board: list[str], spot: str) -> int:
    """The card on which a run is settled: the card that breaks it, or the fifth."""
    from pipelines.games.king_high_rules import is_high, is_low

    member = is_high if spot == "high_run" else is_low
    for k, card in enumerate(board, start=1):
        if not member(card):
            return k
    return CARDS


class KingHighScript(GameScript):
    game = "king-high"

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)
        # Manual shoe: 4 rounds of 15 cards (5 drawn + 10 burned) before the cut card.
        self.shoe = Shoe(decks=self.settings.decks, seed=self.rng.randrange(2**31), cut_fraction=60 / 312)

    def wager_xy(self, take: Take, seat: int, spot: str, hand: int = 0, choice: str | None = None
                 ) -> tuple[float, float]:
        if spot == "suit":
            choice = choice or self._choices.get((seat, hand), "h")
            return take.zone_xy(f"seat{seat}.suit_{choice}")
        return take.zone_xy(f"seat{seat}.{spot}")

    def paid_xy(self, take: Take, seat: int, spot: str, hand: int = 0) -> tuple[float, float]:
        zone = f"seat{seat}.suit_{self._choices.get((seat, hand), 'h')}" if spot == "suit" else f"seat{seat}.{spot}"
        x, y = take.zone_xy(zone)
        return take.zone_xy(f"{zone}.paid", (x + 45.0, y))

    def script(self, rng: random.Random, take: Take, wanted: set[str], drafts: list[FaultDraft]
               ) -> list[Settlement]:
        s = self.settings
        manual = s.shuffler == "manual"
        if not manual:
            self.shoe.shuffle()  # the 5 cards went back into the shuffler
        seats = self.seats(rng)
        round_wagers: list[Wager] = []
        for seat in seats:
            round_wagers.append(Wager(seat=seat, spot="pokerpot", amount=pick_amount(rng, self.limits, "pokerpot")))
            for run in ("high_run", "low_run"):
                if rng.random() < 0.2:
                    round_wagers.append(Wager(seat=seat, spot=run, amount=pick_amount(rng, self.limits, run)))
        action: dict[int, list[Wager]] = {}
        self._choices: dict[tuple[int, int], str] = {}
        for k in range(1, CARDS + 1):
            action[k] = []
            for seat in seats:
                if rng.random() < 0.4:
                    spot = rng.choice(("high", "low"))
                    action[k].append(Wager(seat=seat, spot=spot, hand=k,
                                           amount=pick_amount(rng, self.limits, spot, even=True)))
                if rng.random() < 0.25:
                    choice = rng.choice(SUIT_CHOICES)
                    self._choices[(seat, k)] = choice
                    action[k].append(Wager(seat=seat, spot="suit", hand=k, choice=choice,
                                           amount=pick_amount(rng, self.limits, "suit")))
                if rng.random() < 0.1:
                    action[k].append(Wager(seat=seat, spot="seven", hand=k,
                                           amount=pick_amount(rng, self.limits, "seven")))
        no_base = None
        if "procedure" in wanted and rng.random() < 0.5:
            # An action wager on a box with no Pokerpot (§7 NOTE): the dealer accepts and settles it.
            free = [b for b in self.layout.seats if b not in seats]
            if free:
                box, k = rng.choice(free), rng.randrange(1, CARDS + 1)
                w = Wager(seat=box, spot="high", hand=k, amount=pick_amount(rng, self.limits, "high", even=True))
                action[k].append(w)
                no_base = FaultDraft("procedure", "action_without_base", box, "high", k, amount=w.amount,
                                     detail="High wager on a box with no Pokerpot wager")
                drafts.append(no_base)
                wanted = wanted - {"procedure"}
        misdeal_card = rng.randrange(1, CARDS + 1) if "misdeal" in wanted else None
        burns = {k: (2 if manual else 0) for k in range(1, CARDS + 1)}
        draft = None
        if misdeal_card:
            right = burns[misdeal_card]
            burns[misdeal_card] = rng.choice([1, 3]) if manual else 1
            draft = FaultDraft("misdeal", "wrong_card_count", hand=misdeal_card,
                               detail=f"{burns[misdeal_card]} burn card(s) before card {misdeal_card}, "
                                      f"procedure says {right}")
            drafts.append(draft)

        plan = Round(game=self.game, table_id=take.round.table_id, round_id=take.round.round_id,
                     started_at=take.round.started_at)
        plan.wagers = [w.model_copy() for w in round_wagers] + [w.model_copy() for k in action for w in action[k]]
        dealt: dict[int, tuple[list[str], str]] = {}
        for k in range(1, CARDS + 1):
            burned = self.shoe.burn(burns[k]) if burns[k] else []
            card = self.shoe.draw()[0]
            dealt[k] = (burned, card)
            for b in burned:
                plan.cards.append(DealtCard(seq=len(plan.cards), owner="burn", card=b, face_up=False))
            plan.cards.append(DealtCard(seq=len(plan.cards), owner="board", card=card))
        if manual and self.shoe.cut_card_reached:
            self.shoe.shuffle()  # the cut card came out: shuffle after this round (§9)
        expected = self.module.settle(plan, s)

        board = [dealt[k][1] for k in range(1, CARDS + 1)]
        due = {}
        for x in expected:
            if x.spot in ("high_run", "low_run"):
                due[id(x)] = _streak_end(board, x.spot)
            elif x.spot == "pokerpot":
                due[id(x)] = CARDS + 1
            else:
                due[id(x)] = x.hand
        phases = [[x for x in expected if due[id(x)] == k] for k in range(1, CARDS + 2)]
        step_phases = self.settle_phases(rng, take, wanted, drafts, phases)

        for w in round_wagers:
            take.place_wager(w, self.wager_xy(take, w.seat, w.spot))
        holding = [take.zone_xy(f"board.card{k}") for k in range(1, CARDS + 1)]
        action_box = take.zone_xy("board.action")
        for k in range(1, CARDS + 1):
            for w in action[k]:
                frame = take.place_wager(w, self.wager_xy(take, w.seat, w.spot, k, w.choice))
                if no_base and (w.seat, w.spot, w.hand) == (no_base.seat, no_base.spot, no_base.hand):
                    no_base.mark(frame)
            take.pause(0.4)
            take.event("bets_closed", take.emit(), hand=k)
            burned, card = dealt[k]
            for i, b in enumerate(burned):
                dc = take.deal(f"burn{k}.{i}", "burn", b, burn_xy(holding[k - 1], i, len(burned)),
                               face_up=False)
                if draft and k == misdeal_card:
                    draft.mark(dc.frame)
            if draft and k == misdeal_card and not burned:
                draft.mark(take.frame)
            take.deal(f"action{k}", "board", card, action_box, face_up=True)
            take.withdraw()
            take.pause(0.4)
            for step in step_phases[k - 1]:
                x = step.expected
                take.settle_step(step, self.wager_xy(take, x.seat, x.spot, x.hand),
                                 self.paid_xy(take, x.seat, x.spot, x.hand))
                if no_base and step.key == (no_base.seat, no_base.spot, no_base.hand):
                    no_base.mark(take.frame)
            if step_phases[k - 1]:  # the dealer's hand leaves the last payout before anything goes back
                take.withdraw()
                take.pause(PAYOUT_DWELL_S)
            # Action wagers still on the layout (winners, standoffs) and their payouts go back.
            for name in [n for n in take.chips if n.endswith(f":{k}") and n.split(":")[2] in
                         ("high", "low", "suit", "seven")]:
                del take.chips[name]
            take.move_card(f"action{k}", holding[k - 1], new_slot=f"hold{k}")
            take.withdraw()
        self.run_steps(take, step_phases[CARDS])
        return expected
