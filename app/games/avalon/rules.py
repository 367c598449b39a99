"""The rules of 阿瓦隆 (docs/_shared/avalon-rules.md): the deal, the round (propose → discuss → vote → quest), the
Lady of the Lake, the assassination, the clocks, a seat that leaves, the end.

A seat that left (conceded) keeps its place: its turns play themselves at once — as leader the team is the leader
and the seats after it, its speech is skipped, its vote approves, its card succeeds, as Lady or assassin the seed
picks. A clock that runs out does the same for every seat that has not acted.
"""

from __future__ import annotations

from typing import Any

from app.games.avalon.config import is_evil
from app.games.avalon.requests import MAX_TEXT, Assassinate, Confer, Lady, Propose, Quest, Skip, Speak, Vote
from app.games.avalon.state import State
from app.games.base import GameError
from app.games.kit import KitSeat, Step, camp_outcome

AStep = Step[State]
TURN = "turn"
KNOWS_EVIL = ("assassin", "morgana", "mordred", "minion")  # the evil seats that know each other (not Oberon)


# ---------------------------------------------------------------- what each seat knows


def _extra(**fields: Any) -> dict[str, Any]:
    """The optional fields of an event that are set."""
    return {k: v for k, v in fields.items() if v is not None and v != ""}


def side(role: str | None) -> str:
    return "evil" if is_evil(role) else "good"


def knowledge(state: State, seat: int) -> dict[str, Any]:
    """What the deal tells `seat` besides its role: Merlin the evil seats but Mordred; Percival Merlin and Morgana
    as two unnamed candidates; the evil seats each other but Oberon; Oberon and the loyal servants nothing."""
    role = state.role(seat)
    if role == "merlin":
        return {"evil_seats": [s for s in range(len(state.players)) if state.evil(s) and state.role(s) != "mordred"]}
    if role == "percival":
        return {"merlin_candidates": state.seats_of("merlin", "morgana")}
    if role in KNOWS_EVIL:
        return {"evil_seats": [s for s in state.seats_of(*KNOWS_EVIL) if s != seat]}
    return {}


def assassin_targets(state: State, seat: int) -> list[int]:
    allies = set(knowledge(state, seat).get("evil_seats", []))
    return [p.seat for p in state.players if p.seat != seat and p.seat not in allies]


def lady_targets(state: State) -> list[int]:
    return [p.seat for p in state.players if p.seat != state.lady and p.seat not in state.lady_held]


# ---------------------------------------------------------------- the deal and the round


def deal(step: AStep) -> None:
    state, rng = step.state, step.rng("deal")
    cards = [role for role, count in state.config.roles.items() for _ in range(count)]
    rng.shuffle(cards)
    for p, role in zip(state.players, cards, strict=True):
        p.role = role
    n = len(state.players)
    state.leader = rng.randrange(n)
    if state.config.lady_of_the_lake:
        state.lady = (state.leader - 1) % n
        state.lady_held = [state.lady]
    state.status = "in_progress"
    step.emit("match_started", n_players=n, roles=dict(state.config.roles), quest_sizes=list(state.config.quest_sizes),
              fails_needed=[state.config.fails_needed(q) for q in range(1, 6)], leader_seat=state.leader,
              lady_seat=state.lady)
    for p in state.players:
        step.emit("role_dealt", f"private:seat:{p.seat}", seat=p.seat, role=p.role, side=side(p.role),
                  **knowledge(state, p.seat))
    step.emit("roles_dealt", "god_only", roles={str(p.seat): p.role for p in state.players})
    open_proposal(step)


def open_proposal(step: AStep) -> None:
    state = step.state
    state.phase, state.team, state.speaker, state.votes = "propose", [], None, {}
    step.emit("proposal_opened", quest=state.quest, proposal=state.proposal, leader_seat=state.leader,
              team_size=state.team_size, fails_needed=state.config.fails_needed(state.quest))
    step.start_clock(state.config.speak_timeout, TURN)
    if not state.players[state.leader].alive:
        auto_propose(step)


def auto_propose(step: AStep) -> None:
    state = step.state
    n = len(state.players)
    put_team(step, [(state.leader + i) % n for i in range(state.team_size)], None, auto=True)


