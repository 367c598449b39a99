"""Run the real server (uvicorn in a subprocess) for end-to-end tests and benchmarks."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """`python -m app` on a free port against `database_url`; `kill()` is a real SIGKILL. No bots and no showcase
    unless a test asks (`WODI_BOTS_ENABLED`, `WODI_SHOWCASE`): tests count the live matches they opened."""

    def __init__(self, database_url: str, port: int | None = None, log: Path | None = None, **env: str) -> None:
        self.port = port or free_port()
        self.log = log  # the server's stderr goes to this file when given (the log tests read it)
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "WODI_DATABASE_URL": database_url, "WODI_PORT": str(self.port),
                    "WODI_PUBLIC_BASE_URL": self.base_url, "WODI_RATE_LIMIT_ENABLED": "false",
                    "WODI_LOG_LEVEL": "WARNING", "WODI_BOTS_ENABLED": "false", "WODI_SHOWCASE": "false", **env}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 90) -> Server:
        stderr = self.log.open("ab") if self.log is not None else None
        self.process = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=self.env, stderr=stderr)
        if stderr is not None:
            stderr.close()  # the child holds its own copy
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base_url}/readyz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.1)
        self.stop()  # a server that did not answer in time must not linger (holding the bots' leader lock)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
