"""`Idempotency-Key`: a POST retried with the same key gets the first answer, and changes nothing.

The key is claimed by inserting a pending row in a transaction of its own, before the request runs: the table's
primary key (scope, key) lets exactly one request in, on every process sharing the database. A second request
with the key finds the row: a different fingerprint → 422 `idempotency_key_reused`; an answer → that answer; still
pending → it waits for the answer (polling, up to `WAIT`), then 409 `idempotency_key_in_use`.

Whose key it is (the scope) is the API layer's call (`app.api.idempotency`). An answer that hands an anonymous
caller a new credential (a play token, an API key) is never replayed: nothing tells the retry from another person
who sent the same key and body, so the row keeps only that the request took effect (`withheld`), and a retry gets
409 `idempotency_key_in_use` saying so, instead of someone else's seat or key.

Stored answers carry secrets shown once (a new API key, a play token, a session cookie), so the table holds them
sealed: the row is keyed by the SHA-256 of the Idempotency-Key, and the answer is encrypted (Fernet) with a key
derived from the server secret and the Idempotency-Key itself, which only the client knows. A copy of the database
alone reads none of them.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from sqlalchemy.exc import IntegrityError

from app.db import idempotency as repo
from app.protocol.errors import ApiError
from app.services.match.scheduler import IDEMPOTENCY_TTL
from app.services.match.shell import Shell

TTL = IDEMPOTENCY_TTL
# A claim this old without an answer belongs to a process that died mid-request: the key is free again.
ABANDONED = timedelta(seconds=60)
WAIT = 10.0  # seconds a retry waits for the first request's answer
MAX_KEY = 128


@dataclass(frozen=True)
class Answer:
    """A stored response: status, the headers worth replaying, and the body."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def to_json(self) -> dict[str, Any]:
        return {"headers": [list(h) for h in self.headers], "body": base64.b64encode(self.body).decode()}

    @classmethod
    def from_json(cls, status: int, data: dict[str, Any]) -> Answer:
        return cls(status, [(str(k), str(v)) for k, v in data["headers"]], base64.b64decode(data["body"]))


def _row_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _sealer(shell: Shell, scope: str, key: str) -> Fernet:
    derived = hmac.new(shell.settings.secret_key.encode(), f"{scope}\x00{key}".encode(), hashlib.sha256).digest()
    return Fernet(base64.urlsafe_b64encode(derived))


def _seal(shell: Shell, scope: str, key: str, answer: Answer) -> dict[str, Any]:
    return {"sealed": _sealer(shell, scope, key).encrypt(json.dumps(answer.to_json()).encode()).decode()}


def _unseal(shell: Shell, scope: str, key: str, status: int, stored: dict[str, Any]) -> Answer:
    try:
        data = json.loads(_sealer(shell, scope, key).decrypt(str(stored.get("sealed", "")).encode()))
    except InvalidToken:
        raise ApiError("idempotency_key_in_use", "the stored answer for this Idempotency-Key cannot be read (the "
                       "server secret changed); use a new key", field="Idempotency-Key") from None
    return Answer.from_json(status, data)


def check_key(key: str) -> None:
    """1 to 128 printable ASCII characters, else 400 `bad_request`."""
    if not 0 < len(key) <= MAX_KEY or not all(" " <= ch <= "~" for ch in key):
        raise ApiError("bad_request", f"Idempotency-Key must be 1 to {MAX_KEY} printable ASCII characters",
                       field="Idempotency-Key")


def should_store(status: int) -> bool:
    """2xx and the handler's 4xx are answers; 5xx (our failure), 401 (no verified caller) and 429 (try later)
    are not, so a retry runs again."""
    return status < 500 and status not in (401, 429)


def _now(shell: Shell) -> datetime:
    return datetime.fromtimestamp(shell.clock(), UTC)


async def begin(shell: Shell, scope: str, key: str, fingerprint: str) -> Answer | None:
    """Claim `key` for this request (None: run it, then `finish` or `release`), or the first request's answer."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    pause = 0.02
    while True:
        if await _claim(shell, scope, key, fingerprint):
            return None
        async with shell.db.reader() as session:
            row = await repo.get(session, scope, _row_key(key))
        if row is not None:
            if row.fingerprint != fingerprint:
                raise ApiError("idempotency_key_reused", "this Idempotency-Key was used with a different request "
                               "(method, path or body); use a new key for a new request", field="Idempotency-Key")
            if row.status is not None and row.response is not None:
                if row.response.get("withheld"):
                    raise ApiError("idempotency_key_in_use", "the request with this Idempotency-Key already took "
                                   "effect; its answer carried a new credential, which is shown only once to a "
                                   "caller without one. Use a new key for a new request", field="Idempotency-Key",
                                   withheld=True)
                return _unseal(shell, scope, key, row.status, row.response)
        if loop.time() >= deadline:
            raise ApiError("idempotency_key_in_use", "a request with this Idempotency-Key is still running; "
                           "retry in a moment", headers={"Retry-After": "1"}, field="Idempotency-Key")
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.5)


async def _claim(shell: Shell, scope: str, key: str, fingerprint: str) -> bool:
    now = _now(shell)
    try:
        async with shell.db.writer() as session:
            await repo.claim(session, scope, _row_key(key), fingerprint, now, now - TTL, now - ABANDONED)
    except IntegrityError:
        return False
    return True


async def finish(shell: Shell, scope: str, key: str, answer: Answer) -> None:
    """Store the answer of the request that claimed `key`."""
    async with shell.db.writer() as session:
        await repo.answer(session, scope, _row_key(key), answer.status, _seal(shell, scope, key, answer))


async def withhold(shell: Shell, scope: str, key: str, status: int) -> None:
    """Record that the request that claimed `key` took effect, without its answer (see the module's note)."""
    async with shell.db.writer() as session:
        await repo.answer(session, scope, _row_key(key), status, {"withheld": True})


async def release(shell: Shell, scope: str, key: str) -> None:
    """Free `key` (the request failed without an answer worth keeping): a retry runs it again."""
    async with shell.db.writer() as session:
        await repo.release(session, scope, _row_key(key))
