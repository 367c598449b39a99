"""The notifier's lobby key: rooms announced out of order (each stamped before its transaction commits) each wake
the bot filler's wait, while a match's seqs keep their order."""

from __future__ import annotations

import asyncio

from app.services.delivery.notifier import MemoryNotifier
from app.services.match.lobby import LOBBY


async def test_a_lobby_announcement_older_than_the_newest_still_wakes_the_waiter() -> None:
    notifier = MemoryNotifier()
    await notifier.publish(LOBBY, 2_000)  # room C: stamped later, committed first
    seen = notifier.latest(LOBBY)
    waiting = asyncio.create_task(notifier.wait(LOBBY, seen, 5))
    await asyncio.sleep(0)
    await notifier.publish(LOBBY, 1_000)  # room B: stamped earlier, committed after C
    woken = await asyncio.wait_for(waiting, 1)
    assert woken > seen and notifier.latest(LOBBY) == woken
    assert await notifier.wait(LOBBY, seen, 0) > seen  # a wait that starts late sees it too


async def test_a_match_keeps_its_newest_seq() -> None:
    notifier = MemoryNotifier()
    await notifier.publish("abcd1234", 7)
    await notifier.publish("abcd1234", 5)  # a late, older commit's wake-up: the match is still at 7
    assert notifier.latest("abcd1234") == 7
    assert await notifier.wait("abcd1234", 7, 0) == 7
