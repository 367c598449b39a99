"""What each Avalon golden transcript must show (tests/contract/test_golden.py replays them byte for byte)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def all_of(t: dict[str, Any], type_: str) -> list[dict[str, Any]]:
    return [e for e in t["events"] if e["type"] == type_]


def errors(t: dict[str, Any]) -> list[str]:
    return [c["error"] for c in t["commands"] if "error" in c]


def ended(t: dict[str, Any], reason: str, camp: str) -> bool:
    return t["result"] is not None and (t["result"]["reason"], t["result"]["winner_camp"]) == (reason, camp)


def quests(t: dict[str, Any]) -> list[dict[str, Any]]:
    return all_of(t, "quest_resolved")


EXPECT: dict[str, Callable[[dict[str, Any]], bool]] = {
    "good_wins_merlin_survives": lambda t: (
        ended(t, "merlin_survived", "good") and [q["result"] for q in quests(t)] == ["success"] * 3
        and errors(t) == ["not_the_leader", "wrong_team_size", "duplicate_team_member", "wrong_phase", "evil_only",
                          "not_the_assassin", "target_is_ally"]
        and all_of(t, "evil_conferred")[0]["visibility"] == "private:role:evil"
        and all_of(t, "assassination")[0]["merlin"] is False),
    "evil_wins_by_assassination": lambda t: (
        ended(t, "merlin_assassinated", "evil") and [q["fails"] for q in quests(t)] == [0, 1, 0, 0]
        and errors(t) == ["good_cannot_fail", "not_on_the_team"]
        and all(e["visibility"] == "god_only" for e in all_of(t, "card_chosen"))),
    "evil_wins_three_fails": lambda t: (
        ended(t, "three_fails", "evil") and [q["result"] for q in quests(t)] == ["fail"] * 3
        and errors(t) == ["card_already_played"] * 3),
    "five_rejections": lambda t: (
        ended(t, "five_rejections", "evil") and len(all_of(t, "votes_revealed")) == 5
        and not any(e["approved"] for e in all_of(t, "votes_revealed"))
        and all_of(t, "votes_revealed")[1]["approve"] == [0, 4] and all_of(t, "team_proposed")[2].get("auto") is True
        and errors(t) == ["not_your_turn_to_speak", "already_voted"] and not quests(t)),
    "two_fail_fourth_quest": lambda t: (
        ended(t, "merlin_survived", "good") and quests(t)[3]["fails"] == 1 and quests(t)[3]["fails_needed"] == 2
        and quests(t)[3]["result"] == "success" and quests(t)[1]["result"] == "fail"),
    "lady_of_the_lake": lambda t: (
        ended(t, "three_fails", "evil") and len(all_of(t, "lady_examined")) == 2
        and all(e["visibility"].startswith("private:seat:") for e in all_of(t, "lady_result"))
        and errors(t) == ["not_the_lady", "invalid_target", "wrong_phase", "lady_already_held"]
        and quests(t)[3]["fails"] == 2 and quests(t)[3]["result"] == "fail"),
}
