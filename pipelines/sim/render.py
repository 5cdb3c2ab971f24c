"""Renders a Scene on a layout through a Camera: one BGR frame plus detector labels.

Composition per frame: the session's cached felt (render_felt), then each card warped into place by
the camera homography, then chip stacks, then the dealer's hands and sleeves; last the camera's
imperfections (lighting gradient, brightness, blur, sensor noise, JPEG compression). Objects are small
warped patches pasted into the frame (`paste`), never full-frame warps, so a frame costs milliseconds.

Chip stacks are drawn *spread* so that every chip shows: chip i (bottom first) is offset from the
previous one by 40 % of a chip diameter (`SPREAD_FRACTION`) along `SPREAD_DIR`, in rows of
`CHIPS_PER_ROW`, each new row one diameter further along the perpendicular; the spread is centred on
the stack's (x, y). `chip_positions` gives those centres for anyone who needs them.

Labels: (class, x1, y1, x2, y2) in pixels, the full projected extent of each object clipped to the
frame, for every card face (its card), back ("back_red"/"back_blue") and chip ("chip_25"), one per
chip. An object whose footprint is more than `HIDDEN_LIMIT` (60 %) covered, by anything drawn after
it (cards by later cards and chips, chips by later stacks, everything by hands) or outside the frame,
is left out. Chips of one stack do not count as covering each other: the spread shows each one.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from pipelines.games.layout import Layout

from .assets import BASE_PX_PER_MM, sprite_at
from .camera import Camera
from .classes import back_class, chip_class
from .scene import CARD_H_MM, CARD_W_MM, CHIP_D_MM, ChipStack, Occluder, PlacedCard, Scene

SPREAD_FRACTION = 0.4
CHIPS_PER_ROW = 5
SPREAD_DIR = (math.cos(math.radians(-35)), math.sin(math.radians(-35)))  # towards the dealer, rightwards
HIDDEN_LIMIT = 0.6
SHOULDER_Y_MM = -350.0  # the dealer's shoulders, beyond the straight edge
_CIRCLE = np.stack([np.cos(np.linspace(0, 2 * np.pi, 16, endpoint=False)),
                    np.sin(np.linspace(0, 2 * np.pi, 16, endpoint=False))], 1)
_GRID = np.stack(np.meshgrid(np.linspace(-0.42, 0.42, 6), np.linspace(-0.42, 0.42, 6)), -1).reshape(-1, 2)


class Label(NamedTuple):
    cls: str
    x1: float
    y1: float
    x2: float
    y2: float


def chip_positions(stack: ChipStack) -> list[tuple[float, float]]:
    """Centres (mm) of the stack's chips, bottom first, as the renderer spreads them."""
    n = len(stack.chips)
    step = SPREAD_FRACTION * CHIP_D_MM
    ux, uy = SPREAD_DIR
    vx, vy = -uy, ux
    rows = (n + CHIPS_PER_ROW - 1) // CHIPS_PER_ROW
    out = []
    for i in range(n):
        row, col = divmod(i, CHIPS_PER_ROW)
        in_row = min(CHIPS_PER_ROW, n - row * CHIPS_PER_ROW)
        a = (col - (in_row - 1) / 2) * step
        b = (row - (rows - 1) / 2) * CHIP_D_MM * 1.05
        out.append((stack.x + a * ux + b * vx, stack.y + a * uy + b * vy))
    return out


# ---------------------------------------------------------------------------------------------- paste


def paste(frame: np.ndarray, sprite: np.ndarray, quad_px: np.ndarray, shadow: bool = True) -> None:
    """Warp a BGRA sprite onto the quad (TL, TR, BR, BL of the sprite) and alpha-blend it in place."""
    fh, fw = frame.shape[:2]
    q = np.asarray(quad_px, dtype=np.float32)
    x0, y0 = np.floor(q.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 3
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, fw), min(y1, fh)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    sh, sw = sprite.shape[:2]
    src = np.float32([[0, 0], [sw, 0], [sw, sh], [0, sh]])
    M = cv2.getPerspectiveTransform(src, q - np.float32([cx0, cy0]))
    size = (cx1 - cx0, cy1 - cy0)
    warped = cv2.warpPerspective(sprite, M, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    roi = frame[cy0:cy1, cx0:cx1]
    a = warped[:, :, 3:4].astype(np.float32) * (1.0 / 255.0)
    out = roi.astype(np.float32)
    if shadow:
        s = np.zeros_like(a)
        s[2:, 2:] = a[:-2, :-2]
        out *= 1.0 - 0.45 * s
    out += (warped[:, :, :3].astype(np.float32) - out) * a
    roi[:] = out.astype(np.uint8)


# ---------------------------------------------------------------------------------------------- session


@dataclass
class _Session:
    felt: np.ndarray
    gain: np.ndarray  # uint8, 128 = 1.0: lighting gradient and white balance
    noise: list[tuple[np.ndarray, np.ndarray]]  # (add, subtract) uint8 pairs
    sprite_scale: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]


