"""A card area read with doubt twice running, and then confidently with every card dealt there in view:
both doubts are settled, not only the last one."""

from __future__ import annotations

from dataclasses import replace

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs

from .conftest import rounds_with_edited_observations


def _each_card_misread_at_first(zone: str, misread: dict[str, str]):
    """Held-out 3 Card Monster video: each of a player's cards, as it is turned over, read as another for
    its first three frames (confirmed so), then as it is two frames in three for 15 frames (a Qh read
    among Qd): its majority changes hands 12 frames on, and the area is in doubt until the misreading
    stops; the cards turned after the first change hands while the first is still in doubt (a second
    doubtful reading). Then every card reads clearly."""
    first_up: dict[str, int] = {}

    def edit(frame: int, obs: FrameObs) -> None:
        zo = obs.get(zone)
        if zo is None:
            return
        for k, c in enumerate(zo.cards):
            if not c.face_up or c.card not in misread:
                continue
            o = frame - first_up.setdefault(c.card, frame)
            if o < 3 or (o < 18 and o % 3 == 1):
                zo.cards[k] = replace(c, card=misread[c.card], confidence=0.9, uncertain=False)
    return edit


def test_a_card_area_read_with_doubt_twice_and_then_clearly_is_no_doubt(reconstruct):
    scripted, perfect, setup = reconstruct("3-card-monster", 2, 11)
    truth = scripted[0].round
    assert compare_rounds([r for r in perfect if r.round_id == truth.round_id], [truth])[0].result == "exact"
    owner = next(c.owner for c in truth.cards if c.owner.startswith("seat:"))
    zone = f"seat{owner.split(':')[1]}.cards"
    dealt = {c.card for c in truth.cards}
    others = iter(c for c in ("2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s") if c not in dealt)
    misread = {c.card: next(others) for c in truth.cards if c.owner == owner}
    got = rounds_with_edited_observations("3-card-monster", scripted, setup,
                                          _each_card_misread_at_first(zone, misread))
    rnd = next(r for r in got if r.round_id == truth.round_id)
    assert not any(zone in n for n in rnd.notes), rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == "exact"
