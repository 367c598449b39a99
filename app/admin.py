"""`python -m app.admin`: the operator's command line, a client of the operator API of a running server.

    python -m app.admin suspend agent <name> --reason "spamming the lobby"
    python -m app.admin suspend owner <username> --reason "…"
    python -m app.admin lift agent <name> [--reason "…"]
    python -m app.admin list [--all]

It calls `/api/operator/…` (the server applies the suspension: its caches, its live seats, every process told) at
`--url` (default: this machine's server, `http://$WODI_HOST:$WODI_PORT`, 127.0.0.1 for a server listening on every
interface) with `WODI_OPERATOR_TOKEN` (or `--token`); both go before or after the command. Prints the server's answer
as JSON; exits 1 when the server refuses or cannot be reached, 2 when no token is set.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

import httpx

from app.settings import get_settings


def parse(argv: list[str] | None) -> argparse.Namespace:
    settings = get_settings()
    parser = argparse.ArgumentParser(prog="python -m app.admin", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    host = "127.0.0.1" if settings.host in ("0.0.0.0", "::", "") else settings.host  # noqa: S104 - compared only
    host = f"[{host}]" if ":" in host else host
    for where, default in ((parser, None), (shared := argparse.ArgumentParser(add_help=False), argparse.SUPPRESS)):
        # the same options after the command; there they keep what was given before it unless given again
        where.add_argument("--url", default=default or f"http://{host}:{settings.port}",
                           help="the server (default: this machine's)")
        where.add_argument("--token", default=default or settings.operator_token, help="default: WODI_OPERATOR_TOKEN")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, needs_reason in (("suspend", True), ("lift", False)):
        command = commands.add_parser(name, parents=[shared],
                                      help=f"{name} an agent (by name) or an owner (by username)")
        command.add_argument("subject", choices=("agent", "owner"))
        command.add_argument("name")
        command.add_argument("--reason", required=needs_reason, help="recorded with the suspension")
    listing = commands.add_parser("list", parents=[shared], help="the suspensions in force (--all: lifted ones too)")
    listing.add_argument("--all", action="store_true")
    return parser.parse_args(argv)


async def call(args: argparse.Namespace, transport: httpx.AsyncBaseTransport | None = None) -> tuple[int, Any]:
    """Send the command; (HTTP status, JSON body)."""
    headers = {"Authorization": f"Bearer {args.token}"}
    async with httpx.AsyncClient(base_url=args.url, headers=headers, timeout=60, transport=transport) as client:
        if args.command == "list":
            response = await client.get("/api/operator/suspensions", params={"all": str(args.all).lower()})
        else:
            body = {"subject": args.subject, "name": args.name, "reason": args.reason}
            path = "/api/operator/suspensions" + ("/lift" if args.command == "lift" else "")
            response = await client.post(path, json=body)
    return response.status_code, response.json()


def main(argv: list[str] | None = None, transport: httpx.AsyncBaseTransport | None = None) -> int:
    args = parse(argv)
    if not args.token:
        print("set WODI_OPERATOR_TOKEN (the server's operator token) or pass --token", file=sys.stderr)
        return 2
    try:
        status, body = asyncio.run(call(args, transport))
    except httpx.TransportError as exc:
        print(f"no server at {args.url}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(body, ensure_ascii=False, indent=2))
    return 0 if status < 400 else 1


if __name__ == "__main__":
    sys.exit(main())
