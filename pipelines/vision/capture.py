"""Frames with timestamps from a video file, a stream URL (RTSP/HTTP), a camera index or an image folder.

A stream that drops is reopened (with back-off) instead of ending the watch, and one not there yet at the
start is waited for the same way; a file or folder that cannot be read fails at once with a clear error
naming it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp"}


class CaptureError(RuntimeError):
    """A source that cannot be opened or read."""


@dataclass(frozen=True)
class Frame:
    index: int
    timestamp: float  # seconds from the start of the source
    image: np.ndarray


def _is_stream(source: str) -> bool:
    return source.split("://", 1)[0].lower() in {"rtsp", "rtsps", "http", "https", "rtmp", "udp", "tcp"}


class FrameSource:
    """Iterate `Frame`s. `source`: a path, a folder, a URL, or a camera index ("0")."""

    def __init__(self, source: str | Path | int, fps: float | None = None, reconnect_attempts: int = 5,
                 reconnect_delay_s: float = 1.0) -> None:
        self.source = source
        self.fps_override = fps
        self.reconnect_attempts = reconnect_attempts
        self.reconnect_delay_s = reconnect_delay_s
        text = str(source)
        self.kind = ("camera" if text.isdigit() else "stream" if _is_stream(text)
                     else "folder" if Path(text).is_dir() else "file")
        if self.kind == "file" and not Path(text).exists():
            raise CaptureError(f"{text}: no such video file")
        if self.kind == "folder" and not self._images():
            raise CaptureError(f"{text}: folder holds no images ({', '.join(sorted(IMAGE_SUFFIXES))})")

    def _images(self) -> list[Path]:
        return sorted(p for p in Path(str(self.source)).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def open(self, wait: bool = False) -> cv2.VideoCapture:
        """The source opened (CaptureError if it cannot be). With `wait`, a camera or stream is waited for
        with the reconnect back-off: one still booting when its table's process starts."""
        retries = self.reconnect_attempts if wait and self.kind in ("camera", "stream") else 0
        for attempt in range(1, retries + 1):
            try:
                return self._open_once()
            except CaptureError:
                time.sleep(self.reconnect_delay_s * attempt)
        try:
            return self._open_once()
        except CaptureError as e:
            raise CaptureError(f"{e}; tried {retries + 1} times" if retries else str(e)) from None

    def _open_once(self) -> cv2.VideoCapture:
        text = str(self.source)
        cap = cv2.VideoCapture(int(text) if self.kind == "camera" else text)
        if not cap.isOpened():
            cap.release()
            raise CaptureError(f"{text}: cannot open {self.kind} (not a video OpenCV can decode, or unreachable)")
        return cap

    def __iter__(self) -> Iterator[Frame]:
        if self.kind == "folder":
            yield from self._iter_folder()
        else:
            yield from self._iter_capture()

    def _iter_folder(self) -> Iterator[Frame]:
        fps = self.fps_override or 10.0
        for i, path in enumerate(self._images()):
            image = cv2.imread(str(path))
            if image is None:
                raise CaptureError(f"{path}: not a readable image")
            yield Frame(i, i / fps, image)

    def _iter_capture(self) -> Iterator[Frame]:
        cap = self.open(wait=True)
        fps = self.fps_override or cap.get(cv2.CAP_PROP_FPS) or 10.0
        expected = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0) if self.kind == "file" else 0
        index, failures, t0 = 0, 0, time.monotonic()
        try:
            while True:
                ok, image = cap.read()
                if ok and image is not None:
                    failures = 0
                    ts = index / fps if self.kind == "file" else time.monotonic() - t0
                    yield Frame(index, ts, image)
                    index += 1
                    continue
                if self.kind == "file":
                    if index == 0:
                        raise CaptureError(f"{self.source}: no frame could be decoded (corrupt or empty video)")
                    if expected and index < expected * 0.9:
                        raise CaptureError(
                            f"{self.source}: video ends early at frame {index} of {expected} (truncated or corrupt)")
                    return
                failures += 1  # a live source dropped: reopen with back-off
                if failures > self.reconnect_attempts:
                    raise CaptureError(f"{self.source}: stream lost, {self.reconnect_attempts} reconnects failed")
                cap.release()
                time.sleep(self.reconnect_delay_s * failures)
                try:
                    cap = self._open_once()
                except CaptureError:
                    continue
        finally:
            cap.release()
