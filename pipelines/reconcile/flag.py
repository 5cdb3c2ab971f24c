"""The flag: one thing that went wrong in one round, with the evidence and the rule it breaks."""

from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pipelines.games.round import FrameRange

FlagType = Literal[
    "past_post", "pinch", "payout_error", "missed_collection", "misdeal", "procedure", "void_handling"
]
FLAG_TYPES: tuple[str, ...] = (
    "past_post", "pinch", "payout_error", "missed_collection", "misdeal", "procedure", "void_handling"
)
Severity = Literal["low", "medium", "high", "critical"]
SEVERITIES: tuple[str, ...] = ("low", "medium", "high", "critical")


def flag_id_for(round_id: str, type_: str, seat: int | None, spot: str | None, hand: int | None) -> str:
    """Deterministic id, so replaying a round raises the same flag rather than a second one."""
    key = f"{round_id}|{type_}|{'' if seat is None else seat}|{spot or ''}|{hand or 0}"
    return hashlib.sha1(key.encode()).hexdigest()[:16]


class Flag(BaseModel):
    model_config = ConfigDict(extra="forbid")
    flag_id: str
    type: FlagType
    kind: Literal["hard", "review"] = Field(
        "hard", description="review: the observation behind it was uncertain; a person must look first"
    )
    table_id: str
    round_id: str
    game: str
    started_at: str | None = Field(None, description="when the round began, for newest-first listings")
    seat: int | None = None
    spot: str | None = Field(None, description="the wager spot, or for round-level flags what was checked")
    hand: int = 0
    severity: Severity
    amount: float = Field(0.0, description="amount at stake")
    expected: float | None = None
    observed: float | None = None
    frames: FrameRange | None = None
    snapshots: list[str] = Field(default_factory=list)
    rule: str = Field(description="the manual's section, quoted by name")
    detail: str = ""
    uncertain: bool = False

    @classmethod
    def build(cls, **fields: object) -> Flag:
        """A flag with its id derived from its identity fields and `kind` from `uncertain`."""
        fields["flag_id"] = flag_id_for(
            str(fields["round_id"]), str(fields["type"]), fields.get("seat"),  # type: ignore[arg-type]
            fields.get("spot"), fields.get("hand") or 0,  # type: ignore[arg-type]
        )
        fields["kind"] = "review" if fields.get("uncertain") else "hard"
        return cls.model_validate(fields)
