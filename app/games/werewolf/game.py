"""狼人杀 as one kit definition (`app.games.kit`): the kit builds the `Game` the services call.

Besides the rules it shapes the action responses: speech progress, votes in, the round's result, what a night
action taught the seat.
"""

from __future__ import annotations

from typing import Any

from app.games.base import Event
from app.games.kit import Action, Concede, GameDef, KitGame, build, own_checks
from app.games.kit.dispatch import SeatLeft, carry_on
from app.games.kit.voting import voters
from app.games.werewolf import commands, concede, dawn, deal, figures, night, pending, speaking, view, voting, whisper
from app.games.werewolf import witch as witch_step
from app.games.werewolf.allowed import allowed_actions
from app.games.werewolf.config import WerewolfConfig
from app.games.werewolf.errors import ERRORS
from app.games.werewolf.snapshot import WerewolfSnapshot
from app.games.werewolf.state import MatchState, Player, Step
from app.games.werewolf.transitions import DAWN, NEXT_PENDING, VOTE_ROUND, WITCH_WAKES, NightFalls, PkRound, SpeakRound


def response(state: MatchState, seat: int | None, events: list[Event]) -> dict[str, Any]:
    """Speech progress; votes in and your vote; the round's result; what the seat's night action taught it
    (`seer_result`, `pack_decision`, `pack_split`)."""
    body: dict[str, Any] = {}
    if any(e["type"] in ("speech_posted", "speech_skipped") and e.get("seat") == seat for e in events):
        body["next_speaker_seat"] = state.current_speaker_seat
    if state.stage == "vote" and seat is not None and seat in voters(state):
        body.update(votes_in=f"{len(state.votes)}/{len(voters(state))}", your_vote=state.votes.get(seat))
    for event in events:
        if event["type"] == "round_resolved":
            body["round_result"] = {k: v for k, v in event.items() if k not in ("seq", "type", "visibility", "ts")}
        if event["type"] == "vote_tied":
            body["tie"] = {k: event[k] for k in ("tied_seats", "vote_breakdown", "next")}
    if seat is not None:
        body.update(_night_answers(state, seat, events))
    return body


def _night_action(step: Step, player: Player, req: commands.NightActionRequest) -> object:
    witching = step.state.stage == "night" and step.state.night.step == "witch"
    return (witch_step.act if witching else night.night_action)(step, player, req)


def _when_due(rule: Any, other: Any) -> Any:
    """`speak` / `skip` say (or pass) last words while they are due, else they are the day's."""
    return lambda step, player, req: (rule if step.state.stage == "last_words" else other)(step, player, req)


_NIGHT_ANSWERS = {"seer_result": "seer_result", "wolves_decided": "pack_decision", "pack_split": "pack_split",
                  "witch_informed": "witch_informed"}


def _night_answers(state: MatchState, seat: int, events: list[Event]) -> dict[str, Any]:
    """What the acting seat learnt at night from its own action, taken only from events it may see."""
    mine = {"public", f"private:seat:{seat}", *(f"private:role:{r}" for r in GAME.role_set(state, seat))}
    return {_NIGHT_ANSWERS[e["type"]]: {k: v for k, v in e.items() if k not in ("seq", "type", "visibility", "ts")}
            for e in events if e["type"] in _NIGHT_ANSWERS and e["visibility"] in mine}


GAME: KitGame[MatchState, Step] = build(GameDef(
    name="werewolf", config=WerewolfConfig, state=MatchState, seat_model=Player, step=Step,
    snapshot=WerewolfSnapshot, errors=ERRORS, secret_fields=("roles", "night_actions"), sides=("village", "werewolf"),
    actions={"night_action": Action(commands.NightActionRequest, _night_action),
             "speak": Action(commands.SpeakRequest, _when_due(pending.last_words, speaking.speak)),
             "skip": Action(commands.SkipRequest, _when_due(pending.skip, speaking.TURNS.skip)),
             "vote": Action(commands.VoteRequest, voting.vote),
             "whisper": Action(commands.WhisperRequest, whisper.whisper),
             "last_words": Action(commands.LastWordsRequest, pending.last_words_action),
             "shoot": Action(commands.ShootRequest, pending.shoot), "concede": Action(commands.ConcedeRequest)},
    guard=own_checks, dead_may_act=True, deal=deal.deal,
    commands={Concede: concede.concede},
    timers={**speaking.TURNS.timers, **voting.BALLOT.timers, "night_expire": night.on_expire,
            "witch_expire": witch_step.on_expire, "shoot_expire": pending.on_shoot_expire,
            "last_words_expire": pending.on_last_words_expire},
    openers={NightFalls: night.open_night, WITCH_WAKES: witch_step.open_witch, DAWN: dawn.resolve,
             NEXT_PENDING: pending.open_next, SpeakRound: speaking.open_round, PkRound: speaking.TURNS.open_pk,
             VOTE_ROUND: voting.BALLOT.open,
             SeatLeft: carry_on({"night": night.after_concede, "speak": speaking.TURNS.leave,
                                 "vote": voting.BALLOT.leave})},
    you=view.you, allowed=allowed_actions, row=view.row, side_of=lambda state, p: str(p.camp),
    public=view.public_fields, god=view.god_fields, response=response, seat_figures=figures.seat_figures,
))
