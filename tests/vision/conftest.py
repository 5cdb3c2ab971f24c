from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import supervision as sv

sys.path.insert(0, str(Path(__file__).parent))  # the helper modules next to the tests

from pipelines.games.cards import DECK


def labels_to_detections(labels) -> sv.Detections:
    """What a perfect detector would return for the renderer's labels."""
    names, cards, chips = [], [], []
    for lb in labels:
        face = lb.cls in DECK
        names.append("card" if face else lb.cls)
        cards.append(lb.cls if face else "")
        chips.append(int(lb.cls[5:]) if lb.cls.startswith("chip_") else 0)
    n = len(labels)
    return sv.Detections(
        xyxy=np.array([lb[1:] for lb in labels], np.float32).reshape(-1, 4),
        confidence=np.ones(n, np.float32),
        data={"class_name": np.array(names, object), "card": np.array(cards, object),
              "chip_value": np.array(chips, np.int32), "card_confidence": np.ones(n, np.float32),
              "uncertain": np.zeros(n, bool)},
    )


@pytest.fixture
def oracle():
    return labels_to_detections
