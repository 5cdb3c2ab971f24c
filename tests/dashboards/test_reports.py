"""Game protection and manager pages against sums taken straight from the store."""

from __future__ import annotations

import csv
import html
import io

import pytest

from dashboards import queries


def test_dealer_accuracy_counts_match_the_store(app):
    cur = app.state.db.cursor()
    rows = queries.dealer_accuracy(cur, None, None)
    assert rows
    stored_rounds = dict(cur.execute("SELECT dealer_id, count(*) FROM rounds GROUP BY 1").fetchall())
    flagged = dict(cur.execute("SELECT r.dealer_id, count(DISTINCT f.round_id) FROM flags f JOIN rounds r "
                               "USING (round_id) GROUP BY 1").fetchall())
    procedure = dict(cur.execute("SELECT r.dealer_id, count(*) FROM flags f JOIN rounds r USING (round_id) "
                                 "WHERE f.type = 'procedure' GROUP BY 1").fetchall())
    for r in rows:
        assert r["rounds"] == stored_rounds[r["dealer_id"]]
        assert r["flagged_rounds"] == flagged.get(r["dealer_id"], 0)
        assert sum(r["procedure_kinds"].values()) == procedure.get(r["dealer_id"], 0)
    rates = [r["errors_per_100_rounds"] or 0 for r in rows]
    assert rates == sorted(rates, reverse=True)


def test_dealer_drill_down_lists_that_dealers_flags(app, client_for):
    cur = app.state.db.cursor()
    dealer, n = cur.execute("SELECT r.dealer_id, count(*) FROM flags f JOIN rounds r USING (round_id) "
                            "GROUP BY 1 ORDER BY 2 DESC LIMIT 1").fetchone()
    html = client_for("prot").get(f"/protection/dealer/{dealer}").text
    assert html.count("/surveillance/round/") == n


@pytest.mark.parametrize("by", ["table", "game", "shift", "day", "dealer"])
def test_hold_report_totals_match_the_wagers(app, by):
    cur = app.state.db.cursor()
    rows = queries.hold_report(cur, by, None, None)
    drop, win = cur.execute("SELECT sum(amount), -sum(obs_net) FROM wagers").fetchone()
    assert sum(r["drop_vision"] for r in rows) == pytest.approx(drop)
    assert sum(r["win_vision"] for r in rows) == pytest.approx(win)
    for r in rows:
        assert r["hold_pct"] == pytest.approx(r["win_vision"] / r["drop_vision"], abs=1e-6)  # store rounds to 1e-6


def test_manager_page_and_csv_agree(client_for, app):
    client = client_for("mgr")
    page = client.get("/manager?by=game")
    assert page.status_code == 200 and page.text.count('class="chart"') == 2
    data = list(csv.DictReader(io.StringIO(client.get("/manager/hold.csv?by=game").text)))
    games = {g for (g,) in app.state.db.cursor().execute("SELECT DISTINCT game FROM rounds").fetchall()}
    assert {row["game"] for row in data} == games
    for row in data:
        assert float(row["hold_pct"]) == pytest.approx(float(row["win_vision"]) / float(row["drop_vision"]), abs=1e-6)


def test_bad_grouping_is_named(client_for):
    r = client_for("mgr").get("/manager?by=colour")
    assert r.status_code == 400 and "field by" in r.text and "'colour'" in html.unescape(r.text)


def test_pit_scope_limits_reports(app):
    cur = queries.scoped_cursor(app.state.db.cursor(), ["BJ-2"])
    rows = queries.hold_report(cur, "table", None, None)
    assert [r["table_id"] for r in rows] == ["BJ-2"]
    assert app.state.db.cursor().execute("SELECT count(DISTINCT table_id) FROM rounds").fetchone()[0] > 1


def test_reports_open_on_the_last_week_of_play(app, client_for):
    latest = app.state.db.cursor().execute("SELECT max(started_at)::DATE FROM rounds").fetchone()[0]
    with app.state.db.write() as cur:  # one old round, outside the default week
        cur.execute("INSERT INTO rounds SELECT 'old-round', table_id, game, started_at - INTERVAL 30 DAY, NULL, "
                    "dealer_id, status, n_wagers, handle, doc FROM rounds LIMIT 1")
        cur.execute("INSERT INTO wagers SELECT 'old-round', seat, spot, hand, 1000.0, 1000.0, exp_outcome, "
                    "exp_net, exp_order, line, house_edge, var_per_unit, obs_outcome, obs_paid, obs_net, obs_seq, "
                    "diff, uncertain FROM wagers LIMIT 1")
    client = client_for("mgr")
    page = client.get("/manager?by=game").text
    first = latest.fromordinal(latest.toordinal() - 6)
    assert f'name="date_from" value="{first}"' in page and f'name="date_to" value="{latest}"' in page
    week = list(csv.DictReader(io.StringIO(client.get(f"/manager/hold.csv?by=game&date_from={first}").text)))
    whole = list(csv.DictReader(io.StringIO(client.get("/manager/hold.csv?by=game&span=all").text)))
    assert sum(float(r["drop_vision"]) for r in whole) == pytest.approx(
        sum(float(r["drop_vision"]) for r in week) + 1000.0)
    assert "span=all" in html.unescape(page)
