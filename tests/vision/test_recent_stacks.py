"""`RecentStacks`: a small stack read in a zone that held no chips lately is another zone's stack seen in part only
where that zone, which held chips there lately, shows none now (the rest of it under the dealer's hand)."""

from __future__ import annotations

import numpy as np

from pipelines.vision.recent_stacks import RecentStacks

STEP = 15.6  # mm between a stack's chips along the spread
HIGH = np.array([[0.0, 0.0], [STEP, 0.0], [2 * STEP, 0.0], [3 * STEP, 0.0]])  # a $20 High: four $5 chips
SEVEN = np.array([[-28.0, 7.0]])  # a $25 Seven laid against it, in one line with it


def _remembering_the_seven_as_the_highs() -> RecentStacks:
    """King High, video (set A41, seed 13921, round cb66b4f8): in the frame the $25 Seven was laid against the $20
    High, a second box between the two joined them, and the High was read as $45."""
    recent = RecentStacks()
    recent.update({"seat2.high": np.vstack([HIGH, SEVEN])})
    return recent


def test_a_stack_beside_a_zone_still_in_view_is_its_own():
    # Each frame after, the High showed its four chips and the Seven its one: the Seven was given to the High in
    # every frame, and the round said a $45 High was wagered and no Seven.
    recent = _remembering_the_seven_as_the_highs()
    for _ in range(5):
        now = {"seat2.high": HIGH, "seat2.seven": SEVEN}
        assert recent.owner("seat2.seven", SEVEN, now) is None
        recent.update(now)


def test_a_stack_on_a_zones_chips_it_shows_none_of_is_that_zones_seen_in_part():
    # The dealer's hand over the High, one chip of it in view across the spot's edge: the High's, seen in part.
    recent = _remembering_the_seven_as_the_highs()
    assert recent.owner("seat2.seven", SEVEN, {"seat2.seven": SEVEN}) == "seat2.high"
    # ... but not one lying on none of its chips, nor one more than a stack seen in part is taken for
    assert recent.owner("seat2.seven", SEVEN + 3 * STEP, {"seat2.seven": SEVEN + 3 * STEP}) is None
    three = np.vstack([SEVEN, HIGH[:2]])
    assert recent.owner("seat2.seven", three, {"seat2.seven": three}) is None
