"""CSV imports: dealer assignments and table-games accounting per shift.

Each row is validated by a pydantic model (JSON Schemas in schemas/ are generated from the same models);
an error names the file, the row (1 = first data row; the header is line 1 of the file) and the field.
A file with any bad row imports nothing: what is stored is never half-replaced."""

from __future__ import annotations

import csv
import json
from datetime import date, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from . import rollup
from .db import Store

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"


class CsvImportError(ValueError):
    """A CSV file that does not match its schema."""


class DealerAssignmentRow(BaseModel):
    """One dealer on one table for a time span (`from` inclusive, `to` exclusive)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    dealer: str = Field(min_length=1)
    table: str = Field(min_length=1)
    from_: datetime = Field(alias="from")
    to: datetime

    @model_validator(mode="after")
    def _ordered(self) -> DealerAssignmentRow:
        if self.to <= self.from_:
            raise ValueError(f"to ({self.to}) must be after from ({self.from_})")
        return self


class AccountingRow(BaseModel):
    """Table-games accounting for one table and shift. Win = drop + closing - opening + credits - fills."""

    model_config = ConfigDict(extra="forbid")
    table: str = Field(min_length=1)
    shift_date: date
    shift: str = Field(min_length=1)
    drop: float = Field(ge=0)
    fills: float = Field(ge=0)
    credits: float = Field(ge=0)
    opening: float = Field(ge=0, description="opening inventory of the chip tray")
    closing: float = Field(ge=0, description="closing inventory of the chip tray")

    @property
    def win(self) -> float:
        return round(self.drop + self.closing - self.opening + self.credits - self.fills, 2)


KINDS: dict[str, type[BaseModel]] = {"dealer-assignments": DealerAssignmentRow, "accounting": AccountingRow}


def read_csv(path: str | Path, kind: str) -> list[BaseModel]:
    model = KINDS[kind]
    p = Path(path)
    try:
        with p.open(newline="") as fh:
            text = fh.read()
    except OSError as e:
        raise CsvImportError(f"{p}: cannot read: {e.strerror}") from e
    reader = csv.DictReader(text.splitlines())
    expected = [f.alias or n for n, f in model.model_fields.items()]
    header = reader.fieldnames or []
    missing = [c for c in expected if c not in header]
    extra = [c for c in header if c not in expected]
    if missing or extra:
        raise CsvImportError(f"{p}: header: missing columns {missing}, unknown columns {extra} "
                             f"(a {kind} file has {', '.join(expected)})")
    rows = []
    for i, raw in enumerate(reader, start=1):
        values = {k: (v.strip() if isinstance(v, str) else v) for k, v in raw.items()}
        if None in values:
            raise CsvImportError(f"{p}: row {i}: more values than columns")
        try:
            rows.append(model.model_validate(values))
        except ValidationError as e:
            err = e.errors()[0]
            field = ".".join(str(x) for x in err["loc"]) or "(row)"
            value = values.get(field, err.get("input"))
            raise CsvImportError(f"{p}: row {i}: field {field}: {err['msg']} (value {value!r})") from e
    return rows


def import_csv(store: Store, path: str | Path, kind: str) -> int:
    rows = read_csv(path, kind)
    with store._transaction():
        for r in rows:
            if isinstance(r, DealerAssignmentRow):
                store.con.execute("INSERT OR REPLACE INTO dealer_assignments VALUES (?, ?, ?, ?)",
                                  [r.dealer, r.table, r.from_, r.to])
                store.con.execute("INSERT OR IGNORE INTO dealers (dealer_id) VALUES (?)", [r.dealer])
            elif isinstance(r, AccountingRow):
                store.con.execute("INSERT OR REPLACE INTO accounting VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                  [r.table, r.shift_date, r.shift, r.drop, r.fills, r.credits, r.opening,
                                   r.closing])
        # A round without its own dealer takes the table's assignment: those tables' groups may move.
        assigned = {r.table for r in rows if isinstance(r, DealerAssignmentRow)}
        rollup.refresh(store.con, rollup.keys_of_tables(store.con, assigned))
    return len(rows)


def write_schemas(directory: Path = SCHEMA_DIR) -> list[Path]:
    """schemas/<kind>.schema.json, generated from the row models."""
    directory.mkdir(exist_ok=True)
    out = []
    for kind, model in KINDS.items():
        p = directory / f"{kind}.schema.json"
        p.write_text(json.dumps(model.model_json_schema(by_alias=True), indent=2) + "\n")
        out.append(p)
    from pipelines.reconcile.flag import Flag  # the flag message the "flags" topic carries

    p = directory / "flag.schema.json"
    p.write_text(json.dumps(Flag.model_json_schema(), indent=2) + "\n")
    out.append(p)
    return out


if __name__ == "__main__":
    for p in write_schemas():
        print(f"wrote {p}")
