"""Settings refuse the development secrets on a public deployment."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import ValidationError

from app.settings import Settings, get_settings


def test_localhost_may_use_default_secrets() -> None:
    assert Settings(public_base_url="http://localhost:8000").is_local


@pytest.mark.parametrize("missing", ["secret_key", "official_bot_key"])
def test_public_url_refuses_default_secrets(missing: str) -> None:
    values = {"secret_key": "s" * 32, "official_bot_key": "k" * 32}
    values.pop(missing)
    with pytest.raises(ValidationError, match=f"WODI_{missing.upper()}"):
        Settings(public_base_url="https://wodi.example", **values)


def test_public_url_with_real_secrets() -> None:
    settings = Settings(public_base_url="https://wodi.example/", secret_key="s" * 32, official_bot_key="k" * 32)
    assert settings.base_url == "https://wodi.example" and not settings.is_local


@pytest.fixture(autouse=True)
def _read_again() -> Iterator[None]:
    """`get_settings` reads the environment once per process: each test reads its own."""
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def read() -> Settings:
    get_settings.cache_clear()
    return get_settings()


def test_the_public_url_follows_the_port_unless_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WODI_PORT", "8123")
    assert read().base_url == "http://127.0.0.1:8123"
    monkeypatch.setenv("WODI_PUBLIC_BASE_URL", "http://localhost:9000")
    assert read().base_url == "http://localhost:9000"


@pytest.mark.parametrize("value", ["", "null"])
def test_an_optional_port_may_be_empty_or_null(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("WODI_METRICS_PORT", value)
    assert read().metrics_port is None


def test_the_log_level_takes_any_case_and_only_a_level(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WODI_LOG_LEVEL", "debug")
    assert read().log_level == "DEBUG"
    monkeypatch.setenv("WODI_LOG_LEVEL", "verbose")
    with pytest.raises(SystemExit, match="WODI_LOG_LEVEL: Input should be 'DEBUG'"):
        read()


def test_a_bad_value_stops_with_one_line_per_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WODI_PORT", "abc")
    monkeypatch.setenv("WODI_LONGPOLL_MAX_WAIT", "90")
    with pytest.raises(SystemExit) as stopped:
        read()
    lines = str(stopped.value).splitlines()
    assert lines[0] == "invalid settings:" and len(lines) == 3
    assert lines[1].startswith("WODI_PORT: ") and lines[1].endswith("(got 'abc')")
    assert lines[2].startswith("WODI_LONGPOLL_MAX_WAIT: ") and "30" in lines[2]


def test_a_rule_across_settings_names_its_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WODI_PUBLIC_BASE_URL", "https://wodi.example")
    with pytest.raises(SystemExit, match="WODI_SECRET_KEY must be set when WODI_PUBLIC_BASE_URL"):
        read()


def test_the_development_secrets_do_only_for_a_server_nobody_else_reaches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Listening on every interface with no public URL, a server was reachable with the public development secrets
    (anyone could sign a session cookie); now that needs real secrets too."""
    monkeypatch.setenv("WODI_HOST", "0.0.0.0")  # noqa: S104 - the case under test
    with pytest.raises(SystemExit, match="WODI_SECRET_KEY must be set when .* WODI_HOST is not a loopback address"):
        read()
    monkeypatch.setenv("WODI_SECRET_KEY", "a real secret for this server, long enough")
    monkeypatch.setenv("WODI_OFFICIAL_BOT_KEY", "a real bot key for this server")
    assert read().host == "0.0.0.0"  # noqa: S104
    monkeypatch.delenv("WODI_HOST")
    monkeypatch.delenv("WODI_SECRET_KEY")
    monkeypatch.delenv("WODI_OFFICIAL_BOT_KEY")
    assert read().host == "127.0.0.1"  # make run: the defaults still do


def test_a_short_operator_or_metrics_token_is_refused_where_others_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing limits guesses at the operator's or the metrics token: on a server that is not local a short one is
    refused at start; a local one may stay short."""
    monkeypatch.setenv("WODI_OPERATOR_TOKEN", "opsecret")
    assert read().operator_token == "opsecret"  # make run: local
    monkeypatch.setenv("WODI_PUBLIC_BASE_URL", "https://wodi.example")
    monkeypatch.setenv("WODI_SECRET_KEY", "a real secret for this server, long enough")
    monkeypatch.setenv("WODI_OFFICIAL_BOT_KEY", "a real bot key for this server")
    with pytest.raises(SystemExit, match="WODI_OPERATOR_TOKEN must be at least 16 characters"):
        read()
    monkeypatch.setenv("WODI_OPERATOR_TOKEN", "x" * 16)
    monkeypatch.setenv("WODI_METRICS_TOKEN", "short")
    with pytest.raises(SystemExit, match="WODI_METRICS_TOKEN must be at least 16 characters"):
        read()
