"""A real webhook receiver on 127.0.0.1 (uvicorn in the test's event loop) that verifies every signature."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from standardwebhooks.webhooks import Webhook
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.e2e.server import free_port


@dataclass
class Received:
    hook: str
    headers: dict[str, str]
    body: dict[str, Any]
    verified: bool
    answered: int


@dataclass
class Receiver:
    """`POST /hook/{name}`: answers 204, or `fail_status` while `failures[name]` is above zero (counting down)."""

    port: int = field(default_factory=free_port)
    secrets: dict[str, str] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    fail_status: int = 503
    log: list[Received] = field(default_factory=list)
    queues: dict[str, asyncio.Queue[Received]] = field(default_factory=lambda: defaultdict(asyncio.Queue))
    _server: uvicorn.Server | None = None
    _task: asyncio.Task[None] | None = None

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/hook/{name}"

    async def _handle(self, request: Request) -> Response:
        name = request.path_params["name"]
        raw = await request.body()
        verified = False
        if name in self.secrets:
            try:
                Webhook(self.secrets[name]).verify(raw, dict(request.headers))
                verified = True
            except Exception:  # noqa: BLE001 - recorded as unverified; the test asserts on it
                verified = False
        status = 204
        if self.failures[name] > 0:
            self.failures[name] -= 1
            status = self.fail_status
        received = Received(name, dict(request.headers), json.loads(raw), verified, status)
        self.log.append(received)
        if status < 300:
            self.queues[name].put_nowait(received)
        return Response(status_code=status)

    async def start(self) -> Receiver:
        app = Starlette(routes=[Route("/hook/{name}", self._handle, methods=["POST"])])
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="off")
        self._server = uvicorn.Server(config)
        self._task = asyncio.create_task(self._server.serve())
        for _ in range(3000):  # uvicorn offers no start-up event to wait on
            if self._server.started:
                return self
            await asyncio.sleep(0.01)
        raise RuntimeError("the receiver did not start")

    async def stop(self) -> None:
        assert self._server is not None and self._task is not None
        self._server.should_exit = True
        await self._task
        # Closing a transport closes its socket in a callback the loop runs next: let it run before the test's
        # loop closes, or the socket is only collected later (an "unclosed socket" warning in another test).
        for _ in range(3):
            await asyncio.sleep(0)

    async def next(self, name: str, within: float = 30.0) -> Received:
        async with asyncio.timeout(within):
            return await self.queues[name].get()
