"""Each flag type raised on a hand-built round, and none on a clean one (toy game + real King High)."""

from __future__ import annotations

import pytest

from pipelines.games.round import DealtCard, ObservedSettlement, Round, TableEvent, VoidInfo, Wager
from pipelines.reconcile import ReconcileConfig, flag_id_for, reconcile, toygame

# The toy game plays as pick-2-poker here, so deal two cards a seat and one to the dealer.
CFG = ReconcileConfig(cards_per_seat={"pick-2-poker": 2}, dealer_cards={"pick-2-poker": 1})


def clean_round(**over) -> Round:
    """Seat 1 beats the dealer (K vs 9) with a pair bonus; seat 2 loses (4 vs 9); all settled right."""
    doc = dict(
        game="pick-2-poker", table_id="T1", round_id="r1", started_at="2026-03-01T10:00:00",
        wagers=[Wager(seat=1, spot="ante", amount=10), Wager(seat=1, spot="bonus", amount=10),
                Wager(seat=2, spot="ante", amount=20)],
        cards=[DealtCard(seq=0, owner="dealer", card="9h", face_up=False, frame=5),
               DealtCard(seq=1, owner="seat:1", card="Kh", frame=6),
               DealtCard(seq=2, owner="seat:1", card="Kd", frame=7),
               DealtCard(seq=3, owner="seat:2", card="4c", frame=8),
               DealtCard(seq=4, owner="seat:2", card="7s", frame=9)],
        settlements=[ObservedSettlement(seat=2, spot="ante", outcome="lose", seq=1),
                     ObservedSettlement(seat=1, spot="ante", outcome="win", paid=10, seq=2),
                     ObservedSettlement(seat=1, spot="bonus", outcome="win", paid=30, seq=3)],
        events=[TableEvent(seq=0, type="bets_closed", frame=4),
                TableEvent(seq=1, type="decision", frame=20, seat=1),
                TableEvent(seq=2, type="card_exposed", frame=30, owner="dealer", card="9h"),
                TableEvent(seq=3, type="wager_collected", frame=40, seat=2, spot="ante")],
    )
    doc.update(over)
    return Round(**doc)


def run(*rounds: Round, cfg: ReconcileConfig = CFG):
    return reconcile(list(rounds), None, config=cfg, games=toygame.lookup)


def types(flags) -> list[str]:
    return sorted(f.type for f in flags)


def test_clean_round_raises_nothing_and_joins_every_wager():
    wagers, flags = run(clean_round())
    assert flags == []
    assert wagers.height == 3
    row = wagers.filter(spot="bonus").row(0, named=True)
    assert row["exp_net"] == 30.0 and row["obs_net"] == 30.0 and row["exp_outcome"] == "win"


@pytest.mark.parametrize("paid,direction,severity", [(35.0, "overpaid", "low"), (130.0, "overpaid", "high"),
                                                     (25.0, "underpaid", "low"),
                                                     (0.0, "underpaid", "medium")])
def test_payout_error_amount_and_direction(paid, direction, severity):
    r = clean_round()
    r.settlements[2] = ObservedSettlement(seat=1, spot="bonus", outcome="win" if paid else "lose", paid=paid,
                                          seq=3)
    _, flags = run(r)
    assert types(flags) == ["payout_error"]
    f = flags[0]
    expected_diff = abs((paid if paid else -10.0) - 30.0)
    assert f.amount == pytest.approx(expected_diff) and direction in f.detail
    assert f.severity == severity and f.seat == 1 and f.spot == "bonus"
    assert f.flag_id == flag_id_for("r1", "payout_error", 1, "bonus", 0)
    assert f.rule == toygame.RULE


def test_missed_collection_when_loser_left():
    r = clean_round()
    del r.settlements[0]
    _, flags = run(r)
    assert types(flags) == ["missed_collection"]
    assert flags[0].amount == 20.0 and flags[0].seat == 2


def test_uncertain_observation_gives_review_flag():
    r = clean_round()
    r.settlements[1] = ObservedSettlement(seat=1, spot="ante", outcome="win", paid=5, seq=2, uncertain=True)
    _, flags = run(r)
    assert [f.kind for f in flags] == ["review"]


def test_incomplete_round_gives_only_review_flags():
    r = clean_round(status="incomplete", notes=["seat 1 bonus: payout not seen"])
    r.settlements[2] = ObservedSettlement(seat=1, spot="bonus", outcome="win", paid=5, seq=3)
    _, flags = run(r)
    assert types(flags) == ["payout_error"]
    assert all(f.kind == "review" and f.uncertain for f in flags)
    _, same_complete = run(r.model_copy(update={"status": "complete", "notes": []}))
    assert {f.kind for f in same_complete} == {"hard"}


def test_procedure_order_limits_and_base_wager():
    r = clean_round()
    r.settlements[0].seq, r.settlements[2].seq = 3, 1  # a bonus paid before the losing ante was taken
    r.wagers.append(Wager(seat=3, spot="play", amount=900))  # no ante on seat 3, above the 500 maximum
    r.cards += [DealtCard(seq=5, owner="seat:3", card="2c"), DealtCard(seq=6, owner="seat:3", card="3c")]
    r.settlements.append(ObservedSettlement(seat=3, spot="play", outcome="lose", seq=4))
    cfg = CFG.model_copy(update={"base_wager": {"pick-2-poker": {"play": "ante"}}})
    _, flags = run(r, cfg=cfg)
    proc = [f for f in flags if f.type == "procedure"]
    details = " | ".join(f.detail for f in proc)
    assert "above_maximum" in details and "without the required ante" in details
    # The dealer went bonus (manual position 2), seat 1 ante (1), seat 2 ante (0): the two settled
    # ahead of a wager the manual puts before them are the early ones.
    early = {(f.seat, f.spot) for f in proc if "out of the manual's order" in f.detail}
    assert early == {(1, "bonus"), (1, "ante")}
    assert {f.spot for f in proc} == {"play", "ante", "bonus"}


