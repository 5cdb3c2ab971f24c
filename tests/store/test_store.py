"""Store: idempotent writes, migrations keep data, CSV import errors, report numbers by hand, CLI."""

from __future__ import annotations

import json
import random
import re

import pytest
from click.testing import CliRunner

from pipelines.games.round import DealtCard, ObservedSettlement, Round, TableEvent, Wager
from pipelines.reconcile import ReconcileConfig, toygame
from pipelines.store.cli import flags as flags_cmd
from pipelines.store.cli import import_csv, report
from pipelines.store.db import Store
from pipelines.store.imports import CsvImportError, read_csv
from pipelines.store.migrations import SCHEMA_FILE, migrations, schema_sql
from pipelines.store.sink import Message, consume

# The toy game stands in for pick-2-poker: one card a seat and one for the dealer.
CFG = ReconcileConfig(cards_per_seat={"pick-2-poker": 1}, dealer_cards={"pick-2-poker": 1})
TABLES = ("rounds", "wagers", "cards", "events", "flags", "tables", "dealers")


def rnd(i: int, start: str, seat1: str, paid_ante: float, dealer: str = "D1", end: str | None = None) -> Round:
    """Seat 1 ante 10 against the dealer's 9h; seat 2 ante 20 with a 4c (always loses, collected)."""
    return Round(
        game="pick-2-poker", table_id="T1", round_id=f"r{i}", started_at=start, ended_at=end, dealer_id=dealer,
        wagers=[Wager(seat=1, spot="ante", amount=10), Wager(seat=2, spot="ante", amount=20)],
        cards=[DealtCard(seq=0, owner="dealer", card="9h"), DealtCard(seq=1, owner="seat:1", card=seat1),
               DealtCard(seq=2, owner="seat:2", card="4c")],
        settlements=[ObservedSettlement(seat=2, spot="ante", outcome="lose", seq=1),
                     ObservedSettlement(seat=1, spot="ante", outcome="win" if paid_ante else "lose",
                                        paid=paid_ante, seq=2 if paid_ante else 0)],
        events=[TableEvent(seq=0, type="bets_closed", frame=1)],
    )


ROUNDS = [
    rnd(1, "2026-03-01T10:00:00", "Kh", 10, end="2026-03-01T10:30:00"),  # day, correct
    rnd(2, "2026-03-01T11:00:00", "Ah", 15, end="2026-03-01T11:30:00"),  # day, overpaid 5
    rnd(3, "2026-03-01T23:00:00", "2h", 0, dealer="D2"),  # grave of 1 March, seat 1 loses
    rnd(4, "2026-03-02T02:00:00", "Qh", 10, dealer="D2"),  # still grave of 1 March
]


def write(path, rounds) -> Store:
    s = Store(path)
    s.write_rounds(rounds, games=toygame.lookup, config=CFG)
    return s


def dump(s: Store) -> dict:
    return {t: s.con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}


def test_replay_and_shuffle_give_identical_contents(tmp_path):
    a = write(tmp_path / "a.duckdb", ROUNDS)
    b = write(tmp_path / "b.duckdb", ROUNDS)
    b.write_rounds(ROUNDS[:2], games=toygame.lookup, config=CFG)  # redelivered
    shuffled = ROUNDS[:]
    random.Random(1).shuffle(shuffled)
    c = Store(tmp_path / "c.duckdb")
    for r in shuffled:
        c.write_rounds([r], games=toygame.lookup, config=CFG)
    assert dump(a) == dump(b) == dump(c)
    assert len(dump(a)["wagers"]) == 8 and len(dump(a)["flags"]) == 1


def test_changed_round_replaces_its_children(tmp_path):
    s = write(tmp_path / "s.duckdb", ROUNDS)
    fixed = ROUNDS[1].model_copy(deep=True)
    fixed.settlements[1].paid = 10
    s.write_rounds([fixed], games=toygame.lookup, config=CFG)
    assert s.query("SELECT count(*) AS n FROM flags")[0]["n"] == 0
    assert s.query("SELECT count(*) AS n FROM wagers WHERE round_id = 'r2'")[0]["n"] == 2


