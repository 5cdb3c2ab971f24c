"""High Tie simulator: split hands in their own circles, surrenders shown as a dealer does, the peek."""

from __future__ import annotations

from functools import cache

import pytest
from matplotlib.path import Path as MplPath

from pipelines.games.blackjack_hand import is_natural
from pipelines.games.layout import layout_for
from pipelines.sim.render import HIDDEN_LIMIT
from pipelines.sim.script_base import cascade_positions, most_hidden
from pipelines.sim.session import script_session

SEED = 10  # 3 rounds: a surrender and a split
PEEK_SEED = 13  # its third round: a dealer blackjack


@cache
def _session(seed: int = SEED):
    return script_session("high-tie", 3, seed, 0.0)[0]


def _round_with(action: str):
    for r in _session():
        d = next((d for d in r.round.decisions if d.action == action), None)
        if d is not None:
            return r, d
    pytest.fail(f"seed {SEED} has no {action}")


def _scene(r, frame):
    return r.scenes[frame - r.round.frames.start]


def _inside(zone_name: str, x: float, y: float) -> bool:
    return MplPath(layout_for("high-tie").zone(zone_name).polygon).contains_point((x, y))


def test_split_hand_wagers_and_payouts_have_their_own_zones():
    r, d = _round_with("split")
    main2 = r.round.wager(d.seat, "main", 2)
    assert main2 is not None and main2.amount == r.round.wager(d.seat, "main", 1).amount
    stacks = [s for sc in r.scenes for s in sc.chips]
    assert any(_inside(f"seat{d.seat}.main.2", s.x, s.y) and s.value == main2.amount for s in stacks)
    assert not any(_inside(f"seat{d.seat}.main", s.x, s.y) and s.value > main2.amount for s in stacks), \
        "the second hand's chips are never stacked on the first"
    for s in r.round.settlements:
        if (s.seat, s.spot, s.hand) == (d.seat, "main", 2) and s.outcome == "win":
            assert any(_inside(f"seat{d.seat}.main.2.paid", c.x, c.y) for sc in r.scenes for c in sc.chips)


def test_surrender_collects_the_cards_and_returns_half_the_wager_before_the_dealer_plays():
    r, d = _round_with("surrender")
    seat, wager = d.seat, r.round.wager(d.seat, "main").amount
    reveal = next(e.frame for e in r.round.events if e.type == "card_exposed" and e.owner == "dealer")
    def cards_out(frame):
        return [c for c in _scene(r, frame).cards if _inside(f"seat{seat}.cards", c.x, c.y)]

    def main_stack(frame):
        return sum(s.value for s in _scene(r, frame).chips if _inside(f"seat{seat}.main", s.x, s.y))

    assert cards_out(d.frame), "the hand is on the layout when the player surrenders"
    gone = next(f for f in range(d.frame, reveal) if not cards_out(f))
    assert main_stack(gone) == wager  # cards first, then the wager
    values = [main_stack(f) for f in range(gone, reveal)]
    assert wager / 2 in values and values.index(wager / 2) >= 1 and values[-1] == 0
    assert values.count(wager / 2) >= 3, "the player's half shows long enough to be seen"
    settled = next(s for s in r.round.settlements if (s.seat, s.spot) == (seat, "main"))
    assert settled.outcome == "lose" and settled.frames.end < reveal


def test_dealer_peeks_before_turning_a_blackjack_over():
    r = next((r for r in _session(PEEK_SEED) if is_natural(r.round.cards_of("dealer")[:2])), None)
    assert r is not None, f"seed {PEEK_SEED} has no dealer blackjack"
    hole = next(c for c in r.round.cards if c.owner == "dealer" and not c.face_up)
    shown = next(e.frame for e in r.round.events if e.type == "card_exposed" and e.owner == "dealer")
    down = [f for f in range(hole.frame, shown)
            if any(not c.face_up and c.card == hole.card for c in _scene(r, f).cards)]
    assert len(down) >= 5, "the hole card lies face down long enough for the camera to see it"


@pytest.mark.parametrize("n", [3, 4])
def test_split_hands_on_every_seat_leave_each_card_visible_and_in_its_area(n):
    # A split hand of 3-4 cards on the slanted outer seats was laid in a straight column 24-37 mm apart,
    # hiding 59-70 % of each card under the next: beyond the renderer's limit for a visible card.
    layout = layout_for("high-tie")
    for seat in range(1, 7):
        for hand in (1, 2):
            zone = f"seat{seat}.cards.{hand}"
            centres = cascade_positions(layout, zone, n)
            assert most_hidden(centres) < HIDDEN_LIMIT - 0.03, (zone, centres)
            assert MplPath(layout.zone(zone).polygon).contains_points(centres).all(), zone
