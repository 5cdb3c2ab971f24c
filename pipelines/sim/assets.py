"""Card faces, card backs and chips, drawn by code (OpenCV primitives, Hershey fonts) and cached.

Sprites are BGRA at `BASE_PX_PER_MM` (4 px/mm: a card is 254 x 356 px), the alpha channel carrying the
rounded card corners and the round chip edge. `sprite_at(name, px_per_mm)` returns a copy scaled with
area averaging to about the size the camera will show, so the per-object warp barely resamples.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from pipelines.games.cards import DECK, RANKS

from .scene import CARD_H_MM, CARD_W_MM, CHIP_COLOURS, CHIP_D_MM

BASE_PX_PER_MM = 4.0
RED = (30, 30, 200)
BLACK = (25, 25, 25)
BACK_COLOURS_BGR = {"red": (40, 40, 170), "blue": (150, 80, 30)}
AA = cv2.LINE_AA

# Pip centres of the number cards, in fractions of the card's (width, height); lower half drawn inverted.
_PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.22), (0.5, 0.78)],
    3: [(0.5, 0.22), (0.5, 0.5), (0.5, 0.78)],
    4: [(0.32, 0.22), (0.68, 0.22), (0.32, 0.78), (0.68, 0.78)],
    5: [(0.32, 0.22), (0.68, 0.22), (0.5, 0.5), (0.32, 0.78), (0.68, 0.78)],
    6: [(0.32, 0.22), (0.68, 0.22), (0.32, 0.5), (0.68, 0.5), (0.32, 0.78), (0.68, 0.78)],
    7: [(0.32, 0.22), (0.68, 0.22), (0.5, 0.36), (0.32, 0.5), (0.68, 0.5), (0.32, 0.78), (0.68, 0.78)],
    8: [(0.32, 0.22), (0.68, 0.22), (0.5, 0.36), (0.32, 0.5), (0.68, 0.5), (0.5, 0.64), (0.32, 0.78),
        (0.68, 0.78)],
    9: [(0.32, 0.2), (0.68, 0.2), (0.32, 0.4), (0.68, 0.4), (0.5, 0.5), (0.32, 0.6), (0.68, 0.6),
        (0.32, 0.8), (0.68, 0.8)],
    10: [(0.32, 0.2), (0.68, 0.2), (0.5, 0.3), (0.32, 0.4), (0.68, 0.4), (0.32, 0.6), (0.68, 0.6),
         (0.5, 0.7), (0.32, 0.8), (0.68, 0.8)],
}
_COURT_COLOURS = {"J": (40, 150, 220), "Q": (160, 60, 40), "K": (30, 40, 170)}


def suit_colour(suit: str) -> tuple[int, int, int]:
    return RED if suit in "hd" else BLACK


def draw_suit(img: np.ndarray, suit: str, cx: float, cy: float, size: float,
              colour: tuple[int, int, int] | None = None, flip: bool = False) -> None:
    """A suit symbol `size` px tall centred at (cx, cy), built from circles and polygons."""
    col = colour or suit_colour(suit)
    s = size / 2
    sign = -1.0 if flip else 1.0

    def pt(dx: float, dy: float) -> tuple[int, int]:
        return (round(cx + dx * s), round(cy + sign * dy * s))

    def circle(dx: float, dy: float, r: float) -> None:
        cv2.circle(img, pt(dx, dy), max(1, round(r * s)), col, -1, AA)

    def poly(points: list[tuple[float, float]]) -> None:
        cv2.fillPoly(img, [np.array([pt(*p) for p in points], np.int32)], col, AA)

    if suit == "d":
        poly([(0, -1), (0.72, 0), (0, 1), (-0.72, 0)])
    elif suit == "h":
        circle(-0.44, -0.42, 0.5)
        circle(0.44, -0.42, 0.5)
        poly([(-0.93, -0.25), (0.93, -0.25), (0, 1)])
    elif suit == "s":
        circle(-0.44, 0.22, 0.46)
        circle(0.44, 0.22, 0.46)
        poly([(-0.88, 0.08), (0.88, 0.08), (0, -1)])
        poly([(0, 0.3), (0.3, 1), (-0.3, 1)])
    elif suit == "c":
        circle(0, -0.5, 0.42)
        circle(-0.5, 0.16, 0.42)
        circle(0.5, 0.16, 0.42)
        poly([(0, 0.0), (0.3, 1), (-0.3, 1)])
        circle(0, 0.05, 0.25)
    else:
        raise ValueError(f"unknown suit {suit!r}")


def _rounded_alpha(w: int, h: int, radius: int) -> np.ndarray:
    a = np.zeros((h, w), np.uint8)
    cv2.rectangle(a, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(a, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for x, y in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius),
                 (w - 1 - radius, h - 1 - radius)):
        cv2.circle(a, (x, y), radius, 255, -1, AA)
    return a


def _card_canvas() -> tuple[np.ndarray, int, int]:
    w, h = round(CARD_W_MM * BASE_PX_PER_MM), round(CARD_H_MM * BASE_PX_PER_MM)
    img = np.full((h, w, 4), 255, np.uint8)
    img[:, :, :3] = (246, 248, 250)
    img[:, :, 3] = _rounded_alpha(w, h, round(3.2 * BASE_PX_PER_MM))
    return img, w, h


def _index(img: np.ndarray, rank: str, suit: str, w: int, h: int) -> None:
    """Rank and suit in the top-left corner, then the same rotated 180 degrees into the bottom-right."""
    text = "10" if rank == "T" else rank
    col = suit_colour(suit)
    corner = np.full((int(h * 0.3), int(w * 0.2), 3), 255, np.uint8)
    corner[:] = img[0, img.shape[1] // 2, :3]
    scale = 1.25 if len(text) == 1 else 0.95
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 4)
    cx = corner.shape[1] // 2
    cv2.putText(corner, text, (cx - tw // 2, 12 + th), cv2.FONT_HERSHEY_SIMPLEX, scale, col, 4, AA)
    draw_suit(corner, suit, cx, 12 + th + 26, 30)
    ch, cw = corner.shape[:2]
    y0, x0 = 6, 4
    img[y0:y0 + ch, x0:x0 + cw, :3] = corner
    img[h - y0 - ch:h - y0, w - x0 - cw:w - x0, :3] = corner[::-1, ::-1]


@cache
def card_face(card: str) -> np.ndarray:
    """BGRA face of a card ("Ah") at BASE_PX_PER_MM; read-only, cached."""
    if card not in DECK:
        raise ValueError(f"not a card: {card!r}")
    rank, suit = card[0], card[1]
    img, w, h = _card_canvas()
    _index(img, rank, suit, w, h)
    body = img[:, :, :3].copy()
    value = RANKS.index(rank) + 2
    if value <= 10:
        for fx, fy in _PIPS[value]:
            draw_suit(body, suit, fx * w, fy * h, 0.17 * h * (0.95 if value >= 9 else 1.0), flip=fy > 0.55)
    elif rank == "A":
        draw_suit(body, suit, w / 2, h / 2, 0.42 * h)
    else:  # court: a framed panel with the rank letter and suit, the usual two-headed mirror
        x0, y0, x1 = int(w * 0.2), int(h * 0.17), int(w * 0.8)
        y1 = y0 + 2 * ((int(h * 0.83) - y0) // 2)
        cv2.rectangle(body, (x0, y0), (x1, y1), _COURT_COLOURS[rank], -1)
        cv2.rectangle(body, (x0 + 8, y0 + 8), (x1 - 8, y1 - 8), (235, 225, 190), -1)
        cv2.rectangle(body, (x0, y0), (x1, y1), (40, 40, 40), 3, AA)
        cv2.line(body, (x0 + 8, y1 - 8), (x1 - 8, y0 + 8), _COURT_COLOURS[rank], 4, AA)
        half = body[y0:(y0 + y1) // 2, x0:x1]
        (tw, th), _ = cv2.getTextSize(rank, cv2.FONT_HERSHEY_TRIPLEX, 2.6, 6)
        cv2.putText(half, rank, ((x1 - x0 - tw) // 2 - 20, 18 + th), cv2.FONT_HERSHEY_TRIPLEX, 2.6,
                    suit_colour(suit), 6, AA)
        draw_suit(half, suit, (x1 - x0) * 0.72, 18 + th * 0.55, 46)
        body[(y0 + y1) // 2:y1, x0:x1] = half[::-1, ::-1]
    img[:, :, :3] = body
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (0, 0, 0), 0)
    img.setflags(write=False)
    return img


@cache
def card_back(colour: str) -> np.ndarray:
    """BGRA back: white border, coloured field with a diamond lattice."""
    if colour not in BACK_COLOURS_BGR:
        raise ValueError(f"card back colour {colour!r} is not one of {tuple(BACK_COLOURS_BGR)}")
    img, w, h = _card_canvas()
    base = BACK_COLOURS_BGR[colour]
    m = round(3.5 * BASE_PX_PER_MM)
    field = np.empty((h - 2 * m, w - 2 * m, 3), np.uint8)
    field[:] = base
    light = tuple(min(255, c + 70) for c in base)
    step = 22
    fh, fw = field.shape[:2]
    for k in range(-fh, fw + fh, step):
        cv2.line(field, (k, 0), (k + fh, fh), light, 3, AA)
        cv2.line(field, (k, 0), (k - fh, fh), light, 3, AA)
    cv2.rectangle(field, (6, 6), (fw - 7, fh - 7), (250, 250, 250), 4, AA)
    cv2.ellipse(field, (fw // 2, fh // 2), (fw // 4, fh // 6), 0, 0, 360, (250, 250, 250), -1, AA)
    cv2.ellipse(field, (fw // 2, fh // 2), (fw // 4 - 8, fh // 6 - 8), 0, 0, 360, base, -1, AA)
    img[m:h - m, m:w - m, :3] = field
    img.setflags(write=False)
    return img


@cache
def chip(denomination: int) -> np.ndarray:
    """BGRA top view of a chip: body colour, six white edge spots, inner ring and the printed value."""
    if denomination not in CHIP_COLOURS:
        raise ValueError(f"chip denomination {denomination!r} is not one of {tuple(CHIP_COLOURS)}")
    d = round(CHIP_D_MM * BASE_PX_PER_MM)
    r = d // 2
    body = CHIP_COLOURS[denomination]
    spot = (40, 40, 200) if denomination == 1 else (245, 245, 245)  # white chips carry coloured spots
    img = np.zeros((d, d, 4), np.uint8)
    img[:, :, :3] = body
    c = (r, r)
    for k in range(6):
        a0 = k * 60 - 12
        cv2.ellipse(img, c, (r - 1, r - 1), 0, a0, a0 + 24, (*spot, 255), -1, AA)
    cv2.circle(img, c, int(r * 0.72), (*body, 255), -1, AA)
    ink = (245, 245, 245) if sum(body) < 400 else (30, 30, 30)
    cv2.circle(img, c, int(r * 0.68), (*ink, 255), 3, AA)
    cv2.circle(img, c, int(r * 0.6), (*tuple(min(255, x + 25) for x in body), 255), -1, AA)
    text = "1K" if denomination == 1000 else str(denomination)
    scale = {1: 1.6, 2: 1.4, 3: 1.05}.get(len(text), 1.0)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 3)
    cv2.putText(img, text, (r - tw // 2, r + th // 2), cv2.FONT_HERSHEY_DUPLEX, scale, (*ink, 255), 3, AA)
    alpha = np.zeros((d, d), np.uint8)
    cv2.circle(alpha, c, r - 1, 255, -1, AA)
    img[:, :, 3] = alpha
    img.setflags(write=False)
    return img


def sprite(name: str) -> np.ndarray:
    """By class-like name: "Ah", "back_red", "chip_25"."""
    if name.startswith("back_"):
        return card_back(name[5:])
    if name.startswith("chip_"):
        return chip(int(name[5:]))
    return card_face(name)


@cache
def sprite_at(name: str, px_per_mm: float) -> np.ndarray:
    """The sprite scaled (area averaging) to `px_per_mm`, rounded to 0.05 by callers to bound the cache."""
    base = sprite(name)
    f = px_per_mm / BASE_PX_PER_MM
    if f >= 1.0:
        return base
    out = cv2.resize(base, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    out.setflags(write=False)
    return out
