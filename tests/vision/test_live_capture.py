"""A live camera is read in real time: the newest frame each time, never a backlog, timed by the wall clock."""

from __future__ import annotations

import http.server
import itertools
import re
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from pipelines.games.layout import layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.live_camera import LiveCamera, LiveCameraError
from pipelines.sim.render import render
from pipelines.sim.scene import Scene
from pipelines.sim.video import VideoSink
from pipelines.vision import capture
from pipelines.vision.capture import CaptureError, FrameSource


@pytest.fixture(scope="module")
def video(tmp_path_factory) -> Path:
    """Eight seconds of a table at 10 frames/s, each frame's number written on it."""
    layout = layout_for("high-tie")
    rng = np.random.default_rng(5)
    cam = Camera.overhead(layout, rng, size=(320, 180))
    table = render(layout, Scene(), cam, rng)[0]
    path = tmp_path_factory.mktemp("live") / "table.mp4"
    with VideoSink(path, 10, cam.size) as sink:
        for i in range(80):
            sink.write(cv2.putText(table.copy(), str(i), (10, 30), cv2.FONT_HERSHEY_PLAIN, 2, (255, 255, 255), 2))
    return path


def test_a_pipeline_slower_than_the_camera_falls_behind_by_the_buffer_at_most(video: Path) -> None:
    # A 30 frames/s camera analysed at 10 a second by a pipeline that needs 0.25 s a frame, with half a
    # second of buffer: the oldest frames go, the lag stays bounded, and the frame after a loss says so.
    with LiveCamera(video, fps=30) as cam:
        source = FrameSource(cam.url, fps=10, buffer_s=0.5)
        assert source.probe().live and source.probe().fps == 10
        frames, start = [], time.monotonic()
        for f in source:
            frames.append(f)
            time.sleep(0.25)
            if time.monotonic() - start > 3:
                break
    stats = source.live
    assert 9 <= len(frames) <= 14 and stats.given == len(frames)
    assert stats.captured > 5 * len(frames)  # the camera's frames between ticks were read and let go
    assert 8 <= sum(f.dropped for f in frames) <= stats.dropped  # (the reader went on until stopped)
    assert max(stats.lags) < 0.5 + 0.25 + 0.15  # the buffer, one frame's work, a tick
    for before, f in itertools.pairwise(frames):
        assert f.index - before.index - 1 == f.dropped  # one frame per tick: a gap is exactly the frames lost
    index = np.array([f.index for f in frames])
    assert np.abs(index / 10 - [f.timestamp for f in frames]).max() <= 0.05 + 0.01  # frame / fps: capture time


def test_a_pipeline_that_keeps_up_gets_every_tick_of_a_faster_camera(video: Path) -> None:
    with LiveCamera(video, fps=30) as cam:
        source = FrameSource(cam.url, fps=5)
        frames, start = [], time.monotonic()
        for f in source:
            frames.append(f)
            if time.monotonic() - start > 2:
                break
    index = [f.index for f in frames]
    assert 9 <= len(frames) <= 12 and index == list(range(index[0], index[0] + len(index)))  # 5 a second
    assert source.live.dropped == 0 and not any(f.dropped for f in frames)
    assert max(source.live.lags) < 0.25  # each frame taken as it came


def test_a_camera_that_hangs_for_a_moment_says_the_frames_it_never_sent(video: Path) -> None:
    with LiveCamera(video, fps=30) as cam:
        source = FrameSource(cam.url, fps=10)
        frames, start, paused = [], time.monotonic(), False
        for f in source:
            frames.append(f)
            if not paused and time.monotonic() - start > 1:
                cam.pause(0.6)
                paused = True
            if time.monotonic() - start > 3:
                break
    gaps = [(f.index, f.dropped) for f in frames if f.dropped]
    assert len(gaps) == 1 and 4 <= gaps[0][1] <= 7  # six ticks of 1/10 s with no frame, said once
    at = next(i for i, f in enumerate(frames) if f.dropped)
    assert frames[at].index - frames[at - 1].index - 1 == frames[at].dropped
    assert source.live.unseen == frames[at].dropped and source.live.dropped == 0


def test_a_stream_that_stalls_is_reopened_then_given_up(monkeypatch) -> None:
    # A camera that sends its headers and then nothing: a read must not block for ever.
    monkeypatch.setattr(capture, "READ_TIMEOUT_S", 1.0)
    opened = []

    class Stalls(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            opened.append(time.monotonic())
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=x")
            self.end_headers()
            time.sleep(30)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stalls)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        start = time.monotonic()
        with pytest.raises(CaptureError, match=r"cannot open stream|stream lost"):
            list(FrameSource(f"http://127.0.0.1:{server.server_address[1]}/cam", reconnect_attempts=1,
                             reconnect_delay_s=0.1))
        assert time.monotonic() - start < 15 and len(opened) >= 2  # tried again, and gave up, within seconds
    finally:
        server.shutdown()


def test_a_video_that_cannot_be_played_as_a_camera_is_named(tmp_path: Path) -> None:
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video")
    named = f"{re.escape(str(junk))}: (cannot open the video|no frame could be decoded)"
    with pytest.raises(LiveCameraError, match=named):
        LiveCamera(junk)
