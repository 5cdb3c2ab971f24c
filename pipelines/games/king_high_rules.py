"""King High rules shared by settlement and odds: spots, settings, card classes, pokerpot levels.

Manual: seeds/000_67516621c67563b3.txt; decisions: RULES.md "King High".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .cards import RANK_VALUE, SUITS
from .paytables import Paytable, PaytableError, paytable
from .poker import Hand5, category_name, evaluate5
from .settlement import TableLimits

GAME = "king-high"
SPOTS: tuple[str, ...] = ("pokerpot", "high_run", "low_run", "high", "low", "suit", "seven")
ROUND_SPOTS: tuple[str, ...] = ("pokerpot", "high_run", "low_run")
ACTION_SPOTS: tuple[str, ...] = ("high", "low", "suit", "seven")
RUN_SPOTS: tuple[str, ...] = ("high_run", "low_run")
CARDS_PER_ROUND = 5

# Citations for Settlement.rule.
RULE_PAYOUT = "King High manual §8 Payout Odds"
RULE_VOID = "King High manual §12 Irregularities"
RULE_POKERPOT_CAP = "King High manual §3 Physical Characteristics (maximum player payout for pokerpot)"

# The lines each bundled or custom paytable must hold, so every outcome has a price.
REQUIRED_LINES: dict[str, tuple[str, ...]] = {
    "high": ("king", "eight_to_queen"),
    "low": ("ace", "two_to_six"),
    "suit": ("suit", "seven_of_suit"),
    "seven": ("any_7",),
    "high_run": ("run_5", "run_4", "run_3"),
    "low_run": ("run_5", "run_4", "run_3"),
    "pokerpot": (
        "royal_flush", "straight_flush", "five_of_a_kind", "four_of_a_kind", "full_house",
        "flush", "straight", "three_of_a_kind", "two_pair", "qualifying_pair",
    ),
}


class KingHighError(ValueError):
    """A King High round or setting that cannot be settled as given."""


class PaytableNames(BaseModel):
    """Which bundled paytable (`paytables/king-high/<wager>.<name>.json`) each wager uses."""

    model_config = ConfigDict(extra="forbid")
    high: str = "standard"
    low: str = "standard"
    suit: str = "standard"
    seven: str = "standard"
    high_run: str = "standard"
    low_run: str = "standard"
    pokerpot: str = "standard"


class Settings(BaseModel):
    """King High table settings; defaults follow RULES.md "King High"."""

    model_config = ConfigDict(extra="forbid")
    decks: int = Field(6, ge=1, le=8, description="the manual plays 6; paytables are for 6 decks")
    pokerpot_min_pair: Literal["J", "T"] = Field(
        "J", description='lowest qualifying pair: manual text says jacks ("J"), its paytable tens ("T")'
    )
    shuffler: Literal["mechanical", "manual"] = Field(
        "mechanical", description="mechanical: no burns, cards return each round; manual: 2 burns per card"
    )
    pokerpot_max_payout_per_player: float | None = Field(
        None, gt=0, description="cap on one box's pokerpot payout, as posted on the table signage"
    )
    limits: TableLimits = Field(
        default_factory=lambda: TableLimits(default=(1.0, 500.0)),
        description="per-spot (min, max); the manual's example minimum is $1",
    )
    paytables: PaytableNames = Field(default_factory=PaytableNames)

    @model_validator(mode="after")
    def _paytables_exist_and_complete(self) -> Settings:
        for wager in REQUIRED_LINES:
            table_of(self, wager)  # raises with the file and the missing line
        return self


def table_of(settings: Settings, wager: str) -> Paytable:
    """The paytable a wager uses under these settings, checked to hold every line King High needs."""
    name = getattr(settings.paytables, wager)
    try:
        table = paytable(GAME, wager, name)
    except PaytableError as e:
        raise PaytableError(f"King High settings field paytables.{wager}: {name!r}: {e}") from None
    missing = [line for line in REQUIRED_LINES[wager] if table.pays(line) is None]
    if missing:
        raise PaytableError(
            f"paytables/{GAME}/{wager}.{name}.json: field lines: missing {', '.join(missing)}"
        )
    return table


def pays(settings: Settings, wager: str, line: str) -> float:
    value = table_of(settings, wager).pays(line)
    assert value is not None  # table_of checked every required line
    return value


# --- single-card classes (the manual: ace is low, king highest, seven the middle card) ---

def king_high_rank(card: str) -> int:
    """1 (ace) .. 13 (king): King High's order, ace low."""
    value = RANK_VALUE[card[0]]
    return 1 if value == 14 else value


def is_high(card: str) -> bool:
    return 8 <= king_high_rank(card) <= 13


def is_low(card: str) -> bool:
    return 1 <= king_high_rank(card) <= 6


def is_seven(card: str) -> bool:
    return king_high_rank(card) == 7


def parse_suit_choice(choice: str | None) -> str | None:
    """"h", "H", "hearts", "♥" -> "h"; None if it names no suit."""
    if choice is None:
        return None
    text = choice.strip().lower()
    symbols = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
    text = symbols.get(text, text)
    if text in SUITS:
        return text
    names = {"club": "c", "clubs": "c", "diamond": "d", "diamonds": "d",
             "heart": "h", "hearts": "h", "spade": "s", "spades": "s"}
    return names.get(text)


# --- pokerpot ---

def min_pair_value(settings: Settings) -> int:
    return RANK_VALUE[settings.pokerpot_min_pair]


def pokerpot_line(cards: Sequence[str], settings: Settings) -> str | None:
    """The pokerpot paytable line five cards make (their single highest category), or None.

    Categories come from poker.evaluate5: five of a kind exists, a one-suit hand holding pairs or trips
    is a flush, aces play high or low in straights; a pair qualifies from `pokerpot_min_pair` up."""
    ev = evaluate5(cards)
    if ev[0] == Hand5.HIGH_CARD:
        return None
    if ev[0] == Hand5.PAIR:
        return "qualifying_pair" if ev[1] >= min_pair_value(settings) else None
    return category_name(ev)


def pokerpot_level_made(cards: Sequence[str], settings: Settings) -> str | None:
    """The pokerpot line already made by fewer than five exposed cards (a void round), or None.

    Only rank groups can be complete before the fifth card: straights, flushes and full houses need
    five cards. Aces count high, so a pair of aces qualifies."""
    if len(cards) == CARDS_PER_ROUND:
        return pokerpot_line(cards, settings)
    counts = Counter(RANK_VALUE[c[0]] for c in cards)
    groups = [*sorted(counts.values(), reverse=True), 0, 0]
    if groups[0] >= 4:
        return "four_of_a_kind"
    if groups[0] == 3:
        return "three_of_a_kind"
    if groups[0] == 2 and groups[1] == 2:
        return "two_pair"
    if groups[0] == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        return "qualifying_pair" if pair >= min_pair_value(settings) else None
    return None
