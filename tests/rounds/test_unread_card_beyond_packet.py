"""A box in a seat's card area, first seen after every card the game deals a seat was read, never read as a face or a
back and only with doubt, is no card (`RoundMachine._drop_unread_beyond_packet`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import CardObs, FrameObs

from .conftest import nearest_round, rounds_with_edited_observations, scripted_session

GAME = "3-card-monster"
SHOWN = 8  # frames the extra box is read, up to the clearing


@pytest.mark.parametrize(("card", "dropped"), [(None, True), ("As", False)])
def test_an_unread_box_over_a_seats_read_packet_is_no_card(card, dropped):
    # 3 Card Monster, held-out set A48, seed 14213, round b9f4d036: after seat 2's four cards were read surely, a fifth
    # box over the overlap of two of them, at 0.73-0.76 and unreadable, for the eight frames before the clearing; the
    # round said the seat held five cards. (Twice more in A47 and A48.) A fifth card read as a face is a card.
    scripted, setup, mapper, scenes = scripted_session(GAME, 3, 4)
    truth = scripted[0].round
    seat = next(w.seat for w in truth.wagers)
    zone = f"seat{seat}.cards"
    held = [f for f in range(truth.frames.start, truth.frames.end + 1)
            if len(getattr(mapper.observe_scene(scenes[f]).get(zone), "cards", [])) == 4]
    shown = set(held[-SHOWN:])

    def extra_box(frame: int, obs: FrameObs) -> None:
        if frame in shown:
            a, b = obs[zone].cards[2:4]
            box = CardObs(card=card, face_up=True, x_mm=(a.x_mm + b.x_mm) / 2, y_mm=(a.y_mm + b.y_mm) / 2 - 10,
                          confidence=0.0 if card is None else 0.99, uncertain=card is None, box_confidence=0.75)
            obs[zone] = replace(obs[zone], cards=[*obs[zone].cards[:3], box, b])

    got = rounds_with_edited_observations(GAME, scripted, setup, extra_box)
    rnd = nearest_round(got, truth)
    assert any(n.startswith(f"inferred: {zone}: 1 card(s)") for n in rnd.notes) == dropped, rnd.notes
    assert (compare_rounds([rnd], [truth])[0].result == "exact") == dropped, rnd.notes


@pytest.mark.parametrize(("as_turned", "dropped"), [(True, True), (False, False)])
def test_an_unread_box_first_seen_as_the_last_card_is_turned_is_no_card(as_turned, dropped):
    # 3 Card Monster, held-out set A75, seed 15283, round cb66b4f8: the dealer's sleeve boxed as an unread card at
    # 0.65-0.74 beside seat 2's packet from the very frame its fourth card was turned over, to the clearing; the round
    # said the seat held five cards. One first seen while the packet lay face down may be a card of it.
    scripted, setup, mapper, scenes = scripted_session(GAME, 3, 4)
    truth = scripted[0].round
    seat = next(w.seat for w in truth.wagers)
    zone = f"seat{seat}.cards"

    def held(frame: int, face_up: bool) -> bool:
        cards = getattr(mapper.observe_scene(scenes[frame]).get(zone), "cards", [])
        return len(cards) == 4 and all(c.face_up == face_up and (c.card is not None) == face_up for c in cards)

    frames = range(truth.frames.start, truth.frames.end + 1)
    turned = next(f for f in frames if held(f, True))
    first = next(f for f in frames if held(f, False)) + 5 if not as_turned else turned
    last = max(f for f in frames if held(f, True))

    def extra_box(frame: int, obs: FrameObs) -> None:
        if first <= frame <= last and zone in obs and obs[zone].cards:
            at = obs[zone].cards[0]
            box = CardObs(card=None, face_up=True, x_mm=at.x_mm - 45, y_mm=at.y_mm + 12, confidence=0.01,
                          uncertain=True, box_confidence=0.7)
            obs[zone] = replace(obs[zone], cards=[box, *obs[zone].cards])

    rnd = nearest_round(rounds_with_edited_observations(GAME, scripted, setup, extra_box), truth)
    assert any(n.startswith(f"inferred: {zone}: 1 card(s)") for n in rnd.notes) == dropped, rnd.notes
    assert (compare_rounds([rnd], [truth])[0].result == "exact") == dropped, rnd.notes
