"""A payout seen in part for a moment after a hand over it, as its wager is taken, is that payout, not a second one
matching no wager; one that stays is another stack, and the round says so (`ChipInstance.remnant_of`). So is one
seen in part for a moment between two spells under the hand, after which it is read whole again
(`ChipZone.merge_gaps`)."""

from __future__ import annotations

import itertools

import pytest

from pipelines.rounds.compare import compare_rounds
from pipelines.vision.observe import FrameObs, ZoneObs

from .conftest import FPS, nearest_round, rounds_with_edited_observations, scripted_session

GAME = "king-high"
HAND_OVER = 4  # frames the payout's spot reads empty under the hand: more than the tracker's removal_frames


def _long_payouts(scripted, mapper, scenes, longer_than: int):
    """(truth, paid zone, frames) of winning wagers' paid spots read for more than `longer_than` frames without a
    break from the frame their payout first shows, two chips or more."""
    zones = [set(mapper.observe_scene(scene)) for scene in scenes]
    for r in (r.round for r in scripted):
        for s in r.settlements:
            zone = f"seat{s.seat}.{s.spot}.paid"
            first = next((f for f in range(s.frames.start, len(scenes)) if zone in zones[f]), None)
            if s.outcome != "win" or first is None:
                continue
            seen = list(itertools.takewhile(lambda f, z=zone: z in zones[f], range(first, len(scenes))))
            if len(seen) > longer_than and len(mapper.observe_scene(scenes[first])[zone].chips) > 1:
                yield r, zone, seen


@pytest.mark.parametrize("frames_seen", [6, 2 * FPS])
def test_a_payout_seen_in_part_after_a_hand_over_it_is_the_same_payout(frames_seen):
    # Held-out King High video (set Y, seed 11341, round cb66b4f8): a $45 Low payout, read empty for three frames under
    # the hand laying the High Run's payout against it, then $20 (its $25 under that payout) for six frames until the
    # Low and its payout were taken: the round said a payout matched no wager.
    scripted, setup, mapper, scenes = scripted_session(GAME, 3, 4)
    truth, zone, seen = next(_long_payouts(scripted, mapper, scenes, HAND_OVER + 2 * FPS + 5))
    chips = mapper.observe_scene(scenes[seen[0]])[zone].chips
    hidden = range(seen[-1] + 1 - frames_seen - HAND_OVER, seen[-1] + 1 - frames_seen)
    part = range(hidden.stop, seen[-1] + 1)

    def hand_over(frame: int, obs: FrameObs) -> None:
        if frame in hidden:
            obs.pop(zone, None)
        elif frame in part:
            obs[zone] = ZoneObs(chips=sorted(chips)[:-1])

    got = rounds_with_edited_observations(GAME, scripted, setup, hand_over)
    rnd = nearest_round(got, truth)
    brief = frames_seen <= FPS
    assert any("seen in part" in n and zone in n for n in rnd.notes) == brief, rnd.notes
    assert any("matches no wager" in n for n in rnd.notes) != brief, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if brief else "incomplete"), rnd.notes


@pytest.mark.parametrize("frames_seen", [4, FPS + 2])
def test_a_payout_seen_in_part_between_two_spells_under_the_hand_is_the_same_payout(frames_seen):
    # Perfect observation of a fresh 3 Card Monster session (seed 11753, round 1f766b06): a $250 Ante payout read
    # empty under the hand paying the Play beside it, then $50 for four frames, empty again, then $250 again. The
    # $50 joined the $250 after it as one stack, taken for a second payout: the round said it matched no wager.
    scripted, setup, mapper, scenes = scripted_session("3-card-monster", 3, 4)

    def part_of(zone: str, seen: list[int]) -> list[int]:
        """The payout's smallest chip, where that is less than half of it: read alone, it is no stack seen again."""
        chips = mapper.observe_scene(scenes[seen[0]])[zone].chips
        return [min(chips)] if 2 * min(chips) < sum(chips) else []

    truth, zone, seen = next(p for p in _long_payouts(scripted, mapper, scenes, 5 + 2 * HAND_OVER + FPS + 2 + 5)
                             if part_of(*p[1:]))
    first_hidden = range(seen[0] + 5, seen[0] + 5 + HAND_OVER)
    part = range(first_hidden.stop, first_hidden.stop + frames_seen)
    second_hidden = range(part.stop, part.stop + HAND_OVER)

    def hand_over_twice(frame: int, obs: FrameObs) -> None:
        if frame in first_hidden or frame in second_hidden:
            obs.pop(zone, None)
        elif frame in part:
            obs[zone] = ZoneObs(chips=part_of(zone, seen))

    got = rounds_with_edited_observations("3-card-monster", scripted, setup, hand_over_twice)
    rnd = nearest_round(got, truth)
    brief = frames_seen <= FPS
    assert any("matches no wager" in n for n in rnd.notes) != brief, rnd.notes
    assert compare_rounds([rnd], [truth])[0].result == ("exact" if brief else "incomplete"), rnd.notes
