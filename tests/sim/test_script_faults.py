"""Each injected fault shows in the Round as the camera would see it, and in the fault labels."""

from collections import Counter

import pytest

from pipelines.games.cards import BACK_COLOURS
from pipelines.games.king_high import Settings as KingHighSettings
from pipelines.games.king_high_settle import action_wagers_without_pokerpot
from pipelines.games.round import GAME_IDS
from pipelines.sim.faults import MISDEALS
from pipelines.sim.script import script_for


def _first(game, kind, subtype=None, settings=None, tries=40):
    """The first round of a session with only `kind` faults (at rate 1) that carries one of `subtype`."""
    script = script_for(game, settings, seed=21, faults={kind: 1.0})
    frame = 0
    for i in range(tries):
        r = script.play_round(i, frame)
        frame += r.frame_count
        hits = [f for f in r.faults if f.type == kind and (subtype is None or f.subtype == subtype)]
        if hits:
            expected = script.module.settle(r.round, script.settings)
            return r, hits[0], expected, script
    raise AssertionError(f"no {kind}/{subtype} in {tries} rounds of {game}")


def _in_round(r, fault):
    assert r.round.frames.start <= fault.frames.start <= fault.frames.end <= r.round.frames.end
    assert fault.round_id == r.round.round_id


def _observed(r, f):
    return next(s for s in r.round.settlements if (s.seat, s.spot, s.hand) == (f.seat, f.spot, f.hand))


@pytest.mark.parametrize("game", GAME_IDS)
def test_past_post(game):
    r, f, expected, _ = _first(game, "past_post")
    _in_round(r, f)
    closed = min(e.frame for e in r.round.events if e.type == "bets_closed")
    change = next(e for e in r.round.events if e.type == "wager_changed"
                  and (e.seat, e.spot, e.hand) == (f.seat, f.spot, f.hand))
    assert change.frame > closed and change.before < change.after
    assert change.after - change.before == f.amount
    assert f.frames.start <= change.frame <= f.frames.end
    exp = next(e for e in expected if (e.seat, e.spot, e.hand) == (f.seat, f.spot, f.hand))
    obs = _observed(r, f)
    assert exp.outcome == obs.outcome == "win"
    assert obs.paid > exp.paid  # the dealer paid the capped wager
    assert r.round.wager(f.seat, f.spot, f.hand).amount == change.before  # the wager as locked


@pytest.mark.parametrize("game", GAME_IDS)
def test_pinch(game):
    r, f, _expected, _ = _first(game, "pinch")
    _in_round(r, f)
    key = (f.seat, f.spot, f.hand)
    change = next(e for e in r.round.events if e.type == "wager_changed" and (e.seat, e.spot, e.hand) == key)
    taken = next(e for e in r.round.events if e.type == "wager_collected" and (e.seat, e.spot, e.hand) == key)
    assert change.before > change.after > 0 and change.before - change.after == f.amount
    assert change.frame < taken.frame and taken.before == change.after
    assert _observed(r, f).outcome == "lose"


@pytest.mark.parametrize("game", GAME_IDS)
def test_payout_error(game):
    r, f, expected, _ = _first(game, "payout_error")
    _in_round(r, f)
    exp = next(e for e in expected if (e.seat, e.spot, e.hand) == (f.seat, f.spot, f.hand))
    obs = _observed(r, f)
    assert obs.outcome == "win"
    assert obs.paid - exp.paid == pytest.approx(f.amount if f.subtype == "over" else -f.amount)
    placed = next(e for e in r.round.events if e.type == "payout_placed"
                  and (e.seat, e.spot, e.hand) == (f.seat, f.spot, f.hand))
    assert placed.after == obs.paid


