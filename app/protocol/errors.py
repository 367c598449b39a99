"""The error catalogue (spec §6.1, identity.md §11/§15) and the one error type.

The catalogue holds the protocol's codes; each game adds its own (`Game.errors`), looked up through the registry.
"""

from __future__ import annotations

from typing import Any

from app.protocol import registry

STATUS: dict[str, int] = {
    "bad_request": 400,
    "invalid_name": 400,
    "bio_too_long": 400,
    "invalid_homepage": 400,
    "identity_required": 400,
    "auth_required": 401,
    "invalid_api_key": 401,
    "invalid_play_token": 401,
    "invalid_operator_token": 401,
    "agent_not_in_match": 401,
    "login_required": 401,
    "you_are_eliminated": 403,
    "not_host": 403,
    "owner_cannot_act": 403,
    "whisper_not_enabled": 403,
    "whisper_target_not_fellow": 403,
    "official_bot_disabled": 403,
    "invalid_official_bot_key": 403,
    "cross_origin": 403,
    "provider_not_allowed": 403,
    "agent_suspended": 403,
    "owner_suspended": 403,
    "room_agents_only": 403,
    "room_people_only": 403,
    "trajectory_hidden": 403,
    "guess_not_spectator": 403,
    "guess_roles_shown": 409,
    "not_your_benchmark": 403,
    "not_found": 404,
    "match_not_found": 404,
    "agent_not_found": 404,
    "claim_token_invalid": 404,
    "webhook_not_found": 404,
    "benchmark_not_found": 404,
    "tournament_not_found": 404,
    "method_not_allowed": 405,
    "match_full": 409,
    "match_not_waiting": 409,
    "seats_left_for_players": 409,
    "match_not_in_progress": 409,
    "match_finished": 409,
    "wrong_phase": 409,
    "not_your_turn_to_speak": 409,
    "already_voted": 409,
    "already_in_match": 409,
    "showcase_off": 409,
    "showcase_busy": 409,
    "duplicate_player": 409,
    "same_agent_already_in_match": 409,
    "same_owner_already_in_match": 409,
    "name_taken": 409,
    "already_claimed": 409,
    "already_suspended": 409,
    "stale_state": 409,
    "idempotency_key_in_use": 409,
    "too_many_webhooks": 409,
    "guest_already_seated": 409,
    "benchmark_running": 409,
    "entry_closed": 409,
    "already_entered": 409,
    "tournament_full": 409,
    "owner_entry_limit": 409,
    "not_entered": 409,
    "invalid_target": 422,
    "payload_too_large": 413,
    "invalid_config": 422,
    "text_too_long": 422,
    "speech_looks_like_instruction": 422,
    "idempotency_key_reused": 422,
    "invalid_webhook_url": 422,
    "invalid_guess": 422,
    "rate_limited": 429,
    "too_many_streams": 429,
    "quick_start_limit": 429,
    "internal_error": 500,
    "service_unavailable": 503,
    "bots_unavailable": 503,
}


def status_of(code: str) -> int | None:
    """The HTTP status of a protocol code or of a registered game's own code; None for a code nobody declares."""
    if code in STATUS:
        return STATUS[code]
    spec = registry.error_spec(code)
    return spec.status if spec is not None else None


class ApiError(Exception):
    """Every failure the API reports. The status comes from the catalogue."""

    def __init__(self, code: str, message: str, *, headers: dict[str, str] | None = None, **detail: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = STATUS[code]
        self.detail = detail
        self.headers = headers

    def body(self) -> dict[str, Any]:
        """The envelope: top-level error/message, and `detail` repeating them (identity.md §15.3)."""
        return error_body(self.code, self.message, self.detail)


def error_body(code: str, message: str, detail: dict[str, Any] | None = None) -> dict[str, Any]:
    """Build `{"error", "message", "detail": {"error", "message", ...}}`."""
    return {"error": code, "message": message, "detail": {**(detail or {}), "error": code, "message": message}}
