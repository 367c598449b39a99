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
        self._windows: dict[tuple[str, str], tuple[float, int]] = {}

    def hit(self, bucket: str, key: str, limit: int, window: float) -> None:
        if not self.enabled:
            return
        now = self._clock()
        started, count = self._windows.get((bucket, key), (now, 0))
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
        self._windows[(bucket, key)] = (started, count + 1)
        if len(self._windows) > 100_000:
            self._forget_old(now, window)

    def _forget_old(self, now: float, window: float) -> None:
        self._windows = {k: v for k, v in self._windows.items() if now - v[0] < window}
