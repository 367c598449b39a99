"""Settings refuse the development secrets on a public deployment."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.settings import Settings


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
