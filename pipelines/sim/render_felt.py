"""The felt of one session: table shape, rail, printed zones and labels, chip rack, shoe, discard holder.

Drawn once per (layout, camera) directly in image space (zone outlines projected through the camera
so lines stay crisp), then cached by the renderer; only the objects on it change per frame.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from pipelines.games.layout import Layout, Zone

from .assets import draw_suit
from .camera import Camera
from .scene import CHIP_COLOURS

AA = cv2.LINE_AA
INK = (215, 225, 230)  # printed lines: off-white
GOLD = (80, 180, 215)
SUIT_SPOTS = {"suit_c": "c", "suit_d": "d", "suit_h": "h", "suit_s": "s"}


def _poly_px(camera: Camera, pts_mm: np.ndarray) -> np.ndarray:
    return np.round(camera.project(pts_mm) * 16).astype(np.int32)  # 4 fractional bits for AA drawing


def _arc(cx: float, cy: float, r: float, a0: float, a1: float, n: int = 120) -> np.ndarray:
    t = np.linspace(math.radians(a0), math.radians(a1), n)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


def text_sprite(text: str, colour: tuple[int, int, int], height_px: int = 40) -> np.ndarray:
    """White-on-transparent BGRA text, to be warped onto the felt like any sprite."""
    font, scale, thick = cv2.FONT_HERSHEY_DUPLEX, height_px / 22.0, max(1, height_px // 12)
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    img = np.zeros((th + base + 8, tw + 8, 4), np.uint8)
    img[:, :, :3] = colour
    alpha = np.zeros(img.shape[:2], np.uint8)
    cv2.putText(alpha, text, (4, th + 4), font, scale, 255, thick, AA)
    img[:, :, 3] = alpha
    return img


def draw_felt(layout: Layout, camera: Camera, rng: np.random.Generator) -> np.ndarray:
    from .render import paste  # the one warp-and-blend routine

    w, h = camera.size
    W = layout.width_mm
    R = W / 2
    img = np.empty((h, w, 3), np.uint8)
    img[:] = rng.integers(18, 34, size=3).tolist()  # floor and dealer side, dim
    # dealer's side of the table: wooden edge beyond the straight edge
    wood = (int(rng.integers(25, 40)), int(rng.integers(45, 60)), int(rng.integers(70, 90)))
    cv2.fillPoly(img, [_poly_px(camera, np.array([[-120, -400], [W + 120, -400], [W + 120, 0], [-120, 0]]))],
                 wood, AA, shift=4)
    rail = _arc(R, 0, R + 90, 0, 180)
    cv2.fillPoly(img, [_poly_px(camera, np.vstack([rail, [[-90, 0], [-90, -15], [W + 90, -15]]]))],
                 (28, 30, 34), AA, shift=4)
    # rail highlight
    cv2.polylines(img, [_poly_px(camera, _arc(R, 0, R + 45, 0, 180))], False, (60, 62, 68), 3, AA, shift=4)
    felt_colour = np.clip(np.array(layout.felt_colour) + rng.integers(-12, 13, size=3), 0, 255)
    felt_poly = _poly_px(camera, np.vstack([_arc(R, 0, R, 0, 180), [[0, 0]]]))
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [felt_poly], 255, AA, shift=4)
    felt = np.empty_like(img)
    felt[:] = felt_colour.tolist()
    # woven texture: fine noise, slightly blurred
    tex = rng.normal(0, 5.0, size=(h, w)).astype(np.float32)
    tex = cv2.GaussianBlur(tex, (0, 0), 0.8)
    felt = np.clip(felt.astype(np.float32) + tex[:, :, None], 0, 255).astype(np.uint8)
    a = mask.astype(np.float32)[:, :, None] / 255.0
    img[:] = (felt * a + img * (1 - a)).astype(np.uint8)

    ink = INK if rng.random() < 0.6 else GOLD
    for z in layout.zones:
        _draw_zone(img, z, camera, ink, paste)
    _draw_title(img, layout, camera, ink, paste)
    return img


def _draw_zone(img: np.ndarray, z: Zone, camera: Camera, ink, paste) -> None:
    pts = np.array(z.polygon, dtype=np.float64)
    poly = _poly_px(camera, pts)
    scale = camera.px_per_mm(*z.centre)
    thick = max(1, round(2.0 * scale))
    if z.kind == "paid" or (z.kind == "cards" and z.name.count(".") >= 2):
        return  # payout places and split halves are conventions, not printed
    if z.kind == "tray":
        _draw_tray(img, pts, camera)
        return
    if z.kind == "shoe":
        cv2.fillPoly(img, [poly], (40, 40, 44), AA, shift=4)
        inner = pts.mean(axis=0) + (pts - pts.mean(axis=0)) * 0.7
        cv2.fillPoly(img, [_poly_px(camera, inner)], (70, 70, 76), AA, shift=4)
        return
    if z.kind == "discard":
        cv2.fillPoly(img, [poly], (55, 55, 60), AA, shift=4)
        inner = pts.mean(axis=0) + (pts - pts.mean(axis=0)) * 0.8
        cv2.polylines(img, [_poly_px(camera, inner)], True, (110, 110, 115), thick, AA, shift=4)
        return
    cv2.polylines(img, [poly], True, ink, thick, AA, shift=4)
    spot = z.spot or ""
    cx, cy = z.centre
    if spot in SUIT_SPOTS:
        c = camera.project([[cx, cy]])[0]
        draw_suit(img, SUIT_SPOTS[spot], c[0], c[1], 22 * scale, colour=None)
        return
    if z.label:
        _print(img, z.label, pts, camera, ink, paste)


def _print(img: np.ndarray, text: str, pts: np.ndarray, camera: Camera, ink, paste) -> None:
    """Print text centred in a zone, along the zone's first edge (so it turns with the seat)."""
    centre = pts.mean(axis=0)
    edge = pts[1] - pts[0]
    if len(pts) > 4:  # a circle has no edge to follow: print it level
        edge = np.array([1.0, 0.0])
    ang = math.atan2(edge[1], edge[0])
    ext = np.linalg.norm(pts - centre, axis=1).min() * 1.6
    sprite = text_sprite(text, ink)
    sh, sw = sprite.shape[:2]
    wmm = min(ext, 9.0 * len(text))
    hmm = wmm * sh / sw
    ux, uy = math.cos(ang), math.sin(ang)
    corners = []
    for dx, dy in ((-wmm / 2, -hmm / 2), (wmm / 2, -hmm / 2), (wmm / 2, hmm / 2), (-wmm / 2, hmm / 2)):
        corners.append([centre[0] + dx * ux - dy * uy, centre[1] + dx * uy + dy * ux])
    paste(img, sprite, camera.project(corners), shadow=False)


