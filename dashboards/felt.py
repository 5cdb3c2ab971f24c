"""The round drawn on its felt: an inline SVG of the layout's zones, the cards and the chip amounts.

Coordinates are the layout's millimetres (the SVG viewBox), so what a reviewer sees is the table as
the camera's calibration maps it. Wagers with a flag are outlined in red.
"""

from __future__ import annotations

import contextlib
from html import escape

from pipelines.games.layout import Layout, LayoutError, Zone, layout_for
from pipelines.games.round import Round
from pipelines.sim.scene import CARD_H_MM, CARD_W_MM, CHIP_D_MM

SUIT_GLYPH = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
ZONE_FILL = {"bet": "#ffffff22", "paid": "#ffd70018", "cards": "#ffffff10", "card_box": "#ffffff14",
             "tray": "#00000033", "discard": "#00000022", "shoe": "#00000033", "label": "none"}


def _bgr_hex(bgr: tuple[int, int, int]) -> str:
    b, g, r = bgr
    return f"#{r:02x}{g:02x}{b:02x}"


def _money(x: float) -> str:
    return f"{x:,.0f}" if x == int(x) else f"{x:,.2f}"


def layout_or_none(game: str) -> tuple[Layout | None, str]:
    """The game's layout, or None and why (the round page still lists everything in tables)."""
    try:
        return layout_for(game), ""
    except LayoutError as e:
        return None, str(e)


def _card_zone(layout: Layout, owner: str, index: int) -> tuple[Zone | None, int]:
    """The zone a card of `owner` goes in, and its position within that zone (for fanning)."""
    names: list[tuple[str, int]] = []
    if owner == "board":
        names = [(f"board.card{index + 1}", 0), ("board.action", index)]
    elif owner == "dealer":
        names = [(f"dealer.card{index + 1}", 0), ("dealer.cards", index)]
    elif owner.startswith("seat:"):
        seat, _, hand = owner[5:].partition(".")
        if hand:
            names.append((f"seat{seat}.cards.{hand}", index))
        names.append((f"seat{seat}.cards", index))
    elif owner in ("discard", "burn"):
        names = [("dealer.discard", 0)]
    for name, pos in names:
        try:
            return layout.zone(name), pos
        except KeyError:
            continue
    return None, 0


def _card_svg(card: str | None, x: float, y: float, face_up: bool, back: str | None, scale: float) -> str:
    w, h = CARD_W_MM * scale, CARD_H_MM * scale
    rect = f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="3"'
    if not card or not face_up:
        colour = {"blue": "#1f4e9c"}.get(back or "", "#9c1f1f")
        label = escape(card) if card else "?"
        return (f'{rect} fill="{colour}" stroke="#fff" stroke-width="1.5" class="card back"/>'
                f'<text x="{x:.1f}" y="{y + 5:.1f}" class="card-text" fill="#fff">{label}</text>')
    colour = "#c0102a" if card[1] in "hd" else "#111"
    rank = "10" if card[0] == "T" else card[0]
    return (f'{rect} fill="#fdfdf8" stroke="#333" stroke-width="1" class="card"/>'
            f'<text x="{x:.1f}" y="{y + 6:.1f}" class="card-text" fill="{colour}">'
            f"{rank}{SUIT_GLYPH.get(card[1], card[1])}</text>")


def _chip_svg(zone: Zone, amount: float, kind: str, flagged: bool, shift: float = 0.0) -> str:
    """A chip stack with its amount; `shift` (mm) fans several wagers on one spot (action rounds, splits)."""
    x, y = zone.centre
    x, y = x + shift, y - shift
    r = CHIP_D_MM / 2
    fill = {"bet": "#2c7be5", "paid": "#d4a017"}.get(kind, "#888")
    ring = (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r + 9}" fill="none" stroke="#ff2d2d" stroke-width="7" '
            'class="flag-ring"/>' if flagged else "")
    return (f'<g class="chip {kind}{" flagged" if flagged else ""}">{ring}<circle cx="{x:.1f}" cy="{y:.1f}" '
            f'r="{r}" fill="{fill}" stroke="#fff" stroke-width="2" stroke-dasharray="6 3"/>'
            f'<text x="{x:.1f}" y="{y + 5:.1f}" class="chip-text">{_money(amount)}</text></g>')


