"""`tablewatch demo --no-serve` builds a store, users per role and pits; `serve` checks its arguments."""

from __future__ import annotations

import re

import duckdb
from click.testing import CliRunner

from dashboards import auth
from dashboards.db import Database
from pipelines.cli import main


def test_demo_builds_store_and_prints_one_user_per_role(tmp_path):
    db_path = tmp_path / "demo.duckdb"
    result = CliRunner().invoke(main, ["demo", "--no-serve", "--rounds", "2", "--evidence", "1",
                                         "--db", str(db_path)])
    assert result.exit_code == 0, result.output
    users = re.findall(r"^\s+(\w+)\s+(\S+)\s+(surveillance|game_protection|manager|admin)", result.output, re.M)
    assert {role for _, _, role in users} == {"surveillance", "game_protection", "manager", "admin"}
    con = duckdb.connect(str(db_path), read_only=True)
    assert con.execute("SELECT count(*) FROM rounds").fetchone()[0] == 10  # 5 tables x 2 rounds
    assert con.execute("SELECT count(DISTINCT pit) FROM dash_table_pits").fetchone()[0] == 2
    assert con.execute("SELECT count(*) FROM flags WHERE snapshots <> '[]'").fetchone()[0] == 1
    con.close()
    db = Database(db_path)
    username, password, _ = users[0]
    assert auth.authenticate(db, username, password) is not None  # the printed password works
    db.close()
    again = CliRunner().invoke(main, ["demo", "--no-serve", "--db", str(db_path)])
    assert again.exit_code != 0 and "already exists" in again.output


def test_serve_requires_a_database_path():
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code != 0 and "--db" in result.output
