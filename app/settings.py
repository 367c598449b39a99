"""Every setting in one place (prefix WODI_); the README documents each one."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEV_SECRET = "dev-secret-change-me"  # noqa: S105 - refused outside localhost
DEV_BOT_KEY = "dev-official-bot-key"
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="WODI_", env_file=".env", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./wodi.db"
    public_base_url: str = "http://127.0.0.1:8000"
    host: str = "127.0.0.1"
    port: int = 8000
    secret_key: str = DEV_SECRET
    official_bot_key: str = DEV_BOT_KEY
    longpoll_max_wait: float = Field(30.0, ge=0, le=30)
    db_pool_size: int = Field(20, ge=1)
    rate_limit_enabled: bool = True
    rate_limit_writes_per_minute: int = Field(240, ge=1)
    rate_limit_registrations_per_hour: int = Field(60, ge=1)
    rate_limit_matches_per_hour: int = Field(120, ge=1)
    rate_limit_logins_per_minute: int = Field(20, ge=1)
    rate_limit_benchmarks_per_hour: int = Field(6, ge=1)
    waiting_room_ttl: float = Field(1800.0, gt=0)
    janitor_interval: float = Field(60.0, gt=0)
    session_days: int = Field(7, ge=1)
    return_to_hosts: str = "localhost,127.0.0.1,clawdchat.cn,www.clawdchat.cn"
    provider_allowlist: str = ""
    trusted_proxies: str = ""
    single_process: bool = False
    # Casual matches: "live" = spectators get the god view while the match runs (the protocol's default);
    # "end" = only after it, as competitive (`compete_mode`) matches always do.
    casual_spectator_god_view: Literal["live", "end"] = "live"
    bots_enabled: bool = True
    bot_fill_after: float = Field(20.0, ge=0)
    bot_pool_max: int = Field(20, ge=1, le=500)  # official bot agents per persona, registered as tables need them
    bot_base_url: str = ""
    llm_base_url: str = ""
    llm_api_key: str = ""
    llm_model: str = "gpt-4o-mini"
    llm_timeout: float = Field(8.0, gt=0)
    webhook_allow_private: bool = False
    webhook_retry_base: float = Field(10.0, gt=0)
    webhook_timeout: float = Field(10.0, gt=0, le=60)
    streams_per_client: int = Field(8, ge=1)
    log_level: str = "INFO"

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
        return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in self.trusted_proxies.split(",")
                     if p.strip())

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

    @model_validator(mode="after")
    def _refuse_default_secrets(self) -> Settings:
        if not self.is_local:
            for name, default in (("secret_key", DEV_SECRET), ("official_bot_key", DEV_BOT_KEY)):
                if getattr(self, name) == default:
                    raise ValueError(
                        f"WODI_{name.upper()} must be set when WODI_PUBLIC_BASE_URL is not a localhost URL"
                    )
        return self


def forwarded_client(peer: str, forwarded_for: list[str], trusted: tuple[IPNetwork, ...]) -> str:
    """The client's address: `peer`, or behind trusted proxies the right-most forwarded hop they did not add."""

    def is_trusted(address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in trusted)

    if not trusted or not is_trusted(peer):
        return peer
    hops = [hop.strip() for header in forwarded_for for hop in header.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not is_trusted(hop):
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
    """The process-wide settings, read once from the environment."""
    return Settings()
