"""One write queue per match: every write this process makes to a match waits its turn here, in arrival order.

Seated commands, joins, timers and the janitor all queue per match (FIFO), so a stream of commands cannot starve
a deadline, and a burst of votes holds one pooled connection, not one per waiting voter. The row lock still
serialises writers across processes.

Group commit: a vote phase sends every living seat's vote at the same instant. One transaction per vote would
make the last voter wait for five lock-select-insert-update-commit cycles; here consecutive queued items with the
same runner ride one transaction. Each command still gets its own answer: the rules run one command at a time on
the state the previous one left, and a refused command changes nothing, so it fails alone. If the transaction
itself fails, each command of the batch is tried again in a transaction of its own, so a command the database
rejects fails alone too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")
# run(key, items) → one result per item: a value, or the exception that item's caller should raise.
Runner = Callable[[str, list[Any]], Awaitable[list[Any]]]
_Entry = tuple[Runner, Any, "asyncio.Future[Any]"]


async def _one_by_one(_key: str, jobs: list[Callable[[], Awaitable[Any]]]) -> list[Any]:
    results: list[Any] = []
    for job in jobs:
        try:
            results.append(await job())
        except Exception as exc:  # noqa: BLE001 - this job's own failure is its caller's answer
            results.append(exc)
    return results


class GroupCommit:
    """Per-key FIFO queues with one drain task per busy key."""

    def __init__(self, batch_errors: tuple[type[Exception], ...] = ()) -> None:
        # Errors the runner raises for a batch as a whole (say the match is gone): every command's answer as they
        # are, not a failed transaction to retry one command at a time.
        self._batch_errors = batch_errors
        self._queues: dict[str, list[_Entry]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def busy(self, key: str) -> bool:
        """A write for `key` is queued or running in this process."""
        return key in self._queues

    async def alone(self, key: str, job: Callable[[], Awaitable[T]]) -> T:
        """Run `job` (its own transaction) in its turn in `key`'s queue, and return its result."""
        result: T = await self.submit(key, job, _one_by_one)
        return result

    async def submit(self, key: str, item: Any, run: Runner) -> Any:
        """Queue `item` behind everything queued for `key` and return its own result, or raise its error."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        # A caller that went away never reads its error; mark it read so the loop does not log it as lost.
        future.add_done_callback(lambda done: done.cancelled() or done.exception())
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = []
            task = asyncio.create_task(self._drain(key, queue), name=f"commit-{key}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        queue.append((run, item, future))
        # A caller that goes away (a client's disconnect) cancels only its own future: the command stays queued, runs
        # with its batch, and the drain skips the answer nobody waits for. Awaited directly, not through
        # `asyncio.shield`, whose second future costs every answer one more turn of the event loop.
        return await future

    async def _drain(self, key: str, queue: list[_Entry]) -> None:
        batch: list[_Entry] = []
        try:
            while queue:
                run = queue[0][0]
                size = next((i for i, entry in enumerate(queue) if entry[0] != run), len(queue))
                batch = queue[:size]
                del queue[:size]
                results = await self._run(key, [item for _, item, _ in batch], run)
                for (_, _, future), result in zip(batch, results, strict=True):
                    if future.done():
                        continue
                    if isinstance(result, BaseException):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
        except BaseException as exc:
            # Never leave a caller waiting: whatever went wrong here is every unanswered caller's answer.
            for _, _, future in batch + queue:
                if future.done():
                    continue
                if isinstance(exc, Exception):
                    future.set_exception(exc)
                else:
                    future.cancel()
            if not isinstance(exc, Exception):
                raise  # cancelled (shutdown); an error has reached every caller, who report it
        finally:
            # No await between the last emptiness check and this: a new submit either joined `queue` before
            # the check, or finds no queue and starts a fresh drain.
            del self._queues[key]

    async def _run(self, key: str, items: list[Any], run: Runner) -> list[Any]:
        """Run a batch; if its transaction fails (not a refusal: those come back as results), run each command in a
        transaction of its own, so one command the database rejects cannot fail the others."""
        try:
            results = await run(key, items)
        except self._batch_errors as exc:
            return [exc] * len(items)
        except Exception as exc:  # noqa: BLE001 - the transaction failed; retried one by one below
            if len(items) == 1:
                return [exc]
            results = []
            for item in items:
                try:
                    results += await run(key, [item])
                except Exception as alone:  # noqa: BLE001 - this command's own failure is its answer
                    results.append(alone)
        if len(results) != len(items):
            raise RuntimeError(f"a batch of {len(items)} commands produced {len(results)} results")
        return results
