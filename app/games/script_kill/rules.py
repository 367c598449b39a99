"""The rules' entry points: `new_match` and `apply(state, command)`, and the stage machine.

A stage opens (`enter`: its DM announcement, its clock, what the script does then), waits for its commands, and
ends on its timer or early (`ready` from every seat; final_vote when everyone voted). Pure: no I/O, no clock (`now`
is passed in), every random draw from `Random(f"{seed}:{seq}:<purpose>")`; `apply` works on a deep copy.
"""

from __future__ import annotations

from app.games.base import ABORT_SUMMARIES, GameError
from app.games.common.commands import Abort, Concede, TakeOver, Timeout
from app.games.common.dispatch import is_noop
from app.games.script_kill import actions, discovery, voting
from app.games.script_kill.commands import Act, Command, Join
from app.games.script_kill.config import ScriptKillConfig
from app.games.script_kill.speaking import next_speaker, pass_floor
from app.games.script_kill.stages import ACT_OF_STAGE, EXPLORE, FIRST_PLAYED, INDEX, SUB_STAGES, duration
from app.games.script_kill.state import MatchState, Player
from app.games.script_kill.step import Outcome, Step


def new_match(config: ScriptKillConfig, host_name: str, host_display_name: str, seed: int, now: float) -> Outcome:
    """A waiting room (the gm_init stage) with the host in seat 0."""
    state = MatchState(seed=seed, config=config)
    step = Step(state, now)
    step.emit("match_created", "public", config=config.model_dump(mode="json"),
              players=[{"seat": 0, "name": host_name, "display_name": host_display_name}])
    state.players.append(Player(seat=0, name=host_name, display_name=host_display_name))
    step.emit("player_joined", "public", seat=0, name=host_name, display_name=host_display_name)
    return Outcome(state, step.events)


def apply(state: MatchState, command: Command, *, now: float) -> Outcome:
    """Run one command at time `now` (see `Game.apply`)."""
    if is_noop(state, command, now):
        return Outcome(state, [])
    step = Step(state.model_copy(deep=True), now)
    if isinstance(command, Join):
        _join(step, command)
    elif isinstance(command, Act):
        actions.act(step, command)
        if step.reply is not None:  # read-only: nothing changed, nothing to store
            return Outcome(state, [], step.reply)
    elif isinstance(command, Timeout):
        _stage_over(step)
    elif isinstance(command, Concede):
        _concede(step, command.seat)
    elif isinstance(command, Abort):
        _abort(step, command)
    elif isinstance(command, TakeOver):
        _take_over(step, command.seat)
    else:
        raise GameError("bad_request", f"not a command: {type(command).__name__}")
    if step.state.status == "in_progress":
        _end_early(step)
    return Outcome(step.state, step.events)


def _join(step: Step, cmd: Join) -> None:
    state = step.state
    if state.status == "in_progress":
        raise GameError("match_full", "every seat is taken", status=state.status)
    if state.status != "waiting":
        raise GameError("match_not_waiting", "the match is not waiting for players", status=state.status)
    if not cmd.name.strip() or not cmd.display_name.strip():
        raise GameError("bad_request", "name and display_name must not be empty")
    if any(p.name == cmd.name for p in state.players):
        raise GameError("duplicate_player", "this player already has a seat", name=cmd.name)
    seat = len(state.players)
    state.players.append(Player(seat=seat, name=cmd.name, display_name=cmd.display_name))
    step.emit("player_joined", "public", seat=seat, name=cmd.name, display_name=cmd.display_name)
    if len(state.players) == state.config.n_players:
        _deal(step)


def _deal(step: Step) -> None:
    """Each seat draws a character (seeded), gets its handout and its initial items; the script is read out."""
    state, script = step.state, step.state.script
    characters = [c.id for c in script.characters]
    step.rng("deal").shuffle(characters)
    state.status = "in_progress"
    for player, cid in zip(state.players, characters, strict=True):
        player.character = cid
        player.items = list(script.character(cid).items)
    state.unlocked_locations = [x.id for x in script.locations if x.act == 1]
    state.unlocked_powers = [p.id for p in script.powers if p.act == 1]
    state.item_uses = {i.id: i.uses for i in script.items if i.uses is not None}
    step.emit("match_started", "public", n_players=len(state.players), script_id=script.id, title=script.title,
              intro=script.intro, characters=[{"seat": p.seat, "character": p.character,
                                               "name": script.character(str(p.character)).name}
                                              for p in state.players])
    step.emit("characters_dealt", "god_only", assignment={str(p.seat): p.character for p in state.players},
              culprit=script.culprit)
    enter(step, FIRST_PLAYED)
    for player in state.players:
        c = script.character(str(player.character))
        step.emit("script_handout", f"private:character:{c.id}", seat=player.seat, character=c.id, name=c.name,
                  script=c.script, secret=c.secret, timeline=[t.model_dump() for t in c.timeline],
                  relations=[r.model_dump() for r in c.relations], win=c.win, items=list(player.items))


