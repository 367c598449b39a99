"""The viewer layers of every game, over random tables played from `allowed_actions` (spec §2.4.0, §2.5.2).

After every accepted step: the anonymous viewer sees only the public events and no god field, `you` or spectator
log; the spectator (live god view) sees every event; each seat sees exactly the public events, its own seat's, its
role-set's (`private:role:R`, `private:<kind>:<target>`), the pairs it is in and the host's if it is seat 0 — in its
snapshot and in its incrementally read event pages; player_owner equals player_agent but for `viewer_role` and
`can_act`; after the end every viewer sees every event. Every seat is checked at a phase change and at the end; in
between, the seat that acted, the seats a new private event names, and one seat in rotation. A game's own secrecy
check (`Fixture.secrets`: no living seat's word or card, no other character's private text) runs on the anonymous
snapshot and on every seat's while the match runs.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from app.games.base import GameError
from app.protocol.projection import MatchView, events_page, snapshot
from app.protocol.registry import hidden_events
from app.protocol.viewer import Viewer
from tests.contract.fixture import FIXTURES, Fixture
from tests.contract.play import Table


def _view(table: Table) -> MatchView:
    summary = table.game.summary(table.state)
    return MatchView(match_id="m", game=table.fixture.name, status=summary["status"], phase=summary["phase"],
                     config=table.game.config_to_json(table.config), created_at="t", invite_url="u", seats_open=0,
                     events_total=len(table.events), official_seats=frozenset())


def sees(table: Table, seat: int, visibility: str) -> bool:
    """What a seat may see, spelled out from the spec rather than read from the projection."""
    roles = table.game.role_set(table.state, seat)
    if visibility in ("public", f"private:seat:{seat}") or (visibility == "private:host" and seat == 0):
        return True
    if visibility.startswith("private:pair:"):
        return str(seat) in visibility.split(":")[2:]
    if visibility.startswith("private:role:"):
        return visibility.removeprefix("private:role:") in roles
    return visibility.startswith("private:") and visibility.removeprefix("private:") in roles


def _strip(body: dict[str, Any]) -> dict[str, Any]:
    rest = {k: v for k, v in body.items() if k not in ("viewer_role", "viewer_capabilities")}
    rest["viewer_capabilities"] = {k: v for k, v in body["viewer_capabilities"].items() if k != "can_act"}
    return rest


class Checker:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.read: dict[int, list[int]] = {}

    def check(self, seats: set[int] | range) -> None:
        table, game, events = self.table, self.table.game, self.table.events
        view = _view(table)
        over = view.status in ("finished", "aborted")
        # What any viewer may be shown: the log less the types the room keeps out of every view (decisions D1).
        shown = [e for e in events if e["type"] not in hidden_events(game, view.config)]
        anonymous = snapshot(game, view, table.state, Viewer("anonymous"), events)
        spectator = snapshot(game, view, table.state, Viewer("spectator"), events)
        assert len(spectator["public_log"]) + len(spectator["spectator_log"]) == len(shown)
        assert "you" not in anonymous
        if over:
            page = events_page(game, view, table.state, Viewer("anonymous"), 0, events, limit=100_000)
            assert [e["seq"] for e in page["events"]] == [e["seq"] for e in shown]
            assert anonymous["players"] == spectator["players"]
        else:
            assert anonymous["public_log"] == [e for e in shown if e["visibility"] == "public"]
            assert "spectator_log" not in anonymous or not anonymous["spectator_log"]
            assert not any(anonymous["viewer_capabilities"][f"can_see_{k}"] for k in game.secret_fields)
            assert [{k: v for k, v in row.items() if not k.startswith("is_")} for row in anonymous["players"]] \
                == game.players_view(table.state, god=False)
            if table.fixture.secrets is not None:
                table.fixture.secrets(table.state, None, anonymous)
        for seat in seats:
            agent = snapshot(game, view, table.state, Viewer("player_agent", seat), events)
            owner = snapshot(game, view, table.state, Viewer("player_owner", seat), events)
            assert agent["viewer_capabilities"]["can_act"] is (not over)
            assert owner["viewer_capabilities"]["can_act"] is False
            assert _strip(agent) == _strip(owner)
            assert agent["you"]["seat"] == seat and agent["you"]["allowed_actions"] == table.allowed(seat)
            expected = [e["seq"] for e in shown if over or sees(table, seat, e["visibility"])]
            seen = agent["public_log"] + agent["you"]["private_log"]
            assert sorted(e["seq"] for e in seen) == expected
            if over:  # §2.4.2: `none` once the match has ended, in every game
                assert agent["you"]["next_action"] == "none", (seat, agent["you"]["next_action"])
                whole = events_page(game, view, table.state, Viewer("player_owner", seat), 0, events, limit=100_000)
                assert [e["seq"] for e in whole["events"]] == expected
                continue
            if table.fixture.secrets is not None:
                table.fixture.secrets(table.state, seat, agent)
            read = self.read.setdefault(seat, [])
            since = read[-1] if read else 0
            page = events_page(game, view, table.state, Viewer("player_owner", seat), since, events, limit=100_000)
            read += [e["seq"] for e in page["events"]]
            assert read == expected, seat


def concerned(table: Table, new: list[dict[str, Any]], actor: int | None, rotation: int) -> set[int]:
    seats = {rotation % table.n} | ({actor} if actor is not None else set())
    for event in new:
        seats |= {s for s in range(table.n) if event["visibility"] != "public" and sees(table, s, event["visibility"])}
    return seats


def play_and_check(fixture: Fixture, config: dict[str, Any], seed: int, max_steps: int = 4000) -> int:
    rng = random.Random(seed)
    table = Table(fixture, config, seed)
    checker, phase, seen = Checker(table), None, len(table.events)
    checker.check(range(table.n))
    for step in range(max_steps):
        if not table.running:
            break
        actor = table.step(rng)
        if len(table.events) == seen:
            continue
        now_phase = table.game.summary(table.state)["phase"]
        seats = range(table.n) if now_phase != phase else concerned(table, table.events[seen:], actor, step)
        checker.check(seats)
        phase, seen = now_phase, len(table.events)
    assert not table.running, "the game did not end"
    checker.check(range(table.n))
    return len(table.events)


CASES = [(name, n) for name, f in sorted(FIXTURES.items()) for n in range(f.play_tables)]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "n"), CASES)
def test_viewer_layers(game: str, n: int) -> None:
    fixture = FIXTURES[game]
    config = fixture.configs[n % len(fixture.configs)]
    assert play_and_check(fixture, config, seed=20261202 + n) > 5


@pytest.mark.parametrize("game", sorted(FIXTURES))
def test_a_waiting_room_tells_its_host_to_wait(game: str) -> None:
    """Before the start no game says the match is over (`none` is §2.4.2's value for an ended match)."""
    fixture = FIXTURES[game]
    table = Table(fixture, fixture.configs[0], seed=7, seats=1)
    you = table.game.you_view(table.state, 0)
    assert you["next_action"] != "none" and not you["your_turn"], you


@pytest.mark.parametrize("game", sorted(FIXTURES))
def test_concede_is_an_action_of_every_game(game: str) -> None:
    """§2.3.1 names `concede` among `/action`'s types and §6.1 refuses it outside a running match with
    `match_not_in_progress`: every game takes `{"type": "concede"}` there and offers it while a seat is in."""
    fixture = FIXTURES[game]
    waiting = Table(fixture, fixture.configs[0], seed=7, seats=1)
    with pytest.raises(GameError) as refused:
        waiting.game.apply(waiting.state, waiting.game.parse_action({"type": "concede"}, 0), now=waiting.now + 1)
    assert refused.value.code == "match_not_in_progress"
    table = Table(fixture, fixture.configs[0], seed=7)
    assert table.running and {"type": "concede"} in table.allowed(0)
    events = table.send(table.game.parse_action({"type": "concede"}, 0))
    assert events is not None and any(e["type"] == "player_conceded" and e["seat"] == 0 for e in events), events


@pytest.mark.parametrize("game", sorted(FIXTURES))
def test_a_seat_that_conceded_loses_whatever_its_side(game: str) -> None:
    """§2.8: a concession counts as a loss for the seat that conceded, also when its side goes on to win. Seat 0
    concedes at once and the rest play out, over deals where its side wins and where it loses."""
    fixture = FIXTURES[game]
    for seed in range(1, 9):
        table = Table(fixture, fixture.configs[0], seed=seed)
        table.send(table.game.parse_action({"type": "concede"}, 0))
        rng = random.Random(seed)
        for _ in range(4000):
            if not table.running:
                break
            table.step(rng)
        result = table.game.summary(table.state)["result"]
        conceded = {e["seat"] for e in table.events if e["type"] == "player_conceded"}
        assert not table.running and result is not None and 0 in conceded, result
        assert not conceded & set(result["winning_seats"]) and conceded <= set(result["losing_seats"]), result


@pytest.mark.parametrize("game", sorted(FIXTURES))
def test_every_snapshot_has_what_openapi_requires(game: str) -> None:
    """A proxy generates its client from openapi.json: every field the `Snapshot` schema requires is in every game's
    snapshot, for every viewer, running and over (剧本杀 has no round or floor)."""
    schema = json.loads((Path(__file__).resolve().parents[2] / "openapi.json").read_text(encoding="utf-8"))
    required = set(schema["components"]["schemas"]["Snapshot"]["required"])
    fixture = FIXTURES[game]
    table, rng = Table(fixture, fixture.configs[0], seed=3), random.Random(3)
    for _ in range(4000):
        for viewer in (Viewer("anonymous"), Viewer("spectator"), Viewer("player_agent", seat=0)):
            body = snapshot(table.game, _view(table), table.state, viewer, table.events)
            assert required <= set(body), (viewer, required - set(body))
        if not table.running:
            break
        for _ in range(25):
            table.step(rng)
