import itertools

import cv2
import numpy as np
import pytest

from pipelines.games.layout import LAYOUT_DIR, LayoutError, load_layout_file
from pipelines.games.round import GAME_IDS
from pipelines.sim.scene import CARD_H_MM, CARD_W_MM

SEAT_SPOTS = {
    "king-high": ["pokerpot", "high_run", "low_run", "high", "low", "suit_c", "suit_d", "suit_h", "suit_s",
                  "seven"],
    "high-tie": ["main", "side", "double", "insurance"],
    "3-card-monster": ["ante", "monster", "royal", "play"],
    "pick-2-poker": ["ante", "bonus35", "bonus5", "play"],
}
SEAT_CARDS = {"high-tie": 4, "3-card-monster": 4, "pick-2-poker": 5}
DEALER = {
    "king-high": ["board.action", *[f"board.card{k}" for k in range(1, 6)], "dealer.tray", "dealer.discard",
                  "dealer.shoe"],
    "high-tie": ["dealer.cards", "dealer.tray", "dealer.discard", "dealer.shoe"],
    "3-card-monster": ["dealer.card1", "dealer.card2", "dealer.card3", "dealer.discard", "dealer.tray"],
    "pick-2-poker": ["dealer.cards", "dealer.tray", "dealer.discard"],
}
SEAT_COUNT = {"king-high": 8, "high-tie": 6, "3-card-monster": 6, "pick-2-poker": 6}


def _layout(game):
    return load_layout_file(LAYOUT_DIR / f"{game}.yaml")


def _rect_size(z):
    p = np.array(z.polygon)
    return float(np.linalg.norm(p[1] - p[0])), float(np.linalg.norm(p[2] - p[1]))


@pytest.mark.parametrize("game", GAME_IDS)
def test_layout_has_every_zone_its_game_needs(game):
    layout = _layout(game)
    assert layout.game == game
    assert layout.seats == list(range(1, SEAT_COUNT[game] + 1))
    names = {z.name for z in layout.zones}
    assert len(names) == len(layout.zones), "zone names are unique"
    for seat in layout.seats:
        for spot in SEAT_SPOTS[game]:
            assert f"seat{seat}.{spot}" in names
            assert f"seat{seat}.{spot}.paid" in names
            assert layout.zone(f"seat{seat}.{spot}").kind == "bet"
            assert layout.zone(f"seat{seat}.{spot}").spot == spot
        if game in SEAT_CARDS:
            assert layout.zone(f"seat{seat}.cards").kind == "cards"
    for name in DEALER[game]:
        assert name in names
    if game == "high-tie":
        assert {f"seat{s}.cards.{h}" for s in layout.seats for h in (1, 2)} <= names
    assert 1800 <= layout.width_mm <= 2200


@pytest.mark.parametrize("game", GAME_IDS)
def test_zones_do_not_overlap_and_stay_on_the_felt(game):
    layout = _layout(game)
    for a, b in itertools.combinations(layout.zones, 2):
        if a.kind == b.kind == "cards" and (b.name.startswith(a.name + ".") or a.name.startswith(b.name + ".")):
            continue  # a blackjack split area is a half of its seat's card area
        area, _ = cv2.intersectConvexConvex(np.array(a.polygon, np.float32), np.array(b.polygon, np.float32))
        assert area < 1.0, f"{game}: {a.name} overlaps {b.name} by {area:.0f} mm2"
    R = layout.width_mm / 2
    for z in layout.zones:
        for x, y in z.polygon:
            assert y >= 0 and (x - R) ** 2 + y**2 <= R**2, f"{z.name} leaves the felt at ({x}, {y})"


@pytest.mark.parametrize("game", list(SEAT_CARDS))
def test_card_areas_hold_their_cards_side_by_side(game):
    layout = _layout(game)
    for seat in layout.seats:
        w, h = _rect_size(layout.zone(f"seat{seat}.cards"))
        assert w >= SEAT_CARDS[game] * CARD_W_MM and h >= CARD_H_MM
    for z in layout.zones:
        if z.kind == "card_box":
            w, h = _rect_size(z)
            assert w >= CARD_W_MM and h >= CARD_H_MM, z.name


def test_king_high_box_one_is_at_the_dealers_right_blackjack_seat_one_at_the_dealers_left():
    kh, ht = _layout("king-high"), _layout("high-tie")
    assert kh.zone("seat1.pokerpot").centre[0] < kh.zone("seat8.pokerpot").centre[0]
    assert ht.zone("seat1.main").centre[0] > ht.zone("seat6.main").centre[0]


def test_bad_layout_file_names_file_and_field(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: king-high\nname: x\nwidth_mm: -5\nheight_mm: 10\nseats: [1]\nzones: []\n")
    with pytest.raises(LayoutError, match=r"bad.yaml.*width_mm"):
        load_layout_file(bad)
