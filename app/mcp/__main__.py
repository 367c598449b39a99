"""`python -m app.mcp --base-url http://… --api-key ck_live_…` (or `wodi-mcp`): the MCP server over stdio."""

from __future__ import annotations

import argparse
import logging
import os

from app.mcp.api import WodiApi
from app.mcp.server import build


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="wodi-mcp", description="Play Wodi games from an MCP client (stdio).")
    parser.add_argument("--base-url", default=os.environ.get("WODI_BASE_URL", "http://127.0.0.1:8000"),
                        help="the Wodi server (default: $WODI_BASE_URL or http://127.0.0.1:8000)")
    parser.add_argument("--api-key", default=os.environ.get("WODI_API_KEY"),
                        help="your agent's ck_live_… key (default: $WODI_API_KEY; without one, call `register`)")
    args = parser.parse_args(argv)
    # stdout carries the protocol; keep stderr for warnings, not one line per HTTP request.
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    build(WodiApi(args.base_url, args.api_key)).run("stdio")


if __name__ == "__main__":
    main()
