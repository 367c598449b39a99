"""The bots in the opt-in debate: the rule brain answers a challenge in persona, else speaks up or passes; the LLM
brain answers with seed 000's debate-reply prompt and falls back to the rule brain's message."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from app.bots.llm import LLMBrain
from app.bots.personas import PERSONAS
from app.games.undercover.brain import decide
from app.games.undercover.brain.debating import ACCUSE, DEFEND
from app.games.undercover.instructions import matching
from app.games.undercover.leak import leaks
from tests.bots.helpers import snapshot
from tests.bots.test_llm import FakeLLM, endpoint, fake  # noqa: F401 - the fake endpoint's fixtures

SLUGS = [p.slug for p in PERSONAS]


def debate_snap(seat: int = 0, *, word: str = "包子", posts: list[tuple[int, str, list[int]]] | None = None,
                left: int = 2, debate_round: int = 1, host_top: int | None = None) -> dict[str, Any]:
    clues = ["发面做的", "圆鼓鼓", "蘸醋吃", "早餐常见", "热乎", "蒸的"]
    snap = snapshot(seat, "civilian", word, "debate", speeches=list(enumerate(clues)))
    snap["phase"], snap["debate_round"], snap["debate_rounds"] = "debate_round_1", debate_round, 2
    log = snap["public_log"]
    if host_top is not None:
        log.append({"type": "host_commentary", "round": 1, "ranking": [host_top, *(s for s in range(6)
                                                                                  if s != host_top)]})
    for who, text, named in posts or []:
        log.append({"type": "debate_posted", "seat": who, "round": 1, "debate_round": debate_round, "text": text,
                    "addressed_seats": named})
    snap["you"]["allowed_actions"] = [{"type": "debate", "max_chars": 120, "messages_left": left},
                                      {"type": "debate_pass"}]
    return snap


def safe(text: str, word: str = "包子") -> bool:
    return 0 < len(text) <= 120 and not leaks(text, word, None) and not matching(text)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_challenged_bot_answers_in_persona(slug: str) -> None:
    snap = debate_snap(posts=[(2, "0号你说得太具体了，很可疑", [0])])
    for n in range(20):
        body = decide(snap, slug, random.Random(n))
        assert body is not None and body["type"] == "debate", body
        assert "2号" in body["text"] and safe(body["text"])
        defence = body["text"].split(" ")[0]
        assert defence in {t.format(by="2号") for t in DEFEND[slug]}


def test_the_host_putting_a_bot_first_is_a_challenge_too() -> None:
    body = decide(debate_snap(host_top=0), "laotie", random.Random(1))
    assert body is not None and body["type"] == "debate" and "主持人" in body["text"]


def test_an_answered_challenge_is_not_answered_again() -> None:
    snap = debate_snap(posts=[(2, "0号你很可疑", [0]), (0, "2号你别乱说", [2])], left=1)
    bodies = [decide(snap, "yingyan", random.Random(n)) for n in range(20)]
    assert all(b == {"type": "debate_pass"} for b in bodies)  # posted already this round: nothing new to answer


def test_unchallenged_bots_speak_up_once_or_pass() -> None:
    for slug in SLUGS:
        bodies = [decide(debate_snap(), slug, random.Random(n)) for n in range(40)]
        posted = [b for b in bodies if b and b["type"] == "debate"]
        passed = [b for b in bodies if b == {"type": "debate_pass"}]
        assert len(posted) + len(passed) == 40 and posted and passed, slug
        for body in posted:
            assert safe(body["text"])
            named = [int(s) for s in re.findall(r"(\d)号", body["text"])]
            assert named and 0 not in named  # it names a suspect, never itself
            assert any(body["text"] == t.format(suspect=named[0]) for t in ACCUSE[slug])
    later = [decide(debate_snap(debate_round=2), "laotie", random.Random(n)) for n in range(10)]
    assert all(b == {"type": "debate_pass"} for b in later)  # round 2: only answers


def test_no_messages_left_means_a_pass() -> None:
    snap = debate_snap(posts=[(3, "0号解释一下", [0])], left=0)
    assert decide(snap, "oscar", random.Random(0)) == {"type": "debate_pass"}


async def test_the_llm_answers_a_challenge_with_the_debate_reply_prompt(endpoint: tuple[str, FakeLLM],  # noqa: F811
                                                                        fake: FakeLLM) -> None:  # noqa: F811
    brain = LLMBrain(endpoint[0], timeout=5)
    snap = debate_snap(posts=[(2, "0号你说得太具体了", [0])])
    fallback = {"type": "debate", "text": "规则大脑的回应"}
    try:
        fake.content = '{"text": "我说具体是因为我是好人，2号你才含糊"}'
        reply = await brain.improve(snap, PERSONAS[2], fallback)
        assert reply == {"type": "debate", "text": "我说具体是因为我是好人，2号你才含糊"}
        prompt = fake.requests[-1]["messages"][1]["content"]
        assert "用户说：2号：0号你说得太具体了" in prompt and "请生成你的回应（1-2句话）" in prompt
        fake.content = '{"text": "我的词是包子"}'  # the own word: the rule brain's message goes instead
        assert await brain.improve(snap, PERSONAS[2], fallback) == fallback
        fake.content = '{"text": "随便"}'
        assert await brain.improve(snap, PERSONAS[2], {"type": "debate_pass"}) == {"type": "debate_pass"}
        assert brain.stats["used"] == 1 and brain.stats["invalid"] == 1
        assert len(fake.requests) == 2  # a pass is never sent to the endpoint
    finally:
        await brain.aclose()
