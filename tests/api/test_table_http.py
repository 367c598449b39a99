"""The table extensions through the API (ASGI app, real database): the debate's actions, refusals and turn
fields as an agent sees them, the host's event for every viewer, and the recap in the finished result."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.helpers import assert_error
from tests.api.table import Table, lowest_other


def debater(table: Table, seat: int, snap: dict[str, Any]) -> dict[str, Any] | None:
    """Seat 0 challenges seat 1 once per debate round; everyone else passes; outside the debate, `lowest_other`."""
    if snap["you"]["next_action"] != "debate":
        return lowest_other(table, seat, snap)
    left = next(a for a in snap["you"]["allowed_actions"] if a["type"] == "debate")["messages_left"]
    if seat == 0 and left == 2:
        return {"type": "debate", "text": "1号你的描述有点含糊"}
    return {"type": "debate_pass"}


async def test_a_debate_room_over_http(client: httpx.AsyncClient) -> None:
    table = Table(client, 5, host="plain", debate_rounds=1, debate_timeout=60)
    await table.open()
    snap = await table.snap(0)
    assert snap["config"]["host"] == "plain" and snap["config"]["debate_rounds"] == 1
    while snap["phase"].startswith("speak"):
        speaker = snap["current_speaker_seat"]
        answer = await table.act(speaker, {"type": "speak", "text": f"{speaker}号的线索：很常见"})
        assert answer.status_code == 200, answer.text
        snap = await table.snap(0)
    assert snap["phase"] == "debate_round_1" and (snap["debate_round"], snap["debate_rounds"]) == (1, 1)
    you = snap["you"]
    assert you["next_action"] == "debate" and you["your_turn"] is True
    kinds = {a["type"]: a for a in you["allowed_actions"]}
    assert kinds["debate"]["max_chars"] == 120 and kinds["debate"]["deadline_ts"] == snap["deadline_ts"]
    anonymous = await table.snap()
    host = [e for e in anonymous["public_log"] if e["type"] == "host_commentary"]
    assert len(host) == 1 and host[0]["may_mislead"] is False and "steered" not in str(anonymous["public_log"])

    too_long = await table.act(0, {"type": "debate", "text": "长" * 121})
    assert assert_error(too_long, 422, "text_too_long")["detail"]["limit"] == 120
    word = you["word"]
    leaked = await table.act(0, {"type": "debate", "text": f"我就说{word}吧"})
    assert_error(leaked, 422, "speech_contains_secret_word")
    posted = await table.act(0, {"type": "debate", "text": "1号你的描述有点含糊"})
    assert posted.status_code == 200 and posted.json()["phase"] == "debate_round_1"
    await table.act(0, {"type": "debate", "text": "2号也是"})
    over = await table.act(0, {"type": "debate", "text": "还有3号"})
    body = assert_error(over, 409, "debate_turn_over")
    assert body["detail"]["allowed_actions"] == [{"type": "concede"}]
    assert (await table.snap(0))["you"]["next_action"] == "wait_for_next_phase"
    event = next(e for e in (await table.events(3)) if e["type"] == "debate_posted")
    assert event["addressed_seats"] == [1] and event["visibility"] == "public"

    final = await table.play(debater)
    assert final["status"] == "finished"
    recap = final["result"]["recap"]
    assert [r["seat"] for r in recap["players"]] == list(range(5))
    assert all(1 <= r["score"] <= 10 for r in recap["players"])
    assert recap["players"][0]["stats"]["debate_messages"] >= 2


async def test_debate_actions_in_a_default_room_are_refused(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    snap = await table.snap(0)
    assert "debate_round" not in snap and not {"host", "debate_rounds", "recap"} & set(snap["config"])
    refused = await table.act(1, {"type": "debate", "text": "我有话说"})
    assert_error(refused, 403, "debate_not_enabled")
    assert_error(await table.act(1, {"type": "debate_pass"}), 403, "debate_not_enabled")
    final = await table.play()
    assert "recap" not in final["result"]
    assert not [e for e in final["public_log"] if e["type"].startswith(("host_", "debate_"))]
