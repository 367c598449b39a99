"""`python -m app.wordpairs report [--all]`: the word pairs an operator should fix or retire."""

from __future__ import annotations

import argparse
import asyncio

from app.db.database import Database
from app.settings import get_settings
from app.wordpairs.report import pair_records, render


async def _main(everything: bool) -> None:
    db = Database(get_settings().database_url)
    try:
        print(render(await pair_records(db), everything=everything))
    finally:
        await db.dispose()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m app.wordpairs", description=__doc__)
    parser.add_argument("command", choices=["report"])
    parser.add_argument("--all", action="store_true", help="list every pair played, not only those out of band")
    asyncio.run(_main(parser.parse_args(argv).all))


if __name__ == "__main__":
    main()
