"""The deal and the stage machine (the kit runs the lobby and the command loop).

A stage opens (`enter`: its DM announcement, its clock, what the script does then), waits for its commands, and
ends on its timer (`stage_over`) or early (`end_early`: `ready` from every seat; final_vote when everyone voted).
Pure: no I/O, no clock (`now` is passed in), every random draw from `Random(f"{seed}:{seq}:<purpose>")`.
"""

from __future__ import annotations

from app.games.script_kill import discovery, voting
from app.games.script_kill.speaking import next_speaker, pass_floor
from app.games.script_kill.stages import ACT_OF_STAGE, EXPLORE, FIRST_PLAYED, INDEX, SUB_STAGES, duration
from app.games.script_kill.state import Player
from app.games.script_kill.step import Step


def deal(step: Step) -> None:
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
    step.stage_clock(duration(sub.id, state.config.timing))
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


def stage_over(step: Step) -> None:
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


def end_early(step: Step) -> None:
    """Every seat at the table is ready (or, in self_intro, has spoken); final_vote: every seat voted."""
    state = step.state
    seated = state.seated()
    if not seated:
        return
    if state.phase == "final_vote":
        if voting.all_voted(state):
            stage_over(step)
        return
    done = all(p.ready for p in seated) or (state.phase == "self_intro" and state.speaker is None)
    if INDEX.get(state.phase, 99) <= 9 and done:
        stage_over(step)
        end_early(step)  # the next stage may already be done (every seat left but one who is ready)


def conceded(step: Step, player: Player) -> None:
    """The seat left (the kit marked it): it no longer counts for ready or the vote (its character stays in the
    story)."""
    state = step.state
    if state.speaker == player.seat:
        pass_floor(step)
    state.votes.pop(player.seat, None)
    if not state.seated():
        voting.finish(step, reason="everyone_left")