def test_past_post_and_pinch_from_wager_changes():
    r = clean_round()
    r.events += [TableEvent(seq=4, type="wager_changed", frame=33, seat=1, spot="ante", before=10, after=50),
                 TableEvent(seq=5, type="wager_changed", frame=34, seat=2, spot="ante", before=20, after=5)]
    r.events.sort(key=lambda e: e.seq)
    # the pinch must happen before the collection event (seq 3): move collection after it
    r.events[3] = TableEvent(seq=9, type="wager_collected", frame=50, seat=2, spot="ante")
    _, flags = run(r)
    by = {f.type: f for f in flags if f.type in ("past_post", "pinch")}
    assert by["past_post"].amount == 40.0 and by["past_post"].seat == 1
    assert by["pinch"].amount == 15.0 and by["pinch"].seat == 2
    assert by["past_post"].frames.start == 33


def test_change_before_bets_closed_is_not_past_post():
    r = clean_round()
    r.events = [TableEvent(seq=0, type="wager_changed", frame=2, seat=1, spot="ante", before=5, after=10),
                *[e.model_copy(update={"seq": e.seq + 1}) for e in r.events]]
    _, flags = run(r)
    assert flags == []


def test_misdeals_card_count_exposure_duplicate():
    r = clean_round()
    r.cards[4] = DealtCard(seq=4, owner="seat:2", card="Kh")  # duplicate Kh in a one-deck round
    r.cards.append(DealtCard(seq=5, owner="seat:2", card="5c"))  # seat 2 now has 3 cards
    r.events[2].seq = 0  # dealer card exposed before the decision
    r.events[0].seq = 2
    _, flags = run(r)
    spots = sorted(f.spot for f in flags if f.type == "misdeal")
    assert spots == ["card_count:seat:2", "dealer_exposed", "duplicate_card"]


def test_wrong_deck_back_in_rotation():
    rounds = [clean_round(round_id=f"r{i}", started_at=f"2026-03-01T10:0{i}:00",
                          cards=[c.model_copy(update={"back": back}) for c in clean_round().cards])
              for i, back in enumerate(["red", "blue", "blue", "red"])]
    _, flags = run(*rounds)
    assert [(f.round_id, f.spot) for f in flags] == [("r2", "deck_back")]


def test_void_round_settled_wrongly_is_void_handling():
    r = clean_round(status="voided", void=VoidInfo(reason="face_up_card_in_deck", after_cards=3))
    r.settlements = [ObservedSettlement(seat=2, spot="ante", outcome="lose", seq=1)]
    _, flags = run(r)
    assert types(flags) == ["void_handling"]
    assert flags[0].seat == 2 and flags[0].amount == 20.0


def test_replay_is_idempotent_and_ids_stable():
    r = clean_round()
    r.settlements[2].paid = 10
    _, a = run(r)
    _, b = run(r, r)
    assert [f.model_dump() for f in a] == [f.model_dump() for f in b]


def test_real_king_high_underpayment_cites_manual():
    board = ["Ks", "Qh", "9d", "3c", "Kd"]
    r = Round(game="king-high", table_id="KH1", round_id="k1", started_at="2026-03-01T21:00:00",
              wagers=[Wager(seat=3, spot="pokerpot", amount=10), Wager(seat=3, spot="high", amount=5, hand=1)],
              cards=[DealtCard(seq=i, owner="board", card=c) for i, c in enumerate(board)],
              settlements=[ObservedSettlement(seat=3, spot="high", hand=1, outcome="win", paid=5, seq=0),
                           ObservedSettlement(seat=3, spot="pokerpot", outcome="win", paid=10, seq=1)])
    wagers, flags = reconcile([r], None)
    assert types(flags) == ["payout_error"]
    assert flags[0].amount == 2.5 and "King High" in flags[0].rule
    assert wagers.filter(spot="pokerpot")["house_edge"][0] > 0


def test_payout_on_a_wager_never_seen_is_a_payout_error():
    r = clean_round()
    r.settlements.append(ObservedSettlement(seat=4, spot="ante", outcome="win", paid=25, seq=4))
    wagers, flags = run(r)
    assert types(flags) == ["payout_error"]
    assert (flags[0].seat, flags[0].spot, flags[0].amount) == (4, "ante", 25.0)
    assert wagers.height == 4  # the stray settlement has its row beside the three wagers


def test_repeated_wager_and_settlement_keep_the_last_copy():
    r = clean_round()
    r.wagers.insert(0, Wager(seat=2, spot="ante", amount=999))  # a stale first reading of seat 2's ante
    r.settlements.insert(0, ObservedSettlement(seat=1, spot="bonus", outcome="win", paid=1, seq=0))
    wagers, flags = run(r)
    assert flags == []
    assert wagers.height == 3
    assert wagers.filter(seat=2)["amount"].to_list() == [20.0]


def test_single_early_settlement_flags_only_the_early_wager():
    r = clean_round()
    # The bonus (manual position 2) is paid first; the ante loser and winner follow in order.
    r.settlements[2].seq = 0
    _, flags = run(r)
    assert [(f.type, f.seat, f.spot) for f in flags] == [("procedure", 1, "bonus")]
