"""`python -m app.ratings rebuild`: recompute every rating from the match log (deterministic)."""

from __future__ import annotations

import argparse
import asyncio

from app.db.database import Database
from app.games.installed import installed
from app.protocol import registry
from app.ratings.rebuild import rebuild
from app.services.rating.ratings import Rules
from app.settings import get_settings


async def _main() -> None:
    settings = get_settings()
    db = Database(settings.database_url)
    try:
        print(f"replayed {await rebuild(db, Rules.of(settings))} rated matches")
    finally:
        await db.dispose()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m app.ratings", description=__doc__)
    parser.add_argument("command", choices=["rebuild"])
    parser.parse_args(argv)
    for game, brain in installed():
        if registry.get(game.name) is None:
            registry.register(game, brain)
    asyncio.run(_main())


if __name__ == "__main__":
    main()
