"""The recap (opt-in: `config.recap`, or any table extension): acting scores, 本场最佳, 翻车现场 and a highlight per
seat, computed from the match's record when it ends and carried in the result (`result.recap`, so also in the
public `match_finished`). Pure rules, no randomness: the same log gives the same recap.

Per seat (R = rounds played, a vote's "other side" = undercovers and blanks for a civilian, civilians for them):

- `rounds_survived`: R when alive at the end, else the rounds before the one it went out in;
- `votes_drawn`: votes cast for it; `stealth` = 1 − votes_drawn / the votes others cast while it was in;
- `votes_cast`, `votes_accurate` (for a seat of the other side); `accuracy` = accurate / cast;
- `clue_fit`: the mean, over its speaking turns (a skip counts 0), of how well the speech fits the pair's
  library clues — its own word's for a civilian; its own or the civilians' word's for an undercover
  (blending in is acting); either word's for a blank. 1 when it holds a clue, else 0.7 × the share of a
  clue's characters it shares; null when the library does not know the words;
- score = 1 + 9 × the weighted mean of survival (R share) .25, stealth .20, accuracy .20, clue fit .20, win .15
  over the parts that are defined, rounded half up; a seat that conceded scores 1.

The comment is the first rule that applies: conceded; a blank's right guess; hidden to the end and won; out in
round 1 on the hidden side; a civilian whose votes hit (≥ 75 %, ≥ 2 votes); a civilian voted out by at least
half the votes; a missed turn; score ≥ 8; score ≤ 3; else a plain line. 本场最佳 is the top score (then more
rounds survived, the winning side, the lower seat). 翻车现场 is the seat with the most blunder points — 3 for
each vote that helped put out a seat of its own side, 2 for a blank's wrong guess, 2 for a hidden seat out
in round 1, 2 for a civilian the chaos host pushed who was voted out that round, 1 per missed or skipped turn —
(ties: the lower seat); with no blunder at all, the lowest score. The highlight is a seat's best moment:
a right guess; its first vote that helped put out a seat of the other side; lasting to the end; a round
with no vote against it; its debate messages; else the rounds it lasted.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import mean
from typing import Any

from app.games.undercover import table
from app.games.undercover.reading import clue_fit
from app.games.undercover.state import MatchState, Player, Record, Step
from app.games.undercover.wordpairs import default_library

WEIGHTS = {"survival": 0.25, "stealth": 0.20, "accuracy": 0.20, "clue_fit": 0.20, "win": 0.15}
ROLE_ZH = {"civilian": "平民", "undercover": "卧底", "blank": "白板"}


def recap(step: Step, winners: Sequence[int]) -> dict[str, Any]:
    """The recap of the match that is ending now (`winners`: the winning seats)."""
    record = table.sync(step)
    assert record is not None
    state = step.state
    rows = [_row(state, record, p, p.seat in winners) for p in state.players]
    best = max(rows, key=lambda r: (r["score"], r["stats"]["rounds_survived"], r["seat"] in winners, -r["seat"]))
    return {
        "players": rows,
        "best": {"seat": best["seat"], "display_name": best["display_name"], "score": best["score"],
                 "text": f"{best['seat']}号 {best['display_name']}：{best['score']}/10，{best['comment']}"},
        "blunder": _blunder(state, record, rows),
    }


def _side(role: str | None) -> str:
    return "civilian" if role == "civilian" else "hidden"


def _out_round(player: Player) -> int | None:
    when = player.eliminated_in or ""
    return int(when[6:]) if not player.alive and when.startswith("round_") and when[6:].isdigit() else None


def _row(state: MatchState, record: Record, player: Player, won: bool) -> dict[str, Any]:
    rounds = max(1, state.round_index)
    out = _out_round(player)
    survived = rounds if out is None else max(0, out - 1)
    last = rounds if out is None else out
    seat = player.seat
    drawn = sum(1 for v in record.votes if v.target == seat)
    exposure = sum(1 for v in record.votes if v.seat != seat and v.round <= last)
    cast = [v for v in record.votes if v.seat == seat]
    accurate = [v for v in cast if _side(state.players[v.target].role) != _side(player.role)]
    fit = _clue_fit(state, record, player)
    missed = sum(1 for s in record.speeches if s.seat == seat and s.timeout) + record.abstained.get(seat, 0)
    parts = {
        "survival": survived / rounds,
        "stealth": 1 - drawn / exposure if exposure else None,
        "accuracy": len(accurate) / len(cast) if cast else None,
        "clue_fit": fit,
        "win": 1.0 if won else 0.0,
    }
    used = {k: v for k, v in parts.items() if v is not None}
    weighted = sum(WEIGHTS[k] * v for k, v in used.items()) / sum(WEIGHTS[k] for k in used)
    score = 1 if player.conceded else min(10, max(1, int(1 + 9 * weighted + 0.5)))
    stats = {"rounds_survived": survived, "votes_drawn": drawn, "votes_cast": len(cast),
             "votes_accurate": len(accurate), "clue_fit": None if fit is None else round(fit, 2),
             "missed_turns": missed, "debate_messages": record.debate_posts.get(seat, 0)}
    return {"seat": seat, "display_name": player.display_name, "role": player.role, "score": score,
            "comment": _comment(state, record, player, score, won, stats, out),
            "highlight": _highlight(state, record, player, stats, out), "stats": stats}


def _clues(state: MatchState, player: Player) -> tuple[str, ...]:
    pair = state.wordpair
    if pair is None:
        return ()
    words = {"civilian": [pair.civilian], "undercover": [pair.undercover, pair.civilian]}.get(
        player.role or "", [pair.civilian, pair.undercover])
    library = default_library()
    found = [library.find_word(w) for w in words]
    return tuple(clue for w in found if w is not None for clue in w.clues)


def _clue_fit(state: MatchState, record: Record, player: Player) -> float | None:
    clues = _clues(state, player)
    turns = [s for s in record.speeches if s.seat == player.seat]
    if not clues or not turns:
        return None
    return mean(clue_fit(s.text, clues) if s.text else 0.0 for s in turns)


def _helped_out(state: MatchState, record: Record, seat: int) -> list[tuple[int, int]]:
    """(round, target) of each vote by `seat` for a seat that went out in that round's vote."""
    hits = []
    for vote in record.votes:
        target = state.players[vote.target]
        if vote.seat == seat and _out_round(target) == vote.round and not target.conceded:
            hits.append((vote.round, vote.target))
    return hits


