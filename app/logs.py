"""The process's log lines: readable text by default, one JSON object a line with `WODI_LOG_FORMAT=json`.

Each answered request is one line of the `wodi.request` logger (request id, method, path, route template, status,
milliseconds) at INFO — at DEBUG for what nobody watches scroll by: the official bots' own requests (their lobby
polling, joins and moves), health checks and metrics scrapes. uvicorn's loggers go through the same handler (its
access log is off: the request line replaces it).
"""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime
from typing import Any

TEXT = "%(asctime)s [{pid}] %(levelname)s %(name)s %(message)s"  # the pid: several processes may share a terminal
# Attributes every LogRecord has; anything else on a record came from `extra=` and goes into the JSON object.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    """`{"ts", "level", "logger", "message", "pid", …extra}` on one line; a traceback goes into `exc_info` as
    text."""

    def __init__(self) -> None:
        super().__init__()
        self.pid = os.getpid()  # read once, not per line (the process's records do not gather it: `configure`)

    def format(self, record: logging.LogRecord) -> str:
        body: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "pid": self.pid,
        }
        body.update((key, value) for key, value in vars(record).items() if key not in _STANDARD)
        if record.exc_info:
            body["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(body, ensure_ascii=False, default=str)


class _Handler(logging.StreamHandler):  # type: ignore[type-arg]
    """Ours, so configuring again replaces it instead of adding a second one."""


def configure(level: str, fmt: str) -> None:
    """Send every logger's lines to stderr in `fmt` ("text" or "json") from `level` up. Leaves a root logger that
    someone else configured (a test runner, an embedding application) as it is."""
    root = logging.getLogger()
    if any(not isinstance(handler, _Handler) for handler in root.handlers):
        return
    handler = _Handler()
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT.format(pid=os.getpid())))
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # The logging HOWTO's "Optimization": nothing here reads the thread, process or task names or the caller's
    # source line, and gathering them costs a few microseconds per line (one line per request).
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    logging.logAsyncioTasks = False  # type: ignore[attr-defined]  # Python 3.12+; harmless before
    logging._srcfile = None  # type: ignore[attr-defined]
    logging.getLogger("httpx").setLevel(logging.WARNING)  # the bots' client: one line per request would drown them
