"""What each golden transcript must show (the contract suite's golden runner, tests/contract/test_golden.py, replays
them byte for byte; regenerate after an intended rule change with `WODI_REGEN_GOLDEN=1`, then review the diff)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def types(t: dict[str, Any]) -> list[str]:
    return [e["type"] for e in t["events"]]


def last(t: dict[str, Any], type_: str) -> dict[str, Any]:
    return next(e for e in reversed(t["events"]) if e["type"] == type_)


def all_of(t: dict[str, Any], type_: str) -> list[dict[str, Any]]:
    return [e for e in t["events"] if e["type"] == type_]


def errors(t: dict[str, Any]) -> list[str]:
    return [c["error"] for c in t["commands"] if "error" in c]


def won(t: dict[str, Any], camp: str, reason: str) -> bool:
    return t["result"] is not None and (t["result"]["winner_camp"], t["result"]["reason"]) == (camp, reason)


def dead_at_dawn(t: dict[str, Any]) -> list[list[int]]:
    return [e["dead_seats"] for e in all_of(t, "night_result")]


EXPECT: dict[str, Callable[[dict[str, Any]], bool]] = {
    "village_win": lambda t: won(t, "village", "all_werewolves_eliminated") and len(all_of(t, "seer_result")) == 2,
    "wolf_win_side": lambda t: won(t, "werewolf", "all_villagers_eliminated"),
    "wolf_win_all": lambda t: won(t, "werewolf", "all_good_eliminated") and len(all_of(t, "round_resolved")) == 2,
    "witch_save": lambda t: dead_at_dawn(t) == [[]] and last(t, "night_resolved")["saved"] is True,
    "witch_poison": lambda t: len(dead_at_dawn(t)[0]) == 2 and last(t, "night_resolved")["poisoned"] is not None,
    "hunter_shot": lambda t: (len(all_of(t, "hunter_shot")) == 1 and errors(t) == ["not_your_shot"]
                              and len(all_of(t, "last_words_posted")) == 2),
    "hunter_poisoned": lambda t: "your_turn_to_shoot" not in types(t) and "last_words_posted" in types(t),
    "guard_block": lambda t: (dead_at_dawn(t)[0] == [] and [len(d) for d in dead_at_dawn(t)[1:]] == [1, 1]
                              and last(t, "night_resolved")["saved"] is True
                              and errors(t) == ["guard_same_target"]),
    "seer_check": lambda t: ([e["camp"] for e in all_of(t, "seer_result")] == ["werewolf", "village"]
                             and errors(t) == ["night_action_done"]),
    "night_timeout": lambda t: (last(t, "wolves_decided")["by"] == "deadline" and dead_at_dawn(t) == [[]]
                                and "night_action_recorded" not in types(t)),
    "wolves_disagree": lambda t: (last(t, "wolves_decided")["by"] == "deadline"
                                  and dead_at_dawn(t)[0] == [last(t, "wolves_decided")["target_seat"]]),
    "day_timeouts": lambda t: ("vote_tied" in types(t) and "vote_abstained" in types(t)
                               and all(e["reason"] == "timeout" for e in all_of(t, "speech_skipped"))
                               and last(t, "round_resolved")["tie_break_applied"] == "revote"),
    "revote": lambda t: (len(all_of(t, "vote_tied")) == 1 and errors(t) == ["wrong_phase"]
                         and last(t, "round_resolved")["eliminated_seat"] is not None),
    "whispers": lambda t: (len(all_of(t, "whisper_received")) == 1
                           and errors(t) == ["whisper_target_not_fellow", "wrong_phase"]),
    "twelve_players": lambda t: won(t, "village", "all_werewolves_eliminated"),
    "nine_players": lambda t: won(t, "werewolf", "all_gods_eliminated") and "hunter_shot" in types(t),
    "last_wolf_concedes": lambda t: won(t, "village", "all_werewolves_eliminated") and "player_conceded" in types(t),
    "concede_at_night": lambda t: (last(t, "wolves_decided")["by"] == "majority" and "player_conceded" in types(t)
                                   and len(dead_at_dawn(t)[0]) == 1),
    "aborted": lambda t: t["result"]["reason"] == "host_cancelled" and types(t)[-1] == "match_aborted",
}
