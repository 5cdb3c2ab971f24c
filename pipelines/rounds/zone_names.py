"""Zone names -> what they mean (layout.py's naming contract): seat, spot, card area."""

from __future__ import annotations

import re
from dataclasses import dataclass

_SEAT = re.compile(r"^seat(\d+)\.(.+)$")


@dataclass(frozen=True)
class ZoneRef:
    name: str
    area: str  # "bet" | "paid" | "cards" | "dealer" | "board" | "other"
    seat: int | None = None
    spot: str | None = None  # bet / paid: the wager spot as named on the layout (suit_h, main, ...)
    sub: str | None = None  # cards: split hand "1"/"2"; dealer/board: "cards", "card2", "action", ...


def parse_zone(name: str) -> ZoneRef:
    m = _SEAT.match(name)
    if m:
        seat, rest = int(m.group(1)), m.group(2)
        if rest == "cards" or rest.startswith("cards."):
            return ZoneRef(name, "cards", seat, sub=rest[6:] or None)
        if rest.endswith(".paid"):
            return ZoneRef(name, "paid", seat, spot=rest[:-5])
        return ZoneRef(name, "bet", seat, spot=rest)
    head, _, rest = name.partition(".")
    if head == "dealer":
        return ZoneRef(name, "dealer", sub=rest)
    if head == "board":
        return ZoneRef(name, "board", sub=rest)
    return ZoneRef(name, "other", sub=rest)
