"""Property tests: random configs, random legal and illegal commands, random timeouts.

Invariants checked after every command: seq is contiguous and events are flat; a refused command leaves the
state untouched and `apply` never changes its input; the living never grow; at most one dawn and one vote
resolution per round; the timer runs exactly while the match does; the state survives a JSON round trip; and
no seat ever sees a living seat's role unless the rules allow it (its own; a wolf sees the pack; the seer sees
the camps she checked) — in `players_view(god=False)`, in its `you_view`, and in every event it may see
through `can_see` with the game's `role_set`.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from app.games.base import GameError
from app.games.kit.voting import targets_for, voters
from app.games.werewolf.night import due_seats
from app.games.werewolf.view import ACTING, god_fields
from app.protocol.viewer import can_see
from tests.games.werewolf.rules import (
    Abort,
    Command,
    Concede,
    Join,
    LastWords,
    MatchState,
    NightAction,
    Shoot,
    Skip,
    Speak,
    Timeout,
    Vote,
    Whisper,
    apply,
    new_match,
    parse_config,
    players_view,
    public_fields,
    role_set,
    state_from_json,
    state_to_json,
    you_view,
)

from .helpers import T0

TEXTS = st.sampled_from(["我是好人", "", "   ", "长" * 501, "查杀3号", "a\x00b"])
VISIBILITIES = {"public", "private:role:werewolf", "god_only"}
CARD_KEYS = ("role", "camp", "revealed_role", "revealed_camp")
NIGHT_NAMES = ("kill", "check", "guard", "save", "poison", "pass")


@st.composite
def configs(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(6, 12))
    config: dict[str, Any] = {
        "n_players": n,
        "win_rule": draw(st.sampled_from(["side", "all"])),
        "reveal_role_on_death": draw(st.sampled_from(["none", "team", "role"])),
        "first_night_last_words": draw(st.booleans()),
        "tie_break": draw(st.sampled_from(["random", "revote", "noop_then_random"])),
        "allow_whisper": draw(st.booleans()),
        "night_timeout": draw(st.integers(1, 90)),
        "speak_timeout": draw(st.integers(1, 90)),
        "vote_timeout": draw(st.integers(1, 90)),
        "max_rounds": draw(st.integers(1, 2 * n)),
    }
    if draw(st.booleans()):
        wolves = draw(st.integers(1, (n - 1) // 2))
        gods = draw(st.lists(st.sampled_from(["seer", "witch", "hunter", "guard"]), min_size=1, max_size=4,
                             unique=True))
        villagers = n - wolves - len(gods)
        if villagers >= 1:
            config["roles"] = {"werewolf": wolves, "villager": villagers, **dict.fromkeys(gods, 1)}
    return config


def knows(state: MatchState, viewer: int, subject: int, kind: str) -> bool:
    """May `viewer` learn `subject`'s card (`kind`: role or camp) now?"""
    if subject == viewer or not state.players[subject].alive:
        return True
    me, them = state.players[viewer], state.players[subject]
    if me.role == "werewolf" and them.role == "werewolf":
        return True
    return kind == "camp" and me.role == "seer" and any(c.seat == subject for c in state.seer_checks)


def claims(event: dict[str, Any]) -> list[tuple[int, str]]:
    """The (seat, kind) cards an event tells its reader; seat -1 means every seat."""
    if event["type"] == "match_finished":
        return []
    if "assignment" in event or "roles" in event:
        return [(-1, "role")]
    if "wolf_seats" in event:
        return [(seat, "role") for seat in event["wolf_seats"]]
    if event["type"] == "seer_result":
        return [(event["target_seat"], "camp")]
    if any(key in event for key in CARD_KEYS):
        subject = event["seat"] if "seat" in event else event["eliminated_seat"]
        return [(subject, "role")]
    return []


