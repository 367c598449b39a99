"""The four viewer layers over 200 random complete games (issue: owners and spectators).

The player_owner view equals the player_agent view except `viewer_role` and `viewer_capabilities.can_act`;
the anonymous view holds no living player's role or word and no pair; the spectator view holds all of them;
each seat sees exactly the public events plus its own private ones, in its snapshot and in its event pages;
after the end every viewer sees every event.

Anonymous and spectator are checked at every step. Every seat, in both player layers, is checked at every
phase change and at the end; between those, the seats the step concerned (the one that acted, each seat a new
private event is for) and one seat in rotation — a step leaves the other seats' private views as they were.
Each seat's event pages are read incrementally (`since` = where its last check stopped) and must add up to
exactly what it may see; at the end every seat reads the whole log from 0 as well. The anonymous public log
must be exactly the public events, each searched for a secret word once, when it is new.
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection
from typing import Any

from app.games.base import GameError
from app.games.undercover import rules
from app.games.undercover.game import UndercoverGame
from app.protocol.projection import MatchView, events_page, snapshot
from app.protocol.registry import AnyGame
from app.protocol.viewer import Viewer

GAME = UndercoverGame()
PAIRS = [("咖啡", "奶茶"), ("饺子", "包子"), ("眼镜", "墨镜"), ("医生", "护士")]


def _view(state: Any, events: list[dict[str, Any]]) -> MatchView:
    return MatchView(match_id="m", game="undercover", status=state.status, phase=state.phase, config={},
                     created_at="t", invite_url="u", seats_open=0, events_total=len(events),
                     official_seats=frozenset())


def _own_events(state: Any, seat: int, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    role = state.players[seat].role
    mine = {"public", f"private:seat:{seat}", f"private:role:{role}"} | ({"private:host"} if seat == 0 else set())
    return [e for e in events if e["visibility"] in mine]


def _strip(body: dict[str, Any]) -> dict[str, Any]:
    """The view without `viewer_role` and `viewer_capabilities.can_act` (shallow: the rest is compared as is)."""
    rest = {k: v for k, v in body.items() if k not in ("viewer_role", "viewer_capabilities")}
    rest["viewer_capabilities"] = {k: v for k, v in body["viewer_capabilities"].items() if k != "can_act"}
    return rest


class Progress:
    """What the checks of one game have covered so far: each seat's event pages (read through `game`), and the
    public events already shown to carry no secret word."""

    def __init__(self, game: AnyGame = GAME) -> None:
        self.game = game
        self.read: dict[int, list[int]] = {}
        self.public_clean = 0

    def check(self, view: MatchView, state: Any, seat: int, events: list[dict[str, Any]],
              expected: list[dict[str, Any]]) -> None:
        read = self.read.setdefault(seat, [])
        since = read[-1] if read else 0
        page = events_page(self.game, view, state, Viewer("player_owner", seat), since, events, limit=10_000)
        assert page["since"] == since and page["next_since"] == (page["events"][-1]["seq"] if page["events"] else since)
        read += [e["seq"] for e in page["events"]]
        assert read == [e["seq"] for e in expected]


def check_step(state: Any, events: list[dict[str, Any]], seats: Collection[int], progress: Progress) -> None:
    view = _view(state, events)
    over = state.status in ("finished", "aborted")
    words = {w for w in (state.wordpair.civilian, state.wordpair.undercover)} if state.wordpair else set()
    anonymous = snapshot(GAME, view, state, Viewer("anonymous"), events)
    spectator = snapshot(GAME, view, state, Viewer("spectator"), events)
    public = [e for e in events if e["visibility"] == "public"]
    assert anonymous["public_log"] == public
    if not over:  # the log part is append-only: each public event is searched for a word once, when new
        rest = {k: v for k, v in anonymous.items() if k != "public_log"}
        text = json.dumps([rest, public[progress.public_clean:]], ensure_ascii=False)
        progress.public_clean = len(public)
        assert "wordpair" not in anonymous and not any(w in text for w in words)
        assert all("role" not in p and "word" not in p for p in anonymous["players"])
    assert spectator["wordpair"] == (state.wordpair.model_dump() if state.wordpair else None)
    assert [(p["role"], p["word"]) for p in spectator["players"]] == [(p.role, p.word) for p in state.players]
    assert len(spectator["public_log"]) + len(spectator["spectator_log"]) == len(events)
    for seat in seats:
        agent = snapshot(GAME, view, state, Viewer("player_agent", seat), events)
        owner = snapshot(GAME, view, state, Viewer("player_owner", seat), events)
        assert agent["viewer_capabilities"]["can_act"] is (not over)
        assert owner["viewer_capabilities"]["can_act"] is False
        assert _strip(agent) == _strip(owner)
        seen = agent["public_log"] + agent["you"]["private_log"]
        expected = events if over else _own_events(state, seat, events)
        assert sorted(e["seq"] for e in seen) == [e["seq"] for e in expected]
        if not over:  # after the end a seat may see what it could not before: it reads again from 0, below
            progress.check(view, state, seat, events, expected)
        assert all("role" not in p and "word" not in p for p in agent["players"]) or over
        assert "wordpair" not in agent or over
    if over:
        anyone = events_page(GAME, view, state, Viewer("anonymous"), 0, events, limit=10_000)
        assert len(anyone["events"]) == len(events)
        for seat in seats:
            whole = events_page(GAME, view, state, Viewer("player_owner", seat), 0, events, limit=10_000)
            assert [e["seq"] for e in whole["events"]] == [e["seq"] for e in events]


def concerned(state: Any, new: list[dict[str, Any]], actor: int | None, rotation: int) -> set[int]:
    """The seats whose private view a step changed: the actor, each seat (or role) a new private event is
    for, and seat 0 for `private:host`; plus the seat `rotation` picks."""
    seats = {rotation % len(state.players)} | ({actor} if actor is not None else set())
    for event in new:
        kind, _, target = event["visibility"].removeprefix("private:").partition(":")
        if kind == "seat":
            seats.add(int(target))
        elif kind == "role":
            seats |= {p.seat for p in state.players if p.role == target}
        elif kind == "host":
            seats.add(0)
    return seats


def _moves(state: Any, seat: int, rng: random.Random) -> list[dict[str, Any]]:
    you = GAME.you_view(state, seat)
    alive = [p.seat for p in state.players if p.alive and p.seat != seat]
    action = you["next_action"]
    moves: list[dict[str, Any]] = []
    if action == "speak":
        moves = [{"type": "speak", "text": f"clue {rng.randint(0, 99)}"}, {"type": "skip"}]
    elif action == "vote":
        pool = [s for s in state.pk_candidates if s != seat] or alive
        moves = [{"type": "vote", "target_seat": rng.choice(pool)}]
    elif action == "last_words":
        moves = [{"type": "last_words", "text": "bye"}]
    elif action == "debate":
        moves = [{"type": "debate", "text": f"{rng.choice(alive or [seat])}号 clue {rng.randint(0, 99)}"},
                 {"type": "debate_pass"}]
    elif action == "guess_word":
        # A wrong guess is public text the player chose; guessing the other secret word would be the player's leak.
        moves = [{"type": "guess_word", "word": rng.choice([state.wordpair.civilian, "不知道"])}]
    if state.config.allow_whisper and you["alive"] and you["role"] == "undercover" and state.status == "in_progress":
        fellows = [p.seat for p in state.players if p.alive and p.role == "undercover" and p.seat != seat]
        if fellows:
            moves.append({"type": "whisper", "target_seat": rng.choice(fellows), "text": "psst"})
    return moves


def play(rng: random.Random) -> int:
    n = rng.randint(4, 12)
    n_blank = rng.choice([0, 0, 1]) if n >= 6 else 0
    n_undercover = rng.randint(1, max(1, (n - 1) // 2 - n_blank))
    config = GAME.parse_config({"n_players": n, "n_undercover": n_undercover, "n_blank": n_blank,
                                "last_words": True, "blank_guess": True,
                                "allow_whisper": rng.random() < 0.5, "tie_break": rng.choice(
                                    ["random", "revote", "noop_then_random"]),
                                # the table extensions (issue 17) in a third of the games
                                **({"host": rng.choice(["plain", "chaos"]), "debate_rounds": rng.choice([0, 1, 2])}
                                   if rng.random() < 0.33 else {})})
    now = 1000.0
    outcome = GAME.new_match(config, "p0", "P0", seed=rng.getrandbits(64), now=now)
    state, events = outcome.state, list(outcome.events)
    for seat in range(1, n):
        outcome = rules.apply(state, GAME.join(f"p{seat}", f"P{seat}"), now=now, pairs=PAIRS)
        state, events = outcome.state, events + outcome.events
    steps, progress, actor = 0, Progress(), None
    checked: tuple[str | None, int] = (None, 0)  # the phase and log length of the last state checked
    while state.status == "in_progress":
        if len(events) > checked[1]:  # a refused command changes nothing: no state to check again
            phase_changed = state.phase != checked[0]
            seats = range(n) if phase_changed else concerned(state, events[checked[1]:], actor, steps)
            check_step(state, events, seats, progress)
            checked = (state.phase, len(events))
        now += 1
        options = [(seat, move) for seat in range(n) for move in _moves(state, seat, rng)]
        mover: int | None = None
        if not options or rng.random() < 0.03:
            due = state.timer.due if state.timer else now
            outcome = GAME.apply(state, GAME.timeout(state.timer.token if state.timer else 0), now=max(now, due))
        else:
            mover, move = rng.choice(options)
            try:
                outcome = GAME.apply(state, GAME.parse_action(move, mover), now=now)
            except GameError:
                continue
        state, events, actor = outcome.state, events + outcome.events, mover
        steps += 1
    check_step(state, events, range(n), progress)
    return steps


def test_viewer_layers_over_200_random_games() -> None:
    rng = random.Random(20261130)
    total = sum(play(rng) for _ in range(200))
    assert total > 2000
