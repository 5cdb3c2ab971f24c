"""The reconstruction benchmark's --plot: real rounds through the perfect path, drawn to a PNG."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_outcome_segments_add_up_to_the_rounds(load_benchmark):
    plot = load_benchmark("reconstruction_plot")
    t = {"rounds": 10, "exact": 5, "wrong": 1, "incomplete": 4, "incomplete_right": 3, "doubts": {}}
    assert plot.segment_counts(t) == [5, 3, 1, 1]
    assert sum(plot.segment_counts(t)) == t["rounds"]


def test_the_benchmark_draws_its_figures(tmp_path, capsys, load_benchmark):
    sys.path.insert(0, str(BENCHMARKS))  # as when run as a script: it imports its plot module by name
    try:
        bench = load_benchmark("reconstruction")
        out = tmp_path / "recon.png"
        assert bench.main(["--mode", "perfect", "--rounds", "2", "--games", "king-high", "pick-2-poker",
                           "--plot", str(out)]) == 0
    finally:
        sys.path.remove(str(BENCHMARKS))
    assert f"plot written to {out}" in capsys.readouterr().out
    image = cv2.imread(str(out))
    assert image is not None and image.shape[1] >= 1000  # a real PNG, both panels wide
    assert (image.std(axis=(0, 1)) > 10).any()  # bars drawn, not a blank canvas