@pytest.mark.parametrize("game", GAME_IDS)
def test_missed_collection(game):
    r, f, expected, _ = _first(game, "missed_collection")
    _in_round(r, f)
    key = (f.seat, f.spot, f.hand)
    exp = next(e for e in expected if (e.seat, e.spot, e.hand) == key)
    assert exp.outcome == "lose" and _observed(r, f).outcome == "push"
    assert not [e for e in r.round.events if e.type == "wager_collected" and (e.seat, e.spot, e.hand) == key]


@pytest.mark.parametrize("game", GAME_IDS)
def test_settlement_out_of_order(game):
    r, f, expected, _ = _first(game, "procedure", "settlement_order")
    _in_round(r, f)
    done = [(s.seat, s.spot, s.hand) for s in sorted(r.round.settlements, key=lambda s: s.seq)]
    manual = [(e.seat, e.spot, e.hand) for e in expected]
    assert sorted(done) == sorted(manual) and done != manual
    moved = (f.seat, f.spot, f.hand)
    assert done.index(moved) < manual.index(moved)  # settled too early


def test_king_high_action_wager_without_pokerpot():
    r, f, _expected, _ = _first("king-high", "procedure", "action_without_base")
    _in_round(r, f)
    lone = action_wagers_without_pokerpot(r.round)
    assert [(w.seat, w.spot, w.hand) for w in lone] == [(f.seat, f.spot, f.hand)]
    assert any(s.seat == f.seat for s in r.round.settlements)  # the dealer settled it anyway


@pytest.mark.parametrize("game,subtype", [(g, s) for g in GAME_IDS for s in MISDEALS[g] if
                                          not (g == "high-tie" and s == "duplicate_card")])
def test_misdeal(game, subtype):
    settings = KingHighSettings(shuffler="manual") if game == "king-high" else None
    r, f, _expected, script = _first(game, "misdeal", subtype, settings)
    _in_round(r, f)
    cards = r.round.cards
    if subtype == "wrong_card_count":
        if game == "king-high":
            burns_before = []
            n = 0
            for c in sorted(cards, key=lambda c: c.seq):
                if c.owner == "burn":
                    n += 1
                elif c.owner == "board":
                    burns_before.append(n)
                    n = 0
            assert burns_before[f.hand - 1] != 2 and burns_before.count(2) == 4
        else:
            counts = Counter(c.owner for c in cards)
            assert counts[f"seat:{f.seat}"] != 5
            assert r.round.status == "voided" and r.round.void is not None
            assert all(s.outcome == "returned" for s in r.round.settlements)
            assert any(e.type == "round_voided" for e in r.round.events)
    elif subtype == "dealer_card_exposed_early":
        first_exposure = [e.frame for e in r.round.events if e.type == "card_exposed" and e.owner == "dealer"]
        early = [c for c in cards if c.owner == "dealer" and c.face_up]
        hole = {"high-tie": 1}.get(game)
        dealer = sorted((c for c in cards if c.owner == "dealer"), key=lambda c: c.seq)
        if hole is not None:
            assert dealer[hole].face_up  # the hole card was dealt face up
        else:
            assert early and all(c.frame < min(first_exposure, default=10**9) for c in early)
        assert f.frames.start == min(c.frame for c in early if c is not dealer[0] or hole is None)
    elif subtype == "duplicate_card":
        counts = Counter(c.card for c in cards)
        assert max(counts.values()) == 2
    elif subtype == "wrong_deck_back":
        backs = {c.back for c in cards}
        assert len(backs) == 1
        assert backs != {BACK_COLOURS[script.round_index % 2]}


def test_high_tie_duplicate_card_single_deck():
    from pipelines.games.high_tie import Settings

    r, f, _, _ = _first("high-tie", "misdeal", "duplicate_card", Settings(decks=1))
    _in_round(r, f)
    counts = Counter(c.card for c in r.round.cards)
    assert max(counts.values()) == 2


@pytest.mark.parametrize("game", GAME_IDS)
def test_no_faults_at_rate_zero(game):
    script = script_for(game, seed=4, faults=0.0)
    assert all(script.play_round(i, 0).faults == [] for i in range(5))