_SESSIONS: OrderedDict[tuple, _Session] = OrderedDict()


def _session(layout: Layout, camera: Camera) -> _Session:
    key = (layout.game, layout.name, camera.seed, camera.size, camera.H.tobytes())
    if key in _SESSIONS:
        _SESSIONS.move_to_end(key)
        return _SESSIONS[key]
    from .render_felt import draw_felt

    rng = np.random.default_rng([camera.seed, 7])
    felt = draw_felt(layout, camera, rng)
    w, h = camera.size
    # light falls off away from a spot somewhere over the table; a slight colour cast per session
    lx, ly = rng.uniform(0.3, 0.7) * w, rng.uniform(0.2, 0.6) * h
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.sqrt(((xx - lx) / w) ** 2 + ((yy - ly) / h) ** 2)
    fall = 1.08 - rng.uniform(0.25, 0.45) * d
    cast = 1.0 + rng.normal(0, 0.03, size=3)
    gain = np.clip(fall[:, :, None] * cast * 128, 0, 255).astype(np.uint8)
    sigma = rng.uniform(1.5, 4.0)
    noise = []
    for _ in range(3):
        n = rng.normal(0, sigma, size=(h, w, 3))
        noise.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
    centre_scale = camera.px_per_mm(layout.width_mm / 2, layout.height_mm / 2)
    sprite_scale = min(BASE_PX_PER_MM, round(centre_scale * 1.3 * 20) / 20)
    skins = [(140, 170, 225), (110, 140, 195), (80, 110, 160), (60, 80, 120), (150, 180, 230)]
    skin = skins[int(rng.integers(len(skins)))]
    sleeve = [(235, 235, 235), (30, 30, 30), (60, 35, 110)][int(rng.integers(3))]
    s = _Session(felt, gain, noise, sprite_scale, skin, sleeve)
    _SESSIONS[key] = s
    while len(_SESSIONS) > 6:
        _SESSIONS.popitem(last=False)
    return s


# ---------------------------------------------------------------------------------------------- geometry


def _card_corners(c: PlacedCard) -> np.ndarray:
    a = math.radians(c.angle)
    ca, sa = math.cos(a), math.sin(a)
    hw, hh = CARD_W_MM / 2, CARD_H_MM / 2
    local = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
    return np.stack([c.x + local[:, 0] * ca - local[:, 1] * sa, c.y + local[:, 0] * sa + local[:, 1] * ca], 1)


