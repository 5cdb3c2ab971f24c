"""The felt SVG and the charts."""

from __future__ import annotations

import re

from dashboards import charts, felt
from pipelines.games.layout import layout_for
from pipelines.games.round import DealtCard, ObservedSettlement, Round, Wager


def _round() -> Round:
    return Round(game="pick-2-poker", table_id="P2-9", round_id="r1", started_at="2025-01-06T20:00:00+00:00",
                 wagers=[Wager(seat=1, spot="ante", amount=25), Wager(seat=1, spot="bonus35", amount=25),
                         Wager(seat=2, spot="ante", amount=10)],
                 cards=[DealtCard(seq=i, owner="seat:1", card=c) for i, c in enumerate(["Ah", "Kd", "Qs", "Jc", "Th"])]
                 + [DealtCard(seq=9, owner="dealer", card=None, face_up=False)],
                 settlements=[ObservedSettlement(seat=1, spot="ante", outcome="win", paid=25)])


def test_felt_draws_every_card_and_wager():
    svg = felt.felt_svg(_round(), layout_for("pick-2-poker"), flagged_spots={(1, "ante")})
    for label in ("A♥", "K♦", "Q♠", "J♣", "10♥"):
        assert label in svg
    assert svg.count('class="card back"') == 1
    assert svg.count('class="chip bet') == 3
    assert svg.count('class="chip paid') == 1
    assert svg.count("flagged") == 2  # the ante wager and its payout


def test_felt_viewbox_is_the_layout_in_mm():
    lay = layout_for("king-high")
    svg = felt.felt_svg(Round(game="king-high", table_id="K", round_id="r", started_at="2025-01-01T00:00:00"), lay)
    assert f'viewBox="0 0 {lay.width_mm:.0f} {lay.height_mm:.0f}"' in svg
    assert svg.count("<polygon") == len(lay.zones)


def test_bar_lengths_are_proportional():
    svg = charts.bar_chart(["a", "b"], {"v": [10.0, 40.0]}, title="t")
    widths = [float(w) for w in re.findall(r'<rect x="[^"]+" y="[^"]+" width="([^"]+)" height', svg)[:2]]
    assert widths[1] == __import__("pytest").approx(4 * widths[0], rel=1e-3)


def test_negative_bars_extend_left_of_zero():
    svg = charts.bar_chart(["loss", "win"], {"v": [-20.0, 20.0]}, title="t")
    xs = [float(x) for x in re.findall(r'<rect x="([^"]+)" y="[^"]+" width', svg)[:2]]
    zero = float(re.search(r'<line x1="([^"]+)"', svg).group(1))
    assert xs[0] < zero and xs[1] == __import__("pytest").approx(zero)
