"""An agent's webhooks: register (the signing secret shown once), list with their delivery record, delete."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import UTC, datetime
from typing import Any

from cryptography.fernet import Fernet

from app.db import webhooks as repo
from app.db.models import Webhook, WebhookDelivery
from app.protocol.errors import ApiError
from app.services.delivery import outbound
from app.services.match.shell import Shell

EVENTS = ("your_turn", "match_started", "match_finished", "tournament_table_ready")
MAX_PER_AGENT = 5
SECRET_PREFIX = "whsec_"  # noqa: S105 - the Standard Webhooks prefix, not a secret


def _sealer(shell: Shell) -> Fernet:
    derived = hmac.new(shell.settings.secret_key.encode(), b"webhook-signing-secret", hashlib.sha256).digest()
    return Fernet(base64.urlsafe_b64encode(derived))


def signing_secret(shell: Shell, hook: Webhook) -> str:
    """The `whsec_…` secret deliveries of `hook` are signed with."""
    return _sealer(shell).decrypt(hook.secret_sealed.encode()).decode()


def _new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def _events(wanted: list[str] | None) -> list[str]:
    chosen = list(dict.fromkeys(wanted)) if wanted else list(EVENTS)
    unknown = [e for e in chosen if e not in EVENTS]
    if unknown:
        raise ApiError("bad_request", f"unknown webhook event {unknown[0]!r}; known: {', '.join(EVENTS)}",
                       field="events")
    return chosen


async def register(shell: Shell, agent_id: str, url: str, events: list[str] | None) -> dict[str, Any]:
    """Check the URL (see `outbound`), store the webhook, and return it with its secret (the only time it is shown)."""
    chosen = _events(events)
    checked = await outbound.check_url(url, shell.settings)
    secret = _new_secret()
    hook = Webhook(webhook_id="wh_" + secrets.token_hex(6), agent_id=agent_id, url=checked, events=chosen,
                   secret_sealed=_sealer(shell).encrypt(secret.encode()).decode(), secret_prefix=secret[:12],
                   enabled=True, created_at=datetime.now(UTC))
    shell.hooked.adding(agent_id)  # before the commit: a command right after it must not skip the query
    async with shell.db.writer() as session:
        count = await repo.count_for_agent(session, agent_id)
        if count >= MAX_PER_AGENT:
            raise ApiError("too_many_webhooks", f"an agent may register at most {MAX_PER_AGENT} webhooks; delete one "
                           "first", limit=MAX_PER_AGENT)
        session.add(hook)
    return {**public(hook), "secret": secret}


async def list_for(shell: Shell, agent_id: str) -> list[dict[str, Any]]:
    async with shell.db.reader() as session:
        return [public(hook) for hook in await repo.for_agent(session, agent_id)]


async def one(shell: Shell, agent_id: str, webhook_id: str, deliveries: int = 20) -> dict[str, Any]:
    """One webhook with its latest deliveries, newest first."""
    async with shell.db.reader() as session:
        # Deliveries first: a reader runs each statement on its own snapshot, and a webhook row read after them
        # is at least as new as their outcome.
        recent = await repo.recent_deliveries(session, webhook_id, deliveries)
        hook = await repo.get(session, webhook_id)
        if hook is None or hook.agent_id != agent_id:
            raise ApiError("webhook_not_found", f"you have no webhook {webhook_id!r}")
    return {**public(hook), "deliveries": [_delivery(d) for d in recent]}


async def delete(shell: Shell, agent_id: str, webhook_id: str) -> None:
    """Delete the webhook and its queue (nothing more is sent to it)."""
    async with shell.db.writer() as session:
        if not await repo.remove(session, agent_id, webhook_id):
            raise ApiError("webhook_not_found", f"you have no webhook {webhook_id!r}")


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


def public(hook: Webhook) -> dict[str, Any]:
    """What the agent reads of its webhook: none of the secret, not even its first characters (issue 26: each of
    them narrows a guess); `webhook_id` tells webhooks apart."""
    return {
        "webhook_id": hook.webhook_id, "url": hook.url, "events": list(hook.events), "enabled": hook.enabled,
        "disabled_reason": hook.disabled_reason,
        "last_status": hook.last_status, "last_error": hook.last_error,
        "last_attempt_at": _iso(hook.last_attempt_at), "last_success_at": _iso(hook.last_success_at),
        "failing_since": _iso(hook.failing_since), "created_at": _iso(hook.created_at),
    }


def _delivery(delivery: WebhookDelivery) -> dict[str, Any]:
    return {
        "delivery_id": delivery.delivery_id, "event": delivery.event, "status": delivery.status,
        "attempts": delivery.attempts, "last_status": delivery.last_status, "last_error": delivery.last_error,
        "match_id": delivery.body.get("match_id"), "created_at": _iso(delivery.created_at),
        "finished_at": _iso(delivery.finished_at),
    }
