"""Single werewolf brain decisions on hand-built seat snapshots (the shape `GET /api/matches/{id}` gives a seat):
votes from claims and contradictions, the pack following its first choice, the witch's potions, the seer's reveal."""

from __future__ import annotations

import random
from typing import Any

from app.games.werewolf.brain import decide


def _snap(seat: int, role: str, action: str, *, n: int = 9, day: int = 1, log: list[dict[str, Any]] | None = None,
          allowed: list[dict[str, Any]] | None = None, dead: tuple[int, ...] = (), pk: list[int] | None = None,
          night: bool = False, private: list[dict[str, Any]] | None = None, **you: Any) -> dict[str, Any]:
    living = [s for s in range(n) if s not in dead]
    return {
        "status": "in_progress", "phase": f"{'night' if night else 'vote'}_round_{day}", "round_index": day,
        "is_night": night, "alive_seats": living, "pk_candidates": pk or [],
        "composition": {"werewolf": 3, "villager": 3, "seer": 1, "witch": 1, "hunter": 1},
        "players": [{"seat": s, "name": f"p{s}", "display_name": f"P{s}", "alive": s in living} for s in range(n)],
        "public_log": log or [],
        "you": {"seat": seat, "role": role, "alive": True, "next_action": action, "your_turn": True,
                "allowed_actions": allowed or [], "private_log": private or [], **you},
    }


def _speech(seat: int, text: str, day: int = 1) -> dict[str, Any]:
    return {"type": "speech_posted", "visibility": "public", "seat": seat, "round": day, "text": text, "pk": False}


def _vote(voter: int, target: int, day: int = 1) -> dict[str, Any]:
    return {"type": "vote_cast", "visibility": "public", "seat": voter, "round": day, "target_seat": target,
            "comment": None, "pk": False}


def _act(snap: dict[str, Any], persona: str, seed: int) -> dict[str, Any]:
    body = decide(snap, persona, random.Random(seed))
    assert body is not None
    return body


def _voting(seat: int, targets: list[int]) -> list[dict[str, Any]]:
    return [{"type": "vote", "targets": targets, "deadline_ts": 0}, {"type": "concede"}]


def test_a_villager_votes_the_believed_seers_wolf() -> None:
    log = [_speech(1, "我是预言家。第1晚验了4号，是查杀。今天全票出4号。"), _speech(2, "我先听听后面的发言。")]
    snap = _snap(0, "villager", "vote", log=log, allowed=_voting(0, [1, 2, 3, 4, 5, 6, 7, 8]))
    votes = {_act(snap, "yingyan", i)["target_seat"] for i in range(20)}
    assert votes == {4}


def test_a_counter_claim_after_being_named_is_not_believed() -> None:
    log = [_speech(1, "本人预言家。我第1晚查的4号，查杀。"),
           _speech(4, "我是预言家。第1晚验了1号，是查杀。1号跳的是假的。")]
    snap = _snap(0, "villager", "vote", log=log, allowed=_voting(0, [1, 2, 3, 4, 5, 6, 7, 8]))
    votes = [_act(snap, "yingyan", i)["target_seat"] for i in range(20)]
    assert set(votes) == {4}


def test_a_claimant_knifed_at_night_is_believed_over_the_survivor() -> None:
    log = [_speech(1, "我是预言家。第1晚验了3号，金水。"), _speech(5, "预言家是我。第1晚验了3号，查杀。"),
           {"type": "night_result", "visibility": "public", "round": 2, "dead_seats": [1], "peaceful": False}]
    snap = _snap(0, "villager", "vote", day=2, dead=(1,), log=log, allowed=_voting(0, [2, 3, 4, 5, 6, 7, 8]))
    assert {_act(snap, "yingyan", i)["target_seat"] for i in range(20)} == {5}


def test_votes_against_the_believed_seer_are_remembered() -> None:
    log = [_speech(1, "我是预言家。第1晚验了3号，金水。"), _vote(6, 1), _vote(0, 2)]
    snap = _snap(0, "villager", "vote", day=2, log=log, allowed=_voting(0, [1, 2, 3, 4, 5, 6, 7, 8]))
    assert _act(snap, "yingyan", 3)["target_seat"] == 6


