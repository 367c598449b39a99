"""Fixed-window rate limits kept in process memory (per process; see README)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from app.protocol.errors import ApiError


class RateLimiter:
    """Counts hits per (bucket, key) in fixed windows; raises 429 `rate_limited` with Retry-After."""

    def __init__(self, enabled: bool = True, clock: Callable[[], float] = time.monotonic) -> None:
        self.enabled = enabled
        self._clock = clock
        self._windows: dict[tuple[str, str], tuple[float, int, float]] = {}

    def hit(self, bucket: str, key: str, limit: int, window: float) -> None:
        if not self.enabled:
            return
        now = self._clock()
        started, count, _ = self._windows.get((bucket, key), (now, 0, window))
        if now - started >= window:
            started, count = now, 0
        if count >= limit:
            retry = max(1, math.ceil(started + window - now))
            raise ApiError(
                "rate_limited",
                f"too many requests ({bucket}); retry in {retry} s",
                headers={"Retry-After": str(retry)},
                bucket=bucket,
                retry_after=retry,
            )
        self._windows[(bucket, key)] = (started, count + 1, window)
        if len(self._windows) > self._prune_at:
            self._forget_expired(now)

    def refund(self, bucket: str, key: str) -> None:
        """Give back the last hit of (bucket, key): the request it counted was refused and made nothing."""
        found = self._windows.get((bucket, key))
        if found is not None and found[1] > 0:
            self._windows[(bucket, key)] = (found[0], found[1] - 1, found[2])

    _prune_at = 100_000

    def _forget_expired(self, now: float) -> None:
        """Drop windows that have run out (each by its own length); prune again only after the map doubles."""
        self._windows = {k: v for k, v in self._windows.items() if now - v[0] < v[2]}
        self._prune_at = max(100_000, 2 * len(self._windows))