def test_migrations_keep_data(tmp_path):
    path = tmp_path / "m.duckdb"
    old = Store(path, migrate_upto=1)
    old.con.execute("INSERT INTO tables VALUES ('T9', 'king-high', 'old table')")
    assert [r["version"] for r in old.query("SELECT version FROM schema_migrations")] == [1]
    old.close()
    new = Store(path)
    assert new.query("SELECT name FROM tables WHERE table_id = 'T9'") == [{"name": "old table"}]
    assert [r["version"] for r in new.query("SELECT version FROM schema_migrations ORDER BY 1")] == [
        m.version for m in migrations()]
    new.dead_letter("rounds", None, "test", "{}")  # table from migration 2 exists


def test_committed_ddl_is_generated_from_migrations():
    assert SCHEMA_FILE.read_text() == schema_sql()


def test_hold_report_hand_computed(tmp_path):
    from pipelines.store.reports import hold_report

    s = write(tmp_path / "h.duckdb", ROUNDS)
    rows = {r["shift"]: r for r in hold_report(s, ["table", "shift"])}
    day, grave = rows["day"], rows["grave"]
    # day: drop 60; player net: r1 +10-20, r2 +15-20 -> house wins 15; theo: ante edge 0 in the toy game
    assert day["drop_vision"] == 60 and day["win_vision"] == 15 and day["hold_pct"] == pytest.approx(0.25)
    assert day["rounds"] == 2 and day["avg_bet"] == 15
    assert day["hours"] == pytest.approx(1.5) and day["hands_per_hour"] == pytest.approx(2 / 1.5)
    assert day["overpaid"] == 5 and day["payout_error"] == 1
    # grave spans midnight and belongs to 1 March: r3 house +30, r4 house +10
    assert grave["win_vision"] == 40 and grave["rounds"] == 2
    assert hold_report(s, ["day"])[0]["shift_date"] == "2026-03-01"
    dealers = {r["dealer_id"]: r for r in hold_report(s, ["dealer"])}
    assert dealers["D2"]["win_vision"] == 40 and dealers["D1"]["payout_error"] == 1


def test_accounting_win_and_band(tmp_path):
    from pipelines.store.imports import import_csv as do_import
    from pipelines.store.reports import hold_report

    s = write(tmp_path / "a.duckdb", ROUNDS)
    f = tmp_path / "acct.csv"
    f.write_text("table,shift_date,shift,drop,fills,credits,opening,closing\n"
                 "T1,2026-03-01,day,60,100,0,1000,950\n")
    assert do_import(s, f, "accounting") == 1
    day = next(r for r in hold_report(s, ["table", "shift"]) if r["shift"] == "day")
    assert day["win_count"] == 60 + 950 - 1000 + 0 - 100
    # the toy ante has no odds lines: no band, every wager counted as without odds
    assert day["band_lo"] is None and day["wagers_without_odds"] == 4


def test_band_flags_a_shift_far_outside(tmp_path):
    from pipelines.store.reports import hold_report

    rounds = []
    for i in range(40):  # a 3:1 pair bonus paid on every round although no pair came: far below fair
        r = rnd(100 + i, f"2026-03-03T{6 + i // 6:02d}:{(i % 6) * 10:02d}:00", "Kh", 10)
        r.wagers.append(Wager(seat=1, spot="bonus", amount=100))
        r.settlements.append(ObservedSettlement(seat=1, spot="bonus", outcome="win", paid=300, seq=3))
        rounds.append(r)
    s = write(tmp_path / "b.duckdb", rounds)
    row = hold_report(s, ["day"])[0]
    assert row["band_lo"] < row["band_mean"] < row["band_hi"]
    assert row["outside_band"] and row["band_win"] == -12000 and row["band_win"] < row["band_lo"]


@pytest.mark.parametrize("text,needle", [
    ("dealer,table,from,to\nD1,T1,2026-03-01T06:00,2026-03-01T05:00\n", "row 1: field (row)"),
    ("dealer,table,from,to\nD1,T1,2026-03-01T06:00,2026-03-01T14:00\nD2,,2026-03-01T06:00,x\n", "row 2: field"),
    ("dealer,table,start,to\n", "missing columns ['from']"),
])
def test_dealer_csv_errors_name_file_row_field(tmp_path, text, needle):
    f = tmp_path / "d.csv"
    f.write_text(text)
    with pytest.raises(CsvImportError) as e:
        read_csv(f, "dealer-assignments")
    assert str(f) in str(e.value) and needle in str(e.value)


