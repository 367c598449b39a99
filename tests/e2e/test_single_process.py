"""`WODI_SINGLE_PROCESS=true` on PostgreSQL: the only writer, enforced at start-up by an advisory lock."""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest

from app.services.platform.writers_lock import REFUSED
from tests.api.table import Table
from tests.e2e.server import ROOT, Server

pytestmark = pytest.mark.postgres


def refused_start(database_url: str, **env: str) -> str:
    """Start a server that must refuse to run; its stderr."""
    server = Server(database_url, **env)
    done = subprocess.run([sys.executable, "-m", "app"], cwd=ROOT, env=server.env,
                          capture_output=True, timeout=60, check=False)
    assert done.returncode != 0
    return done.stderr.decode()


async def test_a_single_process_server_is_alone_on_its_database(database_url: str) -> None:
    single = Server(database_url, WODI_SINGLE_PROCESS="true").start()
    try:
        async with httpx.AsyncClient(base_url=single.base_url) as client:
            table = Table(client, 4)
            await table.open()
            assert (await table.snap(0))["status"] == "in_progress"
        assert REFUSED[True] in refused_start(database_url, WODI_SINGLE_PROCESS="true")
        assert REFUSED[False] in refused_start(database_url)
    finally:
        single.stop()


async def test_a_single_process_server_does_not_start_beside_a_shared_one(database_url: str) -> None:
    shared = Server(database_url).start()
    try:
        assert REFUSED[True] in refused_start(database_url, WODI_SINGLE_PROCESS="true")
        second = Server(database_url).start()  # shared processes share the database with each other
        second.stop()
    finally:
        shared.stop()
    Server(database_url, WODI_SINGLE_PROCESS="true").start().stop()  # and once they are gone, it starts
