"""Secrets shown once: API keys, play tokens, claim tokens; stored as SHA-256 only."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string

API_KEY_PREFIX = "ck_live_"
PLAY_TOKEN_PREFIX = "pk_live_"  # noqa: S105 - a prefix, not a secret
_ID_ALPHABET = string.ascii_lowercase + string.digits


def new_secret(prefix: str) -> str:
    """`prefix` + 43 URL-safe characters (32 random bytes)."""
    return prefix + secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def digests_match(secret: str, stored_digest: str) -> bool:
    """Constant-time comparison of a presented secret against a stored digest."""
    return hmac.compare_digest(digest(secret), stored_digest)


def key_prefix(secret: str) -> str:
    return secret[:12]


def new_agent_id() -> str:
    return "ag_" + secrets.token_hex(5)


def new_owner_id() -> str:
    return "ow_" + secrets.token_hex(6)


def new_match_id() -> str:
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(8))


def new_claim_token() -> str:
    return secrets.token_urlsafe(24)
