"""Group commit: what arrives while a batch runs rides the next one; each caller gets its own answer."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.services.match.group_commit import GroupCommit


class Recorder:
    """A runner that records its batches and can be held open until released."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.release = asyncio.Event()
        self.release.set()
        self.fail_batch: Exception | None = None

    async def run(self, key: str, items: list[str]) -> list[object]:
        self.batches.append(list(items))
        await self.release.wait()
        if self.fail_batch is not None:
            raise self.fail_batch
        return [ValueError(f"refused {item}") if item.startswith("bad") else f"{key}:{item}" for item in items]


async def test_commands_arriving_during_a_batch_share_the_next_one() -> None:
    commits = GroupCommit()
    runner = Recorder()
    runner.release.clear()
    first = asyncio.create_task(commits.submit("m1", "a", runner.run))
    await asyncio.sleep(0)  # the drain task starts and holds batch ["a"] open
    await asyncio.sleep(0)
    rest = [asyncio.create_task(commits.submit("m1", item, runner.run)) for item in ("b", "c", "d")]
    await asyncio.sleep(0)
    assert commits.busy("m1")
    runner.release.set()
    assert await first == "m1:a"
    assert [await task for task in rest] == ["m1:b", "m1:c", "m1:d"]
    assert runner.batches == [["a"], ["b", "c", "d"]]
    assert not commits.busy("m1")


async def test_a_refused_command_fails_alone() -> None:
    commits = GroupCommit()
    runner = Recorder()
    results = await asyncio.gather(*(commits.submit("m", item, runner.run) for item in ("x", "bad", "y")),
                                   return_exceptions=True)
    assert results[0] == "m:x" and results[2] == "m:y"
    assert isinstance(results[1], ValueError) and str(results[1]) == "refused bad"


async def test_a_failed_transaction_fails_its_batch_and_the_queue_goes_on() -> None:
    commits = GroupCommit()
    runner = Recorder()
    runner.fail_batch = RuntimeError("database went away")
    results = await asyncio.gather(*(commits.submit("m", item, runner.run) for item in ("p", "q")),
                                   return_exceptions=True)
    assert all(isinstance(r, RuntimeError) for r in results)
    runner.fail_batch = None
    assert await commits.submit("m", "r", runner.run) == "m:r"


async def test_keys_do_not_wait_for_each_other() -> None:
    commits = GroupCommit()
    held, free = Recorder(), Recorder()
    held.release.clear()
    slow = asyncio.create_task(commits.submit("m1", "a", held.run))
    assert await asyncio.wait_for(commits.submit("m2", "b", free.run), 5) == "m2:b"
    assert not slow.done()
    held.release.set()
    assert await slow == "m1:a"


async def _batch_held_open() -> tuple[GroupCommit, Recorder, asyncio.Task[Any]]:
    """A queue whose first batch, ["a"], runs and is held open until the runner is released."""
    commits = GroupCommit()
    runner = Recorder()
    runner.release.clear()
    first = asyncio.create_task(commits.submit("m", "a", runner.run))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    return commits, runner, first


async def _leaves(caller: asyncio.Task[Any]) -> None:
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller


async def test_a_caller_that_goes_away_does_not_cancel_its_command() -> None:
    commits, runner, caller = await _batch_held_open()
    await _leaves(caller)
    runner.release.set()
    assert await commits.submit("m", "b", runner.run) == "m:b"
    assert runner.batches == [["a"], ["b"]], "the abandoned command still ran, before the next one"


async def test_a_queued_command_whose_caller_went_away_still_runs_with_its_batch() -> None:
    commits, runner, first = await _batch_held_open()  # "b" and "c" queue behind it
    gone = asyncio.create_task(commits.submit("m", "b", runner.run))
    stays = asyncio.create_task(commits.submit("m", "c", runner.run))
    await asyncio.sleep(0)
    await _leaves(gone)
    runner.release.set()
    assert (await first, await stays) == ("m:a", "m:c")
    assert runner.batches == [["a"], ["b", "c"]], "the abandoned command rode its batch, in its place"


