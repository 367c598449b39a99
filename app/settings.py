"""Every setting in one place (prefix WODI_); the README documents each one."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEV_SECRET = "dev-secret-change-me"  # noqa: S105 - refused outside localhost
DEV_BOT_KEY = "dev-official-bot-key"
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}


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
    waiting_room_ttl: float = Field(1800.0, gt=0)
    janitor_interval: float = Field(60.0, gt=0)
    session_days: int = Field(7, ge=1)
    return_to_hosts: str = "localhost,127.0.0.1,clawdchat.cn,www.clawdchat.cn"
    provider_allowlist: str = ""
    single_process: bool = False
    bots_enabled: bool = True
    bot_fill_after: float = Field(20.0, ge=0)
    bot_base_url: str = ""
    llm_base_url: str = ""
    llm_api_key: str = ""
    llm_model: str = "gpt-4o-mini"
    llm_timeout: float = Field(8.0, gt=0)
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
    def return_to_host_set(self) -> frozenset[str]:
        own = urlsplit(self.public_base_url).hostname or ""
        return frozenset({own, *(h.strip() for h in self.return_to_hosts.split(",") if h.strip())})

    @model_validator(mode="after")
    def _refuse_default_secrets(self) -> Settings:
        if not self.is_local:
            for name, default in (("secret_key", DEV_SECRET), ("official_bot_key", DEV_BOT_KEY)):
                if getattr(self, name) == default:
                    raise ValueError(
                        f"WODI_{name.upper()} must be set when WODI_PUBLIC_BASE_URL is not a localhost URL"
                    )
        return self


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once from the environment."""
    return Settings()
