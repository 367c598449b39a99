"""Every setting in one place (prefix WODI_); each field's docstring is its row in docs/operate/settings.md."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEV_SECRET = "dev-secret-change-me"  # noqa: S105 - refused outside localhost
DEV_BOT_KEY = "dev-official-bot-key"
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
MIN_TOKEN = 16  # characters of an operator or metrics token on a server others can reach
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


class Settings(BaseSettings):
    # Each field's docstring is its line in the docs' settings table (`python -m tools.docs`).
    # An empty variable (`WODI_METRICS_PORT=` in an env file) is as if unset; `null` sets an optional one to none.
    model_config = SettingsConfigDict(env_prefix="WODI_", env_file=".env", extra="ignore",
                                      use_attribute_docstrings=True, env_ignore_empty=True, env_parse_none_str="null")

    database_url: str = "sqlite+aiosqlite:///./wodi.db"
    """SQLAlchemy async URL; production: `postgresql+asyncpg://user@host/db`."""
    public_base_url: str = ""
    """Base of `invite_url`, `claim_url`, `profile_url`, as clients reach the server (behind a proxy: the proxy's
    URL); unset: `http://127.0.0.1:<port>`. Pages that post with the session cookie must come from it (or from a
    loopback address). A non-localhost URL refuses the development secrets below."""
    host: str = "127.0.0.1"
    """Where `python -m app` (`make run`) listens."""
    port: int = 8000
    """The port `python -m app` (`make run`) listens on."""
    secret_key: str = DEV_SECRET
    """Signs session cookies and seals webhook secrets and stored idempotent answers. The default is **refused**
    unless the public base URL is localhost and `WODI_HOST` a loopback address."""
    official_bot_key: str = DEV_BOT_KEY
    """`X-Official-Bot-Key` that registers official bots. The default is **refused** unless localhost (URL and
    `WODI_HOST`); empty disables official-bot registration."""
    longpoll_max_wait: float = Field(30.0, ge=0, le=30)
    """Cap (seconds, ≤ 30) on the `wait` of long-polls."""
    db_pool_size: int = Field(20, ge=1)
    """Database connections per process at most (a fixed pool, opened as needed: none more under bursts). On PostgreSQL
    each process also holds its LISTEN connection and its writers-lock connection, and the process running the
    official bots one more (the other processes open and close one every few seconds to ask for it): plan for
    processes × (pool + 3) within the server's `max_connections`."""
    rate_limit_enabled: bool = True
    """Turn all rate limits on or off."""
    rate_limit_writes_per_minute: int = Field(240, ge=1)
    """Writes (`POST /api/matches`, `/join`, `/action`, `/concede`, `/abort`, refused ones included) per API key per
    minute; writes without a valid key count per client IP."""
    rate_limit_registrations_per_hour: int = Field(60, ge=1)
    """`POST /api/agents` per client IP per hour (owner sign-ups share it)."""
    rate_limit_matches_per_hour: int = Field(120, ge=1)
    """`POST /api/matches` and `POST /api/play` per client IP per hour, and the seats guests and owners take by join."""
    rate_limit_logins_per_minute: int = Field(20, ge=1)
    """Owner login attempts per client IP per minute."""
    rate_limit_benchmarks_per_hour: int = Field(6, ge=1)
    """Benchmark runs one agent may start per hour."""
    waiting_room_ttl: float = Field(1800.0, gt=0)
    """Seconds after which the janitor aborts a waiting room nobody joined."""
    janitor_interval: float = Field(60.0, gt=0)
    """Seconds between janitor sweeps."""
    session_days: int = Field(7, ge=1)
    """Owner session cookie lifetime, in days."""
    return_to_hosts: str = "localhost,127.0.0.1,clawdchat.cn,www.clawdchat.cn"
    """Comma-separated exact hosts allowed for the claim `return_to` (our own host is always allowed)."""
    provider_allowlist: str = ""
    """Comma-separated `X-Provider-Id` values accepted; a request naming another gets 403 `provider_not_allowed`,
    one without the header is accepted (it comes from no proxy). Empty: any."""
    trusted_proxies: str = ""
    """Comma-separated IP addresses or networks of reverse proxies whose `X-Forwarded-For` names the client for per-IP
    limits (the right-most hop they did not add). Empty: the socket's peer is the client, whatever the header says."""
    single_process: bool = False
    """PostgreSQL only: `true` declares this server process the only writer (wake-ups stay in-process, reads trust the
    cache), enforced by an advisory lock so a second process refuses to start; `false`: any number of processes
    share the database."""
    # Casual matches: "live" = spectators get the god view while the match runs (the protocol's default);
    # "end" = only after it, as competitive (`compete_mode`) matches always do.
    casual_spectator_god_view: Literal["live", "end"] = "live"
    """Casual matches: `live` = a logged-in spectator gets the god view while the match runs (the protocol's default);
    `end` = only after it, as `compete_mode` matches always do."""
    bots_enabled: bool = True
    """Run the lobby bot filler (the official bots) with the server; `false`: a server without bots."""
    bots_elsewhere: bool = False
    """The official bots run in a process this server does not start (`python -m app.bots --wake` on a machine of
    their own, with `WODI_BOTS_ENABLED=false` here): quick starts seat them in the room's own transaction all the
    same, and if that process is down, the server plays a table's bots from the first turn one of them misses.
    Without it (and without `WODI_BOTS_ENABLED`) they take a quick start's seats by joining."""
    bots_process: bool = True
    """`true`: the official bots run in a child process of their own (`python -m app.bots`), off the server's event
    loop, woken over HTTP by the server's lobby long-poll; `false`: on the server's own event loop."""
    bot_fill_after: float = Field(20.0, ge=0)
    """Seconds a waiting room waits before bots fill it (quick-start rooms: none)."""
    bot_pool_max: int = Field(20, ge=1, le=500)  # official bot agents per persona, registered as tables need them
    """Official bot agents per persona at most; the pool grows to it as tables need bots. The server reads it too
    (how many bot seats quick starts may take): with the bots on another machine, set it the same on both (an agent
    the server made above the bots' own limit is never played by them, so its table's bots are taken over by the
    server at the first turn it misses)."""
    showcase: bool = True
    """While no public match is live, the official bots play a showcase match (the installed games in turn, short
    tables, never rated), featured at the top of the lobby; `false` turns it off. The server refuses a showcase
    when its own value is `false`, and the bots ask for one only when theirs is `true`: with the bots on another
    machine, set it the same on both."""
    bot_base_url: str = ""
    """Where the official bots reach the API (on the server's loop, in its child process, or `python -m app.bots`
    run by hand); empty: `http://127.0.0.1:$WODI_PORT`."""
    quick_start_bots_per_client: int = Field(10, ge=1)
    """One client's share of the bots: the bot seats its live quick starts may hold at once (one table always fits);
    over it `POST /api/play` answers 429 `quick_start_limit`."""
    quick_start_idle_turns: int = Field(3, ge=1)
    """A quick table whose only person timed out this many turns in a row ends early (`player_idle`), freeing its
    bots."""
    quick_start_away_after: float = Field(180.0, gt=0)
    """Seconds a quick table's person may read nothing before the table ends early (`player_left`)."""
    llm_base_url: str = ""
    """Optional LLM brain and recap voice: an OpenAI-compatible chat-completions base URL; empty: the rule brain
    only."""
    llm_api_key: str = ""
    """The LLM endpoint's API key."""
    llm_model: str = "gpt-4o-mini"
    """The LLM model name."""
    llm_timeout: float = Field(8.0, gt=0)
    """Seconds to wait for the LLM (never past a turn's deadline); then the rule brain's action is sent."""
    webhook_allow_private: bool = False
    """`true` lets webhooks call loopback, private and link-local addresses (a receiver on 127.0.0.1 in tests or on a
    private network); cloud metadata addresses stay refused."""
    webhook_retry_base: float = Field(10.0, gt=0)
    """Seconds before a failed delivery's first retry; each further retry waits twice as long (at most an hour)."""
    webhook_timeout: float = Field(10.0, gt=0, le=60)
    """Seconds (≤ 60) a receiver has to answer a delivery; connecting gets at most 5."""
    streams_per_client: int = Field(8, ge=1)
    """Event streams (`/events/stream`) one client (API key, play token, owner session, else IP) may hold open at once
    in one process."""
    rating_repeat_window_hours: float = Field(24.0, ge=0)
    """The same owners at one competitive table are rated once per this many hours (0: every time)."""
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    """Log level (`DEBUG` shows the bots' polling and health checks); any case."""
    log_format: Literal["text", "json"] = "text"
    """`text`: readable lines; `json`: one JSON object a line, for log collectors."""
    metrics_token: str = ""
    """`/metrics` on the public port behind `Authorization: Bearer <this token>` when set (at least 16 characters
    on a server that is not local)."""
    metrics_port: int | None = Field(None, ge=1, le=65535)
    """Else `/metrics` on a port of its own (no token), bound to `metrics_host`; with neither set, `/metrics` answers
    only on a local server."""
    metrics_host: str = "127.0.0.1"
    """The address `metrics_port` binds."""
    opentelemetry: bool = False
    """`true` lets FastAPI trace each request to the OpenTelemetry providers the process configures (such as
    `opentelemetry-instrument`'s); off, a request skips the check for them."""
    operator_token: str = ""
    """The operator API (`/api/operator/…`, `python -m app.admin`) answers only to this bearer token; off when empty;
    at least 16 characters on a server that is not local."""

    @property
    def is_local(self) -> bool:
        return (urlsplit(self.public_base_url).hostname or "") in LOCAL_HOSTS

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def base_url(self) -> str:
        return self.public_base_url.rstrip("/")

    def match_url(self, match_id: str) -> str:
        """The match's page: its invite link, and its replay once it ended."""
        return f"{self.base_url}/match/{match_id}"

    @property
    def only_writer(self) -> bool:
        """This process is the only one writing to the database (SQLite, or `single_process`): its cache is
        current without asking the database."""
        return self.is_sqlite or self.single_process

    @property
    def provider_allowlist_set(self) -> frozenset[str]:
        return frozenset(p.strip() for p in self.provider_allowlist.split(",") if p.strip())

    @property
    def trusted_proxy_networks(self) -> tuple[IPNetwork, ...]:
        return _networks(self.trusted_proxies)

    @property
    def return_to_host_set(self) -> frozenset[str]:
        own = urlsplit(self.public_base_url).hostname or ""
        return frozenset({own, *(h.strip() for h in self.return_to_hosts.split(",") if h.strip())})

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: str) -> str:
        for part in filter(None, (p.strip() for p in value.split(","))):
            try:
                ipaddress.ip_network(part, strict=False)
            except ValueError:
                raise ValueError(f"WODI_TRUSTED_PROXIES: {part!r} is not an IP address or network") from None
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _refuse_default_secrets(self) -> Settings:
        if not self.public_base_url:  # the server's own address, on the port it listens on
            self.public_base_url = f"http://127.0.0.1:{self.port}"
        # The development secrets are public: they do only for a server nobody else can reach — a localhost URL
        # and a loopback listening address (WODI_HOST=0.0.0.0 with no public URL is reachable from the network).
        if not self.is_local or self.host not in LOCAL_HOSTS:
            for name, default in (("secret_key", DEV_SECRET), ("official_bot_key", DEV_BOT_KEY)):
                if getattr(self, name) == default:
                    raise ValueError(
                        f"WODI_{name.upper()} must be set when WODI_PUBLIC_BASE_URL is not a localhost URL or "
                        f"WODI_HOST is not a loopback address (it is {self.host!r})"
                    )
        if not self.is_local or self.host not in LOCAL_HOSTS:  # nothing limits guesses at these: length must
            for name in ("operator_token", "metrics_token"):
                if 0 < len(getattr(self, name)) < MIN_TOKEN:
                    raise ValueError(f"WODI_{name.upper()} must be at least {MIN_TOKEN} characters on a server "
                                     "others can reach (python -c 'import secrets; print(secrets.token_urlsafe())')")
        return self