async def test_an_answer_reaches_its_caller_one_loop_turn_after_its_batch() -> None:
    """Each extra turn of the event loop is a wait behind every other ready callback on a busy server."""
    commits = GroupCommit()
    turns = 0
    running = True

    async def count() -> None:
        nonlocal turns
        while running:
            await asyncio.sleep(0)
            turns += 1

    finished_at: list[int] = []

    async def run(key: str, items: list[str]) -> list[object]:
        await asyncio.sleep(0)
        finished_at.append(turns)
        return [f"{key}:{item}" for item in items]

    counter = asyncio.create_task(count())
    assert await commits.submit("m", "a", run) == "m:a"
    answered_at = turns
    running = False
    await counter
    assert answered_at - finished_at[0] <= 1


async def test_a_command_the_database_rejects_fails_alone() -> None:
    """A transaction that fails for one command's sake is retried one command per transaction."""
    commits = GroupCommit()
    batches: list[list[str]] = []

    async def run(key: str, items: list[str]) -> list[object]:
        batches.append(list(items))
        await asyncio.sleep(0)
        if "poison" in items:
            raise RuntimeError("the database refused the transaction")
        return [f"{key}:{item}" for item in items]

    first = asyncio.create_task(commits.submit("m", "a", run))
    await asyncio.sleep(0)
    rest = [asyncio.create_task(commits.submit("m", item, run)) for item in ("b", "poison", "c")]
    results = await asyncio.gather(first, *rest, return_exceptions=True)
    assert results[0] == "m:a" and results[1] == "m:b" and results[3] == "m:c"
    assert isinstance(results[2], RuntimeError)
    assert batches == [["a"], ["b", "poison", "c"], ["b"], ["poison"], ["c"]]


async def test_a_runner_that_breaks_its_contract_leaves_no_caller_waiting() -> None:
    commits = GroupCommit()

    async def run(_key: str, items: list[str]) -> list[object]:
        return []  # one result too few

    with pytest.raises(RuntimeError, match="produced 0 results"):
        await asyncio.wait_for(commits.submit("m", "a", run), 5)
    assert not commits.busy("m")


class Gone(Exception):
    """Stands for an error about the whole batch (the match is gone, the database is being handed over)."""


async def test_an_error_about_the_whole_batch_answers_every_command_without_retrying_each() -> None:
    commits = GroupCommit(batch_errors=(Gone,))
    runner = Recorder()
    runner.release.clear()
    runner.fail_batch = Gone("handing over")
    first = asyncio.create_task(commits.submit("m", "a", runner.run))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    rest = [asyncio.create_task(commits.submit("m", item, runner.run)) for item in ("b", "c")]
    await asyncio.sleep(0)
    runner.release.set()
    results = await asyncio.gather(first, *rest, return_exceptions=True)
    assert all(isinstance(result, Gone) for result in results)
    assert runner.batches == [["a"], ["b", "c"]]  # not ["b"], ["c"] after a failed ["b", "c"]


async def test_a_job_takes_its_turn_between_batches_so_commands_cannot_starve_it() -> None:
    """A timer (or a join, or the janitor) queues behind the running batch, and commands that arrive after it wait
    for it: the queue is one FIFO per match."""
    commits = GroupCommit()
    runner = Recorder()
    runner.release.clear()

    async def timer() -> str:
        runner.batches.append(["timer"])
        return "fired"

    first = asyncio.create_task(commits.submit("m", "a", runner.run))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    fired = asyncio.create_task(commits.alone("m", timer))
    await asyncio.sleep(0)
    later = [asyncio.create_task(commits.submit("m", item, runner.run)) for item in ("b", "c")]
    await asyncio.sleep(0)
    runner.release.set()
    assert await first == "m:a"
    assert await fired == "fired"
    assert [await task for task in later] == ["m:b", "m:c"]
    assert runner.batches == [["a"], ["timer"], ["b", "c"]]


async def test_a_failing_job_fails_alone() -> None:
    commits = GroupCommit()

    async def broken() -> str:
        raise RuntimeError("no such match")

    async def fine() -> str:
        return "ok"

    results = await asyncio.gather(commits.alone("m", broken), commits.alone("m", fine), return_exceptions=True)
    assert isinstance(results[0], RuntimeError) and results[1] == "ok"