def put_team(step: AStep, team: list[int], text: str | None, auto: bool = False) -> None:
    state = step.state
    state.team = sorted(team)
    step.emit("team_proposed", seat=state.leader, quest=state.quest, proposal=state.proposal, team=state.team,
              **_extra(text=text, auto=auto or None))
    state.phase, state.speaker = "discuss", state.leader
    next_speaker(step)


def next_speaker(step: AStep) -> None:
    state = step.state
    seat = state.after(state.speaker if state.speaker is not None else state.leader)
    while seat != state.leader and not state.players[seat].alive:
        seat = state.after(seat)
    if seat == state.leader:
        open_vote(step)
        return
    state.speaker = seat
    step.emit("speaker_up", seat=seat)
    step.start_clock(state.config.speak_timeout, TURN)


def open_vote(step: AStep) -> None:
    state = step.state
    state.phase, state.speaker = "vote", None
    state.votes = {p.seat: "approve" for p in state.players if not p.alive}
    step.emit("vote_opened", quest=state.quest, proposal=state.proposal, team=state.team)
    step.start_clock(state.config.vote_timeout, TURN)
    if len(state.votes) == len(state.players):
        reveal_votes(step)


def reveal_votes(step: AStep) -> None:
    state = step.state
    votes = dict(sorted(state.votes.items()))
    approve = [s for s, v in votes.items() if v == "approve"]
    approved = 2 * len(approve) > len(votes)
    record: dict[str, Any] = {"quest": state.quest, "proposal": state.proposal, "leader_seat": state.leader,
                              "team": state.team,
              "votes": {str(s): v for s, v in votes.items()}, "approve": approve,
              "reject": [s for s, v in votes.items() if v == "reject"], "approved": approved}
    state.proposals.append(record)
    step.emit("votes_revealed", **record)
    state.votes = {}
    if approved:
        open_quest(step)
    elif state.proposal == 5:
        finish(step, "evil", "five_rejections")
    else:
        state.proposal += 1
        state.leader = state.after(state.leader)
        open_proposal(step)


def open_quest(step: AStep) -> None:
    state = step.state
    state.phase = "quest"
    state.cards = {s: "success" for s in state.team if not state.players[s].alive}
    step.emit("quest_started", quest=state.quest, team=state.team, fails_needed=state.config.fails_needed(state.quest))
    step.start_clock(state.config.vote_timeout, TURN)
    if len(state.cards) == len(state.team):
        resolve_quest(step)


def resolve_quest(step: AStep) -> None:
    state = step.state
    fails = sum(card == "fail" for card in state.cards.values())
    needed = state.config.fails_needed(state.quest)
    result = "fail" if fails >= needed else "success"
    state.card_log += [{"quest": state.quest, "seat": s, "card": c} for s, c in sorted(state.cards.items())]
    record: dict[str, Any] = {"quest": state.quest, "leader_seat": state.leader, "team": state.team, "fails": fails,
              "successes": len(state.team) - fails, "fails_needed": needed, "result": result}
    state.quests.append(record)
    state.cards = {}
    step.emit("quest_resolved", **record)
    done = [q["result"] for q in state.quests]
    if done.count("fail") == 3:
        finish(step, "evil", "three_fails")
    elif done.count("success") == 3:
        open_assassination(step)
    else:
        state.quest, state.proposal, state.leader = state.quest + 1, 1, state.after(state.leader)
        if state.lady is not None and state.quest - 1 in (2, 3, 4):
            open_lady(step)
        else:
            open_proposal(step)


def open_lady(step: AStep) -> None:
    state = step.state
    assert state.lady is not None
    state.phase = "lady"
    step.emit("lady_opened", seat=state.lady, targets=lady_targets(state))
    step.start_clock(state.config.speak_timeout, TURN)
    if not state.players[state.lady].alive:
        examine(step, step.rng("lady").choice(lady_targets(state)))


def examine(step: AStep, target: int) -> None:
    state = step.state
    holder = state.lady
    assert holder is not None
    found = side(state.players[target].role)
    state.lady_checks.append({"seat": holder, "target_seat": target, "side": found})
    step.emit("lady_examined", seat=holder, target_seat=target)
    step.emit("lady_result", f"private:seat:{holder}", seat=holder, target_seat=target, side=found)
    state.lady = target
    state.lady_held.append(target)
    open_proposal(step)


