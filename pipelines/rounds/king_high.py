"""King High (manual 000, 7 Permissible Wagers, 9 Dealing the Cards, 10 Paying and Taking).

Five action rounds. Bets close at the round's first card (a burn onto the next holding box, or the card
in the action box). The action card k is `board`; it then moves onto holding box k, where it is not
dealt again. Action wagers (High, Low, Suit, Seven) ride on the card in play (`hand` = its number): one
taken while that card is in the action box lost, a payout beside it won, and one still there when the
card moves on was a standoff (it goes back to the player with its payout). Runs and the Pokerpot are
settled when they end, as in every game: taken, paid, or left until the table is cleared.
"""

from __future__ import annotations

from pipelines.games.round import DealtCard
from pipelines.vision.observe import ZoneChange, ZoneState

from .live import LiveRound, WagerSeen, _observation_frame
from .machine import RoundMachine
from .timeline import CardZone, ChipInstance, Slot
from .zone_names import ZoneRef, parse_zone

ACTION_SPOTS = ("high", "low", "suit", "seven")
CARDS = 5
AMBIGUOUS_S = 0.6  # a stack gone this close before the card moves on: taken, or gone back with it


class KingHighMachine(RoundMachine):
    game = "king-high"
    round_spots = ("pokerpot", "high_run", "low_run", *ACTION_SPOTS)
    cards_stay = False  # action cards move from the board to their holding boxes

    # --- cards ---

    def card_state(self, ref: ZoneRef, state: ZoneState) -> ZoneState:
        if ref.area == "board" and ref.sub != "action":  # a holding box: only burns are dealt there
            down = [i for i, c in enumerate(state.cards) if not c[1]]

            def kept(per_card: tuple) -> tuple:  # () stays (): nothing was seen
                return tuple(per_card[i] for i in down) if per_card else ()

            return ZoneState(cards=kept(state.cards), chip_total=0.0, uncertain=state.uncertain,
                             backs=kept(state.backs), spots=kept(state.spots))
        return state

    def _apply(self, live: LiveRound, ch: ZoneChange) -> None:
        """A face-up card on holding box k is action card k moved on: a later action card of the same
        identity (six decks) is then a new card, not that one seen again. The dealer's hand resting over
        the holding boxes can hide card k there until card k+1 is already in the action box: a card
        that came into the emptied box after card k then is new as well, dated to when it came."""
        super()._apply(live, ch)
        ref = parse_zone(ch.zone)
        sub = ref.sub or ""
        if ref.area != "board" or not sub.startswith("card") or not sub[4:].isdigit():
            return
        k = int(sub[4:])
        if any(up for _, up in ch.after.cards):
            live.cards[ch.zone].up_seen.append(ch.frame)
        action = live.cards.get("board.action")
        self._moved_on_read(live, ch, k, action)
        if action is None or len(action.slots) < k or action.moved_on >= k or not any(
                up for _, up in ch.after.cards):
            return
        action.moved_on = k
        since = action.visible_since
        left = [f for f in action.emptied if f > action.slots[k - 1].frame]
        if len(action.slots) == k and action.visible and left and since is not None and since > left[-1]:
            state = self.card_state(parse_zone(action.name), live.states["board.action"])
            action.update(since, state, next_seq=sum(len(z.slots) for z in live.cards.values()))

    @staticmethod
    def _moved_on_read(live: LiveRound, ch: ZoneChange, k: int, action: CardZone | None) -> None:
        """Holding box k read surely with action card k in it, face up: the card moved on. The doubts waiting on the
        box's readings since its burn cards were read surely (`live.unsettled`: an unreadable face as the card was
        carried over them) were that card on its way; the burns lie under it, out of view until the clearing, so the
        doubts would wait for ever. (King High, set A7: three action cards laid on their holding box read with doubt
        for one to three seconds, box confidence 0.3, the burn beneath read surely before.) A burn read with doubt, or
        first seen after the doubt began, keeps it."""
        waiting = live.unsettled.get(ch.zone)
        box = live.cards.get(ch.zone)
        if not waiting or ch.after.uncertain or action is None or box is None or len(action.slots) < k:
            return
        card = action.slots[k - 1].card
        if card is None or (card, True) not in ch.after.cards or not box.slots:
            return
        since = [_observation_frame(n, ch.zone) for n in waiting]
        if any(f is None for f in since) or any(s.uncertain or s.face_up or s.frame >= min(since) for s in box.slots):
            return
        live.notes[:] = [n for n in live.notes if n not in waiting]
        del live.unsettled[ch.zone]
        live.note(f"inferred: {ch.zone} at frame {ch.frame}: action card {k}, {card}, read surely there, moved on over "
                  f"the burn; its readings with doubt from frame {min(since)} were that card on its way")

    def owner_of(self, slot: Slot) -> str | None:
        ref = parse_zone(slot.zone)
        if ref.area == "board":
            return "board" if ref.sub == "action" else "burn"
        return None

    def _board(self, live: LiveRound) -> list[Slot]:
        zone = live.cards.get("board.action")
        return list(zone.slots) if zone else []

    def card_order(self, live: LiveRound) -> list[Slot]:
        """Burns for card k before card k, however late the camera saw them."""
        board = self._board(live)
        keyed = [((k + 1, 1), s) for k, s in enumerate(board)]
        for k in range(1, CARDS + 1):
            zone = live.cards.get(f"board.card{k}")
            keyed += [((k, 0), s) for s in self._burns(live, zone)] if zone else []
        return [s for _, s in sorted(keyed, key=lambda t: (t[0], t[1].seq))]

    @staticmethod
    def _burns(live: LiveRound, box: CardZone) -> list[Slot]:
        """The burns in holding box `box`: its face-down cards, but for one first seen after a face-up card lay there,
        which was read face up there again later. The action card lies over the box's burns from the time it moved
        on, so a back read there then, the card read again after, was that card read as a back (King High, A43 14031
        bd4d67c7: action card 1, Qh, read as a back at 0.8 for three frames as the dealer gathered the cards, then
        as Qh again: the round said a card was burned before it)."""
        kept = []
        for s in box.slots:
            if not s.face_up and any(f < s.frame for f in box.up_seen) and any(f > s.frame for f in box.up_seen):
                live.note(f"inferred: the back read in {box.name} at frame {s.frame} was the face-up card there read "
                          "as a back: it lay over the box's burns, and was read face up there again after")
                continue
            kept.append(s)
        return kept

    def closing_frames(self, live: LiveRound, cards: list[DealtCard]) -> list[int]:
        closes = []
        board = self._board(live)
        for k in range(1, CARDS + 1):
            frames = [board[k - 1].frame] if k <= len(board) else []
            zone = live.cards.get(f"board.card{k}")
            frames += [s.frame for s in zone.slots] if zone else []
            if frames:
                closes.append(min(frames))
        return closes

    def _departures(self, live: LiveRound) -> list[int]:
        """Frame each action card left the action box (else the next card's arrival, or the clearing)."""
        board = self._board(live)
        zone = live.cards.get("board.action")
        out = []
        for k, slot in enumerate(board):
            later = board[k + 1].frame if k + 1 < len(board) else None
            gone = [f for f in (zone.emptied if zone else []) if f > slot.frame and (later is None or f <= later)]
            out.append(gone[-1] if gone else later if later is not None else (live.cleared or live.last))
        return out

    # --- wagers ---

    def spot_of(self, ref: ZoneRef) -> tuple[str, str | None]:
        if ref.spot and ref.spot.startswith("suit_"):
            return "suit", ref.spot[5:]
        return ref.spot or "", None

    def merge_chips(self, live: LiveRound) -> None:
        """A stack gone and back is one stack, unless an action card moved on in between (a new bet)."""
        departures = self._departures(live)
        closes = self.closing_frames(live, [])  # King High's closes come from the board alone
        for name, z in live.chips.items():
            if self.spot_of(parse_zone(name))[0] not in ACTION_SPOTS:
                z.merge_gaps(float("inf"))
                continue
            merged: list[ChipInstance] = []
            for inst in z.instances:
                prev = merged[-1] if merged else None
                if prev is not None and prev.continued_by(inst) and not any(
                        prev.end - 1 <= d <= inst.start for d in departures):
                    prev.absorb(inst)
                else:
                    merged.append(inst)
            z.instances = self._split_at_departures(merged, departures, closes)
        if len(closes) == CARDS:
            self._drop_unsure_beyond_last_card(live, closes[-1])

    def _drop_unsure_beyond_last_card(self, live: LiveRound, last_close: int) -> None:
        """A stack first seen in an action spot after the last card's bets closed, read only with doubt in every frame
        it lay there, is no wager: no card is left for it to ride on (§7), and chips read so where none were laid are
        those of a stack beside it, or a box that is no chip (held-out set A63, seed 14801, round 5e61026d: a $400
        Pokerpot, paid, read as three $100 and its fourth $100 in the Seven spot beside it, below the detector's
        confidence, until taken; the round said a $100 Seven rode on a sixth card). One read surely stays for review:
        chips laid for a card that never comes."""
        for name, z in live.chips.items():
            ref = parse_zone(name)
            if ref.area != "bet" or self.spot_of(ref)[0] not in ACTION_SPOTS:
                continue  # a payout is laid after the last close
            for inst in [i for i in z.instances if i.start > last_close and len(i.doubtful_frames()) == len(i.steps)]:
                live.note(f"inferred: the {inst.peak:g} read in {name} from frame {inst.start} to {inst.end}, after "
                          "the last card's bets closed and only with doubt, was chips of a stack beside it: no wager")
                z.instances.remove(inst)

    @staticmethod
    def _split_at_departures(instances: list[ChipInstance], departures: list[int],
                             closes: list[int]) -> list[ChipInstance]:
        """A stack still in an action spot when the next card's bets close is a wager on that card (§7: wagers may
        be changed or removed once settled, before the next action round), whatever it was on the card before:
        the wager and its payout going back and the same amount placed again can pass under the dealer's hand
        in a few frames. It is split where the card before it moved on."""
        out: list[ChipInstance] = []
        for inst in instances:
            for k, d in enumerate(departures[:-1]):
                if inst.start < d and k + 1 < len(closes) and d < closes[k + 1] and (
                        inst.end is None or inst.end > closes[k + 1]):
                    out.append(inst)
                    inst = inst.split_at(d)
            out.append(inst)
        return out

    def hand_of(self, ref: ZoneRef, inst: ChipInstance, closes: list[int], live: LiveRound) -> int:
        spot, _ = self.spot_of(ref)
        if spot not in ACTION_SPOTS:
            return 0
        return 1 + sum(1 for c in closes if c < inst.start)

    def settle_deadline(self, ws: WagerSeen, live: LiveRound, closes: list[int]) -> int | None:
        if ws.wager.spot in ACTION_SPOTS:
            departures = self._departures(live)
            k = ws.wager.hand
            if 1 <= k <= len(departures):
                return departures[k - 1]
            live.note(f"seat {ws.wager.seat} {ws.wager.spot} for card {k}: that card was not seen")
        return live.cleared

    def review(self, ws: WagerSeen, expected: str | None, live: LiveRound) -> None:
        """The last payout of an action round can stay under the dealer's hand until the wagers go back
        with the card, and a stack taken just before the card moves on may have gone back with it."""
        k = ws.wager.hand
        departures = self._departures(live)
        if ws.wager.spot not in ACTION_SPOTS or not 1 <= k <= len(departures) or ws.outcome == "win":
            return
        end = ws.inst.end if ws.inst.end is not None else live.last
        near = end >= departures[k - 1] - AMBIGUOUS_S * self.fps
        if ws.outcome is None or near:
            if expected == "win":
                live.note(f"seat {ws.wager.seat} {ws.wager.spot} on card {k}: gone as the card moved on, "
                          "no payout seen (it may have stayed under the dealer's hand)")
            elif expected == "push" and ws.outcome == "lose":
                ws.outcome = None  # went back with the card: the standoff

    def interpret(self, live: LiveRound, rnd, seen: list[WagerSeen]) -> None:
        board = self._board(live)
        if len(board) != CARDS:
            live.note(f"{len(board)} cards seen in the action box, the round has {CARDS}")
