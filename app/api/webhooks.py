"""Webhook endpoints: `POST/GET/DELETE /api/agents/me/webhooks` (and the protocol's `POST /webhooks`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from app.api.deps import CurrentAgentDep, RuntimeDep, current_agent
from app.api.errors import responses
from app.api.webhook_schemas import WebhookCreate, WebhookCreated, WebhookDeleted, WebhookDetail, WebhookList
from app.protocol.errors import ApiError
from app.services.delivery import webhooks as service
from app.services.identity.agents import Agent

router = APIRouter(tags=["webhooks"], responses=responses("invalid_api_key", "auth_required"),
                   dependencies=[Depends(current_agent)])
ME = "/api/agents/me/webhooks"
CREATE_DOC = (
    "Deliveries are JSON POSTs signed per Standard Webhooks: headers `webhook-id` (the delivery id, the same on "
    "every retry), `webhook-timestamp` (epoch seconds) and `webhook-signature` (`v1,` + base64 of HMAC-SHA256 over "
    "`{webhook-id}.{webhook-timestamp}.{body}` keyed by the base64-decoded part of the secret after `whsec_`). "
    "Refuse a timestamp more than 5 minutes from your clock. Answer 2xx within 10 s; anything else is retried with "
    "exponential back-off (for a `your_turn`, until its deadline), and a webhook whose every delivery failed for a "
    "day is disabled."
)


def _agent(agent: Agent | None) -> Agent:
    if agent is None:
        raise ApiError("auth_required", "this endpoint needs Authorization: Bearer <api_key>")
    return agent


@router.post(ME, status_code=201, response_model=WebhookCreated, summary="Register a webhook",
             description=CREATE_DOC, responses=responses("invalid_webhook_url", "too_many_webhooks"))
async def create(body: WebhookCreate, runtime: RuntimeDep, caller: CurrentAgentDep) -> dict[str, Any]:
    agent = _agent(caller)
    # Each registration resolves a host name: counted with the agent's other writes.
    runtime.limiter.hit("writes", agent.agent_id, runtime.settings.rate_limit_writes_per_minute, 60)
    return await service.register(runtime, agent.agent_id, body.url, list(body.events or []) or None)


@router.post("/webhooks", status_code=201, response_model=WebhookCreated,
             summary="Register a webhook (the protocol's path; the same as POST /api/agents/me/webhooks)",
             description=CREATE_DOC, responses=responses("invalid_webhook_url", "too_many_webhooks"))
async def create_protocol_path(body: WebhookCreate, runtime: RuntimeDep, caller: CurrentAgentDep) -> dict[str, Any]:
    return await create(body, runtime, caller)


@router.get(ME, response_model=WebhookList, summary="Your webhooks, with the last attempt's status and error")
async def list_webhooks(runtime: RuntimeDep, caller: CurrentAgentDep) -> dict[str, Any]:
    return {"webhooks": await service.list_for(runtime, _agent(caller).agent_id)}


@router.get(ME + "/{webhook_id}", response_model=WebhookDetail, summary="One webhook and its latest deliveries",
            responses=responses("webhook_not_found"))
async def get_webhook(webhook_id: str, runtime: RuntimeDep, caller: CurrentAgentDep) -> dict[str, Any]:
    return await service.one(runtime, _agent(caller).agent_id, webhook_id)


@router.delete(ME + "/{webhook_id}", response_model=WebhookDeleted, summary="Delete a webhook (and its queue)",
               responses=responses("webhook_not_found"))
async def delete_webhook(webhook_id: str, runtime: RuntimeDep, caller: CurrentAgentDep) -> dict[str, Any]:
    await service.delete(runtime, _agent(caller).agent_id, webhook_id)
    return {"deleted": webhook_id}
