"""The waiting room: create, join, deal when full, abort.

The deal shuffles the composition over the seats with `Random(f"{seed}:{seq}:deal")`. Each seat
learns its role privately; the wolves learn the pack (`wolf_pack`, `private:role:werewolf`); the
whole assignment is `god_only` (`roles_dealt`). Night 1 follows at once.
"""

from __future__ import annotations

from app.games.kit import lobby as room
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
    room.announce(step, config.model_dump(), host_name, host_display_name)
    return Outcome(step.state, step.events)


def join(step: Step, cmd: Join) -> Transition:
    """Seat a player in the next free seat; the last seat triggers the deal."""
    state = step.state
    seated = room.seat_player(step, lambda seat: state.players.append(
        Player(seat=seat, name=cmd.name, display_name=cmd.display_name)), cmd.name, cmd.display_name,
        state.config.n_players)
    return _deal(step) if seated else None


def abort(step: Step, cmd: Abort) -> Transition:
    """Cancel a waiting room (the janitor may also clear a running one)."""
    if step.state.status != "finished":
        step.state.current_speaker_seat = None
        step.state.pending = []
    room.abort(step, cmd.reason)
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
