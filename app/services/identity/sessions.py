"""Owner sessions: a signed, stateless cookie (itsdangerous), and the Origin/Referer check for its POSTs."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from app.protocol.errors import ApiError
from app.settings import Settings

COOKIE = "wodi_session"
_SALT = "wodi-session-v1"


class SessionSigner:
    """Signs `{"owner_id"}` with the server secret; an invalid or expired cookie reads as "not logged in"."""

    def __init__(self, settings: Settings) -> None:
        self._serializer = URLSafeTimedSerializer(settings.secret_key, salt=_SALT)
        self.max_age = settings.session_days * 86400
        self.secure = settings.public_base_url.startswith("https://")

    def sign(self, owner_id: str) -> str:
        return self._serializer.dumps({"owner_id": owner_id})

    def owner_id(self, cookie: str | None) -> str | None:
        if not cookie:
            return None
        try:
            data = self._serializer.loads(cookie, max_age=self.max_age)
        except (BadSignature, SignatureExpired):
            return None
        owner = data.get("owner_id") if isinstance(data, dict) else None
        return owner if isinstance(owner, str) else None


def _origin(url: str) -> str | None:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme and parts.netloc else None


def check_same_origin(origin: str | None, referer: str | None, allowed: set[str]) -> None:
    """Refuse a cookie-authorised POST unless its Origin (or, without one, its Referer) is one of ours."""
    seen = _origin(origin) if origin and origin != "null" else (_origin(referer) if referer else None)
    if seen is None or seen not in {a.lower() for a in allowed}:
        raise ApiError("cross_origin", "this request must come from a page of this site (Origin/Referer check)")


def safe_redirect(path: str | None, default: str = "/my") -> str:
    """A same-site path for after login: starts with one '/', never '//' or a backslash."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return default
    return path


def allowed_return_to(url: str | None, hosts: frozenset[str]) -> str | None:
    """`return_to` only when it is an http(s) URL whose host is exactly on the allowlist (identity.md §15.2)."""
    if not url or any(ch in url for ch in "\\\x7f") or any(ch.isspace() or ord(ch) < 32 for ch in url):
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.hostname.lower() not in hosts:
        return None
    if parts.username is not None or parts.password is not None:
        return None
    return urlunsplit(parts)
