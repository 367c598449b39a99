"""What each golden transcript must show (the contract suite's golden runner, tests/contract/test_golden.py, replays
them byte for byte; regenerate after an intended rule change with `WODI_REGEN_GOLDEN=1`, then review the diff)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def types(transcript: dict[str, Any]) -> list[str]:
    return [e["type"] for e in transcript["events"]]


def resolved(transcript: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in transcript["events"] if e["type"] == "round_resolved"]


def errors(transcript: dict[str, Any]) -> list[str]:
    return [c["error"] for c in transcript["commands"] if "error" in c]


def reason(transcript: dict[str, Any]) -> str | None:
    return (transcript["result"] or {}).get("reason")


def conceders(transcript: dict[str, Any]) -> set[int]:
    return {e["seat"] for e in transcript["events"] if e["type"] == "player_conceded"}


def timing(transcript: dict[str, Any]) -> list[str]:
    return [x for x in types(transcript) if x in ("turn_warning", "speech_skipped", "vote_warning",
                                                  "vote_abstained")]


EXPECT: dict[str, Callable[[dict[str, Any]], bool]] = {
    "civilian_win": lambda t: reason(t) == "all_undercovers_eliminated" and "last_words_posted" in types(t),
    "undercover_majority": lambda t: reason(t) == "undercover_majority",
    "max_rounds": lambda t: reason(t) == "max_rounds_reached" and len(resolved(t)) == 2,
    "tie_random": lambda t: resolved(t)[0]["tie_break_applied"] == "random",
    "revote_pk_random": lambda t: (types(t).count("vote_tied") == 1 and len(resolved(t)) == 1
                                   and resolved(t)[0]["tie_break_applied"] == "random"),
    "noop_twice_random": lambda t: [r["tie_break_applied"] for r in resolved(t)] == ["noop", "random"],
    "speaker_concedes": lambda t: "player_conceded" in types(t) and reason(t) == "all_undercovers_eliminated"
    and conceders(t) <= set(t["result"]["losing_seats"]),  # §2.8: a concession is a loss, whatever the camp
    "speak_timeout": lambda t: timing(t) == ["turn_warning", "speech_skipped"],
    "vote_timeout": lambda t: timing(t) == ["vote_warning", "vote_abstained"] and len(resolved(t)) == 1,
    "last_words": lambda t: "last_words_posted" in types(t) and errors(t) == ["speech_contains_secret_word"],
    "blank_guesses_right": lambda t: reason(t) == "blank_guessed_word",
    "blank_guesses_wrong": lambda t: (t["result"] is None and "word_guessed" in types(t)
                                      and "last_words_posted" in types(t)),
    "whisper_on": lambda t: (types(t).count("whisper_received") == 2
                             and errors(t) == ["whisper_target_not_fellow"]),
    "whisper_off": lambda t: errors(t) == ["whisper_not_enabled"] and "whisper_sent" not in types(t),
    "table_chaos_debate": lambda t: (types(t).count("host_commentary") == 2 and "host_steered" in types(t)
                                     and types(t).count("debate_posted") == 3
                                     and errors(t) == ["speech_contains_secret_word"]
                                     and reason(t) == "all_undercovers_eliminated" and "recap" in t["result"]),
    "table_plain_debate": lambda t: (types(t).count("host_commentary") == 3 and "debate_posted" not in types(t)
                                     and reason(t) == "undercover_majority" and "recap" in t["result"]),
}