def _draw_title(img: np.ndarray, layout: Layout, camera: Camera, ink, paste) -> None:
    dealer_bottom = max(max(y for _, y in z.polygon) for z in layout.zones if z.seat is None)
    y = dealer_bottom + 110
    title = layout.name.split("(")[0].strip().upper()
    sprite = text_sprite(title, ink, 48)
    sh, sw = sprite.shape[:2]
    wmm = min(600.0, 34.0 * len(title))
    hmm = wmm * sh / sw
    x = layout.width_mm / 2
    corners = [[x - wmm / 2, y - hmm / 2], [x + wmm / 2, y - hmm / 2], [x + wmm / 2, y + hmm / 2],
               [x - wmm / 2, y + hmm / 2]]
    paste(img, sprite, camera.project(corners), shadow=False)


def _draw_tray(img: np.ndarray, pts: np.ndarray, camera: Camera) -> None:
    """A chip rack seen from above: tubes of chips, edges showing as coloured stripes (not labelled)."""
    cv2.fillPoly(img, [_poly_px(camera, pts)], (35, 35, 38), AA, shift=4)
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    n = 10
    colours = list(CHIP_COLOURS.values())
    tube = (x1 - x0 - 20) / n
    for i in range(n):
        tx = x0 + 10 + i * tube
        col = colours[(i * 7) % len(colours)] if i % 5 else colours[-(i // 5) - 1]
        shade = tuple(int(c * 0.85) for c in col)
        fill = y0 + 8 + (y1 - y0 - 16) * (0.15 + 0.7 * ((i * 37) % 10) / 10)
        quad = np.array([[tx + 3, y1 - 8], [tx + tube - 3, y1 - 8], [tx + tube - 3, fill], [tx + 3, fill]])
        cv2.fillPoly(img, [_poly_px(camera, quad)], shade, AA, shift=4)
        for yy in np.arange(fill, y1 - 8, 3.4):  # chip edges
            seg = _poly_px(camera, np.array([[tx + 3, yy], [tx + tube - 3, yy]]))
            cv2.line(img, tuple(seg[0]), tuple(seg[1]), tuple(int(c * 0.6) for c in col), 1, AA, shift=4)
