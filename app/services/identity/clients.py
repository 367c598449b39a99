"""Who a client is, for the limits on one client's share (issue 26): the bots a client's quick starts hold, and the
guest seats a client takes in one room.

A request's client is its agent's owner when the Bearer key's agent is claimed, else the agent; a logged-in owner's
session is the owner; anything else (a guest) is the client IP. So an owner's agents and the owner playing as
themselves share one budget, and a guest is only as distinct as the address it calls from. The database keeps an
HMAC of that key under the server secret, never the address itself.
"""

from __future__ import annotations

import hashlib
import hmac


def key_of(*, agent_id: str | None = None, agent_owner: str | None = None, owner_id: str | None = None,
           ip: str = "") -> str:
    """The client's key: `owner:<id>`, `agent:<id>` or `ip:<address>`."""
    if agent_owner:
        return f"owner:{agent_owner}"
    if agent_id:
        return f"agent:{agent_id}"
    if owner_id:
        return f"owner:{owner_id}"
    return f"ip:{ip}"


def digest(secret: str, key: str) -> str:
    """What the database stores for a client key: 64 hex characters, equal for equal keys under one secret."""
    return hmac.new(secret.encode(), b"wodi-client:" + key.encode(), hashlib.sha256).hexdigest()
