"""Issue 26 item 6 over HTTP: a word split between a seat's speech and its vote comment of the same round is
refused like the word itself (422 `speech_contains_secret_word`), and the seat may vote again without it."""

from __future__ import annotations

import httpx

from tests.api.helpers import assert_error
from tests.api.table import Table


async def test_a_word_split_between_speech_and_comment_is_refused(client: httpx.AsyncClient) -> None:
    for _ in range(20):  # a pair of one-character words (狗/狼) cannot be split: deal again
        table = Table(client, 4, speak_timeout=600, vote_timeout=600)
        await table.open()
        words = {seat: (await table.snap(seat))["you"]["word"] for seat in range(4)}
        splitter = next((seat for seat, word in words.items() if len(word) >= 2), None)
        if splitter is not None:
            break
    assert splitter is not None, "twenty deals in a row of one-character words"
    head, rest = words[splitter][:1], words[splitter][1:]
    for _ in range(4):
        seat = int((await table.snap(None))["current_speaker_seat"])
        text = f"我想到了{head}" if seat == splitter else "这个东西家家都有，每天都会用到。"
        assert (await table.act(seat, {"type": "speak", "text": text})).status_code == 200
    target = next(s for s in range(4) if s != splitter)
    tainted = {"type": "vote", "target_seat": target, "comment": f"{rest}，就这样"}
    refused = assert_error(await table.act(splitter, tainted), 422, "speech_contains_secret_word")
    assert refused["detail"]["split"] is True
    assert (await table.snap(splitter))["you"]["next_action"] == "vote"  # nothing applied
    assert (await table.act(splitter, {**tainted, "comment": "就这样"})).status_code == 200
    # Each text alone passes: the split is only caught when they are read together.
    answer = await table.act(target, {"type": "vote", "target_seat": splitter, "comment": f"{rest}，就这样"})
    assert answer.status_code == 200, answer.text
