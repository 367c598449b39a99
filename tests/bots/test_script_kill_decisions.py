"""Single script_kill NPC decisions on hand-built seat snapshots (the shape `GET /api/matches/{id}` gives a seat):
seed 002 §三's priority order, suspicion from the visible clues' weights, the secret guard, the trade rules."""

from __future__ import annotations

import random
from typing import Any

from app.games.script_kill.brain import decide, read, safe
from app.games.script_kill.brain.plan import giveable

CAST = [("c1", "管家老周"), ("c2", "千金林雪"), ("c3", "医生陈默"), ("c4", "商人赵川"), ("c5", "画家苏晚"),
        ("c6", "记者方远")]
PLACES = [("study", "书房"), ("garden", "花园"), ("hall", "大厅")]


def _clue(cid: str, text: str, weights: dict[str, int], location: str = "study", **extra: Any) -> dict[str, Any]:
    return {"id": cid, "tier": 1, "act": 1, "location": location, "text": text, "is_key": False,
            "about": [c for c, v in weights.items() if v > 0], "weights": weights, **extra}


def _snap(sub_stage: str, allowed: list[dict[str, Any]], *, seat: int = 0, clues: list[dict[str, Any]] | None = None,
          public: list[dict[str, Any]] | None = None, items: list[dict[str, Any]] | None = None,
          log: list[dict[str, Any]] | None = None, private: list[dict[str, Any]] | None = None,
          round_no: int = 1, culprit: bool = False, timeline: str = "第一天在大厅用餐。",
          phrases: tuple[str, ...] = ("我在酒里下了药",), power: dict[str, Any] | None = None) -> dict[str, Any]:
    cid, name = CAST[seat]
    return {
        "game": "script_kill", "status": "in_progress", "phase": sub_stage, "sub_stage": sub_stage,
        "round_no": round_no, "stage_deadline_ts": 0,
        "characters": [{"seat": s, "character": c, "name": n, "public": f"{n}，山庄的客人。"}
                       for s, (c, n) in enumerate(CAST)],
        "unlocked_locations": [{"id": i, "name": n} for i, n in PLACES],
        "public_clues": public or [], "anchors": [], "public_log": log or [],
        "you": {"seat": seat, "your_turn": True, "next_action": "act", "allowed_actions": allowed,
                "side": "culprit" if culprit else "innocent",
                "character": {"id": cid, "name": name, "script": "私密剧本。", "secret": "我在酒里下了药，想让他睡着。",
                              "secret_phrases": list(phrases), "win": "…", "relations": [],
                              "timeline": [{"day": 1, "time": "19:00", "text": timeline}]},
                "items": items or [], "clues": clues or [], "investigations_left": 3,
                "power": power, "private_log": private or []},
    }


def _act(snap: dict[str, Any], persona: str = "yingyan", seed: int = 0) -> dict[str, Any]:
    body = decide(snap, persona, random.Random(seed))
    assert body is not None
    return body


