"""A chip box that ran on over the card beneath is refitted to the chip's end (pipelines/vision/chip_boxes.py)."""

import numpy as np

from pipelines.vision.chip_boxes import chip_centres

CARD = [902.0, 331.0, 940.0, 384.0]  # a card back, 38 x 53 px
ROW = [[891.0, 378.0, 913.0, 401.0], [898.0, 374.0, 919.0, 396.0], [904.0, 369.0, 927.0, 391.0]]


def test_square_boxes_keep_their_centres() -> None:
    got = chip_centres(np.array(ROW), np.array([CARD]))
    assert np.allclose(got, [[902.0, 389.5], [908.5, 385.0], [915.5, 380.0]])


def test_box_running_up_over_a_card_is_refitted_to_its_lower_end() -> None:
    # From a held-out 3 Card Monster frame: the Play stack's top chip lies on the card's lower edge and
    # its box runs 45 px up the card; its centre (923, 362.5) left the stack's row.
    tall = [909.0, 340.0, 937.0, 385.0]
    got = chip_centres(np.array([*ROW, tall]), np.array([CARD]))
    side = np.median([np.sqrt((b[2] - b[0]) * (b[3] - b[1])) for b in ROW])
    assert np.allclose(got[3], [923.0, 385.0 - side / 2])
    assert np.allclose(got[:3], chip_centres(np.array(ROW), np.array([CARD])))


def test_wide_box_running_left_over_a_card_is_refitted_to_its_right_end() -> None:
    card = [100.0, 100.0, 153.0, 138.0]  # a card lying sideways
    wide = [130.0, 110.0, 175.0, 130.0]
    got = chip_centres(np.array([wide]), np.array([card]))
    assert np.allclose(got[0], [165.0, 120.0])  # no square box in the frame: the box's short side is the chip


def test_elongated_box_with_no_card_under_it_keeps_its_centre() -> None:
    tall = [909.0, 340.0, 937.0, 385.0]
    got = chip_centres(np.array([tall]), np.zeros((0, 4)))
    assert np.allclose(got[0], [923.0, 362.5])


def test_over_cards_needs_a_sixth_of_the_chip_on_a_card() -> None:
    from pipelines.vision.chip_boxes import over_cards

    boxes = np.array([CARD,
                      [930.0, 360.0, 950.0, 380.0],  # 10 x 20 px of 20 x 20 on the card: half
                      [937.0, 360.0, 957.0, 380.0],  # 3 px of 20 wide on it: 15 %
                      [938.0, 360.0, 958.0, 380.0],  # 2 px: 10 %, not over the card
                      [0.0, 0.0, 20.0, 20.0]])  # far away
    is_chip = np.array([False, True, True, True, True])
    assert over_cards(boxes, is_chip).tolist() == [False, True, True, False, False]
    assert not over_cards(boxes[1:], is_chip[1:]).any()  # no card in the frame
