"""A payout seen in part for a moment after a hand over it, as its wager is taken, is that payout, not a second one
matching no wager; one that stays is another stack, and the round says so (`RoundMachine._remnant_of`)."""

from __future__ import annotations

import itertools

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs, ZoneObs

from .conftest import rounds_with_edited_observations, scripted_session

GAME = "king-high"
FPS = 10  # the test machine's (conftest.perfect_path)
HAND_OVER = 4  # frames the payout's spot reads empty under the hand: more than the tracker's removal_frames


@pytest.mark.parametrize("frames_seen", [6, 2 * FPS])
def test_a_payout_seen_in_part_after_a_hand_over_it_is_the_same_payout(frames_seen):
    # Held-out King High video (set Y, seed 11341, round cb66b4f8): a $45 Low payout, read empty for three frames under
    # the hand laying the High Run's payout against it, then $20 (its $25 under that payout) for six frames until the
    # Low and its payout were taken: the round said a payout matched no wager.
    scripted, setup, mapper, scenes = scripted_session(GAME, 3, 4)
    rounds = [r.round for r in scripted]

    zones = [set(mapper.observe_scene(scene)) for scene in scenes]

    def long_payouts():
        """Winning wagers' paid spots read for a while without a break from the frame their payout first shows."""
        for r in rounds:
            for s in r.settlements:
                zone = f"seat{s.seat}.{s.spot}.paid"
                first = next((f for f in range(s.frames.start, len(scenes)) if zone in zones[f]), None)
                if s.outcome != "win" or first is None:
                    continue
                seen = list(itertools.takewhile(lambda f, z=zone: z in zones[f], range(first, len(scenes))))
                if len(seen) > HAND_OVER + 2 * FPS + 5 and len(mapper.observe_scene(scenes[first])[zone].chips) > 1:
                    yield r, zone, seen

    truth, zone, seen = next(long_payouts())
    chips = mapper.observe_scene(scenes[seen[0]])[zone].chips
    hidden = range(seen[-1] + 1 - frames_seen - HAND_OVER, seen[-1] + 1 - frames_seen)
    part = range(hidden.stop, seen[-1] + 1)

    def hand_over(frame: int, obs: FrameObs) -> None:
        if frame in hidden:
            obs.pop(zone, None)
        elif frame in part:
            obs[zone] = ZoneObs(chips=sorted(chips)[:-1])

    got = rounds_with_edited_observations(GAME, scripted, setup, hand_over)
    rnd = min(got, key=lambda r: abs(r.frames.start - truth.frames.start))
    brief = frames_seen <= FPS
    assert any("seen in part" in n and zone in n for n in rnd.notes) == brief, rnd.notes
    assert any("matches no wager" in n for n in rnd.notes) != brief, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if brief else "incomplete"), rnd.notes