class Checked:
    """The rules plus every invariant, applied one command at a time."""

    def __init__(self, config: dict[str, Any], seed: int) -> None:
        outcome = new_match(parse_config(config), "p0", "P0", seed, T0)
        self.state, self.events, self.now = outcome.state, list(outcome.events), T0
        self.check_events(outcome.events, self.state)

    def send(self, command: Command, now: float | None = None) -> bool:
        """Apply `command`; True if accepted. Checks every invariant either way."""
        now = self.now if now is None else now
        before = state_to_json(self.state)
        try:
            outcome = apply(self.state, command, now=now)
        except GameError:
            assert state_to_json(self.state) == before
            return False
        assert state_to_json(self.state) == before, "apply mutated its input"
        self.check_step(self.state, outcome.state, outcome.events)
        self.state, self.now = outcome.state, max(self.now, now)
        self.events.extend(outcome.events)
        return True

    def check_step(self, old: MatchState, new: MatchState, events: list[dict[str, Any]]) -> None:
        assert [e["seq"] for e in events] == list(range(old.seq + 1, old.seq + 1 + len(events)))
        assert new.seq == old.seq + len(events)
        if old.status != "waiting":
            assert set(new.living_seats()) <= set(old.living_seats())
        log = self.events + events
        for type_ in ("round_resolved", "night_resolved"):
            assert all(n == 1 for n in Counter(e["round"] for e in log if e["type"] == type_).values())
        assert (new.timer is None) == (new.status != "in_progress")
        assert new.round_index <= new.config.max_rounds
        if not events:
            assert new == old
        assert state_from_json(json.loads(json.dumps(state_to_json(new)))) == new
        self.check_events(events, new)
        self.check_views(new)

    def check_events(self, events: list[dict[str, Any]], state: MatchState) -> None:
        for event in events:
            vis = event["visibility"]
            assert vis in VISIBILITIES or vis.startswith("private:seat:"), vis
            assert list(event)[:3] == ["seq", "type", "visibility"] and list(event)[-1] == "ts"
            for seat in range(len(state.players)):
                if not can_see(vis, god=False, seat=seat, roles=role_set(state, seat)):
                    continue
                for subject, kind in claims(event):
                    assert subject >= 0 and knows(state, seat, subject, kind), (seat, event)

    def check_views(self, state: MatchState) -> None:
        assert not any(key in public_fields(state) for key in ("roles", "night_actions"))
        for row in players_view(state, god=False):
            assert not any(key in row for key in ("role", "camp", "death_cause"))
            if row["alive"]:
                assert set(row) == {"seat", "name", "display_name", "alive"}
        for player in state.players:
            you = you_view(state, player.seat)
            assert you["role"] == player.role and you["your_turn"] == (you["next_action"] in ACTING)
            assert ("fellow_wolves" in you) == (player.role == "werewolf")
            assert ("seer_checks" in you) == (player.role == "seer")
            if you["your_turn"]:
                assert any(a["type"] != "concede" for a in you["allowed_actions"]), you
        if state.status == "finished":
            assert god_fields(state)["roles"] == {str(p.seat): p.role for p in state.players}


def plausible(state: MatchState, data: st.DataObject) -> Command:
    """A command that is probably legal now (but may not be)."""
    draw = data.draw
    if state.status == "waiting":
        return Join(name=f"p{len(state.players)}", display_name="P")
    living = state.living_seats() or [0]
    if state.stage == "night":
        seat = draw(st.sampled_from(due_seats(state) or living))
        return NightAction(seat=seat, action=draw(st.sampled_from(NIGHT_NAMES)),
                           target_seat=draw(st.sampled_from([*living[:4], None])))
    if state.stage in ("hunter", "last_words") and state.pending:
        seat = state.pending[0].seat
        if state.stage == "hunter":
            return Shoot(seat=seat, target_seat=draw(st.sampled_from([*living, None])))
        farewells: list[Command] = [LastWords(seat=seat, text=draw(TEXTS)), Skip(seat=seat),
                                    Speak(seat=seat, text="遗言")]
        return draw(st.sampled_from(farewells))
    if state.stage == "speak" and state.current_speaker_seat is not None:
        seat = state.current_speaker_seat
        turns: list[Command] = [Speak(seat=seat, text=draw(TEXTS)), Skip(seat=seat)]
        return draw(st.sampled_from(turns))
    if state.stage == "vote":
        waiting = [s for s in voters(state) if s not in state.votes]
        if waiting:
            seat = draw(st.sampled_from(waiting))
            targets = targets_for(state, seat) or [seat]
            few = [t for t in targets if t in living[:3]] or targets
            return Vote(seat=seat, target_seat=draw(st.sampled_from(few)))
    return Concede(seat=draw(st.sampled_from(living)))


