from pathlib import Path

import numpy as np
import pytest
import yaml

from pipelines.games.layout import layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.classes import CLASS_ID, CLASS_NAMES
from pipelines.sim.dataset import export_yolo
from pipelines.sim.render import Label, render
from pipelines.sim.render_scenes import random_scene
from pipelines.sim.video import VideoError, VideoSink, can_write, read_video


def test_export_writes_a_valid_yolo_tree(tmp_path: Path):
    layout = layout_for("pick-2-poker")
    rng = np.random.default_rng(4)
    cam = Camera.overhead(layout, rng)
    items = [render(layout, random_scene(layout, rng), cam, rng) for _ in range(6)]
    counts = export_yolo(items, tmp_path, val_fraction=0.34, seed=1)
    assert counts["train"] + counts["val"] == 6 and counts["val"] >= 1
    assert counts["boxes"] == sum(len(lab) for _, lab in items)
    data = yaml.safe_load((tmp_path / "data.yaml").read_text())
    assert [data["names"][i] for i in range(data["nc"])] == list(CLASS_NAMES)
    for split in ("train", "val"):
        images = sorted((tmp_path / "images" / split).glob("*.jpg"))
        assert len(images) == counts[split]
        for img in images:
            idx = int(img.stem)
            rows = [r.split() for r in (tmp_path / "labels" / split / f"{img.stem}.txt").read_text().splitlines()]
            labels = items[idx][1]
            assert [int(r[0]) for r in rows] == [CLASS_ID[lab.cls] for lab in labels]
            for r, lab in zip(rows, labels, strict=True):
                xc, _yc, w, h = map(float, r[1:])
                assert 0 < w <= 1 and 0 < h <= 1
                assert xc * 1280 == pytest.approx((lab.x1 + lab.x2) / 2, abs=0.01)
                assert h * 720 == pytest.approx(lab.y2 - lab.y1, abs=0.01)


def test_export_rejects_unknown_class(tmp_path: Path):
    frame = np.zeros((10, 10, 3), np.uint8)
    with pytest.raises(ValueError, match="chip_7"):
        export_yolo([(frame, [Label("chip_7", 1, 1, 5, 5)])], tmp_path)


@pytest.mark.parametrize("suffix", [".avi", ".mp4", ".webm"])
def test_video_round_trips_frame_count(tmp_path: Path, suffix):
    path = tmp_path / f"clip{suffix}"
    rng = np.random.default_rng(0)
    with VideoSink(path, 10, (320, 180)) as sink:
        for _ in range(12):
            sink.write(rng.integers(0, 255, size=(180, 320, 3), dtype=np.uint8))
    n, fps, size = read_video(path)
    assert (n, size) == (12, (320, 180)) and fps == pytest.approx(10)


def test_video_rejects_wrong_frame_size(tmp_path: Path):
    with VideoSink(tmp_path / "x.avi", 10, (64, 48)) as sink, pytest.raises(VideoError, match=r"x.avi.*\(48, 64, 3\)"):
        sink.write(np.zeros((10, 10, 3), np.uint8))
    with pytest.raises(VideoError, match="extension"):
        VideoSink(tmp_path / "x.gif", 10, (64, 48))


def test_what_this_build_can_write_is_known_before_a_clip_is_promised():
    assert can_write(".webm") and can_write(".mp4")  # the evidence clips and the simulator's videos
    assert not can_write(".gif")  # not a kind VideoSink writes
