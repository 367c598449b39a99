"""One hypothesis state machine for every game, driven by `allowed_actions` alone.

For a random seat: every action its `allowed_actions` lists is accepted with some body built from the entry's
options, and every action it does not list is refused with a `GameError` (whatever the body); the clock fires
with good, stale and early tokens. After every command (`play.Table.send`): `seq` continues the log without a gap,
`apply` never changes its input, a refused command changes nothing, a command without events changes nothing, and
the state survives a JSON round trip.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from app.games.base import GameError
from tests.contract.fixture import FIXTURES, Fixture
from tests.contract.play import Table, bodies, command_for

UNLISTED_PROBES = 6


def unlisted_probe(table: Table, seat: int, action: str, rng: random.Random) -> None:
    """`action` is not in the seat's `allowed_actions`: no body built from what any seat is offered is accepted."""
    pooled: dict[str, Any] = {"type": action, "targets": list(range(-1, table.n + 1))}
    for other in range(table.n):
        for entry in table.allowed(other):
            for key, value in entry.items():
                if isinstance(value, list):
                    pooled.setdefault(key, [])
                    pooled[key] = list(dict.fromkeys([*pooled[key], *value]))
                elif key not in ("type", "deadline_ts"):
                    pooled.setdefault(key, value)
    for body in list(bodies(table.fixture, pooled, rng))[:UNLISTED_PROBES]:
        try:
            command = command_for(table.fixture, seat, body)
        except GameError:  # a body the parser refuses is refused
            continue
        assert table.send(command) is None, (seat, body, table.allowed(seat))


def machine(fixture: Fixture) -> type[RuleBasedStateMachine]:
    class Machine(RuleBasedStateMachine):
        table: Table

        @initialize(config=st.sampled_from(fixture.configs), seed=st.integers(0, 2**32), full=st.integers(0, 9),
                    data=st.data())
        def setup(self, config: dict[str, Any], seed: int, full: int, data: st.DataObject) -> None:
            probe = fixture.game.parse_config(config)
            n = fixture.game.n_players(probe)
            seats = n if full else data.draw(st.integers(1, n))
            self.table = Table(fixture, config, seed, seats=seats)
            self.rng = random.Random(seed)

        @rule(seat=st.integers(0, 11), pick=st.integers(0, 99))
        def listed_is_accepted(self, seat: int, pick: int) -> None:
            seat %= self.table.n
            offers = [e for e in self.table.allowed(seat) if e["type"] != "concede" or pick < 3]
            if not offers:
                return
            entry = offers[pick % len(offers)]
            assert self.table.try_offer(seat, entry, self.rng) is not None, (seat, entry)

        @rule(seat=st.integers(0, 11), pick=st.integers(0, 99))
        def unlisted_is_refused(self, seat: int, pick: int) -> None:
            seat %= self.table.n
            listed = {e["type"] for e in self.table.allowed(seat)}
            listed |= {alias for alias, target in fixture.aliases.items() if target in listed}
            unlisted = sorted(set(fixture.game.actions) - listed)
            if unlisted:
                unlisted_probe(self.table, seat, unlisted[pick % len(unlisted)], self.rng)

        @rule(moves=st.integers(1, 20))
        def play(self, moves: int) -> None:
            for _ in range(moves):
                if not self.table.running:
                    return
                self.table.step(self.rng)

        @rule(shift=st.sampled_from([0, 0, -1, 1]), early=st.booleans())
        def clock(self, shift: int, early: bool) -> None:
            timer = self.table.game.summary(self.table.state)["timer"]
            token = (timer["token"] if timer else 0) + shift
            due = timer["due"] if timer else self.table.now
            self.table.send(self.table.game.timeout(token), max(self.table.now, due - 1 if early else due))

    Machine.__name__ = f"{fixture.name.title()}Machine"
    Machine.TestCase.settings = settings(max_examples=25, stateful_step_count=30, deadline=None, database=None,
                                         suppress_health_check=[HealthCheck.too_slow])
    return Machine


for _name, _fixture in FIXTURES.items():
    globals()[f"Test{_name.title()}Machine"] = pytest.mark.slow(machine(_fixture).TestCase)
