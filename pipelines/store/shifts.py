"""Shift boundaries: configurable, default day 06-14, swing 14-22, grave 22-06.

A shift that wraps midnight belongs to the date it starts on (grave of 1 March runs to 06:00 on 2 March)."""

from __future__ import annotations

from datetime import time

from pydantic import BaseModel, ConfigDict, Field, field_validator


class Shift(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    starts: time
    ends: time


class ShiftConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    shifts: list[Shift] = Field(default_factory=lambda: [
        Shift(name="day", starts=time(6), ends=time(14)),
        Shift(name="swing", starts=time(14), ends=time(22)),
        Shift(name="grave", starts=time(22), ends=time(6)),
    ])

    @field_validator("shifts")
    @classmethod
    def _cover_the_day(cls, v: list[Shift]) -> list[Shift]:
        minutes = 0
        for s in v:
            a, b = s.starts.hour * 60 + s.starts.minute, s.ends.hour * 60 + s.ends.minute
            minutes += (b - a) % (24 * 60) or 24 * 60
        if minutes != 24 * 60:
            raise ValueError(f"shifts must cover 24 hours exactly once, they cover {minutes} minutes")
        return v

    @classmethod
    def parse(cls, text: str) -> ShiftConfig:
        """"day=06-14,swing=14-22,grave=22-06" (hours, or HH:MM)."""
        shifts = []
        for part in text.split(","):
            try:
                name, span = part.split("=")
                a, b = span.split("-")
                shifts.append(Shift(name=name.strip(), starts=_t(a), ends=_t(b)))
            except ValueError as e:
                raise ValueError(f"shift {part!r}: expected name=HH-HH ({e})") from e
        return cls(shifts=shifts)


def _t(s: str) -> time:
    s = s.strip()
    return time.fromisoformat(s if ":" in s else f"{int(s):02d}:00")
