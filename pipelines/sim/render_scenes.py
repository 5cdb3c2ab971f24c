"""Random but plausible scenes for a layout: cards in card areas, chip stacks on bets, a dealer's hand.

Used by the contact sheet, the speed benchmark and the tests; the round scripts build real scenes.
"""

from __future__ import annotations

import math

import numpy as np

from pipelines.games.cards import DECK
from pipelines.games.layout import Layout, Zone

from .scene import CARD_W_MM, ChipStack, Occluder, PlacedCard, Scene, chips_for

CARDS_PER_SEAT = {"king-high": 0, "high-tie": 3, "3-card-monster": 4, "pick-2-poker": 5}
AMOUNTS = (1, 5, 10, 15, 25, 30, 50, 75, 100, 125, 250, 500, 600, 1000, 1525)


def zone_angle(z: Zone) -> float:
    """Direction of a rectangular zone's first edge, in degrees (how its cards are turned)."""
    (x0, y0), (x1, y1) = z.polygon[0], z.polygon[1]
    return math.degrees(math.atan2(y1 - y0, x1 - x0))


def cards_in_row(z: Zone, cards: list[str], face_up: bool, back: str, gap: float = 4.0) -> list[PlacedCard]:
    a = math.radians(zone_angle(z))
    cx, cy = z.centre
    step = CARD_W_MM + gap
    out = []
    for i, c in enumerate(cards):
        off = (i - (len(cards) - 1) / 2) * step
        out.append(PlacedCard(c, cx + off * math.cos(a), cy + off * math.sin(a), face_up, back,
                              zone_angle(z)))
    return out


def random_scene(layout: Layout, rng: np.random.Generator, occluders: int = 1,
                 occupancy: float = 0.75) -> Scene:
    deck = list(DECK)
    rng.shuffle(deck)
    back = str(rng.choice(["red", "blue"]))
    scene = Scene()
    n_seat_cards = CARDS_PER_SEAT[layout.game]
    for seat in layout.seats:
        if rng.random() > occupancy:
            continue
        if n_seat_cards:
            z = layout.zone(f"seat{seat}.cards")
            up = bool(rng.random() < 0.7)
            scene.cards += cards_in_row(z, [deck.pop() for _ in range(n_seat_cards)], up, back)
        bets = [z for z in layout.zones_of("bet") if z.seat == seat]
        for z in bets:
            if rng.random() < 0.45:
                scene.chips.append(ChipStack(chips_for(float(rng.choice(AMOUNTS))), *z.centre))
                if rng.random() < 0.2:
                    paid = layout.zone(f"{z.name}.paid")
                    scene.chips.append(ChipStack(chips_for(float(rng.choice(AMOUNTS[:8]))), *paid.centre))
    names = {z.name for z in layout.zones}
    up = bool(rng.random() < 0.6)
    if "dealer.cards" in names:
        n = 5 if layout.game == "pick-2-poker" else 2
        scene.cards += cards_in_row(layout.zone("dealer.cards"), [deck.pop() for _ in range(n)], up, back)
    for k in range(1, 6):
        for prefix in ("dealer.card", "board.card"):
            if f"{prefix}{k}" in names and rng.random() < 0.8:
                cx, cy = layout.zone(f"{prefix}{k}").centre
                scene.cards.append(PlacedCard(deck.pop(), cx, cy, up or prefix == "board.card", back))
    if "board.action" in names:
        cx, cy = layout.zone("board.action").centre
        scene.cards.append(PlacedCard(deck.pop(), cx, cy, True, back))
    if layout.game == "3-card-monster":
        cx, cy = layout.zone("dealer.discard").centre
        scene.cards.append(PlacedCard(None, cx, cy, False, back, 90.0))
    for _ in range(occluders):
        x = rng.uniform(0.2, 0.8) * layout.width_mm
        y = rng.uniform(0.2, 0.7) * layout.height_mm
        scene.occluders.append(Occluder(x, y, rng.uniform(45, 60), rng.uniform(75, 95), rng.uniform(-40, 40)))
    return scene
