"""狼人杀 as one kit definition (`app.games.kit`): the kit builds the `Game` the services call."""

from __future__ import annotations

from typing import Any

from app.games.kit import Action, Concede, GameDef, KitGame, QuickStart, SpeakRound, build, own_checks
from app.games.werewolf import commands, concede, dawn, deal, figures, night, pending, speaking, view, voting, whisper
from app.games.werewolf import witch as witch_step
from app.games.werewolf.allowed import allowed_actions
from app.games.werewolf.config import WerewolfConfig
from app.games.werewolf.errors import ERRORS
from app.games.werewolf.quick import WerewolfQuickStart, quick_config, quick_options
from app.games.werewolf.snapshot import WerewolfSnapshot
from app.games.werewolf.state import MatchState, Player, Step
from app.games.werewolf.transitions import DAWN, NEXT_PENDING, WITCH_WAKES, NightFalls


def _night_action(step: Step, player: Player, req: commands.NightActionRequest) -> object:
    witching = step.state.stage == "night" and step.state.night.step == "witch"
    return (witch_step.act if witching else night.night_action)(step, player, req)


def _when_due(rule: Any, other: Any) -> Any:
    """`speak` / `skip` say (or pass) last words while they are due, else they are the day's."""
    return lambda step, player, req: (rule if step.state.stage == "last_words" else other)(step, player, req)


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
    turns=speaking.TURNS, ballot=voting.BALLOT, leave={"night": night.after_concede},
    timers={"night_expire": night.on_expire, "witch_expire": witch_step.on_expire,
            "shoot_expire": pending.on_shoot_expire, "last_words_expire": pending.on_last_words_expire},
    openers={NightFalls: night.open_night, WITCH_WAKES: witch_step.open_witch, DAWN: dawn.resolve,
             NEXT_PENDING: pending.open_next, SpeakRound: speaking.open_round},
    you=view.you, allowed=allowed_actions, row=view.row, side_of=lambda state, p: str(p.camp),
    public=view.public_fields, god=view.god_fields, response=view.response, seat_figures=figures.seat_figures,
    quick_start=QuickStart(WerewolfQuickStart, quick_config, quick_options),
))
