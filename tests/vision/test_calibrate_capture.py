from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
import yaml
from click.testing import CliRunner

from pipelines.config import Calibration, ReferencePoint
from pipelines.games.layout import layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.render import render
from pipelines.sim.scene import Scene
from pipelines.sim.video import VideoSink
from pipelines.vision.calibrate import CalibrationError, apply_homography, layout_fit, table_to_image
from pipelines.vision.capture import CaptureError, FrameSource
from pipelines.vision.cli import calibrate


def _points(H: np.ndarray, table_mm: list[tuple[float, float]]) -> list[ReferencePoint]:
    img = apply_homography(H, np.array(table_mm))
    return [ReferencePoint(table_mm=t, image_px=tuple(p)) for t, p in zip(table_mm, img, strict=True)]


def test_reference_points_reproduce_the_camera_homography():
    layout = layout_for("high-tie")
    cam = Camera.overhead(layout, np.random.default_rng(11))
    pts = [(0, 0), (2100, 0), (2100, 1050), (0, 1050), (1050, 500), (400, 800)]
    H = table_to_image(Calibration(points=_points(cam.H, pts)))
    probe = np.array([[123.0, 456.0], [1900.0, 80.0]])
    assert np.abs(apply_homography(H, probe) - cam.project(probe)).max() < 0.01


def test_bad_reference_points_fail_clearly():
    collinear = [ReferencePoint(table_mm=(x, 0), image_px=(x, 0)) for x in (0, 100, 200, 300)]
    with pytest.raises(CalibrationError, match="degenerate"):
        table_to_image(Calibration(points=collinear))
    cam = Camera.overhead(layout_for("high-tie"), np.random.default_rng(1))
    pts = _points(cam.H, [(0, 0), (2100, 0), (2100, 1050), (0, 1050), (1000, 500)])
    pts[4] = ReferencePoint(table_mm=(1000, 500), image_px=(pts[4].image_px[0] + 80, pts[4].image_px[1]))
    with pytest.raises(CalibrationError, match="reprojection error"):
        table_to_image(Calibration(points=pts))


def test_a_calibration_made_for_another_frame_is_spotted():
    layout = layout_for("pick-2-poker")
    cam = Camera.overhead(layout, np.random.default_rng(5))
    assert layout_fit(layout, cam.H, cam.size) is None
    quarter = np.diag([0.25, 0.25, 1.0]) @ cam.H  # made on frames a quarter the size (the zones in a corner)
    assert "cover only 4 %" in layout_fit(layout, quarter, cam.size)
    aside = np.array([[1.0, 0, cam.size[0] / 2], [0, 1, 0], [0, 0, 1]]) @ cam.H  # half the layout off the frame
    assert "outside the 1280x720 frame" in layout_fit(layout, aside, cam.size)


@pytest.fixture
def video(tmp_path):
    layout = layout_for("king-high")
    rng = np.random.default_rng(2)
    cam = Camera.overhead(layout, rng, size=(320, 180))
    path = tmp_path / "v.mp4"
    with VideoSink(path, 10, cam.size) as sink:
        for _ in range(8):
            sink.write(render(layout, Scene(), cam, rng)[0])
    return path, cam


def test_frame_source_reads_a_video_and_refuses_a_truncated_one(video, tmp_path):
    path, _ = video
    frames = list(FrameSource(path))
    assert [f.index for f in frames] == list(range(8))
    assert frames[0].image.shape == (180, 320, 3) and frames[3].timestamp == pytest.approx(0.3)
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 3])
    with pytest.raises(CaptureError, match=r"cut\.mp4"):
        list(FrameSource(cut))
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video at all" * 100)
    with pytest.raises(CaptureError, match=r"junk\.mp4"):
        list(FrameSource(junk))


def test_calibrate_command_draws_the_overlay(video, tmp_path):
    path, cam = video
    pts = _points(cam.H, [(0, 0), (1800, 0), (1800, 900), (0, 900), (900, 450)])
    cfg = {"table_id": "T1", "game": "king-high",
           "camera": {"source": str(path), "calibration": {"points": [p.model_dump() for p in pts]}}}
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(cfg))
    out = tmp_path / "overlay.png"
    res = CliRunner().invoke(calibrate, ["--table", str(tmp_path / "t.yaml"), "--out", str(out), "--frame", "3"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output.strip().splitlines()[-1])
    assert summary["reprojection_error_px"] < 0.5 and out.exists() and out.stat().st_size > 1000
    ref = tmp_path / "empty.png"
    res = CliRunner().invoke(calibrate, ["--table", str(tmp_path / "t.yaml"), "--out", str(out), "--frame", "3",
                                         "--save-reference", str(ref)])
    assert res.exit_code == 0, res.output
    assert cv2.imread(str(ref)).shape[:2] == (cam.size[1], cam.size[0])  # the frame itself, no overlay
    res = CliRunner().invoke(calibrate, ["--table", str(tmp_path / "t.yaml"), "--out", str(out), "--frame", "99"])
    assert res.exit_code != 0 and "no frame 99" in res.output
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump({**cfg, "game": "roulette"}))
    res = CliRunner().invoke(calibrate, ["--table", str(tmp_path / "bad.yaml"), "--out", str(out)])
    assert res.exit_code != 0 and "bad.yaml" in res.output and "game" in res.output


def test_calibrate_command_warns_of_a_camera_of_another_size(video, tmp_path):
    path, cam = video
    cfg = {"table_id": "T1", "game": "king-high",
           "camera": {"source": str(path), "frame_size": [1280, 720], "calibration": {"homography": cam.H.tolist()}}}
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(cfg))
    res = CliRunner().invoke(calibrate, ["--table", str(tmp_path / "t.yaml"), "--out", str(tmp_path / "o.png")])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output.strip().splitlines()[-1])
    assert summary["frame_size"] == [320, 180]
    assert summary["problems"] == ["the camera gives 320x180 frames but the calibration was made on 1280x720 "
                                   "(camera.frame_size): recalibrate (tablewatch calibrate) and set "
                                   "camera.frame_size to the camera's size, or set the camera back"]


def test_a_camera_not_there_yet_is_waited_for(tmp_path):
    # A table's process may start before its camera: the stream is tried with the reconnect back-off.
    import functools
    import http.server
    import socket
    import threading
    import time

    path = tmp_path / "www" / "cam.avi"
    layout = layout_for("king-high")
    rng = np.random.default_rng(3)
    cam = Camera.overhead(layout, rng, size=(320, 180))
    with VideoSink(path, 10, cam.size) as sink:
        for _ in range(6):
            sink.write(render(layout, Scene(), cam, rng)[0])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(path.parent))
    servers = []

    def camera_boots() -> None:
        time.sleep(0.6)
        servers.append(http.server.ThreadingHTTPServer(("127.0.0.1", port), handler))
        servers[0].serve_forever()

    threading.Thread(target=camera_boots, daemon=True).start()
    try:
        frames = []
        for f in FrameSource(f"http://127.0.0.1:{port}/cam.avi", reconnect_attempts=4, reconnect_delay_s=0.2):
            frames.append(f.image.shape)
            if len(frames) == 6:  # (a file served as a stream would be read again after its end: a reconnect)
                break
        assert frames == [(180, 320, 3)] * 6
    finally:
        while not servers:
            time.sleep(0.05)
        servers[0].shutdown()
    gone = FrameSource("rtsp://127.0.0.1:1/none", reconnect_attempts=2, reconnect_delay_s=0.01)
    with pytest.raises(CaptureError, match=r"rtsp://127\.0\.0\.1:1/none: cannot open stream .*; tried 3 times"):
        list(gone)