def _comment(state: MatchState, record: Record, player: Player, score: int, won: bool, stats: dict[str, Any],
             out: int | None) -> str:
    hidden = _side(player.role) == "hidden"
    if player.conceded:
        return "中途自爆退场，勇气可嘉。"
    if record.guesses.get(player.seat):
        return "白板逆袭，出局后一猜即中！"
    if hidden and out is None and won:
        return "潜伏到底，演技封神。"
    if hidden and out == 1:
        return "开局就被识破，演技还需修炼。"
    if not hidden and stats["votes_cast"] >= 2 and stats["votes_accurate"] / stats["votes_cast"] >= 0.75:
        return "票票投中，火眼金睛。"
    if not hidden and out is not None:
        ballots = [v for v in record.votes if v.round == out]
        if ballots and 2 * sum(1 for v in ballots if v.target == player.seat) >= len(ballots):
            return "好人被冤，全场最委屈。"
    if stats["missed_turns"]:
        return "关键时刻掉线，沉默是金？"
    if score >= 8:
        return "发挥稳定，全场亮眼。"
    if score <= 3:
        return "这局状态不佳，下局再战。"
    return "中规中矩，完成了任务。"


def _highlight(state: MatchState, record: Record, player: Player, stats: dict[str, Any], out: int | None) -> str:
    seat = player.seat
    if record.guesses.get(seat):
        return "出局后一口猜中了平民词"
    for rnd, target in _helped_out(state, record, seat):
        role = state.players[target].role
        if _side(role) != _side(player.role):
            return f"第{rnd}轮投中{target}号（{ROLE_ZH.get(role or '', role)}），助攻出局"
    if out is None and not player.conceded:
        return "坚持到了最后"
    last = out or state.round_index
    for rnd in range(1, last + 1):
        ballots = [v for v in record.votes if v.round == rnd]
        if ballots and all(v.target != seat for v in ballots):
            return f"第{rnd}轮一票未得，藏得很好"
    if stats["debate_messages"]:
        return f"辩论中发言{stats['debate_messages']}次"
    return f"撑过了{stats['rounds_survived']}轮"


def _blunder(state: MatchState, record: Record, rows: list[dict[str, Any]]) -> dict[str, Any]:
    best: tuple[int, int, str] | None = None  # (points, -seat, text)
    for player in state.players:
        seat = player.seat
        items: list[tuple[int, str]] = []
        for rnd, target in _helped_out(state, record, seat):
            if _side(state.players[target].role) == _side(player.role) and target != seat:
                items.append((3, f"第{rnd}轮亲手把队友{target}号投了出去"))
        if record.guesses.get(seat) is False:
            items.append((2, "白板猜词猜歪了"))
        out = _out_round(player)
        if _side(player.role) == "hidden" and out == 1 and not player.conceded:
            items.append((2, "第一轮就翻车出局"))
        steered = {rnd for rnd, target in record.steered.items() if target == seat}
        if player.role == "civilian" and out is not None and out in steered:
            items.append((2, f"第{out}轮被混乱主持人带了节奏，真被投了出去"))
        missed = sum(1 for s in record.speeches if s.seat == seat and not s.text) + record.abstained.get(seat, 0)
        if missed:
            items.append((missed, f"错过了{missed}次发言或投票"))
        points = sum(p for p, _ in items)
        if points and (best is None or (points, -seat) > best[:2]):
            text = max(items, key=lambda item: item[0])[1]
            best = (points, -seat, text)
    if best is None:
        low = min(rows, key=lambda r: (r["score"], r["seat"]))
        return {"seat": low["seat"], "display_name": low["display_name"],
                "text": f"{low['seat']}号 {low['display_name']}：全场最低 {low['score']}/10，{low['comment']}"}
    seat = -best[1]
    name = state.players[seat].display_name
    return {"seat": seat, "display_name": name, "text": f"{seat}号 {name}：{best[2]}"}

