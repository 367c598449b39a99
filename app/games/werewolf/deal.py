"""The deal, when the kit's waiting room is full.

It shuffles the composition over the seats with `Random(f"{seed}:{seq}:deal")`. Each seat
learns its role privately; the wolves learn the pack (`wolf_pack`, `private:role:werewolf`); the
whole assignment is `god_only` (`roles_dealt`). Night 1 follows at once.
"""

from __future__ import annotations

from app.games.werewolf.config import ROLES, Role, camp_of
from app.games.werewolf.state import Step
from app.games.werewolf.transitions import NightFalls, Transition


def deal(step: Step) -> Transition:
    """The table is full: deal the composition over the seats; night 1 falls."""
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
