"""3 Card Monster (manual 002, "Dealer Procedures"): a Play stack beside the Ante is a play; a hand whose
cards leave the layout unseen, with no Play stack, is a fold (folds are collected before the dealer's
hand is exposed, Dealer Procedures 4). The dealer's 4th card, turned sideways, is the discard."""

from __future__ import annotations

from pipelines.games.round import Decision, Round

from .live import LiveRound, WagerSeen, _about, _observation_frame
from .machine import RoundMachine


class ThreeCardMonsterMachine(RoundMachine):
    game = "3-card-monster"
    round_spots = ("ante", "monster", "royal")
    seat_cards = 4  # a 4-card packet to each occupied position ("Dealer Procedures" 2B)

    def decisions(self, live: LiveRound, rnd: Round, seen: list[WagerSeen]) -> list[Decision]:
        self._tie_ante_and_play(live, seen)
        return seat_decisions(live, rnd, seen, self._action)

    def _tie_ante_and_play(self, live: LiveRound, seen: list[WagerSeen]) -> None:
        """An Ante and Play read as other totals than the rules tie them to (the Play is a set multiple of the Ante,
        RULES.md), where just one of the two was read surely, in a frame its chips lay against no other stack
        (`ChipInstance.read_clear`), as the total the other calls for, and that other was read surely: the one is
        that total. For it to be another amount the detector would have had to read surely, in plain view, a total
        it never held that happens to be the other wager's to the chip. (3 Card Monster, A58 seed 14613, round
        26311a29: a $40 Ante of three $5 and a $25 read surely as laid, then, once the $400 Monster lay against it, as
        $15 and $115 by turns with doubt; the $40 Play beside it read surely. A62 seed 14783, round cb66b4f8: a $20
        Ante of four $5 read so as laid and now and then after, and as $15 in most frames, its row off its spot's
        centre as one a chip longer would lie; the $20 Play beside it read surely, never as $15.) Where each was
        read so as the other calls for, or neither, the round stays for review (`_action`)."""
        multiple = float(self.settings.play_multiple)
        by_key = {ws.key: ws for ws in seen}
        for (seat, spot, hand), play in by_key.items():
            ante = by_key.get((seat, "ante", hand)) if spot == "play" else None
            if ante is None:
                continue
            tied = [(doubted, sure, round(total, 2)) for doubted, sure, total in
                    ((ante, play, play.wager.amount / multiple), (play, ante, ante.wager.amount * multiple))
                    if abs(doubted.wager.amount - total) > 0.005
                    and any(abs(read - total) < 0.005 for read in doubted.inst.read_clear)]
            if len(tied) == 1 and not tied[0][1].uncertain:
                _take_tied_amount(live, *tied[0])

    def _action(self, seat: int, play: WagerSeen | None, rnd: Round, live: LiveRound) -> str | None:
        if play is None:
            return "fold"
        # The Play is a set multiple of the Ante (a table setting, RULES.md); read otherwise, one of the two
        # stacks is most likely misread (a duplicate chip box read with confidence), so the round is for
        # review, not a payout flag. A player betting the wrong Play reaches the reviewer the same way.
        ante = rnd.wager(seat, "ante")
        multiple = float(self.settings.play_multiple)
        if ante is not None and abs(play.wager.amount - multiple * ante.amount) > 0.005:
            live.note(f"seat {seat}: Play {play.wager.amount:g} is not {multiple:g}x the Ante {ante.amount:g}")
        return "play"


def _take_tied_amount(live: LiveRound, doubted: WagerSeen, sure: WagerSeen, amount: float) -> None:
    """`doubted` is `amount`, as `sure` says (`ThreeCardMonsterMachine._tie_ante_and_play`): its doubts go."""
    inst = doubted.inst
    end = inst.end if inst.end is not None else live.last + 1
    live.notes[:] = [n for n in live.notes
                     if (f := _observation_frame(n, inst.zone)) is None or not inst.start <= f <= end]
    live.note(f"inferred: {_about(doubted)}: read as {doubted.wager.amount:g}{' with doubt' * doubted.uncertain}, "
              f"taken as {amount:g}: read surely so in plain view, and what the {sure.wager.amount:g} "
              f"{sure.wager.spot.title()} read surely beside it calls for")
    inst.doubtful.clear()
    doubted.wager.amount = amount
    doubted.wager.uncertain = doubted.uncertain = False
    doubted.tied = True


def seat_decisions(live: LiveRound, rnd: Round, seen: list[WagerSeen], action_of) -> list[Decision]:
    """One decision per seat with cards, in seat order (the dealer goes round the table)."""
    out: list[Decision] = []
    seats = sorted({ws.wager.seat for ws in seen if ws.wager.spot == "ante"})
    for seat in seats:
        if not rnd.cards_of(f"seat:{seat}") and not any(c.owner == f"seat:{seat}" for c in rnd.cards):
            live.note(f"seat {seat} wagered but no cards were seen dealt to it")
            continue
        play = next((ws for ws in seen if ws.wager.seat == seat and ws.wager.spot == "play"), None)
        if play is None and rnd.cards_of(f"seat:{seat}"):
            live.note(f"seat {seat}: cards exposed but no Play wager seen")
            continue
        action = action_of(seat, play, rnd, live)
        if action is None:
            continue
        cards = None
        if isinstance(action, tuple):
            action, cards = action
        if play is not None:
            frame = play.inst.start
        else:  # a fold shows when the cards leave the layout unseen
            zone = live.cards.get(f"seat{seat}.cards")
            frame = zone.empty_since if zone is not None else None
        out.append(Decision(seat=seat, action=action, seq=len(out), cards=cards, frame=frame))
    unseen = [c for c in rnd.cards if c.owner == "dealer" and c.card is None]
    if unseen and rnd.status != "voided":
        live.note(f"{len(unseen)} dealer card(s) never seen face up")
    return out
