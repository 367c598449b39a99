"""谁是卧底 as one kit definition (`app.games.kit`): the kit builds the `Game` the services call."""

from types import MappingProxyType

from app.games.kit import Action, Concede, GameDef, KitGame, QuickStart, Rewrite, SpeakRound, build, own_checks
from app.games.undercover import actions as a
from app.games.undercover import concede, deal, debate, figures, recap_voice, reveal, speaking, table, view, voting
from app.games.undercover.allowed import allowed_actions
from app.games.undercover.config import UndercoverConfig
from app.games.undercover.errors import ERRORS
from app.games.undercover.fairness import wordpair_key
from app.games.undercover.quick import UndercoverQuickStart, quick_config, quick_options
from app.games.undercover.state import MatchState, Player, Step
from app.games.undercover.transitions import PK_CONCEDED, SPEECHES_DONE, DebateRound, Reveal
from app.games.undercover.whisper import whisper
from app.games.undercover.wordpairs import default_library

DETAILED_EVENTS = frozenset({"vote_abstained", "votes_voided"})  # in views only with `detailed_events` (decisions D1)

default_library()  # a bad word library fails at start-up, listing every problem (not the first match's deal)

GAME: KitGame[MatchState, Step] = build(GameDef(
    name="undercover", config=UndercoverConfig, state=MatchState, seat_model=Player, step=Step, errors=ERRORS,
    snapshot=view.UndercoverSnapshot, secret_fields=("wordpair",), sides=("civilian", "undercover", "blank"),
    # §15.5's profile fields: a blank shares the undercovers' win, so its wins count as wins_as_undercover.
    profile_stats=MappingProxyType({"wins_as_civilian": ("civilian",), "wins_as_undercover": ("undercover", "blank")}),
    actions={"speak": Action(a.SpeakAction, speaking.speak), "vote": Action(a.VoteAction, voting.vote),
             "skip": Action(a.SkipAction, speaking.TURNS.skip), "whisper": Action(a.WhisperAction, whisper),
             "last_words": Action(a.LastWordsAction, reveal.last_words),
             "guess_word": Action(a.GuessWordAction, reveal.guess_word),
             "debate": Action(a.DebateAction, debate.debate),
             "debate_pass": Action(a.DebatePassAction, debate.debate_pass), "concede": Action(a.ConcedeAction)},
    guard=own_checks, dead_may_act=True, deal=deal.deal, commands={Concede: concede.concede},
    turns=speaking.TURNS, ballot=voting.BALLOT, timers={"reveal_expire": reveal.on_expire,
                                                        "debate_expire": debate.on_expire},
    openers={SpeakRound: speaking.open_round, SPEECHES_DONE: debate.after_speeches,
             DebateRound: debate.open_debate, PK_CONCEDED: voting.end_pk_by_concession, Reveal: reveal.open_reveal},
    leave={"debate": debate.after_concede}, settle=table.sync,
    opens=lambda config: default_library().pairs(config.wordpair_tag),
    you=view.you, allowed=allowed_actions, row=view.row, public=view.public_fields,
    god=lambda state: {"wordpair": view.wordpair(state)}, response=view.response, seat_figures=figures.seat_figures,
    content_key=lambda state: state.wordpair and wordpair_key(state.wordpair.civilian, state.wordpair.undercover),
    quick_start=QuickStart(UndercoverQuickStart, quick_config, quick_options),
    rewrite=Rewrite(recap_voice.source, recap_voice.rewrite),
    hidden_events=lambda config: frozenset() if config.get("detailed_events") else DETAILED_EVENTS,
))
