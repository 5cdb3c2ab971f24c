"""High Tie through the perfect observation: split hands, surrenders and the peek read exactly."""

from __future__ import annotations

from dataclasses import replace

from pipelines.rounds.compare import compare_rounds, differences
from pipelines.rounds.high_tie import HighTieMachine
from pipelines.rounds.live import LiveRound
from pipelines.rounds.timeline import CardZone, ChipZone, Slot
from pipelines.vision.observe import FrameObs

from .conftest import rounds_with_edited_observations

SEED = 10  # 3 rounds: a surrender and a split (tests/sim/test_high_tie_script.py)


def _pair(scripted, got, action):
    by_id = {r.round_id: r for r in got}
    for s in scripted:
        d = next((d for d in s.round.decisions if d.action == action), None)
        if d is not None:
            return s.round, by_id[s.round.round_id], d
    raise AssertionError(f"no {action} in the session")


def test_session_with_a_split_and_a_surrender_reconstructs_exactly(reconstruct):
    scripted, got, _ = reconstruct("high-tie", 3, SEED)
    verdicts = compare_rounds(got, [r.round for r in scripted])
    assert [v.result for v in verdicts] == ["exact"] * 3, [v.why for v in verdicts]


def test_split_hands_have_their_own_wagers_cards_and_settlements(reconstruct):
    scripted, got, _ = reconstruct("high-tie", 3, SEED)
    truth, rnd, d = _pair(scripted, got, "split")
    seat = d.seat
    assert {(w.spot, w.hand) for w in rnd.wagers if w.seat == seat} >= {("main", 1), ("main", 2)}
    assert rnd.cards_of(f"seat:{seat}") == truth.cards_of(f"seat:{seat}")
    for h in (1, 2):
        assert rnd.cards_of(f"seat:{seat}.{h}") == truth.cards_of(f"seat:{seat}.{h}") != []
    got_hands = {(s.hand, s.outcome, s.paid) for s in rnd.settlements if (s.seat, s.spot) == (seat, "main")}
    true_hands = {(s.hand, s.outcome, s.paid) for s in truth.settlements if (s.seat, s.spot) == (seat, "main")}
    assert got_hands == true_hands and {h for h, _, _ in got_hands} == {1, 2}
    assert next(x.action for x in rnd.decisions if x.seat == seat) == "split"
    assert differences(rnd, truth) == []


def test_surrender_is_read_and_the_dealers_half_take_is_not_a_pinch(reconstruct):
    scripted, got, _ = reconstruct("high-tie", 3, SEED)
    _truth, rnd, d = _pair(scripted, got, "surrender")
    assert [(x.seat, x.action) for x in rnd.decisions if x.seat == d.seat] == [(d.seat, "surrender")]
    main = next(s for s in rnd.settlements if (s.seat, s.spot) == (d.seat, "main"))
    assert main.outcome == "lose" and main.paid == 0
    changes = [e for e in rnd.events if e.type == "wager_changed" and (e.seat, e.spot) == (d.seat, "main")]
    assert changes == [], "the dealer taking half a surrendered wager is its settlement, not a change"


def test_dealer_blackjack_hole_card_is_seen_face_down_then_turned(reconstruct):
    scripted, got, _ = reconstruct("high-tie", 3, 13)  # round 3: a dealer blackjack
    verdicts = compare_rounds(got, [r.round for r in scripted])
    assert verdicts[2].result == "exact", verdicts[2].why
    dealer = [c for c in got[2].cards if c.owner == "dealer"]
    assert [c.face_up for c in dealer[:2]] == [True, False]
    assert got[2].decisions == []


