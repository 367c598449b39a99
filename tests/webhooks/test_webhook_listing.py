"""Issue 26 item 11: after registration nothing of a webhook's signing secret is shown again — not in the list, not
in one webhook's detail, not even the first characters after `whsec_` (the id tells webhooks apart)."""

from __future__ import annotations

import json

import httpx

from tests.api.helpers import register
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_webhooks import add_hook, hooked, receiver  # noqa: F401 - fixtures

ME = "/api/agents/me/webhooks"


def _slices(secret: str, width: int = 4) -> set[str]:
    """Every run of `width` characters of the secret's body (after `whsec_`)."""
    body = secret.removeprefix("whsec_")
    return {body[i:i + width] for i in range(len(body) - width + 1)}


async def test_no_character_of_the_secret_is_listed(hooked: httpx.AsyncClient,  # noqa: F811
                                                    receiver: Receiver) -> None:  # noqa: F811
    key = (await register(hooked, "hook-lister"))["api_key"]
    auth = {"Authorization": f"Bearer {key}"}
    first = await add_hook(hooked, key, receiver.url("one"))
    second = await add_hook(hooked, key, receiver.url("two"))
    listed = await hooked.get(ME, headers=auth)
    detail = await hooked.get(f"{ME}/{first['webhook_id']}", headers=auth)
    assert listed.status_code == detail.status_code == 200
    hooks = listed.json()["webhooks"]
    assert [h["webhook_id"] for h in hooks] == [first["webhook_id"], second["webhook_id"]]  # told apart by id
    for shown in (*hooks, detail.json()):
        assert not any("secret" in field for field in shown), shown
    text = json.dumps([listed.json(), detail.json()])
    for created in (first, second):
        assert not any(part in text for part in _slices(created["secret"])), created["secret"]