@lru_cache(maxsize=8)
def _networks(listed: str) -> tuple[IPNetwork, ...]:
    """`WODI_TRUSTED_PROXIES` parsed (once per value: every request asks)."""
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in listed.split(",") if p.strip())


@lru_cache(maxsize=4096)
def _is_trusted(address: str, trusted: tuple[IPNetwork, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def forwarded_client(peer: str, forwarded_for: list[str], trusted: tuple[IPNetwork, ...]) -> str:
    """The client's address: `peer`, or behind trusted proxies the right-most forwarded hop they did not add."""
    if not trusted or not _is_trusted(peer, trusted):
        return peer
    hops = [hop.strip() for header in forwarded_for for hop in header.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop if _is_ip(hop) else peer
    return hops[0] if hops else peer


def _is_ip(value: str) -> bool:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once from the environment. A bad value stops the program with one line per
    variable, naming it (`WODI_PORT: …`), instead of a traceback."""
    try:
        return Settings()
    except ValidationError as error:
        raise SystemExit("\n".join(["invalid settings:", *explain(error)])) from None


def explain(error: ValidationError) -> list[str]:
    """One line per problem: the variable, what is wrong, and the value it was given."""
    lines = []
    for problem in error.errors(include_url=False):
        message = str(problem["msg"]).removeprefix("Value error, ")
        if not problem["loc"]:  # a rule across settings: its message names the variables
            lines.append(message)
            continue
        given = problem.get("input")
        lines.append(f"WODI_{str(problem['loc'][0]).upper()}: {message}"
                     + (f" (got {given!r})" if isinstance(given, str | int | float) else ""))
    return lines
