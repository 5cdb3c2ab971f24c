"""Small server-side charts as inline SVG (no scripts, no CDN, cheap enough for every page load)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape


def bar_chart(labels: Sequence[str], series: dict[str, Sequence[float]], *, title: str, unit: str = "",
              width: int = 640, bar_h: int = 16) -> str:
    """Horizontal grouped bars: one group per label, one bar per series. Negative values draw leftwards."""
    colours = ["#2c7be5", "#e5a82c", "#2ca58d", "#c0392b"]
    names = list(series)
    values = [v for vs in series.values() for v in vs] or [0.0]
    lo, hi = min(0.0, *values), max(0.0, *values)
    span = (hi - lo) or 1.0
    label_w, pad = 150, 8
    plot_w = width - label_w - 70
    group_h = bar_h * len(names) + pad
    height = 40 + group_h * len(labels) + 20 * ((len(names) + 2) // 3)
    zero_x = label_w + plot_w * (-lo / span)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="chart" role="img" '
           f'aria-label="{escape(title)}"><text x="4" y="16" class="chart-title">{escape(title)}</text>']
    for gi, label in enumerate(labels):
        y0 = 28 + gi * group_h
        out.append(f'<text x="{label_w - 6}" y="{y0 + group_h / 2 + 2:.0f}" text-anchor="end" '
                   f'class="chart-label">{escape(str(label))}</text>')
        for si, name in enumerate(names):
            v = float(series[name][gi])
            x = zero_x if v >= 0 else zero_x - plot_w * (-v / span)
            w = plot_w * abs(v) / span
            y = y0 + si * bar_h
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{max(w, 0.5):.1f}" height="{bar_h - 3}" '
                       f'fill="{colours[si % len(colours)]}"><title>{escape(name)} {v:,.2f}{unit}</title></rect>'
                       f'<text x="{max(x + w, zero_x) + 4:.1f}" y="{y + bar_h - 5}" class="chart-value">'
                       f"{v:,.1f}{escape(unit)}</text>")
    out.append(f'<line x1="{zero_x:.1f}" x2="{zero_x:.1f}" y1="24" y2="{28 + group_h * len(labels)}" '
               'stroke="#666"/>')
    ly = 28 + group_h * len(labels) + 14
    for si, name in enumerate(names):
        lx = label_w + (si % 3) * 160
        yy = ly + (si // 3) * 18
        out.append(f'<rect x="{lx}" y="{yy - 10}" width="12" height="12" fill="{colours[si % len(colours)]}"/>'
                   f'<text x="{lx + 16}" y="{yy}" class="chart-label">{escape(name)}</text>')
    out.append("</svg>")
    return "".join(out)


def line_chart(xs: Sequence[str], ys: Sequence[float], *, title: str, unit: str = "", width: int = 640,
               height: int = 200) -> str:
    """A single series over ordered categories (days, hours)."""
    left, right, top, bottom = 50, 10, 26, 30
    pw, ph = width - left - right, height - top - bottom
    lo, hi = min(0.0, *ys) if ys else 0.0, max(0.0, *ys) if ys else 1.0
    span = (hi - lo) or 1.0
    n = max(len(xs) - 1, 1)
    pts = [(left + pw * i / n, top + ph * (1 - (y - lo) / span)) for i, y in enumerate(ys)]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="chart" role="img" '
           f'aria-label="{escape(title)}"><text x="4" y="16" class="chart-title">{escape(title)}</text>',
           f'<line x1="{left}" x2="{width - right}" y1="{top + ph * hi / span:.1f}" y2="{top + ph * hi / span:.1f}" '
           'stroke="#999"/>',
           f'<text x="{left - 4}" y="{top + 4}" text-anchor="end" class="chart-value">{hi:,.0f}{escape(unit)}</text>',
           f'<text x="{left - 4}" y="{top + ph}" text-anchor="end" class="chart-value">{lo:,.0f}{escape(unit)}</text>']
    if pts:
        out.append('<polyline fill="none" stroke="#2c7be5" stroke-width="2" points="'
                   + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + '"/>')
    step = max(1, len(xs) // 8)
    for i in range(0, len(xs), step):
        out.append(f'<text x="{pts[i][0]:.1f}" y="{height - 10}" text-anchor="middle" class="chart-label">'
                   f"{escape(str(xs[i]))}</text>")
    out.append("</svg>")
    return "".join(out)
