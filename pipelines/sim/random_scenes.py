"""Random but plausible scenes on a layout, for detector training data.

Unlike the round scripts these ignore the rules: they cover the variety the detector must handle (cards
in every card area, face up and down, sideways discards, overlapping fans, chip stacks of every
denomination on every spot, the dealer's hands over anything).
"""

from __future__ import annotations

import numpy as np

from pipelines.games.cards import DECK
from pipelines.games.layout import Layout

from .scene import CARD_H_MM, CARD_W_MM, CHIP_D_MM, DENOMINATIONS, ChipStack, Occluder, PlacedCard, Scene

CARD_KINDS = ("cards", "card_box", "discard", "shoe")
CHIP_KINDS = ("bet", "paid", "tray")


def random_scene(layout: Layout, rng: np.random.Generator, density: float = 0.6) -> Scene:
    scene = Scene()
    deck = list(DECK)
    for zone in layout.zones:
        if rng.random() > density:
            continue
        cx, cy = zone.centre
        if zone.kind in CARD_KINDS:
            n = int(rng.integers(1, 6)) if zone.kind == "cards" else 1
            spacing = CARD_W_MM * (rng.uniform(0.35, 1.05))  # overlapping fans are the hard cases
            sideways = zone.kind == "discard" or rng.random() < 0.08
            back = "red" if rng.random() < 0.5 else "blue"
            for k in range(n):
                card = deck[int(rng.integers(len(deck)))]
                scene.cards.append(PlacedCard(
                    card=card,
                    x=cx + (k - (n - 1) / 2) * spacing + rng.normal(0, 3),
                    y=cy + rng.normal(0, 4),
                    face_up=bool(rng.random() < 0.8),
                    back=back,
                    angle=(90.0 if sideways else 0.0) + float(rng.normal(0, 4)),
                ))
        elif zone.kind in CHIP_KINDS:
            n = int(rng.integers(1, 9))
            chips = sorted((int(rng.choice(DENOMINATIONS)) for _ in range(n)), reverse=True)
            scene.chips.append(ChipStack(chips=chips, x=cx + rng.normal(0, 4), y=cy + rng.normal(0, 4)))
    for _ in range(int(rng.integers(0, 3))):
        scene.occluders.append(Occluder(
            x=float(rng.uniform(0, layout.width_mm)), y=float(rng.uniform(0, layout.height_mm * 0.6)),
            rx=float(rng.uniform(45, 70)), ry=float(rng.uniform(70, 110)), angle=float(rng.uniform(-40, 40)),
        ))
    return scene


def with_chips_on_card_edges(scene: Scene, rng: np.random.Generator, stacks: int = 1) -> Scene:
    """`scene` plus `stacks` small stacks (one to four chips) each laid over the edge of one of its cards:
    the stack's centre within 0.35 of a chip's width of the edge, either side. The detector's blind spot:
    on held-out dealt frames it finds 29 of 44 such chips, and every one of the 1,886 other uncovered chips
    (benchmarks/detector_accuracy.py, `chips_on_card_accuracy`), and a Pick 2 wager or a payout run on over
    a card is dealt there."""
    if not scene.cards:
        return scene
    out = Scene(cards=list(scene.cards), chips=list(scene.chips), occluders=list(scene.occluders))
    for _ in range(stacks):
        card = scene.cards[int(rng.integers(len(scene.cards)))]
        a = np.radians(card.angle)
        side = int(rng.integers(4))  # which edge: right, top, left, bottom of the card as it lies
        half = (CARD_W_MM if side % 2 == 0 else CARD_H_MM) / 2
        # From the card's centre to the stack's, across the edge: -0.35 d puts 85 % of a lone chip's width
        # on the card, +0.35 d 15 %.
        reach = half + rng.uniform(-0.35, 0.35) * CHIP_D_MM
        along = rng.uniform(-0.4, 0.4) * (CARD_H_MM if side % 2 == 0 else CARD_W_MM)
        u, v = [(reach, along), (along, reach), (-reach, along), (along, -reach)][side]
        x = card.x + u * np.cos(a) - v * np.sin(a)
        y = card.y + u * np.sin(a) + v * np.cos(a)
        n = int(rng.integers(1, 5))
        chips = sorted((int(rng.choice(DENOMINATIONS)) for _ in range(n)), reverse=True)
        out.chips.append(ChipStack(chips=chips, x=float(x), y=float(y)))
    return out


def with_hands_on_cards(scene: Scene, rng: np.random.Generator, hands: int = 1) -> Scene:
    """`scene` plus `hands` of the dealer's hands each resting part over one of its face-up cards: the ellipse's
    centre 0.9 to 1.6 of its half-width from the card's, any way round, so it covers a fifth to three fifths of
    the card. Every dealt card the classifiers still read wrong lies so under the hand (MODEL_CARD.md), and
    hands drawn anywhere on the felt cover about one dealt card in seven."""
    up = [c for c in scene.cards if c.face_up and c.card]
    if not up:
        return scene
    out = Scene(cards=list(scene.cards), chips=list(scene.chips), occluders=list(scene.occluders))
    for _ in range(hands):
        card = up[int(rng.integers(len(up)))]
        rx, ry, angle = rng.uniform(45, 60), rng.uniform(75, 95), rng.uniform(-40, 40)
        t = rng.uniform(0, 2 * np.pi)
        reach = rng.uniform(0.9, 1.6)
        # Along the direction t, an ellipse of half-axes (rx, ry) turned by `angle` reaches r(t) from its centre.
        a = t - np.radians(angle)
        r = 1 / np.sqrt((np.cos(a) / rx) ** 2 + (np.sin(a) / ry) ** 2)
        x, y = card.x - reach * r * np.cos(t), card.y - reach * r * np.sin(t)
        out.occluders.append(Occluder(float(x), float(y), rx, ry, angle))
    return out
