"""`GET /metrics`: this process's series in the Prometheus text format (`app.services.platform.metrics`).

Where it answers is the operator's choice (`WODI_METRICS_*`): on the public port behind a bearer token, or on a
port of its own (bind it to a private interface), or — on a localhost server only — on the public port openly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Annotated

from fastapi import APIRouter, Header
from fastapi.responses import Response

from app.api.deps import RuntimeDep, check_token
from app.protocol.errors import ApiError
from app.runtime import Runtime
from app.services.platform import metrics
from app.settings import Settings

log = logging.getLogger("wodi.metrics")
router = APIRouter(include_in_schema=False)


def public_allowed(settings: Settings) -> bool:
    """Whether the public port serves `/metrics` at all (with the token when one is set)."""
    return bool(settings.metrics_token) or (settings.metrics_port is None and settings.is_local)


@router.get("/metrics")
async def scrape(runtime: RuntimeDep,
                 authorization: Annotated[str | None, Header(alias="Authorization")] = None) -> Response:
    settings = runtime.settings
    if not public_allowed(settings):
        raise ApiError("not_found", "no such route")
    if settings.metrics_token:
        check_token(settings.metrics_token, authorization, "/metrics")
    return Response(await metrics.exposition(runtime.db), media_type=metrics.CONTENT_TYPE)


class MetricsPort:
    """`/metrics` alone on `WODI_METRICS_HOST:WODI_METRICS_PORT`, served by this process's event loop (so the
    scrape reads the same in-memory figures the public port would): HTTP/1.1, one request per connection."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        settings = self.runtime.settings
        self._server = await asyncio.start_server(self._answer, settings.metrics_host, settings.metrics_port)
        log.info("metrics on http://%s:%s/metrics", settings.metrics_host, settings.metrics_port)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(10):
                request_line = await reader.readline()
                while (await reader.readline()).strip():  # the headers: none matters here
                    pass
                method, target = (request_line.decode("latin-1").split() + ["", ""])[:2]
                if method in ("GET", "HEAD") and target.split("?")[0] == "/metrics":
                    status, body = "200 OK", await metrics.exposition(self.runtime.db)
                else:
                    status, body = "404 Not Found", b"only GET /metrics here\n"
                head = (f"HTTP/1.1 {status}\r\nContent-Type: {metrics.CONTENT_TYPE}\r\n"
                        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
                writer.write(head + (body if method != "HEAD" else b""))
                await writer.drain()
        except (TimeoutError, ConnectionError, UnicodeDecodeError):
            pass
        finally:
            writer.close()
