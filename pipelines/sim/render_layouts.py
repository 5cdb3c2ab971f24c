"""Builds the four table layouts (pipelines/games/layouts/*.yaml) from seat templates.

The YAML files are the data every stage reads; this module is how they were drawn, so a change of
geometry is made here and the files regenerated: `python -m pipelines.sim.render_layouts`.

Geometry: the felt is a half disc of radius R = width/2 whose straight edge (the dealer's side,
chip tray, shoe, discard) is the top edge y = 0. Seats sit on an arc around (R, 0); each seat's zones
are laid out in a local frame (u along the rail, v towards the player) and rotated to face the dealer.
The dealer faces the players, so the dealer's right is the image's left: King High box 1 is at the
left (manual §9, "box 1, to the dealer's right"); blackjack-style games number positions from the
dealer's left (first base), i.e. from the right of the image.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import yaml

from pipelines.games.layout import LAYOUT_DIR, Layout

CIRCLE_SIDES = 24


@dataclass(frozen=True)
class Spec:
    spot: str  # wager name, "cards", "cards.1" ...
    kind: str
    shape: str  # circle | rect | diamond
    u: float
    v: float
    w: float  # diameter for circles
    h: float = 0.0
    label: str | None = None


def _shape(shape: str, w: float, h: float) -> list[tuple[float, float]]:
    if shape == "circle":
        r = w / 2
        return [
            (r * math.cos(2 * math.pi * i / CIRCLE_SIDES), r * math.sin(2 * math.pi * i / CIRCLE_SIDES))
            for i in range(CIRCLE_SIDES)
        ]
    if shape == "rect":
        return [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    if shape == "diamond":
        return [(0, -h / 2), (w / 2, 0), (0, h / 2), (-w / 2, 0)]
    raise ValueError(f"unknown shape {shape!r}")


def _zone(name: str, spec: Spec, seat: int | None, origin, angle_rad: float) -> dict:
    ca, sa = math.cos(angle_rad), math.sin(angle_rad)
    ox, oy = origin
    poly = []
    for px, py in _shape(spec.shape, spec.w, spec.h or spec.w):
        u, v = spec.u + px, spec.v + py
        poly.append([round(ox + u * ca - v * sa, 1), round(oy + u * sa + v * ca, 1)])
    z: dict = {"name": name, "kind": spec.kind, "polygon": poly}
    if seat is not None:
        z["seat"] = seat
        z["spot"] = spec.spot
    if spec.label:
        z["label"] = spec.label
    return z


def _with_paid(spot: str, shape: str, u: float, v: float, d: float, label: str, du: float) -> list[Spec]:
    """A betting spot and, beside it (du along the rail), where its payout is placed."""
    return [
        Spec(spot, "bet", shape, u, v, d, d, label),
        Spec(f"{spot}.paid", "paid", "circle", u + du, v, d * 0.9),
    ]


def _seats(
    width: float,
    n: int,
    radius: float,
    template: list[Spec],
    first_at_left: bool,
    span_deg: tuple[float, float],
) -> list[dict]:
    zones = []
    lo, hi = span_deg
    for i in range(n):
        seat = i + 1
        k = (n - 1 - i) if first_at_left else i
        theta = math.radians(lo + (hi - lo) * k / (n - 1))  # 0 = image right, 180 = image left
        origin = (width / 2 + radius * math.cos(theta), radius * math.sin(theta))
        angle = theta - math.pi / 2  # local v axis points outwards, towards the player
        for spec in template:
            zones.append(_zone(f"seat{seat}.{spec.spot}", spec, seat, origin, angle))
    return zones


def _dealer(specs: list[tuple[str, Spec]]) -> list[dict]:
    return [_zone(name, spec, None, (0.0, 0.0), 0.0) for name, spec in specs]


def _rect(kind: str, x: float, y: float, w: float, h: float, label: str | None = None) -> Spec:
    return Spec("", kind, "rect", x, y, w, h, label)


def king_high() -> dict:
    width = 2200.0
    cell, du = 46.0, 50.0
    rows = [  # (v, left spot, right spot): outermost row (pokerpot) nearest the player
        (-200, ("suit_c", "CLUBS"), ("suit_d", "DIAMONDS")),
        (-150, ("suit_h", "HEARTS"), ("suit_s", "SPADES")),
        (-100, ("high", "HIGH"), ("low", "LOW")),
        (-50, ("seven", "ANY 7"), ("high_run", "HIGH RUN")),
        (0, ("pokerpot", "POKERPOT"), ("low_run", "LOW RUN")),
    ]
    template: list[Spec] = []
    for v, (left, llabel), (right, rlabel) in rows:
        template += _with_paid(left, "rect", -75, v, cell, llabel, du)
        template += _with_paid(right, "rect", 25, v, cell, rlabel, du)
    zones = _seats(width, 8, 880, template, first_at_left=True, span_deg=(22, 158))
    board = [(f"board.card{k}", _rect("card_box", 1100 - 2 * 95 + (k - 1) * 95, 195, 76, 102, str(k)))
             for k in range(1, 6)]
    zones += _dealer(
        [
            ("dealer.tray", _rect("tray", 1100, 75, 620, 120, None)),
            *board,
            ("board.action", _rect("card_box", 1100, 420, 84, 110, "ACTION")),
            ("dealer.discard", _rect("discard", 700, 95, 90, 120, "DISCARD")),
            ("dealer.shoe", _rect("shoe", 1500, 95, 110, 170, None)),
        ]
    )
    return {"game": "king-high", "name": "King High (7 players, boxes 1-8)", "width_mm": width,
            "height_mm": width / 2, "seats": list(range(1, 9)), "felt_colour": [40, 95, 30], "zones": zones}


def high_tie() -> dict:
    width = 2100.0
    template = [
        Spec("cards", "cards", "rect", 0, -155, 280, 100, None),
        Spec("cards.1", "cards", "rect", -70, -155, 136, 96, None),
        Spec("cards.2", "cards", "rect", 70, -155, 136, 96, None),
        *_with_paid("insurance", "rect", -48, -250, 44, "INS", 96),
        *_with_paid("main", "circle", 0, 0, 84, None, -98),
        # A split's second hand gets its own circle and payout spot (towards the player, under the
        # first), so the two hands' wagers and settlements can be told apart; its double likewise.
        *_with_paid("main.2", "circle", 0, 100, 84, None, -98),
        *_with_paid("side", "circle", 72, -62, 48, "HIGH TIE", 56),
        *_with_paid("double", "circle", 90, 10, 44, "DBL", 54),
        *_with_paid("double.2", "circle", 90, 100, 44, "DBL", 54),
    ]
    zones = _seats(width, 6, 830, template, first_at_left=False, span_deg=(22, 158))
    zones += _dealer(
        [
            ("dealer.tray", _rect("tray", 1050, 75, 600, 120)),
            ("dealer.cards", _rect("cards", 1050, 215, 420, 100)),
            ("dealer.discard", _rect("discard", 620, 95, 90, 120, "DISCARD")),
            ("dealer.shoe", _rect("shoe", 1480, 95, 110, 170)),
        ]
    )
    return {"game": "high-tie", "name": "High Tie Blackjack (6 positions)", "width_mm": width,
            "height_mm": width / 2, "seats": list(range(1, 7)), "felt_colour": [90, 60, 20], "zones": zones}


def three_card_monster() -> dict:
    width = 2100.0
    d, pitch = 56.0, 66.0
    template = [Spec("cards", "cards", "rect", -40, -160, 276, 100, None)]
    for i, (spot, label) in enumerate(
        [("play", "PLAY"), ("ante", "ANTE"), ("monster", "MONSTER"), ("royal", "ROYAL")]
    ):
        template += _with_paid(spot, "circle", 0, -70 + i * pitch, d, label, 62)
    zones = _seats(width, 6, 820, template, first_at_left=False, span_deg=(22, 158))
    boxes = [(f"dealer.card{k}", _rect("card_box", 1050 - 85 + (k - 1) * 85, 205, 74, 100, None))
             for k in range(1, 4)]
    zones += _dealer(
        [
            ("dealer.tray", _rect("tray", 1050, 75, 560, 120)),
            *boxes,
            ("dealer.discard", _rect("discard", 1240, 205, 100, 74, None)),
            ("dealer.shoe", _rect("shoe", 1450, 95, 110, 150)),
        ]
    )
    return {"game": "3-card-monster", "name": "3 Card Monster (6 positions)", "width_mm": width,
            "height_mm": width / 2, "seats": list(range(1, 7)), "felt_colour": [30, 30, 120], "zones": zones}


def pick_2_poker() -> dict:
    width = 2200.0
    template = [
        Spec("cards", "cards", "rect", 0, 0, 350, 100, None),
        *_with_paid("play", "diamond", -64, 95, 64, "PLAY", 64),
        *_with_paid("ante", "circle", 60, 95, 54, "ANTE", 58),
        *_with_paid("bonus35", "circle", -60, 162, 54, "3-5 BONUS", 58),
        *_with_paid("bonus5", "circle", 60, 162, 54, "5 CARD", 58),
    ]
    zones = _seats(width, 6, 790, template, first_at_left=False, span_deg=(18, 162))
    zones += _dealer(
        [
            ("dealer.tray", _rect("tray", 1100, 75, 600, 120)),
            ("dealer.cards", _rect("cards", 1100, 220, 350, 100)),
            ("dealer.discard", _rect("discard", 680, 95, 90, 120, "DISCARD")),
            ("dealer.shoe", _rect("shoe", 1520, 95, 110, 150)),
        ]
    )
    return {"game": "pick-2-poker", "name": "Pick 2 Poker (6 spots)", "width_mm": width,
            "height_mm": width / 2, "seats": list(range(1, 7)), "felt_colour": [35, 100, 45], "zones": zones}


BUILDERS = {
    "king-high": king_high,
    "high-tie": high_tie,
    "3-card-monster": three_card_monster,
    "pick-2-poker": pick_2_poker,
}


def write_all(out_dir: Path = LAYOUT_DIR) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for game, build in BUILDERS.items():
        data = build()
        Layout.model_validate(data)  # never write a file that does not load
        path = out_dir / f"{game}.yaml"
        header = f"# {data['name']}: generated by `python -m pipelines.sim.render_layouts`; mm, origin top-left.\n"
        path.write_text(header + yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=200))
        paths.append(path)
    return paths


if __name__ == "__main__":
    for p in write_all():
        print(p)
