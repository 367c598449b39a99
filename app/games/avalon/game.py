"""阿瓦隆 as one kit definition: the kit builds the `Game` the services call."""

from app.games.avalon import figures, rules, view
from app.games.avalon import requests as r
from app.games.avalon.config import AvalonConfig
from app.games.avalon.errors import ERRORS
from app.games.avalon.quick import AvalonQuickStart, quick_config, quick_options
from app.games.avalon.snapshot import AvalonSnapshot
from app.games.avalon.state import State
from app.games.kit import Action, GameDef, KitGame, QuickStart, Step, build

GAME: KitGame[State, Step[State]] = build(GameDef(
    name="avalon", config=AvalonConfig, state=State, step=Step[State], snapshot=AvalonSnapshot, errors=ERRORS,
    actions={"propose": Action(r.Propose, rules.propose), "speak": Action(r.Speak, rules.speak),
             "skip": Action(r.Skip, rules.speak), "vote": Action(r.Vote, rules.vote),
             "quest": Action(r.Quest, rules.quest), "lady": Action(r.Lady, rules.lady),
             "confer": Action(r.Confer, rules.confer), "assassinate": Action(r.Assassinate, rules.assassinate)},
    deal=rules.deal, timers={rules.TURN: rules.due}, concede=rules.conceded, sides=("good", "evil"),
    you=view.you, allowed=view.allowed, public=view.public, god=view.god, row=view.row, role_set=view.role_set,
    side_of=view.side_of, secret_fields=("roles", "votes", "cards", "lady_results"),
    response=lambda state, seat, events: {"phase": state.phase, "quest_no": state.quest},
    seat_figures=figures.seat_figures, quick_start=QuickStart(AvalonQuickStart, quick_config, quick_options),
))
