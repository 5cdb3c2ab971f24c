"""detector_accuracy.py --card-errors: every card read wrong drawn as the classifiers saw it, beside its table."""

from __future__ import annotations

import cv2
import numpy as np


def test_a_sheet_holds_one_tile_per_card_read_wrong_in_rows_of_four(tmp_path, load_benchmark):
    bench = load_benchmark("detector_accuracy")
    frame = np.zeros((720, 1280, 3), np.uint8)
    frame[300:350, 600:636] = (255, 255, 255)  # a white card, upright
    tile = bench.error_tile(frame, np.array([600, 300, 636, 350.0]), None, "dealt 9d->Td cov 0.53")
    assert tile.shape == (bench.TILE, 2 * bench.TILE, 3)
    below_caption = tile[20:, :bench.TILE]
    assert below_caption.mean() > 200  # the crop is the card, filling its half
    assert tile[:18].max() > 0  # the caption is drawn
    out = tmp_path / "errors.png"
    bench.write_sheet([tile] * 5, out)
    sheet = cv2.imread(str(out))
    assert sheet.shape == (2 * bench.TILE, 4 * 2 * bench.TILE, 3)
    assert sheet[bench.TILE:, 2 * bench.TILE:].max() == 0  # the second row's free places are blank
    bench.write_sheet([], out)  # no card read wrong: still a picture, saying nothing is there
    assert cv2.imread(str(out)).shape == (bench.TILE, 4 * 2 * bench.TILE, 3)