def _chip_corners(x: float, y: float, angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    r = CHIP_D_MM / 2
    local = np.array([[-r, -r], [r, -r], [r, r], [-r, r]])
    return np.stack([x + local[:, 0] * ca - local[:, 1] * sa, y + local[:, 0] * sa + local[:, 1] * ca], 1)


@dataclass
class _Object:
    cls: str
    corners: np.ndarray  # mm, TL TR BR BL of the sprite
    samples: np.ndarray  # mm points over the footprint, for the hidden fraction
    centre: np.ndarray
    radius: float  # bounding radius, mm
    kind: str  # card | chip
    stack: int = -1
    angle: float = 0.0


def _objects(scene: Scene) -> list[_Object]:
    objs = []
    for c in scene.cards:
        cls = c.card if (c.face_up and c.card) else back_class(c.back)
        corners = _card_corners(c)
        a = math.radians(c.angle)
        ca, sa = math.cos(a), math.sin(a)
        lx, ly = _GRID[:, 0] * CARD_W_MM, _GRID[:, 1] * CARD_H_MM
        samples = np.stack([c.x + lx * ca - ly * sa, c.y + lx * sa + ly * ca], 1)
        objs.append(_Object(cls, corners, samples, np.array([c.x, c.y]), math.hypot(CARD_W_MM, CARD_H_MM) / 2, "card",
                            angle=c.angle))
    for si, st in enumerate(scene.chips):
        for i, ((x, y), d) in enumerate(zip(chip_positions(st), st.chips, strict=True)):
            rot = (37 * i + 11 * d + 53 * si) % 360  # fixed per chip: no flicker between frames
            r = CHIP_D_MM / 2
            samples = np.stack([x + _GRID[:, 0] * 2 * r, y + _GRID[:, 1] * 2 * r], 1)
            samples = samples[np.hypot(samples[:, 0] - x, samples[:, 1] - y) <= r]
            objs.append(_Object(chip_class(d), _chip_corners(x, y, rot), samples, np.array([x, y]), r, "chip", si))
    return objs


def _inside(o: _Object, pts: np.ndarray) -> np.ndarray:
    if o.kind == "chip":
        return np.hypot(pts[:, 0] - o.centre[0], pts[:, 1] - o.centre[1]) <= CHIP_D_MM / 2
    a = math.radians(o.angle)
    dx, dy = pts[:, 0] - o.centre[0], pts[:, 1] - o.centre[1]
    u = dx * math.cos(a) + dy * math.sin(a)
    v = -dx * math.sin(a) + dy * math.cos(a)
    return (np.abs(u) <= CARD_W_MM / 2) & (np.abs(v) <= CARD_H_MM / 2)


def _arm(oc: Occluder, layout: Layout) -> tuple[np.ndarray, np.ndarray, float]:
    """The sleeve: from the wrist (the hand's dealer-side end) to the dealer's nearer shoulder."""
    sx = layout.width_mm / 2 + (-260.0 if oc.x < layout.width_mm / 2 else 260.0)
    shoulder = np.array([sx, SHOULDER_Y_MM])
    hand = np.array([oc.x, oc.y])
    d = hand - shoulder
    d /= max(np.linalg.norm(d), 1e-6)
    wrist = hand - d * max(oc.rx, oc.ry) * 0.7
    return wrist, shoulder, max(oc.rx, oc.ry) * 0.55


def _in_occluder(oc: Occluder, layout: Layout, pts: np.ndarray) -> np.ndarray:
    a = math.radians(oc.angle)
    dx, dy = pts[:, 0] - oc.x, pts[:, 1] - oc.y
    u = dx * math.cos(a) + dy * math.sin(a)
    v = -dx * math.sin(a) + dy * math.cos(a)
    in_hand = (u / oc.rx) ** 2 + (v / oc.ry) ** 2 <= 1.0
    wrist, shoulder, half = _arm(oc, layout)
    seg = shoulder - wrist
    t = np.clip(((pts - wrist) @ seg) / (seg @ seg), 0.0, 1.0)
    dist = np.linalg.norm(pts - (wrist + t[:, None] * seg), axis=1)
    return in_hand | (dist <= half)


def _hidden(objs: list[_Object], scene: Scene, layout: Layout, camera: Camera) -> list[float]:
    centres = np.array([o.centre for o in objs]) if objs else np.zeros((0, 2))
    radii = np.array([o.radius for o in objs])
    w, h = camera.size
    out = []
    for k, o in enumerate(objs):
        pts = o.samples
        px = camera.project(pts)
        covered = (px[:, 0] < 0) | (px[:, 1] < 0) | (px[:, 0] >= w) | (px[:, 1] >= h)
        if k + 1 < len(objs):
            near = np.hypot(*(centres[k + 1:] - o.centre).T) < radii[k + 1:] + o.radius
            for j in np.nonzero(near)[0] + k + 1:
                other = objs[j]
                if o.kind == "chip" and other.kind == "chip" and other.stack == o.stack:
                    continue
                covered |= _inside(other, pts)
        for oc in scene.occluders:
            covered |= _in_occluder(oc, layout, pts)
        out.append(float(covered.mean()) if len(covered) else 1.0)
    return out


# ---------------------------------------------------------------------------------------------- drawing


def _ellipse_mm(x: float, y: float, rx: float, ry: float, angle: float, n: int = 36) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    a = math.radians(angle)
    ex, ey = rx * np.cos(t), ry * np.sin(t)
    return np.stack([x + ex * math.cos(a) - ey * math.sin(a), y + ex * math.sin(a) + ey * math.cos(a)], 1)


def _draw_occluder(frame: np.ndarray, oc: Occluder, layout: Layout, camera: Camera, s: _Session) -> None:
    wrist, shoulder, half = _arm(oc, layout)
    d = shoulder - wrist
    n = np.array([-d[1], d[0]]) / max(np.linalg.norm(d), 1e-6)
    sleeve = np.array([wrist + n * half, shoulder + n * half * 1.3, shoulder - n * half * 1.3, wrist - n * half])
    shift = 16

    def px(p: np.ndarray) -> np.ndarray:
        return np.round(camera.project(p) * shift).astype(np.int32)

    # shadow of the arm on the felt, then the forearm (skin) and sleeve cuff, then the hand
    shadow = np.zeros(frame.shape[:2], np.uint8)
    off = np.array([18.0, 14.0])
    cv2.fillPoly(shadow, [px(sleeve + off), px(_ellipse_mm(oc.x + off[0], oc.y + off[1], oc.rx, oc.ry,
                                                          oc.angle))], 255, cv2.LINE_AA, shift=4)
    x, y, w, h = cv2.boundingRect(cv2.findNonZero(shadow)) if shadow.any() else (0, 0, 0, 0)
    if w and h:
        sm = cv2.GaussianBlur(shadow[y:y + h, x:x + w], (0, 0), 4).astype(np.float32)[:, :, None] / 255.0
        frame[y:y + h, x:x + w] = (frame[y:y + h, x:x + w] * (1.0 - 0.35 * sm)).astype(np.uint8)
    cuff = wrist + (shoulder - wrist) * 0.18
    forearm = np.array([wrist + n * half * 0.8, cuff + n * half * 0.9, cuff - n * half * 0.9,
                        wrist - n * half * 0.8])
    cv2.fillPoly(frame, [px(sleeve)], s.sleeve, cv2.LINE_AA, shift=4)
    cv2.fillPoly(frame, [px(forearm)], s.skin, cv2.LINE_AA, shift=4)
    cv2.fillPoly(frame, [px(_ellipse_mm(oc.x, oc.y, oc.rx, oc.ry, oc.angle))], s.skin, cv2.LINE_AA, shift=4)
    light = tuple(min(255, int(c * 1.12)) for c in s.skin)
    cv2.fillPoly(frame, [px(_ellipse_mm(oc.x - oc.rx * 0.15, oc.y - oc.ry * 0.1, oc.rx * 0.6, oc.ry * 0.6,
                                        oc.angle))], light, cv2.LINE_AA, shift=4)
    dark = tuple(int(c * 0.8) for c in s.skin)
    cv2.polylines(frame, [px(_ellipse_mm(oc.x, oc.y, oc.rx, oc.ry, oc.angle))], True, dark, 1, cv2.LINE_AA,
                  shift=4)


def _finish(frame: np.ndarray, s: _Session, rng: np.random.Generator) -> np.ndarray:
    """Camera imperfections: lighting, brightness, blur, sensor noise, compression."""
    brightness = rng.uniform(0.92, 1.06)
    frame = cv2.multiply(frame, s.gain, scale=brightness / 128.0)
    sigma = rng.uniform(0.3, 0.9)
    frame = cv2.GaussianBlur(frame, (3, 3), sigma)
    add, sub = s.noise[int(rng.integers(len(s.noise)))]
    frame = cv2.subtract(cv2.add(frame, add), sub)
    quality = int(rng.integers(60, 93))
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else frame


def _labelled(objs: list[_Object], hidden: list[float], camera: Camera) -> list[tuple[Label, float]]:
    """The label of every object that shows (at most `HIDDEN_LIMIT` covered, inside the frame), with the
    share of it that is covered."""
    w, h = camera.size
    out = []
    for o, frac in zip(objs, hidden, strict=True):
        if frac > HIDDEN_LIMIT:
            continue
        outline = o.corners if o.kind == "card" else o.centre + _CIRCLE * (CHIP_D_MM / 2)
        p = camera.project(outline)
        lo, hi = p.min(axis=0), p.max(axis=0)
        x1, y1 = max(0.0, float(lo[0])), max(0.0, float(lo[1]))
        x2, y2 = min(float(w), float(hi[0])), min(float(h), float(hi[1]))
        if x2 > x1 and y2 > y1:
            out.append((Label(o.cls, round(x1, 1), round(y1, 1), round(x2, 1), round(y2, 1)), frac))
    return out


def covered_fractions(layout: Layout, scene: Scene, camera: Camera) -> list[float]:
    """For each label `render` gives for this scene, in the same order, the share of the object that is
    covered (by the dealer's hand or arm, objects drawn after it, or the frame's edge): what tells a clear
    card from a hard one in the benchmarks."""
    objs = _objects(scene)
    return [frac for _, frac in _labelled(objs, _hidden(objs, scene, layout, camera), camera)]


def render(
    layout: Layout, scene: Scene, camera: Camera, rng: np.random.Generator, effects: bool = True
) -> tuple[np.ndarray, list[Label]]:
    """Draw one frame (BGR uint8, camera.size) and its labels. `effects=False` skips the camera noise."""
    s = _session(layout, camera)
    frame = s.felt.copy()
    objs = _objects(scene)
    for o in objs:
        paste(frame, sprite_at(o.cls, s.sprite_scale), camera.project(o.corners), shadow=True)
    for oc in scene.occluders:
        _draw_occluder(frame, oc, layout, camera, s)
    labels = [lb for lb, _ in _labelled(objs, _hidden(objs, scene, layout, camera), camera)]
    if effects:
        frame = _finish(frame, s, rng)
    return frame, labels

