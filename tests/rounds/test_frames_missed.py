"""Frames a live camera lost (the analysis fell behind) send the rounds they fall in to review."""

from __future__ import annotations

from itertools import pairwise

from pipelines.rounds.compare import compare_rounds

from .conftest import perfect_path


def _rounds_losing(game: str, scripted, setup, lost: range, tell: bool) -> list:
    """The session through the perfect observation with the frames of `lost` never seen; with `tell`, the
    machine is told of them as `rounds_from_changes` tells it of a live camera's."""
    mapper, tracker, machine = perfect_path(game, setup)
    got = []
    for frame, scene in enumerate(s for r in scripted for s in r.scenes):
        if frame in lost:
            continue
        if tell and frame == lost.stop:
            machine.frames_missed(lost.start, lost.stop - 1)
        got += machine.feed(tracker.update(frame, mapper.observe_scene(scene)))
    return got + machine.finish()


def test_a_settlement_among_lost_frames_is_reviewed_not_read_wrong(reconstruct):
    scripted, _, setup = reconstruct("high-tie", 3, 21)
    sides = [s.frames.start for s in scripted[1].round.settlements if s.spot == "side"]
    lost = range(sides[0] - 4, sides[-1] + 7)  # 1.5 s over the side bets' settlements, lost
    truth = [t.round for t in scripted]
    unseen = compare_rounds(_rounds_losing("high-tie", scripted, setup, lost, tell=False), truth)
    assert [v.result for v in unseen] == ["exact", "wrong", "exact"]  # what losing frames silently costs
    told = _rounds_losing("high-tie", scripted, setup, lost, tell=True)
    verdicts = compare_rounds(told, truth)
    assert [v.result for v in verdicts] == ["exact", "incomplete", "exact"]
    assert f"frames {lost.start}-{lost.stop - 1} were not analysed" in " ".join(told[1].notes)


def test_a_round_opening_just_after_lost_frames_is_reviewed(reconstruct):
    scripted, got, setup = reconstruct("high-tie", 3, 21)
    opens = min(w.frames.start for w in scripted[2].round.wagers)
    lost = range(got[1].frames.end + 5, opens + 2)  # after the table was cleared, up to the next round's wagers
    told = _rounds_losing("high-tie", scripted, setup, lost, tell=True)
    results = [v.result for v in compare_rounds(told, [t.round for t in scripted])]
    assert results[:2] == ["exact", "exact"] and results[2] == "incomplete"
    assert any("were not analysed" in n for n in told[2].notes)


def test_the_frames_a_slower_analysis_takes_are_spread_evenly() -> None:
    from pipelines.rounds.perfect import taken

    for rate, kept in ((None, 100), (10, 100), (5, 50), (7, 70), (8.8, 88)):
        got = [i for i in range(100) if taken(i, 10.0, rate)]
        assert len(got) == kept and got[0] == 0
        assert max(b - a for a, b in pairwise(got)) <= (1 if kept == 100 else 2)
