"""The four viewer layers (spec §2.4.0) and what each may see of the event log (§2.5.2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

ViewerRole = Literal["anonymous", "spectator", "player_owner", "player_agent"]
TERMINAL = frozenset({"finished", "aborted"})


@dataclass(frozen=True)
class Viewer:
    """Who is looking. `seat` is set for the two player layers only."""

    role: ViewerRole
    seat: int | None = None

    @property
    def is_player(self) -> bool:
        return self.role in ("player_agent", "player_owner")


ANONYMOUS = Viewer("anonymous")


def resolve(seat_agents: Mapping[int, str | None], *, agent_id: str | None, token_seat: int | None,
            logged_in: bool, owner_agent_ids: frozenset[str]) -> Viewer:
    """Spec §2.4.0, in its order: player_agent (a seated agent's key, or a seat's play token), player_owner (the
    session of a seated agent's owner), spectator (any other session), anonymous. `seat_agents` maps seat → agent id.
    """
    if agent_id is not None:
        for seat, seated in seat_agents.items():
            if seated == agent_id:
                return Viewer("player_agent", seat)
    elif token_seat is not None:
        return Viewer("player_agent", token_seat)
    if logged_in:
        owned = sorted(seat for seat, seated in seat_agents.items() if seated in owner_agent_ids)
        # Two owned seats cannot happen (same_owner_already_in_match); if it did, show only the first seat.
        return Viewer("player_owner", owned[0]) if owned else Viewer("spectator")
    return ANONYMOUS


def is_god(viewer: Viewer, status: str, *, live_god: bool = True) -> bool:
    """Spectators see everything while live (unless `live_god` is off: then only at the end, like everyone)."""
    return (viewer.role == "spectator" and live_god) or status in TERMINAL


def can_see(visibility: str, *, god: bool, seat: int | None, roles: frozenset[str]) -> bool:
    """Whether one event's `visibility` admits a viewer. Unknown visibilities are hidden (fail closed)."""
    if god or visibility == "public":
        return True
    if seat is None:
        return False
    if visibility == "private:host":
        return seat == 0
    kind, _, target = visibility.removeprefix("private:").partition(":")
    if not visibility.startswith("private:"):
        return False
    if kind == "seat":
        return target == str(seat)
    if kind == "pair":  # private:pair:<a>:<b> — a conversation of two seats
        return str(seat) in target.split(":")
    if kind == "role":
        return target in roles
    # private:<kind>:<target> — a tag of `Game.role_set` spelled `<kind>:<target>` (e.g. a seat's persona)
    return bool(target) and f"{kind}:{target}" in roles


def capabilities(viewer: Viewer, status: str, secret_fields: tuple[str, ...] = (), *,
                 live_god: bool = True) -> dict[str, bool]:
    """`viewer_capabilities` of every snapshot and events response: `can_see_<field>` for each of the game's
    `secret_fields` (the god-only snapshot fields), after `can_see_alive_roles`."""
    god = is_god(viewer, status, live_god=live_god)
    return {
        "can_see_alive_roles": god,
        **{f"can_see_{field}": god for field in secret_fields},
        "can_act": viewer.role == "player_agent" and status not in TERMINAL,
        "can_whisper_view": god or viewer.is_player,
    }
