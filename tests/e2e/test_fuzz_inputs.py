"""Hostile bodies against every write endpoint of a real server: zero 5xx, and every match the run touched still
answers 200 to every viewer afterwards (the attack run of issue 13, as a property; issue 26 added webhooks, the
quick start `/api/play` and the actions of every game, a werewolf and a 剧本杀 table played by their rule bots)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.installed import brains
from tests.conftest import _wipe
from tests.e2e.server import Server

EVIL_TEXT = ["\ud800", "x\udfff", "\x00", "a\x00b", "\u200b", "\u202eevil", "\ufeff", " ", "", "x" * 600,
             "y" * 70_000, "正常的发言", "%00", "\\u0000"]
NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"]
# Webhook URLs that once answered 500 (issue 26 item 4) and SSRF spellings (item 5); none may be registered here.
EVIL_URLS = ["https://1.1.1.1:99999/", "https://1.1.1.1:-1/", "https://[::1", "https://a..b/",
             f"https://{'a' * 70}.com/", "https://[64:ff9b::a9fe:a9fe]/", "https://[::127.0.0.1]/", "http://[::1]:0/",
             "https://2002:7f00:1::/", "https://[2002:7f00:1::]/", "https://x\x00y/", "javascript:alert(1)",
             "https://" + "a." * 200 + "com/", "https://[::ffff:0:7f00:1]/h", "https://%30/", "https://.:443/",
             "https://1.1.1.1:65536/", "https://[fe80::1%25eth0]/", "https://u@1.1.1.1/", "//1.1.1.1/"]
# The other games' tables: seats, config (long clocks: nothing moves unless the fuzzer acts).
OTHER_GAMES: dict[str, dict[str, Any]] = {
    "werewolf": {"n_players": 6, "night_timeout": 600, "speak_timeout": 600, "vote_timeout": 600},
    "script_kill": {"script": "tiny", "timing": "compressed"},
}
OTHER_SEATS = 6
MOVED = 5  # accepted moves each other table gets before its moves are spoiled too (then one in three goes clean)


@dataclass
class Arena:
    base_url: str
    keys: list[str] = field(default_factory=list)  # seats 0..3 of the running match, then the waiting room's host
    match_ids: list[str] = field(default_factory=list)  # every match the run touched: [waiting, running, …]
    play_tokens: dict[str, list[str]] = field(default_factory=dict)  # per match; survive the fuzzer's rotations
    other_keys: dict[str, list[str]] = field(default_factory=dict)  # game → the keys of its table's seats
    other_running: dict[str, str] = field(default_factory=dict)  # game → its running match
    accepted: dict[str, int] = field(default_factory=dict)  # game → moves of its tables the rules accepted

    @property
    def running(self) -> str:
        return self.match_ids[-1]

    def open_table(self, http: httpx.Client) -> None:
        """A new 4-seat match for agents 0–3 (the fuzzer's legal moves finish one every few dozen examples)."""
        auth = [{"Authorization": f"Bearer {key}"} for key in self.keys]
        created = http.post("/api/matches", json={"game": "undercover", "config": {
            "n_players": 4, "n_undercover": 1, "allow_whisper": True, "last_words": True}}, headers=auth[0])
        assert created.status_code == 201, created.text
        match_id = created.json()["match_id"]
        tokens = [created.json()["play_token"]]
        for seat in (1, 2, 3):
            joined = http.post(f"/api/matches/{match_id}/join", json={}, headers=auth[seat])
            assert joined.status_code == 200, joined.text
            tokens.append(joined.json()["play_token"])
        self.match_ids.append(match_id)
        self.play_tokens[match_id] = tokens


def open_other(arena: Arena, http: httpx.Client, game: str) -> None:
    """A new table of `game` for six new agents (those of a stalled table are still seated there)."""
    arena.other_keys[game] = []
    for _ in range(OTHER_SEATS):
        response = http.post("/api/agents", json={"name": f"fz-{game[:2]}-{len(arena.play_tokens)}-{_}"})
        assert response.status_code == 201, response.text
        arena.other_keys[game].append(response.json()["api_key"])
    auth = [{"Authorization": f"Bearer {key}"} for key in arena.other_keys[game]]
    created = http.post("/api/matches", json={"game": game, "config": OTHER_GAMES[game]}, headers=auth[0])
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    tokens = [created.json()["play_token"]]
    for seat in range(1, OTHER_SEATS):
        joined = http.post(f"/api/matches/{match_id}/join", json={}, headers=auth[seat])
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["play_token"])
    arena.other_running[game] = match_id
    arena.play_tokens[match_id] = tokens