def open_assassination(step: AStep) -> None:
    state = step.state
    state.phase = "assassinate"
    assassin = state.seats_of("assassin")[0]
    step.emit("assassination_opened", assassin_seat=assassin)
    step.start_clock(state.config.assassin_timeout, TURN)
    if not state.players[assassin].alive:
        strike(step, assassin, step.rng("assassin").choice(assassin_targets(state, assassin)), auto=True)


def strike(step: AStep, assassin: int, target: int, auto: bool = False) -> None:
    state = step.state
    state.assassin_target = target
    hit = state.role(target) == "merlin"
    step.emit("assassination", seat=assassin, target_seat=target, merlin=hit, **_extra(auto=auto or None))
    finish(step, "evil" if hit else "good", "merlin_assassinated" if hit else "merlin_survived")


def finish(step: AStep, camp: str | None, reason: str) -> None:
    state = step.state
    winners, losers = camp_outcome(state.players, lambda p: camp is not None and side(p.role) == camp)
    state.result = {"winner_camp": camp, "winning_seats": winners, "reason": reason, "losing_seats": losers,
                    "roles": {str(p.seat): p.role for p in state.players},
                    "quests": [q["result"] for q in state.quests],
                    "merlin_seat": state.seats_of("merlin")[0], "assassin_target": state.assassin_target}
    step.emit("match_finished", **state.result)
    state.result["summary"] = SUMMARIES[reason]
    state.status = state.phase = "finished"
    step.stop_clock()


SUMMARIES = {"merlin_survived": "good wins: three quests succeeded and Merlin survived the assassin",
             "merlin_assassinated": "evil wins: the assassin named Merlin",
             "three_fails": "evil wins: three quests failed",
             "five_rejections": "evil wins: five teams in a row were rejected",
             "everyone_left": "everyone left the table"}


# ---------------------------------------------------------------- the actions


def _phase(state: State, phase: str, action: str) -> None:
    if state.phase != phase:
        raise GameError("wrong_phase", f"{action} is for the {phase} phase; the match is in {state.phase}",
                        phase=state.phase)


def _text(text: str | None) -> None:
    if text is not None and len(text) > MAX_TEXT:
        raise GameError("text_too_long", f"at most {MAX_TEXT} characters", max_length=MAX_TEXT, length=len(text))


def propose(step: AStep, player: KitSeat, req: Propose) -> None:
    state = step.state
    _phase(state, "propose", "propose")
    if player.seat != state.leader:
        raise GameError("not_the_leader", f"seat {state.leader} leads this proposal", leader_seat=state.leader)
    if len(set(req.team)) != len(req.team):
        raise GameError("duplicate_team_member", "a seat is named twice", team=req.team)
    if len(req.team) != state.team_size:
        raise GameError("wrong_team_size", f"quest {state.quest} needs a team of {state.team_size}",
                        team_size=state.team_size)
    if any(state.seat(s) is None for s in req.team):
        raise GameError("invalid_target", "the team names a seat that does not exist", team=req.team)
    _text(req.text)
    put_team(step, req.team, req.text)


def speak(step: AStep, player: KitSeat, req: Speak | Skip) -> None:
    state = step.state
    _phase(state, "discuss", req.type)
    if player.seat != state.speaker:
        raise GameError("not_your_turn_to_speak", f"seat {state.speaker} speaks now", speaker_seat=state.speaker)
    if isinstance(req, Speak):
        _text(req.text)
        step.emit("speech", seat=player.seat, text=req.text)
    else:
        step.emit("speech_skipped", seat=player.seat)
    next_speaker(step)


def vote(step: AStep, player: KitSeat, req: Vote) -> None:
    state = step.state
    _phase(state, "vote", "vote")
    if player.seat in state.votes:
        raise GameError("already_voted", "you have voted on this team", seat=player.seat)
    state.votes[player.seat] = req.choice
    step.emit("vote_cast", seat=player.seat)
    if len(state.votes) == len(state.players):
        reveal_votes(step)


