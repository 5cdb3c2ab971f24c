"""A recorded video played as a live camera: an MJPEG stream over HTTP, in real time.

For trying `tablewatch watch` against something that behaves like a table's IP camera, without one: the
camera sends frames at its own rate by the wall clock whether or not the viewer keeps up, and a viewer that
falls behind misses frames, as it would with a camera (each is sent the frame of the moment, never a
backlog beyond what the socket holds). Each viewer sees the video from its start when it connects; after
the last frame the camera keeps showing it (the table after the session) unless `loop`.
"""

from __future__ import annotations

import http.server
import socket
import threading
import time
from pathlib import Path

import cv2

BOUNDARY = b"tablewatchframe"


class LiveCameraError(RuntimeError):
    """A video that cannot be played as a camera."""


class LiveCamera:
    """`with LiveCamera(video, fps=30) as cam: FrameSource(cam.url)`. `fps`: the camera's rate (default the
    video's); the video keeps its own timing (a 10 frames/s video sent at 30 repeats each frame three times)."""

    def __init__(self, video: str | Path, *, fps: float | None = None, host: str = "127.0.0.1", port: int = 0,
                 loop: bool = False, quality: int = 85, send_buffer: int | None = None) -> None:
        self.video = Path(video)
        self.jpegs, self.video_fps = _encoded(self.video, quality)
        self.fps = fps or self.video_fps
        if self.fps <= 0:
            raise LiveCameraError(f"{self.video}: camera rate must be positive, got {self.fps}")
        self.loop = loop
        self.send_buffer = send_buffer  # bytes the camera's socket holds for a slow viewer (None: the system's)
        self.frames_sent = 0
        self.frames_skipped = 0  # frames not sent because a viewer was not reading (its socket was full)
        self._paused_until = 0.0
        self._server = http.server.ThreadingHTTPServer((host, port), self._handler())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/camera.mjpg"

    @property
    def duration_s(self) -> float:
        return len(self.jpegs) / self.video_fps

    def frame_at(self, elapsed_s: float) -> int:
        """The video frame the camera shows `elapsed_s` after a viewer connected."""
        k = int(elapsed_s * self.video_fps)
        return k % len(self.jpegs) if self.loop else min(k, len(self.jpegs) - 1)

    def _handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        camera = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if camera.send_buffer:
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, camera.send_buffer)
                self.send_response(200)
                self.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={BOUNDARY.decode()}")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                camera._stream(self.wfile)

            def log_message(self, *args: object) -> None:  # a camera does not log each request
                pass

        return Handler

    def _stream(self, out) -> None:
        t0, tick = time.monotonic(), 0
        try:
            while True:
                if time.monotonic() < self._paused_until:  # a camera that hangs: nothing sent, time goes on
                    tick = int((time.monotonic() - t0) * self.fps)
                    time.sleep(0.01)
                    continue
                jpeg = self.jpegs[self.frame_at(time.monotonic() - t0)]
                out.write(b"--%s\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n%s\r\n"
                          % (BOUNDARY, len(jpeg), jpeg))
                self.frames_sent += 1
                # The next tick by the wall clock: a write that blocked (a slow viewer) skips the ticks it took.
                now_tick = int((time.monotonic() - t0) * self.fps)
                self.frames_skipped += max(0, now_tick - (tick + 1))
                tick = max(tick + 1, now_tick)
                time.sleep(max(0.0, tick / self.fps - (time.monotonic() - t0)))
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass  # the viewer went away

    def pause(self, seconds: float) -> None:
        """Send nothing for `seconds`, keeping the connection: a camera that hangs for a moment."""
        self._paused_until = time.monotonic() + seconds

    def start(self) -> LiveCamera:
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True, name="live camera")
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> LiveCamera:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _encoded(video: Path, quality: int) -> tuple[list[bytes], float]:
    """Every frame of the video as JPEG (held in memory: a camera must not wait on the decoder), and its rate."""
    cap = cv2.VideoCapture(str(video))
    if not cap.isOpened():
        raise LiveCameraError(f"{video}: cannot open the video")
    fps = cap.get(cv2.CAP_PROP_FPS) or 10.0
    jpegs: list[bytes] = []
    try:
        while True:
            ok, image = cap.read()
            if not ok:
                break
            jpegs.append(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes())
    finally:
        cap.release()
    if not jpegs:
        raise LiveCameraError(f"{video}: no frame could be decoded")
    return jpegs, fps