def _setup(base_url: str) -> Arena:
    arena = Arena(base_url)
    with httpx.Client(base_url=base_url, timeout=10) as http:
        for index in range(5):
            response = http.post("/api/agents", json={"name": f"fuzz-agent-{index}"})
            assert response.status_code == 201, response.text
            arena.keys.append(response.json()["api_key"])
        waiting = http.post("/api/matches", json={"game": "undercover"},
                            headers={"Authorization": f"Bearer {arena.keys[4]}"}).json()
        arena.match_ids.append(waiting["match_id"])
        arena.play_tokens[waiting["match_id"]] = [waiting["play_token"]]
        arena.open_table(http)
        for game in OTHER_GAMES:
            open_other(arena, http, game)
    return arena


@pytest.fixture(scope="module")
def arena(database_url: str) -> Iterator[Arena]:
    # A pool too large to run out: a quick start the run opens waits for bots that never come (bots are off here).
    server = Server(database_url, WODI_BOT_POOL_MAX="500").start()
    try:
        yield _setup(server.base_url)
    finally:
        server.stop()
        asyncio.run(_wipe(database_url))


def _encode(value: Any) -> str:
    """JSON text, where the sentinel strings of NON_FINITE stand for the bare tokens they name."""
    if isinstance(value, str) and value.startswith("#num:"):
        return value[5:]
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{_encode(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_encode(v) for v in value) + "]"
    return json.dumps(value)  # ensure_ascii: a lone surrogate becomes the escape \udXXX


leaf = st.one_of(st.sampled_from(EVIL_TEXT), st.text(max_size=20), st.integers(), st.booleans(), st.none(),
                 st.sampled_from([f"#num:{n}" for n in NON_FINITE]), st.floats(allow_nan=False, allow_infinity=False))
values = st.recursive(leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["text", "note", "x", "\ud800", "private", "owner_id"]), inner, max_size=3), max_leaves=12)
evil = st.sampled_from(EVIL_TEXT) | st.sampled_from(EVIL_TEXT) | st.text(max_size=12) | values
ACTIONS = ["speak", "vote", "skip", "whisper", "last_words", "guess_word", "concede", "debate", "night_action",
           "shoot", "ready", "private_chat", "reveal_clue", "investigate", "use_power", "use_item", "trade",
           "list_clues", "list_items", "inspect", "final_vote"]
# Plausible bodies of each write endpoint, any field of which may be hostile (or missing).
TEMPLATES: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "action": st.fixed_dictionaries({"type": st.sampled_from(ACTIONS)}, optional={
        "text": evil, "target_seat": st.integers(-1, 4) | evil, "comment": evil, "word": evil, "analysis": values}),
    "create": st.fixed_dictionaries({"game": st.just("undercover") | evil}, optional={
        "config": st.fixed_dictionaries({}, optional={"n_players": st.integers(3, 13), "wordpair_tag": evil}),
        "player": st.fixed_dictionaries({}, optional={"display_name": evil, "meta": values})}),
    "agent": st.fixed_dictionaries({"name": st.text("abcxyz-", min_size=3, max_size=8).map("fz-".__add__) | evil},
                                   optional={"display_name": evil, "bio": evil, "homepage": evil, "contact": evil}),
    "owner": st.fixed_dictionaries({"username": st.just("fuzzowner") | evil, "password": st.just("longenough1") | evil},
                                   optional={"nickname": evil, "redirect": evil}),
    "webhook": st.fixed_dictionaries({"url": st.sampled_from(EVIL_URLS) | evil}, optional={
        "events": st.lists(st.sampled_from(["your_turn", "match_started", "match_finished", "x"]) | evil,
                           max_size=4) | evil}),
    "play": st.fixed_dictionaries({}, optional={
        "game": st.sampled_from(["undercover", "werewolf", "script_kill"]) | evil, "name": st.just("小王") | evil,
        "choices": st.fixed_dictionaries({}, optional={
            "pace": st.sampled_from(["quick", "standard", "hell"]) | evil, "category": evil,
            "virtual_players": st.integers(-1, 9) | evil, "chaos": st.booleans() | evil}) | evil}),
    "any": st.dictionaries(st.sampled_from(["type", "text", "name", "player", "x"]), values, max_size=4),
}
BODY_OF = {"/api/matches/{m}/action": "action", "/api/matches": "create", "/api/matches/{m}/join": "create",
           "/api/agents": "agent", "/api/owners": "owner", "/api/auth/login": "owner", "/login": "owner",
           "/signup": "owner", "/api/agents/me/webhooks": "webhook", "/webhooks": "webhook", "/api/play": "play"}