def quest(step: AStep, player: KitSeat, req: Quest) -> None:
    state = step.state
    _phase(state, "quest", "quest")
    if player.seat not in state.team:
        raise GameError("not_on_the_team", "you are not on this quest's team", team=state.team)
    if player.seat in state.cards:
        raise GameError("card_already_played", "your card is already in", seat=player.seat)
    if req.card == "fail" and not state.evil(player.seat):
        raise GameError("good_cannot_fail", "loyal servants of Arthur always play success")
    state.cards[player.seat] = req.card
    step.emit("card_played", seat=player.seat)
    step.emit("card_chosen", "god_only", seat=player.seat, quest=state.quest, card=req.card)
    if len(state.cards) == len(state.team):
        resolve_quest(step)


def lady(step: AStep, player: KitSeat, req: Lady) -> None:
    state = step.state
    _phase(state, "lady", "lady")
    if player.seat != state.lady:
        raise GameError("not_the_lady", f"seat {state.lady} holds the Lady of the Lake", lady_seat=state.lady)
    if state.seat(req.target_seat) is None or req.target_seat == player.seat:
        raise GameError("invalid_target", "examine another seat at the table", targets=lady_targets(state))
    if req.target_seat in state.lady_held:
        raise GameError("lady_already_held", f"seat {req.target_seat} has held the Lady", targets=lady_targets(state))
    examine(step, req.target_seat)


def confer(step: AStep, player: KitSeat, req: Confer) -> None:
    state = step.state
    _phase(state, "assassinate", "confer")
    if player.role not in KNOWS_EVIL:
        raise GameError("evil_only", "only the evil seats that know each other confer")
    _text(req.text)
    step.emit("evil_conferred", "private:role:evil", seat=player.seat, text=req.text)


def assassinate(step: AStep, player: KitSeat, req: Assassinate) -> None:
    state = step.state
    _phase(state, "assassinate", "assassinate")
    if player.role != "assassin":
        raise GameError("not_the_assassin", "the assassin alone names Merlin")
    targets = assassin_targets(state, player.seat)
    if state.seat(req.target_seat) is None or req.target_seat == player.seat:
        raise GameError("invalid_target", "name another seat at the table", targets=targets)
    if req.target_seat not in targets:
        raise GameError("target_is_ally", f"seat {req.target_seat} is a known evil seat", targets=targets)
    strike(step, player.seat, req.target_seat)


# ---------------------------------------------------------------- clocks and leaving


def due(step: AStep) -> None:
    """The clock ran out: every seat that owed a move gets the automatic one."""
    state = step.state
    if state.phase == "propose":
        auto_propose(step)
    elif state.phase == "discuss":
        step.emit("speech_skipped", seat=state.speaker, auto=True)
        next_speaker(step)
    elif state.phase == "vote":
        state.votes = {p.seat: state.votes.get(p.seat, "approve") for p in state.players}
        reveal_votes(step)
    elif state.phase == "quest":
        state.cards = {s: state.cards.get(s, "success") for s in state.team}
        resolve_quest(step)
    elif state.phase == "lady":
        examine(step, step.rng("lady").choice(lady_targets(state)))
    elif state.phase == "assassinate":
        assassin = state.seats_of("assassin")[0]
        strike(step, assassin, step.rng("assassin").choice(assassin_targets(state, assassin)), auto=True)


def conceded(step: AStep, player: KitSeat) -> None:
    """A seat left: the match ends when nobody is left, else the seat's due move plays itself now."""
    state, seat = step.state, player.seat
    if not state.seated():
        finish(step, None, "everyone_left")
    elif state.phase == "propose" and seat == state.leader:
        auto_propose(step)
    elif state.phase == "discuss" and seat == state.speaker:
        step.emit("speech_skipped", seat=seat, auto=True)
        next_speaker(step)
    elif state.phase == "vote" and seat not in state.votes:
        state.votes[seat] = "approve"
        if len(state.votes) == len(state.players):
            reveal_votes(step)
    elif state.phase == "quest" and seat in state.team and seat not in state.cards:
        state.cards[seat] = "success"
        if len(state.cards) == len(state.team):
            resolve_quest(step)
    elif state.phase == "lady" and seat == state.lady:
        examine(step, step.rng("lady").choice(lady_targets(state)))
    elif state.phase == "assassinate" and player.role == "assassin":
        strike(step, seat, step.rng("assassin").choice(assassin_targets(state, seat)), auto=True)

