"""`python -m app`: serve with uvicorn on the configured host and port."""

from __future__ import annotations

import uvicorn

from app.settings import get_settings


def main() -> None:
    settings = get_settings()
    # Long-polls (the in-process bots' too) would otherwise hold a graceful shutdown for up to 30 s. Keep-alive
    # outlives a long-poll cycle and common load-balancer idle timeouts (60 s), so a client reusing a pooled
    # connection does not race the server closing it.
    uvicorn.run("app.main:app", host=settings.host, port=settings.port, log_level=settings.log_level.lower(),
                timeout_graceful_shutdown=3, timeout_keep_alive=65,
                # Per-IP limits count the socket's peer; proxies are trusted only by WODI_TRUSTED_PROXIES.
                proxy_headers=False)


if __name__ == "__main__":
    main()
