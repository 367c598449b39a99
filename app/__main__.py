"""`python -m app`: serve with uvicorn on the configured host and port."""

from __future__ import annotations

import uvicorn

from app.settings import get_settings


def main() -> None:
    settings = get_settings()
    # Long-polls (the in-process bots' too) would otherwise hold a graceful shutdown for up to 30 s.
    uvicorn.run("app.main:app", host=settings.host, port=settings.port, log_level=settings.log_level.lower(),
                timeout_graceful_shutdown=3)


if __name__ == "__main__":
    main()
