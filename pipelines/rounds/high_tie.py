"""High Tie Blackjack (manual 001, "How is the game dealt"; house rules per RULES.md).

Cards are dealt face up to the seats' card areas, the dealer's hole card face down; a burn card after a
shuffle goes face down to the discard. Decisions are read from the cards and the spots: each card after
a hand's first two is a hit (the last one a double when Double chips were placed), a live hand under 21
that stops drawing stood, a two-card hand whose Main wager is taken before the dealer's hole card is
turned over surrendered. A dealer blackjack ends the round before any decision. Split hands share one
betting circle and one payout spot, so which hand was paid cannot be told from the chips: a split
round is reported incomplete.
"""

from __future__ import annotations

from pipelines.games.blackjack_hand import is_natural, total
from pipelines.games.round import Decision, Round

from .machine import LiveRound, RoundMachine, WagerSeen
from .timeline import Slot
from .zone_names import parse_zone


class HighTieMachine(RoundMachine):
    game = "high-tie"
    round_spots = ("main", "side")

    def owner_of(self, slot: Slot) -> str | None:
        ref = parse_zone(slot.zone)
        if ref.area == "cards":
            return f"seat:{ref.seat}" if ref.sub is None else None  # nested split areas repeat the cards
        if ref.area == "dealer":
            return "burn" if ref.sub == "discard" else "dealer"
        return None

    def interpret(self, live: LiveRound, rnd: Round, seen: list[WagerSeen]) -> None:
        dealer = [c for c in rnd.cards if c.owner == "dealer"]
        if len(dealer) >= 2 and dealer[1].face_up and is_natural([c.card or "" for c in dealer[:2]]):
            live.note("the dealer's second card was first seen face up with a blackjack: turned over at "
                      "once after the peek, or dealt face up (a misdeal); the camera cannot tell which")
        for ws in seen:
            main = ws.wager.spot == "main"
            if main and any(b > a * 1.5 for _, a, b in ws.inst.changes_after(ws.lock)):
                live.note(f"seat {ws.wager.seat}: the Main stack doubled during play (a split): split hands "
                          "share one circle and one payout spot, so their settlements cannot be told apart")

    def decisions(self, live: LiveRound, rnd: Round, seen: list[WagerSeen]) -> list[Decision]:
        dealer = rnd.cards_of("dealer")
        if len(dealer) >= 2 and is_natural(dealer[:2]):
            return []
        hole = next((s for s in live.slots if self.owner_of(s) == "dealer" and not s.face_up), None)
        reveal = hole.exposed_frame if hole is not None else None
        if reveal is None:  # the hole card was never face down: play ended with the last player card
            reveal = max((c.frame or 0 for c in rnd.cards if c.owner.startswith("seat:")), default=None)
        out: list[Decision] = []
        for seat in sorted({ws.wager.seat for ws in seen if ws.wager.spot == "main"}):
            cards = rnd.cards_of(f"seat:{seat}")
            main = next(ws for ws in seen if ws.wager.seat == seat and ws.wager.spot == "main")
            double = next((ws for ws in seen if ws.wager.seat == seat and ws.wager.spot == "double"), None)
            if len(cards) < 2:
                live.note(f"seat {seat}: {len(cards)} card(s) seen")
                continue
            if is_natural(cards):
                continue
            frames = [c.frame for c in rnd.cards if c.owner == f"seat:{seat}"]
            for i in range(2, len(cards)):
                act = "double" if double is not None and i == len(cards) - 1 else "hit"
                out.append(Decision(seat=seat, action=act, seq=len(out), frame=frames[i]))
            if double is not None and len(cards) != 3:
                live.note(f"seat {seat}: doubled but holds {len(cards)} cards")
            t = total(cards)
            taken_early = main.inst.end is not None and reveal is not None and main.inst.end < reveal
            if len(cards) == 2 and not t.bust and taken_early:
                out.append(Decision(seat=seat, action="surrender", seq=len(out), frame=main.inst.end))
            elif double is None and t.value < 21:
                out.append(Decision(seat=seat, action="stand", seq=len(out), frame=frames[-1]))
        return out
