"""Send queued webhook deliveries: signed (Standard Webhooks), retried with exponential back-off, recorded.

Every process runs a sender. A sender claims due deliveries with `SELECT … FOR UPDATE SKIP LOCKED` and, in the
same short transaction, moves their `next_attempt_at` past the time a send may take (a lease), so two processes never
send one delivery at once and a process that dies mid-send leaves it to be retried after the lease. Delivery is
therefore at least once: receivers deduplicate by the `webhook-id` header (the delivery id), which stays the same
across retries.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import httpx
from httpx_secure import SSRFProtectionError
from sqlalchemy import func
from standardwebhooks.webhooks import Webhook as Signer

from app.db import webhooks as repo
from app.db.database import Database
from app.db.models import Webhook, WebhookDelivery
from app.services.delivery import outbound
from app.services.platform.metrics import WEBHOOK_FAILED
from app.settings import Settings

log = logging.getLogger("wodi.webhooks")
BATCH = 50
MAX_BACKOFF = 3600.0
GIVE_UP_AFTER = 24 * 3600.0  # a delivery is retried for a day at most …
DISABLE_AFTER = timedelta(days=1)  # … and a webhook failing for a day is disabled
KEEP_FINISHED = timedelta(days=3)
PURGE_EVERY = 3600.0


def backoff(attempts: int, base: float, draw: Callable[[], float] = random.random) -> float:
    """Seconds before retry number `attempts` (1 = the first retry): base·2^(n−1), at most an hour, ±10 %."""
    delay = min(base * 2 ** max(attempts - 1, 0), MAX_BACKOFF)
    return delay * (0.9 + 0.2 * draw())


def signed_headers(secret: str, delivery_id: str, at: float, body: str) -> dict[str, str]:
    """Standard Webhooks headers: `webhook-id`, `webhook-timestamp` (epoch seconds) and `webhook-signature`
    (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret)."""
    stamp = datetime.fromtimestamp(int(at), UTC)
    return {"content-type": "application/json", "user-agent": "wodi-webhooks/1", "webhook-id": delivery_id,
            "webhook-timestamp": str(int(at)), "webhook-signature": Signer(secret).sign(delivery_id, stamp, body)}


class WebhookSender:
    """The delivery loop of one process; `poke()` after a commit queued deliveries."""

    def __init__(self, settings: Settings, db: Database, clock: Callable[[], float],
                 secret_of: Callable[[Webhook], str], max_sleep: float) -> None:
        self.settings, self.db, self.clock = settings, db, clock
        self._secret_of = secret_of
        # Deliveries queued by other processes are found by re-reading the earliest due time this often.
        self.max_sleep = max_sleep
        self.lease = settings.webhook_timeout + 20.0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._http: httpx.AsyncClient | None = None
        self._purged_at = 0.0

    def poke(self) -> None:
        self._wake.set()

    async def start(self) -> None:
        self._http = outbound.client(self.settings)
        self._task = asyncio.create_task(self._loop(), name="wodi-webhooks")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._http is not None:
            await self._http.aclose()
            # A connection's socket is closed in a callback the loop runs after `aclose`: let it run now, so that a
            # loop stopping right after this (a server's shutdown, a test's end) does not leave the socket to the
            # collector ("unclosed socket" warnings, an error in a later test under filterwarnings=error).
            for _ in range(3):
                await asyncio.sleep(0)

    async def _loop(self) -> None:
        while True:
            self._wake.clear()
            try:
                delay = await self.run_due()
            except Exception:
                log.exception("webhook delivery loop failed; retrying")
                delay = 1.0
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await self._wake.wait()

    async def run_due(self) -> float:
        """Send every due delivery; return how long to sleep before the next one is due."""
        while True:
            async with self.db.reader() as session:  # idle, a sender costs one indexed read per wake-up
                next_due = await repo.next_due(session)
            now = self.clock()
            if next_due is None or next_due > now:
                break
            async with self.db.writer() as session:
                due = await repo.claim_due(session, now, now + self.lease, BATCH)
                hooks = {d.webhook_id: await repo.get(session, d.webhook_id) for d in due}
            if not due:  # another process took them
                break
            by_hook: dict[str, list[WebhookDelivery]] = defaultdict(list)
            for delivery in due:
                by_hook[delivery.webhook_id].append(delivery)
            # One webhook's deliveries go out in order; different webhooks in parallel.
            await asyncio.gather(*(self._send_all(hooks[h], ds) for h, ds in by_hook.items()))
        await self._purge()
        if next_due is None:
            return self.max_sleep
        return min(max(next_due - self.clock(), 0.01), self.max_sleep)

    async def _send_all(self, hook: Webhook | None, deliveries: list[WebhookDelivery]) -> None:
        for delivery in deliveries:
            try:
                await self.send(hook, delivery)
            except Exception:  # one broken delivery must not stop the others; it is retried after its lease
                log.exception("webhook delivery %s failed unexpectedly", delivery.delivery_id)

    async def send(self, hook: Webhook | None, delivery: WebhookDelivery) -> None:
        now = self.clock()
        if hook is None or not hook.enabled:
            await self._close(delivery, "failed", "the webhook is disabled or deleted")
            return
        if delivery.expires_at is not None and now > delivery.expires_at:
            await self._close(delivery, "expired", "the turn ended before it could be delivered")
            return
        status, error = await self._post(hook, delivery, now)
        if error is None:
            await self._succeeded(hook, delivery, status)
        else:
            await self._failed(hook, delivery, status, error)

    async def _post(self, hook: Webhook, delivery: WebhookDelivery, now: float) -> tuple[int | None, str | None]:
        assert self._http is not None
        body = json.dumps(delivery.body, ensure_ascii=False, separators=(",", ":"))
        headers = signed_headers(self._secret_of(hook), delivery.delivery_id, now, body)
        try:
            async with asyncio.timeout(self.settings.webhook_timeout + 5.0):
                status, text = await outbound.post_bounded(self._http, hook.url, body.encode(), headers)
        except SSRFProtectionError as exc:
            return None, f"refused: {exc}"
        except (httpx.HTTPError, TimeoutError, OSError) as exc:
            return None, f"{type(exc).__name__}: {exc}"[:500] if str(exc) else type(exc).__name__
        if 200 <= status < 300:
            return status, None
        if 300 <= status < 400:
            return status, f"HTTP {status}: redirects are not followed"
        return status, f"HTTP {status}: {text}"[:500]

    async def _close(self, delivery: WebhookDelivery, status: str, reason: str) -> None:
        """End a delivery without sending it (`failed` or `expired`)."""
        at = datetime.fromtimestamp(self.clock(), UTC)
        async with self.db.writer() as session:
            await repo.finish(session, delivery.delivery_id,
                              {"status": status, "last_error": reason, "finished_at": at})

    async def _succeeded(self, hook: Webhook, delivery: WebhookDelivery, status: int | None) -> None:
        at = datetime.fromtimestamp(self.clock(), UTC)
        async with self.db.writer() as session:
            await repo.finish(session, delivery.delivery_id, {
                "status": "delivered", "attempts": delivery.attempts + 1, "last_status": status, "last_error": None,
                "finished_at": at})
            await repo.record_attempt(session, hook.webhook_id, {
                "last_status": status, "last_error": None, "last_attempt_at": at, "last_success_at": at,
                "failing_since": None})

    async def _failed(self, hook: Webhook, delivery: WebhookDelivery, status: int | None, error: str) -> None:
        now = self.clock()
        at = datetime.fromtimestamp(now, UTC)
        attempts = delivery.attempts + 1
        gave_up = now - delivery.created_at.timestamp() > GIVE_UP_AFTER
        WEBHOOK_FAILED.inc()
        log.info("webhook %s: delivery %s attempt %d failed: %s", hook.webhook_id, delivery.delivery_id, attempts,
                 error)
        async with self.db.writer() as session:
            retry = {"next_attempt_at": now + backoff(attempts, self.settings.webhook_retry_base)}
            await repo.finish(session, delivery.delivery_id, {
                "attempts": attempts, "last_status": status, "last_error": error,
                **({"status": "failed", "finished_at": at} if gave_up else retry)})
            await repo.record_attempt(session, hook.webhook_id, {
                "last_status": status, "last_error": error, "last_attempt_at": at,
                "failing_since": func.coalesce(Webhook.failing_since, at)})
            reason = (f"disabled: every delivery failed for more than a day (last error: {error})")[:255]
            if await repo.disable_if_failing_since(session, hook.webhook_id, at - DISABLE_AFTER, reason):
                log.warning("webhook %s disabled: failing for more than a day", hook.webhook_id)
                await repo.drop_pending(session, hook.webhook_id, "the webhook was disabled", at)

    async def _purge(self) -> None:
        now = self.clock()
        if now - self._purged_at < PURGE_EVERY:
            return
        self._purged_at = now
        async with self.db.writer() as session:
            await repo.purge_finished(session, datetime.fromtimestamp(now, UTC) - KEEP_FINISHED)
