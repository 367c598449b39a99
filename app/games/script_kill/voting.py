"""The final vote, the endings matrix and the review.

The vote is private to the DM: each voter gets a receipt (`vote_cast`, `private:seat:N`); the tally is a god-only
snapshot field until the end. Plurality; a tie → one second vote among the tied; a second tie → a random pick among
the tied. A seat that does not vote abstains: its vote is drawn at random among the seats it could have named.
Endings: the culprit voted out and ≥ 80 % of the key clues found by the players (not merely published by the DM) →
`perfect`; voted out with fewer → `normal`; anyone else voted out → `failure` (the culprit escapes).
Sides: `innocent` (perfect, normal) and `culprit` (failure).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.base import GameError
from app.games.kit import camp_outcome
from app.games.script_kill.stages import duration
from app.games.script_kill.state import MatchState, Player
from app.games.script_kill.step import Step

PERFECT_SHARE = 0.8
SIDES = ("innocent", "culprit")
SUMMARY = {"perfect": "完美结局：真凶落网，真相大白", "normal": "普通结局：真凶落网，仍有谜团未解",
           "failure": "失败结局：真凶逃脱", "everyone_left": "所有玩家都离开了，本局提前结束"}


def open_vote(step: Step, candidates: list[int]) -> None:
    state = step.state
    state.votes = {}
    state.vote_candidates = candidates
    step.emit("vote_opened", "public", vote_round=state.vote_round, candidates=candidates,
              deadline_ts=state.deadline_ts,
              text="【DM】请投出你认为的凶手（私下投给主持人）。" if state.vote_round == 1
              else "【DM】平票！请在平票的玩家中再投一次。")


def targets_for(state: MatchState, seat: int) -> list[int]:
    """Seats `seat` may name: the candidates other than itself (in a second vote between itself and one other
    seat, that other seat)."""
    return [s for s in state.vote_candidates if s != seat]


def voters(state: MatchState) -> list[int]:
    return [p.seat for p in state.seated()]


def all_voted(state: MatchState) -> bool:
    return all(s in state.votes for s in voters(state))


def vote(step: Step, player: Player, target: int | None) -> None:
    state = step.state
    if player.seat in state.votes:
        raise GameError("already_voted", "你已经投过票了，每轮投票限投 1 次。")
    allowed = targets_for(state, player.seat)
    if target not in allowed:
        raise GameError("invalid_target", f"请投给以下座位之一：{'、'.join(map(str, allowed))}。", target=target,
                        targets=allowed)
    state.votes[player.seat] = target
    step.emit("vote_cast", f"private:seat:{player.seat}", seat=player.seat, target=target,
              vote_round=state.vote_round, text=f"【DM】已收到你的投票：{target} 号位。")


def close_vote(step: Step) -> bool:
    """Count the votes (abstainers drawn at random); True when someone is voted out, False when a second vote
    among the tied has opened."""
    state = step.state
    abstained = [s for s in voters(state) if s not in state.votes]
    for seat in abstained:
        options = targets_for(state, seat)
        if options:
            state.votes[seat] = step.rng(f"abstain:{seat}").choice(options)
    counts = Counter(state.votes.values())
    top = max(counts.values(), default=0)
    tied = sorted(s for s, n in counts.items() if n == top) or sorted(state.vote_candidates)
    state.tally.append({"vote_round": state.vote_round, "votes": {str(k): v for k, v in sorted(state.votes.items())},
                        "abstained": abstained, "counts": {str(k): counts[k] for k in sorted(counts)}})
    if len(tied) > 1 and state.vote_round == 1:
        step.emit("vote_result", "public", vote_round=1, tied=tied, out=None, text="【DM】出现平票，进行第二轮投票。")
        state.vote_round = 2
        step.stage_clock(_vote_seconds(state))
        open_vote(step, tied)
        return False
    out = tied[0] if len(tied) == 1 else step.rng("second_tie").choice(tied)
    state.voted_out = out
    step.emit("vote_result", "public", vote_round=state.vote_round, tied=tied if len(tied) > 1 else [], out=out,
              random=len(tied) > 1, text=f"【DM】投票结束，{out} 号位被指认为凶手。")
    return True


def _vote_seconds(state: MatchState) -> int:
    return duration("final_vote", state.config.timing)


def key_share(state: MatchState) -> tuple[int, int]:
    """(key clues some seat found — by a search, an item, a power —, key clues in the script). What only the DM
    published (the key-clue guarantee, a script event) does not count: with the guarantee every key clue ends up
    public, and `normal` could never happen (issue 20: "≥ 80 % of key clues found")."""
    keys = [k.id for k in state.script.clues if k.is_key]
    found = set().union(*(p.clues for p in state.players))
    return sum(k in found for k in keys), len(keys)


def ending_of(state: MatchState) -> str:
    """The endings matrix."""
    script = state.script
    if state.voted_out is None or state.players[state.voted_out].character != script.culprit:
        return "failure"
    found, total = key_share(state)
    return "perfect" if total and found / total >= PERFECT_SHARE else "normal"


def side_of(state: MatchState, player: Player) -> str:
    return "culprit" if player.character == state.script.culprit else "innocent"


def review(step: Step) -> None:
    """The ending (the result is written now) and the review: the truth, the timeline replay, one line a player."""
    state, script = step.state, step.state.script
    ending = state.ending = ending_of(state)
    winner = "culprit" if ending == "failure" else "innocent"
    found, total = key_share(state)
    culprit_seat = state.seat_of(script.culprit)
    state.result = _result(state, winner, ending, culprit_seat)
    step.emit("ending", "public", ending=ending, text=getattr(script.endings, ending), culprit=script.culprit,
              culprit_seat=culprit_seat, voted_out=state.voted_out, winner_camp=winner, tally=state.tally,
              key_clues_found=found, key_clues_total=total)
    step.emit("review", "public", part="truth", text=script.review.truth,
              characters={str(p.seat): p.character for p in state.players})
    step.emit("review", "public", part="timeline", text="【复盘】案件时间线",
              timeline=[t.model_dump() for t in script.review.timeline])
    for player in state.players:
        step.emit("review", "public", part="comment", seat=player.seat, text=_comment(state, player))


def _comment(state: MatchState, player: Player) -> str:
    script = state.script
    keys = {k.id for k in script.clues if k.is_key}
    name = script.character(str(player.character)).name
    voted = next((t["votes"].get(str(player.seat)) for t in reversed(state.tally)), None)
    vote_text = "未投票" if voted is None else f"投给了 {voted} 号位"
    if voted is not None and state.players[voted].character == script.culprit:
        vote_text += "（投中真凶）"
    return (f"{player.seat} 号位（{name}）：找到线索 {len(player.clues)} 条，其中关键线索 "
            f"{len(keys & set(player.clues))} 条，{vote_text}。")


def _result(state: MatchState, winner: str, reason: str, culprit_seat: int | None) -> dict[str, Any]:
    winners, losers = camp_outcome(state.players, lambda p: side_of(state, p) == winner)
    return {"winner_camp": winner, "winning_seats": winners, "losing_seats": losers, "reason": reason,
            "ending": reason, "culprit": state.script.culprit, "culprit_seat": culprit_seat,
            "voted_out": state.voted_out, "characters": {str(p.seat): p.character for p in state.players},
            "summary": SUMMARY[reason]}


def finish(step: Step, reason: str | None = None) -> None:
    """The review is over (or everyone left): the match is finished."""
    state = step.state
    if reason is not None:
        state.ending = None
        state.result = _result(state, "innocent", reason, state.seat_of(state.script.culprit)) | {
            "winner_camp": None, "winning_seats": [], "losing_seats": [p.seat for p in state.players]}
    state.status = "finished"
    state.phase = "finished"
    state.speaker = None
    step.stop_clock()
    assert state.result is not None
    step.emit("match_finished", "public", **state.result)
