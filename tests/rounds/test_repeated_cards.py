"""A King High action card identical to an earlier one (six decks) is a new card; the same card hidden
for a moment is not. Backs seen by the tracker reach the round's cards."""

from __future__ import annotations

from pipelines.rounds.king_high import KingHighMachine
from pipelines.rounds.timeline import CardZone
from pipelines.vision.observe import ZoneChange, ZoneState


def up(*cards: str) -> ZoneState:
    return ZoneState(cards=tuple((c, True) for c in cards))


def test_card_zone_counts_a_repeat_only_after_the_first_moved_on() -> None:
    zone = CardZone("board.action")
    zone.update(10, up("7h"), 0)
    zone.update(20, ZoneState(), 1)
    zone.update(25, up("7h"), 1)  # the same card, seen again after a hand covered it
    assert [s.card for s in zone.slots] == ["7h"]
    zone.update(40, ZoneState(), 1)
    zone.moved_on = 1  # it arrived on its holding box
    new, _ = zone.update(60, up("7h"), 1)
    assert [s.frame for s in new] == [60]
    assert [s.card for s in zone.slots] == ["7h", "7h"]


def test_card_zone_keeps_back_colours_of_face_down_cards() -> None:
    zone = CardZone("seat1.cards")
    zone.update(5, ZoneState(cards=((None, False), (None, False)), backs=("blue", "blue")), 0)
    zone.update(9, ZoneState(cards=((None, False), (None, False), (None, False)),
                             backs=("blue", "blue", "red")), 2)
    assert [s.back for s in zone.slots] == ["blue", "blue", "red"]
    zone.update(30, ZoneState(cards=(("Ah", True), (None, False), (None, False)), backs=("blue", "blue", "red")), 3)
    assert zone.slots[0].card == "Ah" and zone.slots[0].back == "blue"


class _Feed:
    """Confirmed zone states in frame order, as the tracker would report them."""

    def __init__(self, machine: KingHighMachine) -> None:
        self.machine, self.states, self.rounds = machine, {}, []

    def __call__(self, frame: int, zone: str, after: ZoneState) -> None:
        before = self.states.get(zone, ZoneState())
        self.states[zone] = after
        self.rounds += self.machine.feed([ZoneChange(zone, frame, before, after)])


def _play(board: list[str], hide_first_for: int = 0, hold_seen_late: bool = False) -> list:
    """Each card dealt to the action box, then moved onto its holding box; with `hold_seen_late` the
    dealer's resting hand hides each holding box until the next card is in the action box."""
    feed = _Feed(KingHighMachine("T1"))
    feed(0, "seat1.pokerpot", ZoneState(chip_total=10.0))
    f = 10
    for k, card in enumerate(board, start=1):
        feed(f, "board.action", up(card))
        if k > 1 and hold_seen_late:
            feed(f + 5, f"board.card{k - 1}", up(board[k - 2]))
        if k == 1 and hide_first_for:  # the dealer's hand over the card, then it is seen again
            feed(f + 3, "board.action", ZoneState())
            feed(f + 3 + hide_first_for, "board.action", up(card))
        feed(f + 30, "board.action", ZoneState())
        if not hold_seen_late or k == len(board):
            feed(f + 31, f"board.card{k}", up(card))
        f += 50
    feed(f, "seat1.pokerpot", ZoneState())
    for k in range(1, len(board) + 1):
        feed(f + 5, f"board.card{k}", ZoneState())
    return feed.rounds + feed.machine.finish()


def test_king_high_repeated_board_card_is_dealt_again() -> None:
    board = ["7h", "7h", "Kd", "2c", "7h"]
    (rnd,) = _play(board)
    assert [c.card for c in rnd.cards if c.owner == "board"] == board
    assert not any("cards seen in the action box" in n for n in rnd.notes)


def test_king_high_repeat_counts_when_the_holding_box_is_seen_late() -> None:
    board = ["7h", "7h", "Kd", "Kd", "2c"]
    (rnd,) = _play(board, hold_seen_late=True)
    cards = [c for c in rnd.cards if c.owner == "board"]
    assert [c.card for c in cards] == board
    assert [c.frame for c in cards] == [10 + 50 * k for k in range(5)]  # dated to when each came


def test_king_high_card_hidden_for_a_moment_is_one_card() -> None:
    board = ["7h", "9s", "Kd", "2c", "Qh"]
    (rnd,) = _play(board, hide_first_for=4)
    assert [c.card for c in rnd.cards if c.owner == "board"] == board


def test_pick2_cards_carry_the_deck_back_the_camera_saw(reconstruct) -> None:
    scripted, got, _ = reconstruct("pick-2-poker", 3, 12)
    for truth, rnd in zip((s.round for s in scripted), got, strict=True):
        want = {c.back for c in truth.cards}
        assert len(want) == 1 and {c.back for c in rnd.cards} == want, rnd.round_id