def enter(step: Step, index: int) -> None:
    """Open sub-stage `index`: the DM's announcement, its clock, and what the script does at that point."""
    state = step.state
    sub = SUB_STAGES[index]
    state.phase = sub.id
    for player in state.players:
        player.ready = player.spoke = False
    step.start_clock(duration(sub.id, state.config.timing))
    step.emit("stage_changed", "public", sub_stage=sub.id, stage=sub.stage, round=sub.round_no,
              round_no=sub.round_no, text=sub.announce, deadline_ts=state.deadline_ts)
    if sub.id == "self_intro":
        state.speaker = next_speaker(state, -1)
        step.emit("speaker_changed", "public", seat=state.speaker)
    if sub.id in EXPLORE:
        for player in state.players:
            player.investigations = 0
    if sub.id.startswith("anchor_"):
        discovery.anchor(step, sub.id)
    if sub.id in ACT_OF_STAGE:
        discovery.script_events(step, sub.id)
    if sub.id == "final_vote":
        voting.open_vote(step, [p.seat for p in state.seated()])
    if sub.id == "review":
        voting.review(step)


def _stage_over(step: Step) -> None:
    """The stage's clock ran out (or it ended early): close it and open the next one."""
    state = step.state
    if state.phase in EXPLORE:
        discovery.guarantee_key_clues(step, ACT_OF_STAGE[state.phase])
    if state.phase == "final_vote" and not voting.close_vote(step):
        return  # a second vote among the tied
    if state.phase == "review":
        voting.finish(step)
        return
    enter(step, INDEX[state.phase] + 1)


def _end_early(step: Step) -> None:
    """Every seat at the table is ready (or, in self_intro, has spoken); final_vote: every seat voted."""
    state = step.state
    seated = state.seated()
    if not seated:
        return
    if state.phase == "final_vote":
        if voting.all_voted(state):
            _stage_over(step)
        return
    done = all(p.ready for p in seated) or (state.phase == "self_intro" and state.speaker is None)
    if INDEX.get(state.phase, 99) <= 9 and done:
        _stage_over(step)
        _end_early(step)  # the next stage may already be done (every seat left but one who is ready)


def _concede(step: Step, seat: int) -> None:
    """The seat leaves: it no longer counts for ready or the vote (its character stays in the story)."""
    state = step.state
    player = state.seat(seat)
    if player is None:
        raise GameError("agent_not_in_match", f"there is no seat {seat}", seat=seat)
    if state.status != "in_progress":
        raise GameError("match_finished" if state.status in ("finished", "aborted") else "wrong_phase",
                        "the match is not running", status=state.status)
    if player.conceded:
        raise GameError("you_are_eliminated", "you have left this match", seat=seat)
    player.conceded = True
    step.emit("player_conceded", "public", seat=seat)
    if state.speaker == seat:
        pass_floor(step)
    state.votes.pop(seat, None)
    if not state.seated():
        voting.finish(step, reason="everyone_left")


def _abort(step: Step, cmd: Abort) -> None:
    state = step.state
    if state.status == "finished":
        raise GameError("match_finished", "the match is over")
    if state.status != "waiting" and cmd.reason == "host_cancelled":
        raise GameError("match_not_waiting", "only a waiting match can be cancelled", status=state.status)
    state.status = "aborted"
    state.phase = "aborted"
    step.stop_clock()
    state.result = {"winner_camp": None, "reason": cmd.reason, "summary": ABORT_SUMMARIES[cmd.reason]}
    step.emit("match_aborted", "public", reason=cmd.reason)


def _take_over(step: Step, seat: int) -> None:
    """From now on the official bot plays `seat` (a public `seat_taken_over`); again, or not running: nothing."""
    player = step.state.seat(seat)
    if step.state.status != "in_progress" or player is None or player.taken_over:
        return
    player.taken_over = True
    step.emit("seat_taken_over", "public", seat=seat)
