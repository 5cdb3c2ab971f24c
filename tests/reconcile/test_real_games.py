"""The four real games through reconcile on simulated rounds: clean rounds raise nothing, and each kind
of injected fault raises its flag on the round and wager it was injected on."""

from __future__ import annotations

import json

import pytest

from pipelines.bus.topics import model_for
from pipelines.games.round import GAME_IDS
from pipelines.reconcile import Flag, reconcile
from pipelines.sim.session import script_session
from pipelines.store.imports import SCHEMA_DIR

ROUNDS = 30


@pytest.mark.parametrize("game", GAME_IDS)
def test_clean_rounds_raise_no_flags(game):
    scripted, settings = script_session(game, ROUNDS, seed=11, fault_rate=0.0)
    wagers, flags = reconcile([s.round for s in scripted], {"T1": settings})
    assert flags == []
    assert wagers.height == sum(len(s.round.wagers) for s in scripted)
    # Every settled wager's observed net equals the games core's expected net.
    settled = wagers.filter(wagers["obs_outcome"].is_not_null())
    assert settled.height > 0 and (settled["diff"].abs() <= 0.005).all()


def _faulted(game: str, fault: str):
    scripted, settings = script_session(game, ROUNDS, seed=12, fault_rate={fault: 0.5})
    faults = [f for s in scripted for f in s.faults]
    assert faults, f"the simulator injected no {fault} in {ROUNDS} rounds of {game}"
    _, flags = reconcile([s.round for s in scripted], {"T1": settings})
    return faults, flags


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("fault", ["past_post", "pinch", "payout_error", "missed_collection", "procedure"])
def test_wager_faults_raise_their_flag_on_that_wager(game, fault):
    faults, flags = _faulted(game, fault)
    raised = {(f.round_id, f.type, f.seat, f.spot, f.hand) for f in flags}
    for f in faults:
        assert (f.round_id, f.type, f.seat, f.spot, f.hand) in raised, f
    # and nothing else: no flag without an injected fault behind it
    injected = {(f.round_id, f.type, f.seat, f.spot, f.hand) for f in faults}
    assert raised <= injected


@pytest.mark.parametrize("game", GAME_IDS)
def test_misdeals_raise_misdeal_on_that_round(game):
    faults, flags = _faulted(game, "misdeal")
    misdeal_rounds = {f.round_id for f in flags if f.type == "misdeal"}
    assert {f.round_id for f in faults} <= misdeal_rounds
    assert misdeal_rounds <= {f.round_id for f in faults}
    burn = [f for f in flags if f.spot == "burn_count"]  # King High: the card whose burns were wrong
    if game == "king-high":
        assert {(f.round_id, f.hand) for f in burn} == {(f.round_id, f.hand) for f in faults}


def test_flags_topic_validates_against_flag_model():
    assert model_for("flags") is Flag


def test_committed_flag_schema_is_current():
    committed = json.loads((SCHEMA_DIR / "flag.schema.json").read_text())
    assert committed == Flag.model_json_schema(), "run python -m pipelines.store.imports"
