"""Writing simulated camera video with OpenCV, and reading it back to check it.

The codec follows the file's extension: `.avi` is Motion-JPEG (MJPG), `.mp4` is MPEG-4 part 2 (mp4v);
both round-trip through this OpenCV build (FFmpeg backend), which the tests check. `.webm` is VP8, which
browsers play: the dashboards' evidence clips.
"""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

import cv2
import numpy as np

CODECS = {".avi": "MJPG", ".mp4": "mp4v", ".webm": "VP80"}


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """OpenCV's FFmpeg wrapper warns on every WebM writer about a tag it then uses anyway (printed by C code,
    so only the file descriptor can be hushed, for the moment the writer opens)."""
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


class VideoError(RuntimeError):
    """A video that cannot be written or read."""


@functools.cache
def can_write(suffix: str) -> bool:
    """Whether this OpenCV build writes videos of this kind (`.webm` needs FFmpeg with VP8)."""
    with tempfile.TemporaryDirectory() as folder:
        try:
            with VideoSink(Path(folder) / f"probe{suffix}", 10, (16, 16)) as sink:
                sink.write(np.zeros((16, 16, 3), np.uint8))
        except VideoError:
            return False
        return (Path(folder) / f"probe{suffix}").stat().st_size > 0


class VideoSink:
    """`with VideoSink(path, fps, (w, h)) as sink: sink.write(frame)` for BGR uint8 frames of that size."""

    def __init__(self, path: str | Path, fps: float, size: tuple[int, int]) -> None:
        self.path = Path(path)
        suffix = self.path.suffix.lower()
        if suffix not in CODECS:
            raise VideoError(f"{self.path}: extension {suffix!r} not supported; use one of {sorted(CODECS)}")
        if fps <= 0:
            raise VideoError(f"{self.path}: fps must be positive, got {fps!r}")
        self.fps, self.size = float(fps), (int(size[0]), int(size[1]))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with quiet_stderr():
            self._writer = cv2.VideoWriter(str(self.path), cv2.VideoWriter_fourcc(*CODECS[suffix]), self.fps,
                                           self.size)
        if not self._writer.isOpened():
            raise VideoError(f"{self.path}: OpenCV could not open a {CODECS[suffix]} writer")
        self.frames = 0

    def write(self, frame: np.ndarray) -> None:
        w, h = self.size
        if frame.dtype != np.uint8 or frame.shape != (h, w, 3):
            raise VideoError(
                f"{self.path}: frame {self.frames} has shape {frame.shape} dtype {frame.dtype}, "
                f"expected ({h}, {w}, 3) uint8"
            )
        self._writer.write(frame)
        self.frames += 1

    def close(self) -> None:
        if self._writer is not None:
            self._writer.release()
            self._writer = None

    def __enter__(self) -> VideoSink:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def read_video(path: str | Path) -> tuple[int, float, tuple[int, int]]:
    """Decode the whole file: (frames actually decoded, fps, (w, h)). Raises VideoError if unreadable."""
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        raise VideoError(f"{path}: OpenCV cannot open it for reading")
    try:
        fps = float(cap.get(cv2.CAP_PROP_FPS))
        size = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        n = 0
        while True:
            ok, _ = cap.read()
            if not ok:
                break
            n += 1
    finally:
        cap.release()
    return n, fps, size


def iter_frames(path: str | Path):
    """Yield the decoded BGR frames of a video file."""
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        raise VideoError(f"{path}: OpenCV cannot open it for reading")
    try:
        while True:
            ok, frame = cap.read()
            if not ok:
                return
            yield frame
    finally:
        cap.release()
