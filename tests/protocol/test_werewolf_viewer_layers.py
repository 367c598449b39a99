"""The four viewer layers over random werewolf games, as `test_viewer_layers` checks them for undercover.

Sixty random tables (6–12 seats, every config option, a custom composition now and then) are played by agents that
send a random offered action, a random refused one, a concession now and then, or let the clock run out (so
split packs, PKs and silent nights happen). After every accepted step: the anonymous view shows no living seat's
card and only public events; the spectator sees every card and every event; each seat the step concerned (all
of them at a phase change) sees exactly the public events plus those for its seat and its role, in its snapshot
and in its incrementally read event pages, and no event or row tells it a living seat's card it may not know (its
own; the pack, for a wolf; the camps she checked, for the seer); player_owner equals player_agent but for
`viewer_role` and `can_act`; after the end every viewer sees every card and every event.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

from app.games.base import GameError
from app.games.werewolf.game import WerewolfGame
from app.games.werewolf.state import MatchState
from app.protocol.projection import MatchView, events_page, snapshot
from app.protocol.viewer import Viewer
from tests.games.werewolf.test_properties import CARD_KEYS, claims, knows
from tests.protocol.test_viewer_layers import Progress, _strip, concerned

GAME = WerewolfGame()
T0 = 1_700_000_000.0


def _view(state: MatchState, events: list[dict[str, Any]]) -> MatchView:
    return MatchView(match_id="m", game="werewolf", status=state.status, phase=state.phase, config={},
                     created_at="t", invite_url="u", seats_open=0, events_total=len(events),
                     official_seats=frozenset())


def _own_events(state: MatchState, seat: int, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    mine = {"public", f"private:seat:{seat}", *(f"private:role:{r}" for r in GAME.role_set(state, seat))}
    return [e for e in events if e["visibility"] in mine]


def _no_secret_cards(state: MatchState, viewer: int | None, players: list[dict[str, Any]],
                     seen: list[dict[str, Any]]) -> None:
    """No row of a living seat (but the viewer's own) shows a card; no event tells a card the viewer may not know
    (`viewer` None: the anonymous viewer, who may know only the dead's shown cards)."""
    for row in players:
        if state.players[row["seat"]].alive:
            assert not set(CARD_KEYS) & row.keys(), row
    for event in seen:
        for subject, kind in claims(event):
            assert subject >= 0, event
            allowed = not state.players[subject].alive or (viewer is not None and knows(state, viewer, subject, kind))
            assert allowed, (viewer, event)


def check_step(state: MatchState, events: list[dict[str, Any]], seats: Collection[int], progress: Progress) -> None:
    view = _view(state, events)
    over = state.status in ("finished", "aborted")
    anonymous = snapshot(GAME, view, state, Viewer("anonymous"), events)
    spectator = snapshot(GAME, view, state, Viewer("spectator"), events)
    assert spectator["roles"] == {str(p.seat): p.role for p in state.players}
    assert [row["role"] for row in spectator["players"]] == [p.role for p in state.players]
    assert len(spectator["public_log"]) + len(spectator["spectator_log"]) == len(events)
    if over:
        assert anonymous["roles"] == spectator["roles"]
    else:
        assert anonymous["public_log"] == [e for e in events if e["visibility"] == "public"]
        assert "roles" not in anonymous and "night_actions" not in anonymous
        _no_secret_cards(state, None, anonymous["players"], anonymous["public_log"])
    for seat in seats:
        agent = snapshot(GAME, view, state, Viewer("player_agent", seat), events)
        owner = snapshot(GAME, view, state, Viewer("player_owner", seat), events)
        assert agent["viewer_capabilities"]["can_act"] is (not over)
        assert owner["viewer_capabilities"]["can_act"] is False
        assert _strip(agent) == _strip(owner)
        assert agent["you"]["role"] == state.players[seat].role
        seen = agent["public_log"] + agent["you"]["private_log"]
        expected = events if over else _own_events(state, seat, events)
        assert sorted(e["seq"] for e in seen) == [e["seq"] for e in expected]
        if not over:
            progress.check(view, state, seat, events, expected)
            assert "roles" not in agent and "night_actions" not in agent
            _no_secret_cards(state, seat, agent["players"], seen)
    if over:
        anyone = events_page(GAME, view, state, Viewer("anonymous"), 0, events, limit=10_000)
        assert len(anyone["events"]) == len(events)
        for seat in seats:
            whole = events_page(GAME, view, state, Viewer("player_owner", seat), 0, events, limit=10_000)
            assert [e["seq"] for e in whole["events"]] == [e["seq"] for e in events]


def random_config(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(6, 12)
    config: dict[str, Any] = {
        "n_players": n, "win_rule": rng.choice(["side", "all"]),
        "reveal_role_on_death": rng.choice(["none", "team", "role"]),
        "first_night_last_words": rng.random() < 0.5, "allow_whisper": rng.random() < 0.7,
        "tie_break": rng.choice(["random", "revote", "noop_then_random"]),
    }
    if rng.random() < 0.3:
        gods = rng.sample(["seer", "witch", "hunter", "guard"], rng.randint(1, 4))
        wolves = rng.randint(1, (n - 1) // 2)
        if n - wolves - len(gods) >= 1:
            config["roles"] = {"werewolf": wolves, "villager": n - wolves - len(gods), **dict.fromkeys(gods, 1)}
    return config


def _offered(option: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A body for an `allowed_actions` entry: its type, its night action, one of its targets, a text."""
    body: dict[str, Any] = {"type": option["type"]}
    if "action" in option:
        body["action"] = option["action"]
    if option.get("targets"):
        body["target_seat"] = rng.choice(option["targets"])
    elif option["type"] == "shoot":
        body["target_seat"] = None
    if option["type"] in ("speak", "last_words", "whisper"):
        body["text"] = rng.choice(["我是好人", "我是预言家，查杀3号", "今晚刀谁"])
    return body


def _refused(state: MatchState, rng: random.Random) -> dict[str, Any]:
    """Any action with any seat: most of these are refused."""
    action = rng.choice(["kill", "check", "guard", "save", "poison", "pass"])
    target = rng.randrange(len(state.players))
    return rng.choice([{"type": "night_action", "action": action, "target_seat": target},
                       {"type": "vote", "target_seat": target}, {"type": "shoot", "target_seat": target},
                       {"type": "whisper", "target_seat": target, "text": "嘘"}, {"type": "speak", "text": "我"}])


def _command(state: MatchState, rng: random.Random) -> tuple[int | None, Any]:
    """A random mover and command: offered (mostly), refused, a concession, or the timer."""
    n = len(state.players)
    offers = {s: [o for o in GAME.allowed_actions(state, s) if o["type"] != "concede"] for s in range(n)}
    acting = [s for s, options in offers.items() if options]
    roll = rng.random()
    timer = GAME.summary(state)["timer"]
    if (not acting or roll < 0.04) and timer is not None:
        return None, GAME.timeout(timer["token"])
    seat = rng.choice(acting) if acting and roll < 0.92 else rng.randrange(n)
    if roll > 0.995:
        return seat, GAME.concede(seat)
    body = _offered(rng.choice(offers[seat]), rng) if offers[seat] and roll < 0.92 else _refused(state, rng)
    return seat, GAME.parse_action(body, seat)


def play(rng: random.Random) -> int:
    config = GAME.parse_config(random_config(rng))
    n, now = config.n_players, T0
    outcome = GAME.new_match(config, "p0", "P0", seed=rng.getrandbits(64), now=now)
    state, events = outcome.state, list(outcome.events)
    for seat in range(1, n):
        outcome = GAME.apply(state, GAME.join(f"p{seat}", f"P{seat}"), now=now)
        state, events = outcome.state, events + outcome.events
    steps, progress, actor = 0, Progress(GAME), None
    checked: tuple[str | None, int] = (None, 0)
    while state.status == "in_progress":
        if len(events) > checked[1]:
            phase_changed = state.phase != checked[0]
            seats = range(n) if phase_changed else concerned(state, events[checked[1]:], actor, steps)
            check_step(state, events, seats, progress)
            checked = (state.phase, len(events))
        now += 1
        mover, command = _command(state, rng)
        timer = GAME.summary(state)["timer"]
        at = max(now, timer["due"]) if mover is None and timer is not None else now
        try:
            outcome = GAME.apply(state, command, now=at)
        except GameError:
            continue
        now, state, events, actor = at, outcome.state, events + outcome.events, mover
        steps += 1
    check_step(state, events, range(n), progress)
    return steps


def test_werewolf_viewer_layers_over_60_random_games() -> None:
    rng = random.Random(20261201)
    total = sum(play(rng) for _ in range(60))
    assert total > 3000