def test_a_split_pair_read_as_no_pair_is_incomplete_not_wrong(reconstruct):
    # Held-out video: a split 2h, half covered by hand 2's cards, was read 4h at full confidence, and the
    # round claimed the seat split 2s 4h. A split of cards that are no pair is a misread (or a split the
    # rules forbid): either way the round goes to review, it does not state the misread pair.
    scripted, _, setup = reconstruct("high-tie", 3, SEED)
    truth = next(s.round for s in scripted if any(d.action == "split" for d in s.round.decisions))
    split = next(d for d in truth.decisions if d.action == "split")
    second = truth.cards_of(f"seat:{split.seat}")[1]
    misread = ("5" if second[0] == "4" else "4") + second[1]

    def misread_after_split(frame: int, obs: FrameObs) -> None:
        if frame > split.frame:
            for zo in obs.values():
                zo.cards = [replace(c, card=misread) if c.card == second else c for c in zo.cards]

    got = rounds_with_edited_observations("high-tie", scripted, setup, misread_after_split)
    rnd = next(r for r in got if r.round_id == truth.round_id)
    assert rnd.status == "incomplete"
    assert any(f"seat {split.seat}: split, but the pair reads" in n for n in rnd.notes), rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == "incomplete"


def _split_live(parent: list[str]) -> LiveRound:
    """Seat 4 splits 3d 3d at frame 600 (hand 1 then takes 2h 6d Jh, hand 2 5d Qd); its whole area read
    `parent` over the round."""
    live = LiveRound(start=500)
    live.chips["seat4.main.2"] = ChipZone("seat4.main.2")
    live.chips["seat4.main.2"].update(600, 25.0, False)
    for zone, cards in (("seat4.cards", [(c, 540 + i) for i, c in enumerate(parent)]),
                        ("seat4.cards.1", [("3d", 536), ("2h", 607), ("6d", 625), ("Jh", 625)]),
                        ("seat4.cards.2", [("3d", 554), ("5d", 614), ("Qd", 631)])):
        live.cards[zone] = CardZone(zone, [Slot(0, zone, c, True, f) for c, f in cards])
    return live


def test_a_split_pair_comes_from_the_split_areas_where_the_seats_area_lost_count():
    # Held-out High Tie video (set 9401, round 5c9b4afc): the seat's whole area never saw the 2h (a hit covered
    # it as the hands were moved apart), so its cards less the later ones are not the pair; each split area
    # saw its own 3d before the split wager was down.
    machine = HighTieMachine("T1")
    live = _split_live(["3d", "6d", "Jh", "3d", "5d", "Qd"])
    assert machine._originals(live, 4) == ("3d", "3d")
    assert not live.notes
    live = _split_live(["3d", "6d", "Jh", "3d", "5d", "Qd"])
    live.cards["seat4.cards.2"].slots[0].card = "4h"  # a split area's original misread: no pair, so no answer
    assert machine._originals(live, 4) is None
    assert any("cannot be told" in n for n in live.notes)


def test_a_split_card_read_again_under_a_hit_keeps_what_its_split_area_saw_before_the_split():
    # Held-out High Tie video (set 9201, round 5244837e): seat 4 split 2s 2h; with hand 2's hit over the 2h
    # its area read it again as a 4h, surely, and the round stopped at "the pair reads 2s 4h". Each split area
    # had seen its own card before the split wager: 3d and 3d here, one of them read again as 4h at frame 640.
    machine = HighTieMachine("T1")
    live = _split_live(["3d", "4h", "2h", "6d", "Jh", "5d", "Qd"])
    live.cards["seat4.cards.2"].slots[0].read_as("4h", 640, None, False)
    assert live.cards["seat4.cards.2"].slots[0].card_at(600) == "3d"
    assert machine._originals(live, 4) == ("3d", "3d")
    assert [n for n in live.notes if n.startswith("inferred: seat 4's split pair is 3d 3d")]
    # Never seen as a pair apart: the misread stands and the round goes to review.
    live = _split_live(["3d", "4h", "2h", "6d", "Jh", "5d", "Qd"])
    live.cards["seat4.cards.2"].slots[0].card = "4h"
    assert machine._originals(live, 4) is None
    assert any("the pair reads 3d 4h, which is no pair" in n for n in live.notes)
