"""What each golden transcript must show (the contract suite's golden runner, tests/contract/test_golden.py, replays
them byte for byte; regenerate after an intended rule change with `WODI_REGEN_GOLDEN=1`, then review the diff)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def types(t: dict[str, Any]) -> list[str]:
    return [e["type"] for e in t["events"]]


def all_of(t: dict[str, Any], type_: str) -> list[dict[str, Any]]:
    return [e for e in t["events"] if e["type"] == type_]


def errors(t: dict[str, Any]) -> list[str]:
    return [c["error"] for c in t["commands"] if "error" in c]


def ended(t: dict[str, Any], ending: str | None, camp: str | None) -> bool:
    return t["result"] is not None and (t["result"]["reason"], t["result"]["winner_camp"]) == (ending, camp)


EXPECT: dict[str, Callable[[dict[str, Any]], bool]] = {
    "perfect": lambda t: (ended(t, "perfect", "innocent") and all_of(t, "ending")[0]["key_clues_found"] == 3
                          and types(t)[-1] == "match_finished"),
    "normal": lambda t: (ended(t, "normal", "innocent") and all_of(t, "ending")[0]["key_clues_found"] == 0
                         and {e["reason"] for e in all_of(t, "clue_published")} >= {"key_clue_guarantee"}),
    "failure": lambda t: (ended(t, "failure", "culprit")
                          and errors(t) == ["unknown_location", "invalid_target", "already_voted"]
                          and all_of(t, "ending")[0]["tally"][0]["abstained"] != []),
    "tie_then_random": lambda t: ([e["vote_round"] for e in all_of(t, "vote_opened")] == [1, 2]
                                  and all_of(t, "vote_result")[-1]["random"] is True
                                  and len(all_of(t, "vote_result")[0]["tied"]) == 2),
    "takeover": lambda t: (len(all_of(t, "seat_taken_over")) == 1 and errors(t) == ["not_your_turn"]
                           and "player_conceded" in types(t) and types(t)[-1] == "match_finished"),
    "everyone_left": lambda t: ended(t, "everyone_left", None) and len(all_of(t, "player_conceded")) == 6,
    "aborted": lambda t: ended(t, "janitor_timeout", None) and types(t)[-1] == "match_aborted",
}
