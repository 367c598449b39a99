"""A table any game can be played at through its `Game` alone, checking the contract after every command.

A random player reads its seat's `allowed_actions` and builds request bodies from each entry's option lists
(`targets`, `locations`, `items`, `powers`, `clues`, and any scalar the entry names, e.g. a night action's `action`):
the field a body needs is matched to the list offering its values. A list field `team` gets a few random teams of
the entry's `team_size` drawn from its `targets` (avalon's proposal).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from app.games.base import GameError
from tests.contract.fixture import Fixture

T0 = 1_700_000_000.0
SKIPPED = frozenset({"type", "expected_seq", "analysis", "comment", "note"})
OPTIONS = {"target_seat": ("targets",), "target": ("targets", "locations"), "to": ("targets",),
           "location": ("locations",), "item": ("items",), "clue": ("clues",), "power": ("powers",)}
MAX_BODIES = 24


def _values(fixture: Fixture, name: str, required: bool, entry: dict[str, Any], rng: random.Random) -> list[Any]:
    if name in entry and not isinstance(entry[name], list):
        return [entry[name]]
    if name == "team" and isinstance(entry.get("team_size"), int):
        pool = list(entry.get("targets") or [])
        return [sorted(rng.sample(pool, min(entry["team_size"], len(pool)))) for _ in range(3)]
    values: list[Any] = [v for key in OPTIONS.get(name, ()) for v in entry.get(key) or []]
    if name in ("text", "word"):
        values = list(fixture.texts)
    if not required:
        values.append(None)
    return values


def bodies(fixture: Fixture, entry: dict[str, Any], rng: random.Random) -> Iterator[dict[str, Any]]:
    """Request bodies for one `allowed_actions` entry, in a random order (at most `MAX_BODIES`); none when a field
    it needs has no value on offer."""
    model: type[BaseModel] | None = fixture.game.actions.get(entry["type"])
    if model is None:
        return
    fields = [(name, info.is_required()) for name, info in model.model_fields.items() if name not in SKIPPED]
    choices = [[(name, v) for v in _values(fixture, name, required, entry, rng)] for name, required in fields]
    combos = list(itertools.islice(itertools.product(*choices), 400))
    rng.shuffle(combos)
    for combo in combos[:MAX_BODIES]:
        yield {"type": entry["type"], **{k: v for k, v in combo if v is not None}}


def command_for(fixture: Fixture, seat: int, body: dict[str, Any]) -> Any:
    """The command of `body` (`concede` goes to `/concede` when the game does not take it at `/action`)."""
    if body["type"] == "concede" and "concede" not in fixture.game.actions:
        return fixture.game.concede(seat)
    return fixture.game.parse_action(body, seat)


class Table:
    """One match of any game, every command checked against the contract (`check`)."""

    def __init__(self, fixture: Fixture, config: dict[str, Any], seed: int, *, seats: int | None = None) -> None:
        self.fixture, self.game = fixture, fixture.game
        self.config = self.game.parse_config(config)
        self.n = self.game.n_players(self.config)
        self.now = T0
        out = self.game.new_match(self.config, "p0", "P0", seed=seed, now=T0)
        self.state, self.events = out.state, list(out.events)
        self.check_events(out.events, 0)
        for seat in range(1, self.n if seats is None else seats):
            assert self.send(self.game.join(f"p{seat}", f"P{seat}")) is not None

    # --- commands ---------------------------------------------------------------------------------------------

    def send(self, command: Any, now: float | None = None) -> list[dict[str, Any]] | None:
        """Apply `command`; its events, or None when refused. Checks purity, seq, the JSON round trip."""
        now = self.now + 1 if now is None else now
        before = self.dump(self.state)
        try:
            out = self.game.apply(self.state, command, now=now)
        except GameError as error:
            assert error.code, error
            assert self.dump(self.state) == before, "a refused command changed the state"
            return None
        assert self.dump(self.state) == before, "apply changed its input"
        self.check_events(out.events, self.seq)
        if not out.events:
            assert self.dump(out.state) == before, "a command without events changed the state"
        self.state, self.now = out.state, max(self.now, now)
        self.events += out.events
        restored = self.game.state_from_json(json.loads(json.dumps(self.game.state_to_json(self.state))))
        assert self.dump(restored) == self.dump(self.state), "the state does not survive JSON"
        return list(out.events)

    def act(self, seat: int, body: dict[str, Any]) -> list[dict[str, Any]] | None:
        try:
            command = command_for(self.fixture, seat, body)
        except GameError:
            return None
        return self.send(command)

    def fire(self) -> bool:
        """The timer fires at its due time (False: no timer)."""
        timer = self.game.summary(self.state)["timer"]
        if timer is None:
            return False
        self.send(self.game.timeout(timer["token"]), max(self.now, timer["due"]))
        return True

    # --- reading ----------------------------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return self.events[-1]["seq"] if self.events else 0

    @property
    def running(self) -> bool:
        return self.game.summary(self.state)["status"] == "in_progress"

    def dump(self, state: Any) -> str:
        return json.dumps(self.game.state_to_json(state), sort_keys=True, ensure_ascii=False)

    def allowed(self, seat: int) -> list[dict[str, Any]]:
        return self.game.allowed_actions(self.state, seat)

    def check_events(self, events: list[dict[str, Any]], after: int) -> None:
        assert [e["seq"] for e in events] == list(range(after + 1, after + 1 + len(events))), "seq not contiguous"
        for event in events:
            assert list(event)[:3] == ["seq", "type", "visibility"] and list(event)[-1] == "ts", event
            json.dumps(event)

    # --- a random player --------------------------------------------------------------------------------------

    def try_offer(self, seat: int, entry: dict[str, Any], rng: random.Random) -> list[dict[str, Any]] | None:
        """Send bodies built from `entry` until one is accepted (its events), or none is (None)."""
        if entry["type"] == "concede":
            return self.act(seat, {"type": "concede"})
        for body in bodies(self.fixture, entry, rng):
            events = self.act(seat, body)
            if events is not None:
                return events
        return None

    def step(self, rng: random.Random, concede: float = 0.01, clock: float = 0.02) -> int | None:
        """One random move: an offered action of a random seat that changes something (rarely a concession),
        else the clock. The seat that acted, or None."""
        offers = [(seat, entry) for seat in range(self.n) for entry in self.allowed(seat)
                  if entry["type"] != "concede" or rng.random() < concede]
        rng.shuffle(offers)
        if rng.random() >= clock:
            for seat, entry in offers[:8]:
                if self.try_offer(seat, entry, rng):
                    return seat
        self.fire()
        return None
