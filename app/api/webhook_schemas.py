"""Request and response models of the webhook endpoints (they make openapi.json)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

WebhookEvent = Literal["your_turn", "match_started", "match_finished", "tournament_table_ready"]


class WebhookCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str = Field(max_length=2048, description="https URL this server POSTs events to (http only for a server "
                     "in local development); it must not resolve to a loopback, private, link-local or metadata "
                     "address unless the operator set `WODI_WEBHOOK_ALLOW_PRIVATE`")
    events: list[WebhookEvent] | None = Field(default=None, max_length=4,
                                              description="the events to send; all four when omitted")


class WebhookView(BaseModel):
    webhook_id: str
    url: str
    events: list[WebhookEvent]
    enabled: bool = Field(description="false once every delivery failed for a day (`disabled_reason` says so)")
    disabled_reason: str | None
    last_status: int | None = Field(description="HTTP status of the last attempt (null: no answer)")
    last_error: str | None = Field(description="why the last attempt failed (null after a success)")
    last_attempt_at: str | None
    last_success_at: str | None
    failing_since: str | None
    created_at: str


class WebhookCreated(WebhookView):
    secret: str = Field(description="`whsec_…`: the Standard Webhooks signing secret, shown only this once")


class WebhookDeliveryView(BaseModel):
    delivery_id: str = Field(description="the `webhook-id` header of every attempt")
    event: WebhookEvent
    status: Literal["pending", "delivered", "failed", "expired"]
    attempts: int
    last_status: int | None
    last_error: str | None
    match_id: str | None
    created_at: str | None
    finished_at: str | None


class WebhookDetail(WebhookView):
    deliveries: list[WebhookDeliveryView] = Field(description="the latest deliveries, newest first")


class WebhookList(BaseModel):
    webhooks: list[WebhookView]


class WebhookDeleted(BaseModel):
    deleted: str
