"""Card crops for the classifier: a card under the dealer's hand gets more of them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from pipelines.sim.render import HIDDEN_LIMIT
from pipelines.vision.training import build_training_sets, crops_for


@pytest.mark.parametrize(("covered", "extra"), [(0.0, 0), (HIDDEN_LIMIT / 2, 4), (HIDDEN_LIMIT, 8), (0.9, 8)])
def test_a_card_gets_extra_crops_in_proportion_to_how_much_of_it_is_covered(covered, extra):
    assert crops_for(covered, 2, 8) == 2 + extra
    assert crops_for(covered, 2, 0) == 2


def _crops(root: Path) -> Counter:
    """Crops per card file stem (frame and label), over both splits."""
    return Counter(p.stem.rsplit("_", 1)[0] for p in (root / "cls").glob("*/*/*.png"))


def test_cards_under_the_dealers_hand_get_more_crops(tmp_path):
    # Extra crops draw their jitter from the frame's generator, as the 2026-11-26 training data were rendered,
    # so a boosted set's later frames differ from a plain set's of the same seed; each is reproducible.
    kw = {"images": 8, "seed": 5, "crops_per_card": 1, "progress": False, "mix": (1.0, 1.0)}
    plain = build_training_sets(tmp_path / "plain", **kw)
    boosted = build_training_sets(tmp_path / "boosted", covered_crops=8, **kw)
    assert (plain["covered_crops"], boosted["covered_crops"]) == (0, 8)
    few, many = _crops(tmp_path / "plain"), _crops(tmp_path / "boosted")
    assert set(few.values()) == {1}
    # Scripted rounds put the dealer's hand over some cards: those get more, the clear ones one each.
    assert max(many.values()) > 1 and sum(1 for n in many.values() if n == 1) > len(many) / 2
