"""`python -m app.bots --base-url http://127.0.0.1:8000 [--official-key …] [--fill-after 20]`: run the lobby filler.

Registers the twelve official bot agents, then fills rooms that waited longer than `--fill-after` seconds and
plays their games until Ctrl-C. Logs one line per join and per game end. Uses `WODI_OFFICIAL_BOT_KEY`,
`WODI_BOT_FILL_AFTER` and the `WODI_LLM_*` settings by default.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal

from app import logs
from app.bots.llm import LLMBrain
from app.bots.runner import LobbyFiller
from app.settings import get_settings


def main(argv: list[str] | None = None) -> None:
    settings = get_settings()
    default_url = settings.bot_base_url or f"http://127.0.0.1:{settings.port}"
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", default=default_url, help=f"server to play on (default {default_url})")
    parser.add_argument("--official-key", default=settings.official_bot_key, help="X-Official-Bot-Key")
    parser.add_argument("--fill-after", type=float, default=settings.bot_fill_after,
                        help="seconds a room waits before bots join (default %(default)s)")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a bot pauses before acting (max)")
    parser.add_argument("--no-showcase", action="store_true", help="open no showcase match (also WODI_SHOWCASE)")
    parser.add_argument("--no-llm", action="store_true", help="rule brain only, even if WODI_LLM_BASE_URL is set")
    args = parser.parse_args(argv)
    logs.configure(settings.log_level, settings.log_format)  # text or JSON, as the server's (httpx at WARNING)
    llm = None if args.no_llm else LLMBrain.from_settings(settings)
    asyncio.run(_serve(LobbyFiller(args.base_url, args.official_key, args.fill_after, llm=llm, think=args.think,
                                   showcase=settings.showcase and not args.no_showcase)))


async def _serve(filler: LobbyFiller) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await filler.start()
    try:
        await stop.wait()
    finally:
        await filler.stop()


if __name__ == "__main__":
    main()
