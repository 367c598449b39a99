"""The recap rewritten in persona (`app.protocol.registry.Rewrites`): what an outside writer (the LLM brain of
`app.bots.recap_voice`) may rephrase, and the checks its proposal must pass before it joins the record.

`source(state)` is None unless the finished match carries a rule recap (`config.recap` or a table extension) that
was not rewritten yet, so a default room never sees any of this. Otherwise it lists, per seat, the name, the
display name, the role, the score and the rule comment, plus 本场最佳 / 翻车现场 and the pair.

`rewrite(state, proposal, now)` accepts `{"players": [{"seat", "score", "comment"}], "best", "blunder"}` only when:
the seats are exactly the match's seats (each once) and each `score` equals the rule score (the writer phrases, it
never re-scores); every text is one line of 1–`MAX_COMMENT` characters (`best` / `blunder` up to `MAX_AWARD`),
passes the server's text checks and names no seat outside the table (`N号`), no score other than the seat's own
(`N/10`) and no library word the record does not hold (the pair, the display names, the rule texts, the roles and
主持人 may be named). Then it emits one public `recap_rewritten`
event with the accepted texts and adds them to the result as `recap.rewritten` (the rule texts stay beside them).
Anything else raises `GameError("invalid_rewrite")` and leaves the state as it was.
"""

from __future__ import annotations

import re
from typing import Any

from app.games.base import GameError
from app.games.kit.checks import clean_text
from app.games.undercover.instructions import matching
from app.games.undercover.recap import ROLE_ZH
from app.games.undercover.state import MatchState, Outcome, Step
from app.games.undercover.text import normalise
from app.games.undercover.wordpairs import default_library

MAX_COMMENT = 60
MAX_AWARD = 80
_SEAT = re.compile(r"(\d+)\s*号")
_SCORE = re.compile(r"(\d+)\s*/\s*10")


def source(state: MatchState) -> dict[str, Any] | None:
    """What may be rewritten, or None (no recap, not finished, or already rewritten)."""
    result = state.result or {}
    recap = result.get("recap")
    if state.status != "finished" or not isinstance(recap, dict) or "rewritten" in recap:
        return None
    pair = state.wordpair
    return {
        "players": [{"seat": r["seat"], "name": state.players[r["seat"]].name, "display_name": r["display_name"],
                     "role": r["role"], "score": r["score"], "comment": r["comment"], "highlight": r["highlight"]}
                    for r in recap["players"]],
        "best": recap["best"], "blunder": recap["blunder"],
        "winner_camp": result.get("winner_camp"),
        "words": [pair.civilian, pair.undercover] if pair is not None else [],
    }


def _refuse(message: str) -> GameError:
    return GameError("invalid_rewrite", message)


def _text(state: MatchState, value: Any, limit: int, score: int | None, where: str) -> str:
    if not isinstance(value, str):
        raise _refuse(f"{where}: not a string")
    lines = [line.strip() for line in value.strip().splitlines() if line.strip()]
    if len(lines) != 1 or len(lines[0]) > limit:
        raise _refuse(f"{where}: one line of at most {limit} characters")
    try:
        text = clean_text(lines[0], where)
    except GameError as exc:
        raise _refuse(f"{where}: {exc.message}") from exc
    if matching(text):
        raise _refuse(f"{where}: looks like an instruction")
    seats = {p.seat for p in state.players}
    if any(int(n) not in seats for n in _SEAT.findall(text)):
        raise _refuse(f"{where}: names a seat that is not at this table")
    if any(score is None or int(n) != score for n in _SCORE.findall(text)):
        raise _refuse(f"{where}: states a score that is not the recap's")
    if _foreign_word(state, text):
        raise _refuse(f"{where}: names a word this match did not deal")
    return text


def _foreign_word(state: MatchState, text: str) -> bool:
    """True when the text holds a library word (of two or more characters) that the match's own record does not:
    the pair, the players' display names, the rule recap's texts and the table's own words (roles, 主持人) may be
    named, any other library word is an invented fact."""
    norm = normalise(text)
    known = _known(state)
    return any(len(word) >= 2 and word in norm and word not in known for word in _library_words())


TABLE_WORDS = (*ROLE_ZH.values(), "主持人", "混乱主持人")


def _known(state: MatchState) -> str:
    pair = state.wordpair
    recap = (state.result or {}).get("recap") or {}
    parts = [*((pair.civilian, pair.undercover) if pair is not None else ()), *TABLE_WORDS,
             *(p.display_name for p in state.players),
             *(r.get(k, "") for r in recap.get("players", []) for k in ("comment", "highlight")),
             str((recap.get("best") or {}).get("text", "")), str((recap.get("blunder") or {}).get("text", ""))]
    return "\n".join(normalise(str(x)) for x in parts)


_WORDS: list[str] = []


def _library_words() -> list[str]:
    if not _WORDS:
        found = {normalise(w.word) for p in default_library().pairs() for w in (p.a, p.b)}
        _WORDS.extend(sorted(found))
    return _WORDS


def rewrite(state: MatchState, proposal: Any, now: float) -> Outcome:
    """The checked proposal as one public `recap_rewritten` event and `result.recap.rewritten`."""
    if source(state) is None:
        raise _refuse("this match has no recap to rewrite (or it was rewritten already)")
    if not isinstance(proposal, dict):
        raise _refuse("the proposal is not an object")
    assert state.result is not None
    recap = state.result["recap"]
    scores = {r["seat"]: r["score"] for r in recap["players"]}
    rows = proposal.get("players")
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise _refuse("players: a list of objects")
    seen = [r.get("seat") for r in rows]
    if (sorted(s for s in seen if isinstance(s, int) and not isinstance(s, bool)) != sorted(scores)
            or len(seen) != len(scores)):
        raise _refuse("players: exactly the match's seats, each once")
    comments: list[dict[str, Any]] = []
    for row in sorted(rows, key=lambda r: int(r["seat"])):
        seat = int(row["seat"])
        if row.get("score") != scores[seat] or isinstance(row.get("score"), bool):
            raise _refuse(f"players[{seat}]: the score must stay {scores[seat]}")
        comments.append({"seat": seat, "comment": _text(state, row.get("comment"), MAX_COMMENT, scores[seat],
                                                         f"players[{seat}].comment")})
    best = _text(state, proposal.get("best"), MAX_AWARD, recap["best"]["score"], "best")
    blunder_seat = recap["blunder"]["seat"]
    blunder = _text(state, proposal.get("blunder"), MAX_AWARD, scores.get(blunder_seat), "blunder")
    rewritten = {"players": comments, "best": best, "blunder": blunder}
    step = Step(MatchState.model_validate(state.model_dump()), now)
    assert step.state.result is not None
    step.state.result["recap"]["rewritten"] = rewritten
    step.emit("recap_rewritten", "public", **rewritten)
    return Outcome(step.state, step.events)
