"""Pick 2 Poker (manual 003): play5 when the Play equals the Ante, play3 at twice the Ante, fold when the
cards leave unseen with no Play. A wrong number of cards or a dealer card dealt face up voids the round
(Irregularities): the wagers are then returned."""

from __future__ import annotations

from pipelines.games.poker import best3
from pipelines.games.round import Decision, Round, VoidInfo

from .live import LiveRound, WagerSeen
from .machine import RoundMachine
from .three_card_monster import seat_decisions

HAND = 5


class Pick2PokerMachine(RoundMachine):
    game = "pick-2-poker"
    round_spots = ("ante", "bonus35", "bonus5")
    seat_cards = HAND
    cards_in_table_order = True  # five a spot, left to right: a dealer card dealt face up keeps its place

    def decisions(self, live: LiveRound, rnd: Round, seen: list[WagerSeen]) -> list[Decision]:
        if self._irregular(rnd):
            return []
        return seat_decisions(live, rnd, seen, self._action)

    def _action(self, seat: int, play: WagerSeen | None, rnd: Round, live: LiveRound):
        if play is None:
            return "fold"
        ante = rnd.wager(seat, "ante")
        if ante is None or ante.amount <= 0:
            live.note(f"seat {seat}: a Play wager without an Ante")
            return None
        ratio = play.wager.amount / ante.amount
        if abs(ratio - 1) < 1e-9:
            return "play5"
        if abs(ratio - 2) < 1e-9:
            cards = rnd.cards_of(f"seat:{seat}")
            if len(cards) != HAND:
                live.note(f"seat {seat}: play3 but only {len(cards)} of its cards were seen")
                return None
            # The camera does not show which three the player chose; a player keeps the best three.
            live.note(f"inferred: seat {seat}'s three cards for play3 are its best three")
            return "play3", list(best3(cards)[1])
        live.note(f"seat {seat}: Play {play.wager.amount:g} is neither 1x nor 2x the Ante {ante.amount:g}")
        return None

    def _irregular(self, rnd: Round) -> str | None:
        if any(c.owner == "dealer" and c.face_up for c in rnd.cards):
            return "dealer_card_exposed_early"
        counts: dict[str, int] = {}
        for c in rnd.cards:
            counts[c.owner] = counts.get(c.owner, 0) + 1
        if any(n != HAND for o, n in counts.items() if o.startswith("seat:")):
            return "wrong_card_count"
        return None

    def interpret(self, live: LiveRound, rnd: Round, seen: list[WagerSeen]) -> None:
        reason = self._irregular(rnd)
        if reason is None:
            return
        exposed = any(s.exposed_frame is not None for s in live.slots)
        taken = [ws.inst.end for ws in seen if ws.inst.end is not None and (live.cleared is None
                                                                             or ws.inst.end < live.cleared)]
        if exposed or not taken:
            live.note(f"irregular deal ({reason}) but the round was played on")
            return
        rnd.status = "voided"
        rnd.void = VoidInfo(reason=reason, after_cards=len(rnd.cards), frame=min(taken))
