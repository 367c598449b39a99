"""Group commit: commands for one match that arrive while its writer is busy are applied together.

A vote phase sends every living seat's vote at the same instant. One transaction per vote would make the
last voter wait for five lock-select-insert-update-commit cycles; here the first command of a burst starts
a drain task for its key, and every command queued meanwhile rides the next transaction. Each command still
gets its own answer: the rules run one command at a time on the state the previous one left, and a refused
command changes nothing, so it fails alone. If the transaction itself fails, each command of the batch is tried
again in a transaction of its own, so a command the database rejects fails alone too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

Item = TypeVar("Item")

# run(key, items) → one result per item: a value, or the exception that item's caller should raise.
Runner = Callable[[str, list[Item]], Awaitable[list[Any]]]


class GroupCommit(Generic[Item]):
    """Per-key FIFO queues with one drain task per busy key."""

    def __init__(self, batch_errors: tuple[type[Exception], ...] = ()) -> None:
        # Errors the runner raises for a batch as a whole (the match is gone, the database is being handed over):
        # every command's answer as they are, not a failed transaction to retry one command at a time.
        self._batch_errors = batch_errors
        self._queues: dict[str, list[tuple[Item, asyncio.Future[Any]]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def busy(self, key: str) -> bool:
        """A batch for `key` is queued or running in this process."""
        return key in self._queues

    async def submit(self, key: str, item: Item, run: Runner[Item]) -> Any:
        """Queue `item` behind `key`'s running batch (if any) and return its own result, or raise its error."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        # A caller that went away never reads its error; mark it read so the loop does not log it as lost.
        future.add_done_callback(lambda done: done.cancelled() or done.exception())
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = []
            task = asyncio.create_task(self._drain(key, queue, run), name=f"commit-{key}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        queue.append((item, future))
        # The caller going away (client disconnect) must not cancel the command for the rest of the batch.
        return await asyncio.shield(future)

    async def _drain(self, key: str, queue: list[tuple[Item, asyncio.Future[Any]]], run: Runner[Item]) -> None:
        batch: list[tuple[Item, asyncio.Future[Any]]] = []
        try:
            while queue:
                batch = queue[:]
                del queue[:]
                results = await self._run(key, [item for item, _ in batch], run)
                for (_, future), result in zip(batch, results, strict=True):
                    if future.done():
                        continue
                    if isinstance(result, BaseException):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
        except BaseException as exc:
            # Never leave a caller waiting: whatever went wrong here is every unanswered caller's answer.
            for _, future in batch + queue:
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

    async def _run(self, key: str, items: list[Item], run: Runner[Item]) -> list[Any]:
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
