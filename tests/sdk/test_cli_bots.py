"""Through the command line against a real server (uvicorn in a subprocess, SQLite or PostgreSQL) and its official
bots: `wodi-agent register`, then `wodi-agent play` with the example random agent plays a complete undercover and
a complete werewolf match, printing a progress line and the outcome; `wodi-agent benchmark` prints its report
alone on stdout."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from wodi_client import AsyncWodi, Wodi, cli, play
from wodi_client.examples.undercover_rules import UndercoverRules

from tests.conftest import _wipe
from tests.e2e.server import ROOT, Server
from tests.sdk.table import START

SDK = ROOT / "sdk" / "python"


def with_bots(database_url: str, fill_after: float) -> Server:
    """A started server whose official bots fill a waiting room `fill_after` seconds after it opens."""
    return Server(database_url, WODI_BOTS_ENABLED="true", WODI_BOT_FILL_AFTER=str(fill_after),
                  WODI_OFFICIAL_BOT_KEY="test-kit-official-key").start(timeout=START)


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    running = with_bots(database_url, 0.5)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
async def wiped(database_url: str) -> AsyncIterator[None]:
    yield
    await _wipe(database_url)


def wodi_agent(server: Server, *args: str, key: str | None = None,
               cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`wodi-agent …` as a user runs it (the kit on the path, as `pip install ./sdk/python` puts it)."""
    env = {**os.environ, "PYTHONPATH": str(SDK), "WODI_BASE_URL": server.base_url}
    if key:
        env["WODI_API_KEY"] = key
    return subprocess.run([sys.executable, "-m", "wodi_client", *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=600, check=False)


# A short night clock: when the wolves split their kill, the night waits for it (a minute by default).
@pytest.mark.parametrize(("game", "config"), [("undercover", '{"n_players": 4, "n_undercover": 1}'),
                                              ("werewolf", '{"n_players": 6, "night_timeout": 10}')])
async def test_the_random_agent_plays_a_match_against_the_bots(server: Server, wiped: None, game: str,
                                                               config: str, tmp_path: Path) -> None:
    registered = wodi_agent(server, "register", f"cli-{game}")
    assert registered.returncode == 0, registered.stderr
    key = registered.stdout.strip().removeprefix("WODI_API_KEY=")
    assert key.startswith("ck_live_")
    played = wodi_agent(server, "play", "--game", game, "--config", config, "--agent",
                        "wodi_client.examples.random_agent:RandomAgent", key=key, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert f"[1/1] {game} " in played.stderr  # the progress line
    outcome = [line for line in played.stdout.splitlines() if line.startswith("match ")]
    assert len(outcome) == 1 and " finished: " in outcome[0], played.stdout
    match_id = outcome[0].split()[1]
    async with httpx.AsyncClient(base_url=server.base_url) as client:
        final = (await client.get(f"/api/matches/{match_id}")).json()
        assert final["status"] == "finished" and final["game"] == game
        names = [p["name"] for p in final["players"]]
        assert f"cli-{game}" in names and sum(n.startswith("bot_") for n in names) == len(names) - 1
        me = (await client.get("/api/agents/me", headers={"Authorization": f"Bearer {key}"})).json()
        assert me["total_matches"] == 1


def test_the_sync_face_plays_a_match(server: Server, database_url: str) -> None:
    with Wodi(server.base_url) as client:
        client.register("sync-face")
        key = client.api_key
        assert key and client.me().name == "sync-face"
    records = play(server.base_url, key, UndercoverRules(), "undercover", config={"n_players": 4, "n_undercover": 1})
    assert len(records) == 1 and records[0].status == "finished" and records[0].won is not None
    asyncio.run(_wipe(database_url))


async def test_play_refuses_a_game_the_server_does_not_play(server: Server, wiped: None) -> None:
    key = wodi_agent(server, "register", "cli-nogame").stdout.strip().removeprefix("WODI_API_KEY=")
    played = wodi_agent(server, "play", "--game", "chess", "--agent",
                        "wodi_client.examples.random_agent:RandomAgent", key=key)
    assert played.returncode == 2 and "unknown_game" in played.stderr


async def test_benchmark_plays_a_run_through_the_command_line(server: Server, wiped: None) -> None:
    key = wodi_agent(server, "register", "cli-bench").stdout.strip().removeprefix("WODI_API_KEY=")
    ran = wodi_agent(server, "benchmark", "--game", "undercover", "--games", "2", "--config",
                     '{"n_players": 4, "n_undercover": 1}', "--agent",
                     "wodi_client.examples.random_agent:RandomAgent", key=key)
    assert ran.returncode == 0, ran.stderr  # issue 30's API: both games played, the report printed
    report = json.loads(ran.stdout)  # stdout is the report alone, for `| jq`
    assert report["status"] == "finished" and report["played"] == 2
    assert ran.stderr.count(" finished: ") == 2  # the progress and each match's outcome go to stderr
    assert "[1/2] undercover " in ran.stderr and "[2/2] undercover " in ran.stderr


def test_ctrl_c_cancels_the_benchmark_run(server: Server, wiped: None) -> None:
    """Interrupting `wodi-agent benchmark` cancels the run on the server (not left to time out and be taken over):
    the report so far is printed on stdout, the exit code is 130, and the agent is free at once."""
    key = wodi_agent(server, "register", "cli-bench-stop").stdout.strip().removeprefix("WODI_API_KEY=")
    env = {**os.environ, "PYTHONPATH": str(SDK), "WODI_BASE_URL": server.base_url, "WODI_API_KEY": key}
    # As from a terminal: a shell's background job (CI's) starts its children with SIGINT ignored.
    command = ["-c", "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
               "sys.argv[0] = 'wodi-agent'; runpy.run_module('wodi_client', run_name='__main__')"]
    process = subprocess.Popen([sys.executable, *command, "benchmark", "--game", "undercover", "--games", "50",
                                "--agent", "wodi_client.examples.random_agent:RandomAgent"], env=env, cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        with httpx.Client(base_url=server.base_url) as http:
            for _ in range(600):
                runs = (http.get("/api/agents/cli-bench-stop/benchmarks")).json()["benchmarks"]
                if runs:
                    break
                time.sleep(0.05)
            time.sleep(1.0)  # the kit is playing the first match
            process.send_signal(__import__("signal").SIGINT)
            out, err = process.communicate(timeout=60)
            assert process.returncode == 130, err
            printed = json.loads(out)
            assert printed["status"] == "stopped" and printed["report"]["ended_reason"] == "cancelled", err
            view = (http.get(f"/api/benchmarks/{runs[0]['benchmark_id']}")).json()
            assert view["status"] == "stopped" and view["report"] == printed["report"]
            active = http.get("/api/agents/me/active", headers={"Authorization": f"Bearer {key}"})
            assert active.json()["active"] is None
    finally:
        process.kill()


class LaggingWodi(AsyncWodi):
    """A client whose benchmark reads show a running run's `played` before the server has counted any match."""

    async def benchmark(self, benchmark_id: str) -> dict[str, Any]:
        run = await super().benchmark(benchmark_id)
        return {**run, "played": 0} if run.get("status") == "running" else run


def test_benchmark_counts_its_games_itself(server: Server, database_url: str, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    with Wodi(server.base_url) as client:
        client.register("cli-bench-count")
        key = str(client.api_key)
    monkeypatch.setattr(cli, "AsyncWodi", LaggingWodi)
    code = cli.main(["--base-url", server.base_url, "benchmark", "--game", "undercover", "--games", "2", "--config",
                     '{"n_players": 4, "n_undercover": 1}', "--agent", "wodi_client.examples.random_agent:RandomAgent",
                     "--key", key])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["played"] == 2
    assert "[1/2] undercover " in err and "[2/2] undercover " in err  # the second game, whatever `played` says
    asyncio.run(_wipe(database_url))