def _night(role: str, rows: list[tuple[str, list[int]]]) -> list[dict[str, Any]]:
    return [{"type": "night_action", "action": a, "targets": t, "deadline_ts": 0} for a, t in rows] + [
        {"type": "night_action", "action": "pass", "deadline_ts": 0}]


def test_a_wolf_follows_the_packs_first_choice_and_never_knifes_a_fellow() -> None:
    allowed = _night("werewolf", [("kill", list(range(9)))]) + [{"type": "whisper", "targets": [5, 7]}]
    snap = _snap(2, "werewolf", "night_action", night=True, allowed=allowed, fellow_wolves=[2, 5, 7],
                 pack_choices={"5": 8})
    assert decide(snap, "oscar", random.Random(0)) == {"type": "night_action", "action": "kill", "target_seat": 8}
    fresh = _snap(2, "werewolf", "night_action", night=True, allowed=allowed, fellow_wolves=[2, 5, 7],
                  pack_choices={}, log=[_speech(4, "我是预言家。第1晚验了2号，是查杀。")])
    body = decide(fresh, "oscar", random.Random(0))
    assert body is not None and body["type"] == "whisper" and "4号" in body["text"]
    for i in range(30):
        alone = _snap(2, "werewolf", "night_action", night=True, allowed=allowed, fellow_wolves=[2, 5, 7],
                      pack_choices={}, private=[{"type": "whisper_received", "visibility": "private:role:werewolf",
                                                 "from_seat": 2, "to_seat": 5, "round": 1, "text": "第1晚刀6号。"}])
        assert _act(alone, "nuomi", i)["target_seat"] == 6


def test_the_witch_saves_early_and_poisons_only_on_evidence() -> None:
    allowed = _night("witch", [("save", [3]), ("poison", [0, 1, 2, 3, 4, 5, 6, 7])])
    first = _snap(8, "witch", "night_action", night=True, allowed=allowed, potions={"antidote": True, "poison": True},
                  night_victim=3)
    assert decide(first, "adai", random.Random(0)) == {"type": "night_action", "action": "save", "target_seat": 3}
    later = _snap(8, "witch", "night_action", day=3, night=True, allowed=allowed, night_victim=3,
                  potions={"antidote": True, "poison": True})
    assert decide(later, "adai", random.Random(0)) == {"type": "night_action", "action": "pass"}
    log = [_speech(1, "我是预言家。第1晚验了4号，是查杀。")]
    evidence = _snap(8, "witch", "night_action", day=3, night=True, allowed=allowed, night_victim=3, log=log,
                     potions={"antidote": True, "poison": True})
    assert decide(evidence, "adai", random.Random(0)) == {"type": "night_action", "action": "poison",
                                                          "target_seat": 4}


def test_the_seer_reveals_in_a_pk_and_the_guard_covers_the_believed_seer() -> None:
    checks = [{"seat": 3, "round": 1, "camp": "village"}]
    pk = _snap(0, "seer", "speak", pk=[0, 5], allowed=[{"type": "speak"}, {"type": "skip"}], seer_checks=checks)
    text = _act(pk, "linglong", 0)["text"]
    assert "预言家" in text and "3号" in text and ("金水" in text or "好人" in text)
    quiet = _snap(0, "seer", "speak", day=2, allowed=[{"type": "speak"}, {"type": "skip"}], seer_checks=checks)
    assert "预言家" not in _act(quiet, "linglong", 1)["text"]
    guard = _snap(6, "guard", "night_action", day=2, night=True, log=[_speech(1, "我是预言家。第1晚验了3号，金水。")],
                  allowed=_night("guard", [("guard", [0, 1, 2, 3, 4, 5, 6, 7, 8])]), last_guarded=6)
    assert decide(guard, "adai", random.Random(0)) == {"type": "night_action", "action": "guard", "target_seat": 1}