def test_accounting_csv_bad_number(tmp_path):
    f = tmp_path / "a.csv"
    f.write_text("table,shift_date,shift,drop,fills,credits,opening,closing\nT1,2026-03-01,day,lots,0,0,0,0\n")
    with pytest.raises(CsvImportError, match=r"row 1: field drop: .*'lots'"):
        read_csv(f, "accounting")


def test_dealer_assignment_used_when_round_has_no_dealer(tmp_path):
    from pipelines.store.reports import hold_report

    s = write(tmp_path / "d.duckdb", [rnd(1, "2026-03-01T10:00:00", "Kh", 10, dealer=None)])
    f = tmp_path / "d.csv"
    f.write_text("dealer,table,from,to\nD7,T1,2026-03-01T06:00,2026-03-01T14:00\n")
    r = CliRunner().invoke(import_csv, ["dealer-assignments", str(f), "--db", str(tmp_path / "d.duckdb")],
                           catch_exceptions=False) if s.close() is None else None
    assert r.exit_code == 0, r.output
    with Store(tmp_path / "d.duckdb", read_only=True) as ro:
        assert [x["dealer_id"] for x in hold_report(ro, ["dealer"])] == ["D7"]


def test_sink_dead_letters_bad_messages_and_is_idempotent(tmp_path):
    s = Store(tmp_path / "k.duckdb")
    msgs = [Message("rounds", "T1", r.model_dump_json()) for r in ROUNDS]
    msgs += [Message("rounds", "T1", b'{"game": "poker"}'), Message("other", None, "{}")]
    counts = consume(s, msgs + msgs[:2], games=toygame.lookup, batch_size=3, config=CFG)
    assert counts["dead_letters"] == 2 and counts["rounds"] == 6
    assert s.query("SELECT count(*) AS n FROM rounds")[0]["n"] == 4
    reasons = [r["reason"] for r in s.query("SELECT reason FROM dead_letters ORDER BY reason")]
    assert any("field game" in x for x in reasons) and any("other" in x for x in reasons)


def test_cli_report_and_flags_json(tmp_path):
    db = tmp_path / "c.duckdb"
    write(db, ROUNDS).close()
    runner = CliRunner()
    out = runner.invoke(report, ["hold", "--db", str(db), "--by", "shift", "--format", "json",
                                 "--plot", str(tmp_path / "h.png")], catch_exceptions=False)
    data = json.loads(out.output.strip().splitlines()[-1])
    assert {r["shift"] for r in data["rows"]} == {"day", "grave"}
    assert (tmp_path / "h.png").stat().st_size > 1000
    out = runner.invoke(flags_cmd, ["--db", str(db), "--json"], catch_exceptions=False)
    rows = json.loads(out.output.strip().splitlines()[-1])["rows"]
    assert [r["type"] for r in rows] == ["payout_error"] and rows[0]["round_id"] == "r2"
    bad = runner.invoke(report, ["hold", "--db", str(db), "--by", "colour"])
    assert bad.exit_code != 0 and "colour" in bad.output


@pytest.mark.parametrize("text, needle", [
    ("tables: [1\n", r"s\.yaml: cannot read"),
    ("tables:\n  T1:\n    game: high-tie\n    settings: {decks: 0}\n", r"s\.yaml: field tables\.T1\.settings\.decks"),
])
def test_replay_names_a_bad_settings_file_and_changes_nothing(tmp_path, text, needle):
    from pipelines.store.cli import replay

    db = tmp_path / "r.duckdb"
    with write(db, ROUNDS) as s:
        before = dump(s)
    (tmp_path / "s.yaml").write_text(text)
    res = CliRunner().invoke(replay, ["--db", str(db), "--settings", str(tmp_path / "s.yaml"), "--write"])
    assert res.exit_code == 2 and "Invalid value for --settings" in res.output
    assert re.search(needle, res.output), res.output
    with Store(db, read_only=True) as s:
        assert dump(s) == before