@st.composite
def raw_bodies(draw: st.DrawFn, template: str) -> bytes:
    kind = draw(st.sampled_from(["json", "json", "json", "json", "deep", "bytes", "form"]))
    if kind == "deep":
        depth = draw(st.integers(30, 5000))
        return ('{"analysis":' + "[" * depth + "]" * depth + ',"type":"speak","text":"hi"}').encode()
    if kind == "bytes":
        return b'{"type":"speak","text":"' + draw(st.binary(min_size=1, max_size=8)) + b'"}'
    if kind == "form":
        return draw(st.sampled_from([b"username=a%00b&password=x", b"username=%ED%A0%80&password=x",
                                     b"username=%ff&password=x", b"username=ok&password=okokokok"]))
    return _encode(draw(TEMPLATES[template])).encode()


ENDPOINTS = ["/api/matches/{m}/action"] * 6 + ["/api/matches"] * 2 + ["/api/agents/me/webhooks"] * 2 + [
    "/api/play"] * 2 + ["/webhooks", "/api/agents/me/webhooks/{token}"] + [
    "/api/agents", "/api/agents/me/rotate-key", "/api/owners", "/api/auth/login", "/api/auth/logout",
             "/api/agents/claim/{token}", "/api/matches", "/api/matches/{m}/join", "/api/matches/{m}/action",
             "/api/matches/{m}/concede", "/api/matches/{m}/abort", "/login", "/signup", "/claim/{token}"]
CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "text/plain",
                 "application/x-www-form-urlencoded", None]


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, bytes]:
    endpoint = draw(st.sampled_from(ENDPOINTS))
    return endpoint, draw(raw_bodies(BODY_OF.get(endpoint, "any")))


def _legal_move(arena: Arena, http: httpx.Client) -> tuple[int, dict[str, Any]] | None:
    """A seat whose turn it is in the running match and a move the rules accept (opening a new table when the
    running one is over), for the fuzzer to spoil one field of."""
    tokens = arena.play_tokens[arena.running]
    snaps = [http.get(f"/api/matches/{arena.running}", headers={"X-Play-Token": t}).json() for t in tokens]
    if snaps[0]["status"] != "in_progress":
        arena.open_table(http)
        return None
    for seat, snap in enumerate(snaps):
        you = snap["you"]
        if not you["your_turn"]:
            continue
        others = [p["seat"] for p in snap["players"] if p["alive"] and p["seat"] != seat]
        moves = {"speak": {"type": "speak", "text": "一种常见的东西"},
                 "vote": {"type": "vote", "target_seat": (snap.get("pk_candidates") or others)[0]},
                 "last_words": {"type": "last_words", "text": "再见"},
                 "guess_word": {"type": "guess_word", "word": "不知道"}}
        if you["next_action"] in moves:
            return seat, moves[you["next_action"]]
    return None


Found = tuple[str, int, dict[str, Any]]


def _other_move(arena: Arena, http: httpx.Client, game: str, rng: random.Random) -> Found | None:
    """A seat of `game`'s running table and the move its rule bot makes from its own snapshot (a new table when the
    running one is over or waits for a timer)."""
    match_id = arena.other_running[game]
    tokens = arena.play_tokens[match_id]
    snaps = [http.get(f"/api/matches/{match_id}", headers={"X-Play-Token": t}).json() for t in tokens]
    if snaps[0]["status"] != "in_progress":
        open_other(arena, http, game)
        return None
    for seat in rng.sample(range(len(snaps)), len(snaps)):
        body = brains()[game](snaps[seat], "adai", rng, baseline=True)
        if body is not None:
            return match_id, seat, body
    open_other(arena, http, game)  # nobody can act until a long timer fires (a split pack, a review): a new table
    return None


SPOILABLE = ["text", "comment", "analysis", "word", "target_seat", "type"]
OTHER_SPOILABLE = ["text", "target_seat", "to_seat", "clue", "item", "location", "power", "action", "type", "x"]


