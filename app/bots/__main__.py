"""`python -m app.bots --base-url http://127.0.0.1:8000 [--official-key …] [--fill-after 20]`: run the lobby filler.

Registers the official bot agents, then fills rooms that waited longer than `--fill-after` seconds and plays their
games until Ctrl-C. Logs one line per join and per game end. Uses `WODI_OFFICIAL_BOT_KEY`, `WODI_BOT_FILL_AFTER`,
`WODI_BOT_POOL_MAX` and the `WODI_LLM_*` settings by default.

The server starts it this way as its child (`WODI_BOTS_PROCESS`, the default) with `--wake` (sleep on the server's
lobby long-poll instead of polling) and `--with-parent` (exit when the server does: its end of stdin closes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys

from app import logs
from app.bots.llm import LLMBrain
from app.bots.pool import RESERVE
from app.bots.runner import LobbyFiller
from app.bots.wake import HttpWake
from app.settings import get_settings


def main(argv: list[str] | None = None) -> None:
    settings = get_settings()
    default_url = settings.bot_base_url or f"http://127.0.0.1:{settings.port}"
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", default=default_url, help=f"server to play on (default {default_url})")
    parser.add_argument("--official-key", default=settings.official_bot_key, help="X-Official-Bot-Key")
    parser.add_argument("--fill-after", type=float, default=settings.bot_fill_after,
                        help="seconds a room waits before bots join (default %(default)s)")
    parser.add_argument("--pool-max", type=int, default=settings.bot_pool_max,
                        help="official bot agents per persona at most (default %(default)s)")
    parser.add_argument("--reserve", type=int, default=RESERVE,
                        help="idle bots per persona kept registered ahead of demand (default %(default)s, as the "
                             "server's own bots process)")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a bot pauses before acting (max)")
    parser.add_argument("--no-showcase", action="store_true", help="open no showcase match (also WODI_SHOWCASE)")
    parser.add_argument("--no-llm", action="store_true", help="rule brain only, even if WODI_LLM_BASE_URL is set")
    parser.add_argument("--wake", action="store_true", help="sleep on the server's lobby long-poll between passes")
    parser.add_argument("--with-parent", action="store_true", help="exit when stdin closes (the parent is gone)")
    args = parser.parse_args(argv)
    logs.configure(settings.log_level, settings.log_format)  # text or JSON, as the server's (httpx at WARNING)
    llm = None if args.no_llm else LLMBrain.from_settings(settings)
    wake = HttpWake(args.base_url, args.official_key) if args.wake else None
    filler = LobbyFiller(args.base_url, args.official_key, args.fill_after, llm=llm, think=args.think,
                         pool_max=args.pool_max, reserve=args.reserve, wake=wake,
                         showcase=settings.showcase and not args.no_showcase)
    if wake is not None:
        wake.figures = lambda: (filler.pool_size(), filler.idle_count())
    asyncio.run(_serve(filler, wake, args.with_parent))


async def _serve(filler: LobbyFiller, wake: HttpWake | None, with_parent: bool) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    watch = asyncio.create_task(_until_stdin_closes(stop)) if with_parent else None
    await filler.start()
    try:
        await stop.wait()
    finally:
        if watch is not None:
            watch.cancel()
        await filler.stop()
        if wake is not None:
            await wake.aclose()


async def _until_stdin_closes(stop: asyncio.Event) -> None:
    """The parent holds the other end of our stdin: end of file means it has exited, even by SIGKILL."""
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while await reader.read(4096):
        pass
    stop.set()


if __name__ == "__main__":
    main()
