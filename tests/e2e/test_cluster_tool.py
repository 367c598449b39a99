"""`python -m tools.cluster`: SIGTERM to it (what a supervisor sends) stops every process it started, and a process
that dies leaves the others serving."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import _wipe
from tests.e2e.server import ROOT, free_port

pytestmark = pytest.mark.postgres


def _ready(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200
    except httpx.TransportError:
        return False


def _until(condition: object, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.2)
    raise AssertionError("timed out")


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False)
    return [int(line) for line in found.stdout.split()]


@pytest.fixture
def cluster(database_url: str) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    port = free_port()
    while free_port() == port + 1:  # two adjacent ports: the second is whatever the first is plus one
        pass
    env = {**os.environ, "WODI_DATABASE_URL": database_url, "WODI_PORT": str(port), "WODI_BOTS_ENABLED": "false",
           "WODI_SHOWCASE": "false", "WODI_LOG_LEVEL": "WARNING", "WODI_RATE_LIMIT_ENABLED": "false"}
    process = subprocess.Popen([sys.executable, "-m", "tools.cluster", "-n", "2"], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL)
    _until(lambda: _ready(port) and _ready(port + 1))
    yield process, port
    for pid in [*_children(process.pid), process.pid]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    process.wait(10)
    asyncio.run(_wipe(database_url))


def test_sigterm_to_the_tool_stops_every_process(cluster: tuple[subprocess.Popen[bytes], int]) -> None:
    process, port = cluster
    children = _children(process.pid)
    assert len(children) == 2
    process.send_signal(signal.SIGTERM)
    assert process.wait(30) == 0
    assert not _ready(port) and not _ready(port + 1)
    for pid in children:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_a_process_that_dies_leaves_the_other_serving(cluster: tuple[subprocess.Popen[bytes], int]) -> None:
    process, port = cluster
    first = min(_children(process.pid))
    os.kill(first, signal.SIGKILL)
    _until(lambda: len(_children(process.pid)) == 1, timeout=10)
    time.sleep(1)  # the tool checks its processes every half second
    assert process.poll() is None
    assert _ready(port) != _ready(port + 1)  # one of the two ports still answers