@given(request=requests(), content_type=st.sampled_from(CONTENT_TYPES[:2] * 4 + CONTENT_TYPES),
       # 剧本杀's tiny script's phases close by clock, so it gets twice werewolf's draws to reach its later phases.
       who=st.sampled_from([-2] * 6 + [-3] * 3 + [-4] * 6 + [-1, 0, 1, 2, 3, 4]),
       match=st.sampled_from([-1] * 4 + [0, "ab\x00cd", "nosuch"]),
       spoil=st.tuples(st.sampled_from(SPOILABLE), evil), other=st.tuples(st.sampled_from(OTHER_SPOILABLE), evil),
       seed=st.integers(0, 2**16), provider=st.sampled_from([None] * 4 + ["p" * 80, "proxy"]),
       provider_meta=st.one_of(st.none(), st.none(), values.map(_encode)))
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_hostile_request_gets_a_5xx(arena: Arena, request: tuple[str, bytes], content_type: str | None, who: int,
                                       match: int | str, spoil: tuple[str, Any], other: tuple[str, Any], seed: int,
                                       provider: str | None, provider_meta: str | None) -> None:
    endpoint, body = request
    headers = {"origin": arena.base_url}
    with httpx.Client(base_url=arena.base_url, timeout=10) as http:
        if who in (-3, -4):  # a werewolf or 剧本杀 seat's rule-bot move, with one field spoiled (or left clean)
            game = "werewolf" if who == -3 else "script_kill"
            found = _other_move(arena, http, game, random.Random(seed))
            if found is None:
                return
            match_id, seat, move = found
            if seed % 3 and arena.accepted.get(game, 0) >= MOVED:  # each table's first moves go clean: it moves
                move = {**move, other[0]: other[1]}
            response = http.post(f"/api/matches/{match_id}/action", content=_encode(move).encode(),
                                 headers={**headers, "content-type": "application/json",
                                          "authorization": f"Bearer {arena.other_keys[game][seat]}"})
            assert response.status_code < 500, (game, move, response.status_code, response.text[:300])
            arena.accepted[game] = arena.accepted.get(game, 0) + (response.status_code == 200)
            return
        if who == -2:  # a seated player, on their turn, sends a legal move with one field spoiled
            legal = _legal_move(arena, http)
            who, endpoint, match = (-1, endpoint, match) if legal is None else (legal[0], "/api/matches/{m}/action", -1)
            if legal is not None:
                body, content_type = _encode({**legal[1], spoil[0]: spoil[1]}).encode(), "application/json"
        match_id = arena.match_ids[match] if isinstance(match, int) else match
        path = endpoint.replace("{m}", match_id.replace("\x00", "%00")).replace("{token}", "tok%00en")
        if content_type is not None:
            headers["content-type"] = content_type
        if who >= 0:
            headers["authorization"] = f"Bearer {arena.keys[who]}"
        if provider is not None:
            headers["x-provider-id"] = provider
        if provider_meta is not None:
            headers["x-provider-agent-meta"] = provider_meta
        response = http.post(path, content=body, headers=headers)
        if path.endswith("/rotate-key") and response.status_code == 200:
            arena.keys[arena.keys.index(headers["authorization"][7:])] = response.json()["api_key"]
        if path == "/api/play" and response.status_code == 201:  # a quick start the run opened: a touched match
            started = response.json()
            arena.play_tokens[started["match_id"]] = [started["play_token"]]
    assert response.status_code < 500, (path, body[:200], response.status_code, response.text[:300])


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def test_after_the_attacks_every_match_and_the_server_are_healthy(arena: Arena) -> None:
    with httpx.Client(base_url=arena.base_url, timeout=10) as http:
        assert http.get("/readyz").status_code == 200
        # The other games' tables really moved under the fuzzer (their moves were not all refused).
        assert all(arena.accepted.get(game, 0) >= MOVED for game in OTHER_GAMES), arena.accepted
        for match_id, tokens in arena.play_tokens.items():
            for headers in [{}] + [{"X-Play-Token": token} for token in tokens]:
                assert http.get(f"/api/matches/{match_id}", headers=headers).status_code == 200
                events = http.get(f"/api/matches/{match_id}/events", params={"since": 0}, headers=headers)
                assert events.status_code == 200
                json.loads(events.text, parse_constant=_not_json)  # strict JSON: no NaN/Infinity came back out
            assert http.get(f"/match/{match_id}").status_code == 200