def _seat_numbers(layout: Layout) -> list[str]:
    """'Seat N' beyond each seat's zones, on the line from the dealer (top centre) through them."""
    out = []
    dealer = (layout.width_mm / 2, 0.0)
    for seat in layout.seats:
        pts = [p for z in layout.zones if z.seat == seat for p in z.polygon]
        if not pts:
            continue
        cx, cy = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
        reach = max(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 for x, y in pts)
        dx, dy = cx - dealer[0], cy - dealer[1]
        norm = (dx * dx + dy * dy) ** 0.5 or 1.0
        x = min(max(cx + dx / norm * (reach + 30), 30), layout.width_mm - 30)
        y = min(max(cy + dy / norm * (reach + 30), 30), layout.height_mm - 12)
        out.append(f'<text x="{x:.1f}" y="{y:.1f}" class="seat-no">seat {seat}</text>')
    return out


def felt_svg(rnd: Round, layout: Layout, flagged_spots: set[tuple[int, str]] | None = None) -> str:
    """Inline SVG of the round on its layout; `flagged_spots` are (seat, spot) to outline."""
    flagged_spots = flagged_spots or set()
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {layout.width_mm:.0f} {layout.height_mm:.0f}" '
        f'class="felt" role="img" aria-label="{escape(layout.name)} with this round\'s cards and wagers">',
        f'<rect width="100%" height="100%" rx="40" fill="{_bgr_hex(layout.felt_colour)}"/>',
    ]
    for z in layout.zones:
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in z.polygon)
        parts.append(f'<polygon points="{pts}" fill="{ZONE_FILL.get(z.kind, "none")}" '
                     f'stroke="#ffffff55" stroke-width="1.5" class="zone {z.kind}"><title>{escape(z.name)}</title>'
                     "</polygon>")
        if z.label:
            cx, cy = z.centre
            small = " small" if z.kind in ("bet", "paid") else ""
            parts.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" class="zone-label{small}">{escape(z.label)}</text>')
    parts.extend(_seat_numbers(layout))
    # Chips: wagers as locked, and payouts observed beside them.
    for w in rnd.wagers:
        name = f"seat{w.seat}.{w.spot}"
        for candidate in (f"{name}.{w.hand}", name) if w.hand else (name,):
            try:
                shift = 9.0 * (w.hand - 1) if w.hand and candidate == name else 0.0
                parts.append(_chip_svg(layout.zone(candidate), w.amount, "bet", (w.seat, w.spot) in flagged_spots,
                                       shift))
                break
            except KeyError:
                continue
    for s in rnd.settlements:
        if s.paid > 0:
            with contextlib.suppress(KeyError):  # a spot without a payout zone: the table lists it
                parts.append(_chip_svg(layout.zone(f"seat{s.seat}.{s.spot}.paid"), s.paid, "paid",
                                       (s.seat, s.spot) in flagged_spots))
    # Cards, fanned within their zone so every index shows.
    per_owner: dict[str, int] = {}
    for c in sorted(rnd.cards, key=lambda c: c.seq):
        i = per_owner.get(c.owner, 0)
        per_owner[c.owner] = i + 1
        zone, pos = _card_zone(layout, c.owner, i)
        if zone is None:
            continue
        xs = [x for x, _ in zone.polygon]
        ys = [y for _, y in zone.polygon]
        scale = min(1.0, (max(ys) - min(ys)) / CARD_H_MM) if zone.kind == "cards" else 1.0
        cx, cy = zone.centre
        x = min(xs) + CARD_W_MM * scale / 2 + pos * CARD_W_MM * scale * 0.45 if zone.kind == "cards" else cx
        parts.append(_card_svg(c.card, x, cy, c.face_up, c.back, scale))
    parts.append("</svg>")
    return "".join(parts)
