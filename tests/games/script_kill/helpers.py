"""Engine-level helpers: a fresh table, a seeded random player that acts only from its own view, a full game."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from app.games.base import GameError
from app.games.script_kill.game import GAME
from app.games.script_kill.state import MatchState

T0 = 1_000_000.0


@dataclass
class Played:
    """A game played to its end: the final state, every event, and the states after each command."""

    state: MatchState
    events: list[dict[str, Any]] = field(default_factory=list)
    states: list[MatchState] = field(default_factory=list)
    now: float = T0


def table(timing: str = "compressed", script: str = "tiny", seed: int = 7) -> Played:
    """A full table (six seats), dealt: the match is in script_handout."""
    config = GAME.parse_config({"timing": timing, "script": script})
    out = GAME.new_match(config, "p0", "P0", seed=seed, now=T0)
    played = Played(out.state, list(out.events))
    for n in range(1, 6):
        run(played, GAME.join(f"p{n}", f"P{n}"))
    return played


def run(played: Played, command: Any, dt: float = 0.0) -> list[dict[str, Any]]:
    """Apply one command `dt` seconds later; keep its events and the new state."""
    played.now += dt
    out = GAME.apply(played.state, command, now=played.now)
    played.state = out.state
    played.events += out.events
    played.states.append(out.state)
    return out.events


def act(played: Played, seat: int, **body: Any) -> list[dict[str, Any]]:
    return run(played, GAME.parse_action(body, seat))


def expire(played: Played) -> list[dict[str, Any]]:
    """The stage's clock runs out (the fake clock jumps to its deadline)."""
    timer = played.state.timer
    assert timer is not None
    played.now = max(played.now, timer.due)
    return run(played, GAME.timeout(timer.token))


def choose(state: MatchState, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A body the seat may send, drawn from its own allowed_actions (None: nothing useful now)."""
    you = GAME.you_view(state, seat)
    offers = {o["type"]: o for o in you["allowed_actions"]}
    if "vote" in offers:
        return {"type": "vote", "target": rng.choice(offers["vote"]["targets"])}
    if "use_power" in offers and rng.random() < 0.7:
        o = offers["use_power"]
        target = rng.choice(o.get("targets") or o.get("locations") or [None])
        return {"type": "use_power", "power": o["powers"][0], "target": target}
    if "use_item" in offers and rng.random() < 0.3:
        o = offers["use_item"]
        return {"type": "use_item", "item": rng.choice(o["items"]),
                "target": rng.choice(o.get("targets") or o.get("locations") or [None])}
    if "trade" in offers and rng.random() < 0.2:
        o = offers["trade"]
        return {"type": "trade", "item": rng.choice(o["items"]), "to": rng.choice(o["targets"])}
    if "investigate" in offers and rng.random() < 0.9:
        return {"type": "investigate", "location": rng.choice(offers["investigate"]["locations"])}
    if "private_chat" in offers and rng.random() < 0.2:
        return {"type": "private_chat", "to": rng.choice(offers["private_chat"]["targets"]), "text": "悄悄话"}
    if "reveal_clue" in offers and rng.random() < 0.3 and offers["reveal_clue"]["clues"]:
        return {"type": "reveal_clue", "clue": rng.choice(offers["reveal_clue"]["clues"])}
    if "speak" in offers and you["next_action"] == "speak" and rng.random() < 0.5:
        return {"type": "speak", "text": f"{seat} 号位的发言"}
    if "ready" in offers:
        return {"type": "ready"}
    return None


def play(seed: int = 7, timing: str = "compressed", script: str = "tiny", silent: frozenset[int] = frozenset(),
         max_steps: int = 2000) -> Played:
    """A whole game of random players (`silent` seats never act, so their stages end on the clock)."""
    played = table(timing, script, seed)
    rng = random.Random(seed)
    for _ in range(max_steps):
        state = played.state
        if state.status != "in_progress":
            return played
        moves = [(s, b) for s in range(6) if s not in silent and (b := choose(state, s, rng)) is not None]
        if not moves:
            expire(played)
            continue
        seat, body = rng.choice(moves)
        try:
            act(played, seat, **body)
        except GameError as exc:  # a random player may try what the rules refuse; that must be a clean refusal
            assert exc.code in GAME.errors or exc.code in {"invalid_target", "already_voted"}, exc.code
        played.now += 0.5
    raise AssertionError("the game did not end")


