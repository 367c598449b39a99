"""The waiting room: create, join, deal when full, abort.

The deal shuffles the composition over the seats with `Random(f"{seed}:{seq}:deal")`. Each seat
learns its role privately; the wolves learn the pack (`wolf_pack`, `private:role:werewolf`); the
whole assignment is `god_only` (`roles_dealt`). Night 1 follows at once.
"""

from __future__ import annotations

from app.games.base import GameError
from app.games.werewolf.commands import Abort, Join
from app.games.werewolf.config import ROLES, Role, WerewolfConfig, camp_of
from app.games.werewolf.state import MatchState, Player
from app.games.werewolf.step import Outcome, Step
from app.games.werewolf.transitions import NightFalls, Transition


def new_match(config: WerewolfConfig, host_name: str, host_display_name: str,
              seed: int, now: float) -> Outcome:
    """A waiting room with the host in seat 0."""
    host = Player(seat=0, name=host_name, display_name=host_display_name)
    step = Step(MatchState(seed=seed, config=config, players=[host]), now)
    step.emit("match_created", "public", config=config.model_dump(),
              players=[{"seat": 0, "name": host_name, "display_name": host_display_name}])
    step.emit("player_joined", "public", seat=0, name=host_name, display_name=host_display_name)
    return Outcome(step.state, step.events)


def join(step: Step, cmd: Join) -> Transition:
    """Seat a player in the next free seat; the last seat triggers the deal."""
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
        return _deal(step)
    return None


def abort(step: Step, cmd: Abort) -> Transition:
    """Cancel a waiting room (the janitor may also clear a running one)."""
    state = step.state
    if state.status == "finished":
        raise GameError("match_finished", "the match is over")
    if state.status != "waiting" and cmd.reason != "janitor_timeout":
        raise GameError("match_not_waiting", "only a waiting match can be cancelled", status=state.status)
    state.status = state.phase = "aborted"
    state.current_speaker_seat = None
    state.pending = []
    step.stop_clock()
    summary = "房主取消了对局" if cmd.reason == "host_cancelled" else "对局长时间无进展，已被系统清理"
    state.result = {"winner_camp": None, "reason": cmd.reason, "summary": summary}
    step.emit("match_aborted", "public", reason=cmd.reason)
    return None


def _deal(step: Step) -> Transition:
    state, config = step.state, step.state.config
    deck: list[Role] = [role for role in ROLES for _ in range(config.count(role))]
    step.rng("deal").shuffle(deck)
    for player, role in zip(state.players, deck, strict=True):
        player.role = role
    state.status = "in_progress"
    step.emit("match_started", "public", n_players=config.n_players, composition=dict(config.roles),
              win_rule=config.win_rule)
    step.emit("roles_dealt", "god_only", assignment=[{"seat": p.seat, "role": p.role} for p in state.players])
    for p in state.players:
        assert p.role is not None
        step.emit("role_assigned", f"private:seat:{p.seat}", seat=p.seat, role=p.role, camp=camp_of(p.role))
    step.emit("wolf_pack", "private:role:werewolf", wolf_seats=state.seats_with("werewolf"))
    return NightFalls(1)