def _explore(**rows: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": kind, **row} for kind, row in rows.items()] + [{"type": "ready"}]


def test_the_power_comes_first_in_explore_then_the_place_of_its_own_story() -> None:
    allowed = _explore(use_power={"powers": ["p1"], "targets": [1, 2, 3, 4, 5]},
                       investigate={"locations": ["study", "garden", "hall"]},
                       private_chat={"targets": [1, 2, 3, 4, 5]})
    power = {"id": "p1", "name": "搜身", "used": False, "target": "character"}
    snap = _snap("explore_r1", allowed, power=power, clues=[_clue("k1", "刀上有指纹。", {"c4": 3})])
    body = _act(snap)
    assert body == {"type": "use_power", "power": "p1", "target": 3}  # 商人赵川 (c4) sits in seat 3
    del allowed[0]
    snap = _snap("explore_r1", allowed, timeline="第三天夜里我去过花园。")
    assert _act(snap) == {"type": "investigate", "location": "garden"}


def test_after_investigating_it_chats_at_most_twice_a_round_then_readies() -> None:
    allowed = _explore(private_chat={"targets": [1, 2, 3, 4, 5]})
    mine = [_clue("k1", "书房的窗没有锁。", {"c3": 2})]
    sent = [{"seq": 10 + i, "type": "private_chat", "seat": 0, "to": 1 + i, "round": 1, "text": f"问{i}。"}
            for i in range(2)]
    first = _act(_snap("explore_r1", allowed, clues=mine, private=sent[:1]))
    assert first["type"] == "private_chat" and first["to"] != 1 and len(first["text"]) <= 200
    assert _act(_snap("explore_r1", allowed, clues=mine, private=sent)) == {"type": "ready"}


def test_a_chat_received_is_answered_once() -> None:
    allowed = _explore(private_chat={"targets": [1, 2, 3, 4, 5]})
    asked = [{"seq": 5, "type": "private_chat", "seat": 4, "to": 0, "round": 1, "text": "你那晚在哪里？"}]
    reply = _act(_snap("explore_r1", allowed, private=asked))
    assert reply["type"] == "private_chat" and reply["to"] == 4
    answered = [*asked, {"seq": 6, "type": "private_chat", "seat": 0, "to": 4, "round": 1, "text": reply["text"]}]
    assert _act(_snap("explore_r1", allowed, private=answered, round_no=1)).get("to") != 4


def test_it_trades_only_a_plain_clue_item_and_only_to_a_trusted_seat() -> None:
    items = [{"id": "i1", "name": "带血的水果刀", "type": "weapon", "is_key": True, "tradable": False},
             {"id": "i2", "name": "旧信", "type": "clue_item", "is_key": True, "tradable": False},
             {"id": "i3", "name": "火车票", "type": "clue_item", "is_key": False, "tradable": True}]
    snap = _snap("explore_r1", _explore(trade={"targets": [1, 2, 3, 4, 5], "items": ["i1", "i2", "i3"]}), items=items)
    seat = read(snap)
    assert [i for i in ("i1", "i2", "i3") if giveable(seat, i)] == ["i3"]
    assert _act(snap) == {"type": "ready"}  # nobody is trusted yet
    gifts = [{"seq": 3, "type": "trade", "seat": 2, "to": 0, "round": 1, "item": "i9"}]
    snap = _snap("explore_r1", _explore(trade={"targets": [1, 2, 3, 4, 5], "items": ["i1", "i2", "i3"]}),
                 items=items, private=gifts)
    assert _act(snap) == {"type": "trade", "to": 2, "item": "i3"}


def test_speech_never_says_a_secret_phrase_even_quoting_its_own_clue() -> None:
    allowed = [{"type": "speak"}, {"type": "ready"}]
    leak = _clue("k1", "我在酒里下了药。", {"c2": 3})
    for persona in ("adai", "linglong", "laotie", "nuomi", "yingyan", "oscar"):
        for seed in range(10):
            body = _act(_snap("discuss_r1", allowed, clues=[leak]), persona, seed)
            assert body["type"] == "speak" and body["text"] and len(body["text"]) <= 300
            assert "我在酒里下了药" not in body["text"].replace("，", "")
    seat = read(_snap("discuss_r1", allowed))
    assert not safe(seat, "其实我在酒里，下了药") and safe(seat, "我怀疑千金林雪。")


def test_one_speech_a_discuss_stage_then_ready() -> None:
    allowed = [{"type": "speak"}, {"type": "ready"}]
    spoke = [{"seq": 9, "type": "stage_changed", "round": 1, "text": "第一轮讨论开始"},
             {"seq": 10, "type": "speech", "seat": 0, "round": 1, "text": "我怀疑千金林雪。"}]
    assert _act(_snap("discuss_r1", allowed, log=spoke)) == {"type": "ready"}


def test_it_shows_the_clue_that_weighs_most_on_the_top_suspect_never_one_on_itself() -> None:
    allowed: list[dict[str, Any]] = [{"type": "reveal_clue", "clues": ["k1", "k2", "k3"]}, {"type": "speak"},
                                     {"type": "ready"}]
    clues = [_clue("k1", "花园里有脚印。", {"c3": 1}), _clue("k2", "医生的药箱少了一瓶。", {"c3": 4}),
             _clue("k3", "老周的袖口有酒渍。", {"c1": 5})]
    assert _act(_snap("discuss_r1", allowed, clues=clues)) == {"type": "reveal_clue", "clue": "k2"}
    culprit = _snap("discuss_r1", allowed, clues=clues, culprit=True)
    assert _act(culprit)["clue"] != "k3"


def test_the_vote_goes_to_the_top_suspect_and_the_culprit_never_votes_itself() -> None:
    allowed = [{"type": "vote", "targets": [1, 2, 3, 4, 5]}]
    public = [_clue("k1", "刀柄上的指纹。", {"c4": 3, "c2": 1}), _clue("k2", "账本缺页。", {"c4": 1})]
    assert _act(_snap("final_vote", allowed, public=public)) == {"type": "vote", "target": 3}
    against_me = [_clue("k3", "老周的袖口有酒渍。", {"c1": 9})]
    body = _act(_snap("final_vote", allowed, public=public + against_me, culprit=True))
    assert body == {"type": "vote", "target": 3}


def test_passive_stages_ready_and_self_intro_waits_for_its_turn() -> None:
    assert _act(_snap("script_handout", [{"type": "ready"}], round_no=0)) == {"type": "ready"}
    assert decide(_snap("self_intro", [{"type": "ready"}], round_no=0), "adai", random.Random(1)) is None
    body = _act(_snap("self_intro", [{"type": "speak"}, {"type": "ready"}], round_no=0), "oscar")
    assert body["type"] == "speak" and "管家老周" in body["text"]


def test_the_baseline_picks_only_offered_options() -> None:
    allowed = _explore(investigate={"locations": ["hall"]}, private_chat={"targets": [4]},
                       trade={"targets": [2], "items": ["i3"]})
    for seed in range(40):
        body = decide(_snap("explore_r1", allowed), "adai", random.Random(seed), baseline=True)
        assert body is not None
        plain = ({"type": "ready"}, {"type": "investigate", "location": "hall"},
                 {"type": "trade", "to": 2, "item": "i3"})
        assert body in plain or (body["type"] == "private_chat" and body["to"] == 4)


def test_it_searches_deep_and_follows_what_a_peek_showed() -> None:
    allowed = _explore(investigate={"locations": ["study", "garden", "hall"]})
    began = {"seq": 1, "type": "stage_changed", "round": 1, "sub_stage": "explore_r1"}
    searched = [began, {"seq": 2, "type": "investigated", "seat": 0, "location": "hall", "round": 1}]
    assert _act(_snap("explore_r1", allowed, log=searched)) == {"type": "investigate", "location": "hall"}
    empty = [*searched, {"seq": 3, "type": "dm_notice", "seat": 0, "location": "hall", "round": 1}]
    assert _act(_snap("explore_r1", allowed, log=empty))["location"] != "hall"
    peek = {"seq": 2, "type": "power_result", "seat": 0, "round": 1, "power": "p4", "target": "study",
            "result": {"location": "study", "clues": [_clue("k02", "地毯上的鞋印。", {"c4": 2}, is_key=True)]}}
    assert _act(_snap("explore_r1", allowed, log=[began], private=[peek])) == {"type": "investigate",
                                                                               "location": "study"}


def test_it_leaves_a_place_another_seat_searches_too_for_one_nobody_searches() -> None:
    allowed = _explore(investigate={"locations": ["study", "garden", "hall"]})
    began = {"seq": 1, "type": "stage_changed", "round": 1, "sub_stage": "explore_r1"}
    mine = {"seq": 2, "type": "investigated", "seat": 0, "location": "hall", "round": 1}
    theirs = [{"seq": 3, "type": "investigated", "seat": 2, "location": "hall", "round": 1},
              {"seq": 4, "type": "investigated", "seat": 3, "location": "study", "round": 1}]
    assert _act(_snap("explore_r1", allowed, log=[began, mine, *theirs])) == {"type": "investigate",
                                                                              "location": "garden"}
    everywhere = [*theirs, {"seq": 5, "type": "investigated", "seat": 4, "location": "garden", "round": 1}]
    assert _act(_snap("explore_r1", allowed, log=[began, mine, *everywhere]))["location"] == "hall"  # stays
    fresh = [began, {"seq": 2, "type": "investigated", "seat": 1, "location": "hall", "round": 1}]
    assert _act(_snap("explore_r1", allowed, log=fresh, timeline="第一天在大厅用餐。"))["location"] != "hall"


def test_it_shows_a_key_looking_clue_first() -> None:
    allowed: list[dict[str, Any]] = [{"type": "reveal_clue", "clues": ["k1", "k2", "k3"]}, {"type": "speak"},
                                     {"type": "ready"}]
    clues = [_clue("k1", "医生的药箱少了一瓶。", {"c3": 1}), _clue("k2", "茶杯底的白色粉末。", {"c5": 1}, is_key=True),
             _clue("k3", "画家的画框里夹着信。", {"c5": 3})]
    public = [_clue("k9", "医生深夜出过门。", {"c3": 2})]  # the top suspect is the doctor (c3)
    assert _act(_snap("discuss_r1", allowed, clues=clues[:2], public=public)) == {"type": "reveal_clue", "clue": "k2"}
    assert _act(_snap("discuss_r1", allowed, clues=[clues[0], clues[2]])) == {"type": "reveal_clue", "clue": "k3"}