def anything(state: MatchState, data: st.DataObject) -> Command:
    """Any command at all, with seats and targets that may not exist."""
    n = len(state.players)
    seat, target = data.draw(st.integers(-1, n)), data.draw(st.integers(-1, n))
    text = data.draw(TEXTS)
    choices: list[Command] = [
        NightAction(seat=seat, action=data.draw(st.sampled_from(NIGHT_NAMES)), target_seat=target),
        Speak(seat=seat, text=text), Skip(seat=seat), Vote(seat=seat, target_seat=target),
        Whisper(seat=seat, target_seat=target, text=text), LastWords(seat=seat, text=text),
        Shoot(seat=seat, target_seat=target), Concede(seat=seat), Join(name=f"x{seat}", display_name="X"),
        Join(name="p0", display_name="dup"), Abort(reason="host_cancelled"),
    ]
    return data.draw(st.sampled_from(choices))


class MatchMachine(RuleBasedStateMachine):
    """Random play against the invariants."""

    @initialize(data=st.data(), config=configs(), seed=st.integers(0, 2**64 - 1))
    def setup(self, data: st.DataObject, config: dict[str, Any], seed: int) -> None:
        self.table = Checked(config, seed)
        fill = data.draw(st.integers(0, 9)) > 0
        joins = config["n_players"] - 1 if fill else data.draw(st.integers(0, config["n_players"] - 1))
        for seat in range(1, joins + 1):
            assert self.table.send(Join(name=f"p{seat}", display_name=f"P{seat}"))

    @rule(data=st.data(), moves=st.integers(1, 12))
    def play(self, data: st.DataObject, moves: int) -> None:
        for _ in range(moves):
            self.table.send(plausible(self.table.state, data), self.table.now + 1)

    @rule(data=st.data())
    def misplay(self, data: st.DataObject) -> None:
        self.table.send(anything(self.table.state, data), self.table.now + 1)

    @rule(data=st.data())
    def timeout(self, data: st.DataObject) -> None:
        timer = self.table.state.timer
        token = timer.token if timer else 0
        token = data.draw(st.sampled_from([token, token, token - 1, token + 1]))
        due = timer.due if timer else self.table.now
        now = data.draw(st.sampled_from([due, due + 5, due - 1]))
        self.table.send(Timeout(token=token), max(now, self.table.now))

    @rule(data=st.data())
    def whisper(self, data: st.DataObject) -> None:
        living = self.table.state.living_seats() or [0]
        seat, target = data.draw(st.sampled_from(living)), data.draw(st.sampled_from(living))
        self.table.send(Whisper(seat=seat, target_seat=target, text="今晚刀谁"), self.table.now + 1)


MatchMachine.TestCase.settings = settings(
    max_examples=120, stateful_step_count=40, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestMatchMachine = pytest.mark.slow(MatchMachine.TestCase)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(), seed=st.integers(0, 2**64 - 1), data=st.data())
def test_every_game_ends_within_max_rounds(config: dict[str, Any], seed: int, data: st.DataObject) -> None:
    table = Checked(config, seed)
    for seat in range(1, config["n_players"]):
        table.send(Join(name=f"p{seat}", display_name=f"P{seat}"))
    budget = config["max_rounds"] * (12 * config["n_players"] + 40)
    for _ in range(budget):
        if table.state.status != "in_progress":
            break
        timer = table.state.timer
        assert timer is not None
        if data.draw(st.integers(0, 3)) == 0:
            table.send(Timeout(token=timer.token), max(timer.due, table.now))
        else:
            table.send(plausible(table.state, data), table.now + 1)
    assert table.state.status == "finished"
    assert table.events[-1]["type"] == "match_finished"
