import numpy as np

from pipelines.vision.lasting_none import LastingNone


def test_a_place_is_high_only_when_its_last_readings_all_are():
    memory = LastingNone(frames=3)
    got = [memory.update([[100.0, 50.0]], [p])[0] for p in (0.9, 0.8, 0.95, 0.3, 0.9, 0.91, 0.92)]
    assert np.isnan(got[0]) and np.isnan(got[1])  # too few readings yet
    assert got[2] == 0.8 and got[3] == 0.3 and got[4] == 0.3 and got[5] == 0.3  # the low reading spoils three
    assert got[6] == 0.9


def test_boxes_are_followed_by_place_one_to_one_and_forgotten_when_long_unseen():
    memory = LastingNone(frames=2, radius_mm=6.0, gap=2)
    memory.update([[0.0, 0.0], [15.6, 0.0]], [0.9, 0.1])
    got = memory.update([[15.0, 1.0], [1.0, -1.0]], [0.2, 0.95])  # the order of the boxes changed
    np.testing.assert_allclose(got, [0.1, 0.9])
    assert np.isnan(memory.update([[40.0, 0.0]], [0.9])[0])  # 24 mm from either place: a new one
    memory.update(np.zeros((0, 2)), [])
    memory.update(np.zeros((0, 2)), [])
    assert np.isnan(memory.update([[0.0, 0.0]], [0.9])[0])  # unseen for three frames (gap 2): forgotten


def test_boxes_the_verifier_did_not_look_at_and_repeated_readings_add_nothing():
    memory = LastingNone(frames=2)
    assert np.isnan(memory.update([[0.0, 0.0]], [np.nan])[0])
    assert np.isnan(memory.update([[0.0, 0.0]], [0.9])[0])
    assert np.isnan(memory.update([[0.0, 0.0]], [0.9])[0])  # the same detection carried over: one look
    assert memory.update([[0.5, 0.0]], [0.91])[0] == 0.9
