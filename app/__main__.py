"""`python -m app`: serve with uvicorn on the configured host and port."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import sys
from collections.abc import Callable
from types import FrameType

import uvicorn
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from app.db import schema
from app.main import create_app
from app.settings import Settings, get_settings

log = logging.getLogger("wodi.start")


class DrainingServer(uvicorn.Server):
    """uvicorn's server, which answers every waiting long-poll as soon as it is asked to stop: a graceful restart
    then lasts as long as the slowest ordinary request, not the longest long-poll (up to 30 s)."""

    def __init__(self, config: uvicorn.Config, on_exit: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_exit = on_exit

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the signal arrived before or after serving: nothing is waiting
            return
        loop.call_soon_threadsafe(self._on_exit)  # a signal handler must not touch the loop's state itself


def ready_to_start(settings: Settings) -> bool:
    """The database answers and is migrated to this release, or one line in the log says why not (started on a
    database that is missing, unreachable or unmigrated, uvicorn's start-up would print a hundred-line traceback)."""

    async def check() -> None:
        url = make_url(settings.database_url)
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            # Opened here first: aiosqlite's worker thread, failing to open it, could outlive this loop and print
            # a traceback of its own as the process exits.
            sqlite3.connect(url.database).close()
        engine = create_async_engine(settings.database_url)
        try:
            await schema.check(engine)
        finally:
            await engine.dispose()

    try:
        asyncio.run(check())
    except schema.SchemaMismatch:
        return False  # `schema.check` said why
    except Exception as exc:  # noqa: BLE001 - whatever the driver raises, the operator reads one line
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        log.error("cannot open the database %s: %s: %s", make_url(settings.database_url).render_as_string(
            hide_password=True), type(getattr(exc, "orig", None) or exc).__name__, reason[0] if reason else "")
        return False
    return True


def main() -> None:
    settings = get_settings()
    app = create_app(settings, tune_collector=True)
    if not ready_to_start(settings):
        sys.exit(3)
    # Keep-alive outlives a long-poll cycle and common load-balancer idle timeouts (60 s), so a client reusing a
    # pooled connection does not race the server closing it.
    # uvicorn's loggers write through the process's handler (`app.logs`: text or JSON); its access log is off, the
    # request line of `app.api.middleware` replaces it.
    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_level=settings.log_level.lower(),
                            log_config=None, access_log=False,
                            timeout_graceful_shutdown=3, timeout_keep_alive=65,
                            # Per-IP limits count the socket's peer; proxies are trusted only by WODI_TRUSTED_PROXIES.
                            proxy_headers=False)
    DrainingServer(config, on_exit=app.state.runtime.drain).run()


if __name__ == "__main__":
    main()
