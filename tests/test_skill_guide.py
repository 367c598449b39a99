"""Every curl request in undercover-skill.md, run against the app in the state the guide describes.

Each ```bash block of the guide holds exactly one curl command and is preceded by an HTML comment
`<!-- expect: STATUS [error_code] -->`. The test parses the command the way a shell and curl would
(`$WODI`, `$KEY`, `$MATCH`, `$TOKEN` only; nothing expands inside single quotes; `-d` without a
Content-Type is sent form-encoded, as curl does), builds real state for it through the API (a setup chosen
by the request's route and action type, or by the error code the guide promises), sends it through the
ASGI app and checks the status, the error code, and that the ```json example printed right after the block
has the same shape as the real response.
"""

from __future__ import annotations

import itertools
import json
import re
import shlex
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from app.games.undercover.text import contains_word
from app.games.undercover.wordpairs import default_library
from tests.api.helpers import bearer
from tests.api.table import Table
from tests.benchmarks.guide_setups import measure_setups
from tests.tournaments.guide_setups import tournament_setups

# The guide's error table: the protocol's catalogue and the undercover game's own codes.

GUIDE = Path(__file__).resolve().parents[1] / "undercover-skill.md"
VARIABLES = frozenset({"WODI", "KEY", "MATCH", "TOKEN", "BENCH", "NAME", "EVENT"})
BASE_URL = "http://testserver"
EXPECT = re.compile(r"^<!-- expect: (?P<status>\d{3})(?: (?P<code>[a-z_]+))? -->$")
VAR = re.compile(r"\$(?:\{(\w+)\}|(\w+))")
SLOW = {"speak_timeout": 600, "vote_timeout": 900}  # no timer may fire while a setup runs
_names = itertools.count()


@dataclass(frozen=True)
class Curl:
    method: str
    url: str
    headers: tuple[tuple[str, str], ...]
    data: str | None

    @property
    def route(self) -> str:
        """The path template, e.g. `/api/matches/$MATCH/action`."""
        return self.url.removeprefix("$WODI").partition("?")[0]

    @property
    def json_body(self) -> dict[str, Any]:
        return dict(json.loads(self.data)) if self.data else {}

    @property
    def action(self) -> str | None:
        kind = self.json_body.get("type") if self.route.endswith("/action") else None
        return str(kind) if kind is not None else None


@dataclass(frozen=True)
class Block:
    line: int
    source: str
    status: int
    code: str | None
    curl: Curl
    example: Any


# ---------------------------------------------------------------- parsing the guide


def parse_curl(source: str) -> Curl:
    """One curl command, read as bash and curl would read it."""
    assert "`" not in source and "$(" not in source, "no command substitution in examples"
    for quoted in re.findall(r"'[^']*'", source):
        assert "$" not in quoted, f"a variable inside single quotes is not expanded by the shell: {quoted}"
    used = {a or b for a, b in VAR.findall(source)}
    assert used <= VARIABLES, f"only {sorted(VARIABLES)} may be used, found {sorted(used - VARIABLES)}"
    joined = source.replace("\\\n", " ")
    assert "\n" not in joined.strip(), "exactly one command per block (continue lines with `\\`)"
    tokens = shlex.split(joined)
    assert tokens[0] == "curl" and tokens.count("curl") == 1, "the block must be one curl command"
    assert not {"|", "||", "&&", ";", ">", "<"} & set(tokens), "no pipes, redirections or command lists"
    method, data = None, None
    headers: list[tuple[str, str]] = []
    urls: list[str] = []
    args = iter(tokens[1:])
    for token in args:
        if token in ("-s", "-S", "-sS", "-i", "--silent", "--show-error", "--include"):
            continue
        if token in ("-X", "--request"):
            method = next(args)
        elif token in ("-H", "--header"):
            name, colon, value = next(args).partition(":")
            assert colon, f"bad header {name!r}"
            headers.append((name.strip(), value.strip()))
        elif token in ("-d", "--data", "--data-raw"):
            data = next(args)
            assert not data.startswith("@"), "bodies must be inline"
        else:
            assert not token.startswith("-"), f"unsupported curl option {token}"
            urls.append(token)
    assert len(urls) == 1, f"exactly one URL, found {urls}"
    assert urls[0].startswith("$WODI/"), "URLs start with $WODI"
    return Curl(method or ("POST" if data is not None else "GET"), urls[0], tuple(headers), data)


def _fence_end(lines: list[str], start: int) -> int:
    return next(j for j in range(start + 1, len(lines)) if lines[j].strip() == "```")


def parse_guide(text: str) -> list[Block]:
    """Every ```bash block with its expectation and the ```json example right after it (if any)."""
    lines = text.splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith("```"):
            i += 1
            continue
        info = lines[i].strip()[3:].strip()
        end = _fence_end(lines, i)
        if info == "bash":
            before = next(lines[j] for j in range(i - 1, -1, -1) if lines[j].strip())
            expect = EXPECT.match(before.strip())
            assert expect, f"line {i + 1}: a bash block needs `<!-- expect: STATUS [code] -->` right above it"
            source = "\n".join(lines[i + 1:end])
            blocks.append(Block(line=i + 1, source=source, status=int(expect["status"]), code=expect["code"],
                                curl=parse_curl(source), example=_example_after(lines, end)))
        i = end + 1
    return blocks


def _example_after(lines: list[str], end: int) -> Any:
    j = end + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    if j >= len(lines) or lines[j].strip() != "```json":
        return None
    return json.loads("\n".join(lines[j + 1:_fence_end(lines, j)]))


def expand(text: str, values: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        assert name in values, f"the setup provides no ${name}"
        return values[name]

    return VAR.sub(one, text)


# ---------------------------------------------------------------- checking a response against the guide


def assert_shape(example: Any, actual: Any, where: str = "body") -> None:
    """Every field the guide shows exists in the response, with a value of the same JSON type."""
    if example is None:
        return
    if isinstance(example, dict):
        assert isinstance(actual, dict), f"{where}: the guide shows an object, got {actual!r}"
        missing = sorted(example.keys() - actual.keys())
        assert not missing, f"{where}: the guide shows {missing}, the response has {sorted(actual)}"
        for key, value in example.items():
            assert_shape(value, actual[key], f"{where}.{key}")
    elif isinstance(example, list):
        assert isinstance(actual, list), f"{where}: the guide shows a list, got {actual!r}"
    elif isinstance(example, bool):
        assert isinstance(actual, bool), f"{where}: the guide shows a boolean, got {actual!r}"
    elif isinstance(example, int | float):
        assert isinstance(actual, int | float) and not isinstance(actual, bool), f"{where}: got {actual!r}"
    else:
        assert isinstance(actual, type(example)), f"{where}: the guide shows {example!r}, got {actual!r}"


# ---------------------------------------------------------------- building the state each request needs

Values = dict[str, str]
Setup = Callable[[httpx.AsyncClient, Block], Awaitable[Values]]


async def fresh_key(client: httpx.AsyncClient) -> str:
    response = await client.post("/api/agents", json={"name": f"guide-agent-{next(_names)}"})
    assert response.status_code == 201, response.text
    return str(response.json()["api_key"])


def seat_values(table: Table, seat: int) -> Values:
    return {"MATCH": table.match_id, "KEY": table.keys[seat], "TOKEN": table.tokens[seat]}


async def waiting(client: httpx.AsyncClient, seated: int = 1) -> Table:
    table = Table(client, 4, **SLOW)
    await table.open(fill=False)
    for seat in range(1, seated):
        await table.join(seat)
    return table


async def started(client: httpx.AsyncClient, n: int = 4, **config: Any) -> Table:
    table = Table(client, n, **{**SLOW, **config})
    await table.open()
    assert (await table.snap(0))["status"] == "in_progress"
    return table


async def roles(table: Table) -> list[str]:
    return [(await table.snap(seat))["you"]["role"] for seat in range(table.n)]


async def to_vote(table: Table) -> None:
    """Every speaker skips until the vote starts."""
    for _ in range(table.n + 1):
        snap = await table.snap(0)
        if snap["phase"].startswith("vote_round"):
            return
        response = await table.act(snap["current_speaker_seat"], {"type": "skip"})
        assert response.status_code == 200, response.text
    raise AssertionError("the vote did not start")


async def vote_out(table: Table, loser: int) -> None:
    """Everyone votes `loser` out (the loser votes for somebody else); the round resolves."""
    await to_vote(table)
    for seat in range(table.n):
        target = loser if seat != loser else (loser + 1) % table.n
        response = await table.act(seat, {"type": "vote", "target_seat": target})
        assert response.status_code == 200, response.text
    assert (await table.snap(loser))["players"][loser]["alive"] is False


async def no_state(client: httpx.AsyncClient, block: Block) -> Values:
    return {}


async def free_agent(client: httpx.AsyncClient, block: Block) -> Values:
    return {"KEY": await fresh_key(client)}


async def host_of_waiting_room(client: httpx.AsyncClient, block: Block) -> Values:
    return seat_values(await waiting(client), 0)


async def guest_of_waiting_room(client: httpx.AsyncClient, block: Block) -> Values:
    return seat_values(await waiting(client, seated=2), 1)


async def lobby(client: httpx.AsyncClient, block: Block) -> Values:
    """A room that needs one more player, and a free agent to fill it."""
    table = await waiting(client, seated=3)
    return {"MATCH": table.match_id, "KEY": await fresh_key(client)}


async def outsider_of_running_match(client: httpx.AsyncClient, block: Block) -> Values:
    table = await started(client)
    return {"MATCH": table.match_id, "KEY": await fresh_key(client)}


async def host_of_running_match(client: httpx.AsyncClient, block: Block) -> Values:
    return seat_values(await started(client), 0)


async def my_turn(client: httpx.AsyncClient, block: Block) -> Values:
    table = await started(client)
    speaker = (await table.snap(0))["current_speaker_seat"]
    assert (await table.snap(speaker))["you"]["next_action"] == "speak"
    return seat_values(table, speaker)


async def compete_turn(client: httpx.AsyncClient, block: Block) -> Values:
    """A compete_mode room, and $KEY holds the floor."""
    table = await started(client, compete_mode=True)
    speaker = (await table.snap(0))["current_speaker_seat"]
    return seat_values(table, speaker)


async def other_turn(client: httpx.AsyncClient, block: Block) -> Values:
    table = await started(client)
    speaker = (await table.snap(0))["current_speaker_seat"]
    seat = (speaker + 1) % table.n
    assert (await table.snap(seat))["you"]["next_action"] == "wait_for_speak_round"
    return seat_values(table, seat)


async def my_vote(client: httpx.AsyncClient, block: Block) -> Values:
    """The vote is open and $KEY has not voted; $KEY is not the seat the request votes for."""
    table = await started(client)
    await to_vote(table)
    seat = next(s for s in range(table.n) if s != block.curl.json_body.get("target_seat"))
    assert (await table.snap(seat))["you"]["next_action"] == "vote"
    return seat_values(table, seat)


async def voted(client: httpx.AsyncClient, block: Block) -> Values:
    """The vote is open and $KEY has already voted."""
    values = await my_vote(client, block)
    snap = (await client.get(f"/api/matches/{values['MATCH']}", headers=bearer(values["KEY"]))).json()
    target = next(p["seat"] for p in snap["players"] if p["seat"] != snap["you"]["seat"])
    response = await client.post(f"/api/matches/{values['MATCH']}/action", headers=bearer(values["KEY"]),
                                 json={"type": "vote", "target_seat": target})
    assert response.status_code == 200, response.text
    return values


async def voted_out_civilian(client: httpx.AsyncClient, block: Block) -> Values:
    """$KEY is a civilian just voted out while the game goes on: its last words are due."""
    table = await started(client, last_words=True)
    civilian = (await roles(table)).index("civilian")
    await vote_out(table, civilian)
    assert (await table.snap(civilian))["you"]["next_action"] == "last_words"
    return seat_values(table, civilian)


async def voted_out_blank(client: httpx.AsyncClient, block: Block) -> Values:
    """$KEY is the blank, just voted out: its guess is due."""
    table = await started(client, 5, n_undercover=1, n_blank=1, blank_guess=True)
    blank = (await roles(table)).index("blank")
    await vote_out(table, blank)
    assert (await table.snap(blank))["you"]["next_action"] == "guess_word"
    return seat_values(table, blank)


async def undercover_with_fellow(client: httpx.AsyncClient, block: Block) -> Values:
    """Whispers on; the seat the request whispers to is an undercover and $KEY is the other one.

    Roles are dealt at random, so tables are dealt until the target seat holds an undercover.
    """
    target = block.curl.json_body["target_seat"]
    for _ in range(60):
        table = await started(client, 5, n_undercover=2, allow_whisper=True)
        dealt = await roles(table)
        if dealt[target] == "undercover":
            sender = next(s for s, role in enumerate(dealt) if role == "undercover" and s != target)
            return seat_values(table, sender)
    raise AssertionError(f"seat {target} never drew an undercover")


async def civilian_with_whispers(client: httpx.AsyncClient, block: Block) -> Values:
    table = await started(client, allow_whisper=True)
    return seat_values(table, (await roles(table)).index("civilian"))


async def living_civilian(client: httpx.AsyncClient, block: Block) -> Values:
    """4 players, 1 undercover: a civilian who concedes leaves the game running."""
    table = await started(client)
    return seat_values(table, (await roles(table)).index("civilian"))


async def eliminated(client: httpx.AsyncClient, block: Block) -> Values:
    values = await living_civilian(client, block)
    response = await client.post(f"/api/matches/{values['MATCH']}/concede", headers=bearer(values["KEY"]))
    assert response.status_code == 200 and response.json()["match_status"] == "in_progress", response.text
    return values


async def finished(client: httpx.AsyncClient, block: Block) -> Values:
    table = await started(client)
    undercover = (await roles(table)).index("undercover")
    response = await client.post(f"/api/matches/{table.match_id}/concede", headers=table.h(undercover))
    assert response.status_code == 200 and response.json()["match_status"] == "finished", response.text
    return seat_values(table, (undercover + 1) % table.n)


async def debating(client: httpx.AsyncClient, block: Block) -> Values:
    """A debate room (`debate_rounds: 1`) after the speeches: $KEY (seat 0) may debate or pass."""
    table = await started(client, debate_rounds=1, debate_timeout=600)
    for _ in range(table.n + 1):
        snap = await table.snap(0)
        if snap["phase"].startswith("debate_round"):
            break
        response = await table.act(snap["current_speaker_seat"], {"type": "skip"})
        assert response.status_code == 200, response.text
    assert (await table.snap(0))["you"]["next_action"] == "debate"
    return seat_values(table, 0)


async def debated(client: httpx.AsyncClient, block: Block) -> Values:
    """In a debate round, $KEY has passed already."""
    values = await debating(client, block)
    response = await client.post(f"/api/matches/{values['MATCH']}/action", headers=bearer(values["KEY"]),
                                 json={"type": "debate_pass"})
    assert response.status_code == 200, response.text
    return values


async def key_used_for_a_speech(client: httpx.AsyncClient, block: Block) -> Values:
    """$KEY's speech went through with the block's Idempotency-Key; the block sends another body with it."""
    values = await my_turn(client, block)
    key = next(value for name, value in block.curl.headers if name.lower() == "idempotency-key")
    response = await client.post(f"/api/matches/{values['MATCH']}/action", json={"type": "speak", "text": "先说"},
                                 headers={**bearer(values["KEY"]), "Idempotency-Key": key})
    assert response.status_code == 200, response.text
    return values


SUCCESS_SETUPS: dict[tuple[str, str, str | None], Setup] = {
    ("POST", "/api/agents", None): no_state,
    ("GET", "/api/agents", None): free_agent,
    ("GET", "/api/auth/check", None): free_agent,
    ("GET", "/api/agents/me", None): free_agent,
    ("POST", "/api/agents/me/rotate-key", None): free_agent,
    ("GET", "/api/agents/me/active", None): host_of_waiting_room,
    ("POST", "/api/agents/me/webhooks", None): free_agent,
    ("GET", "/api/agents/me/webhooks", None): free_agent,
    ("GET", "/api/matches", None): lobby,
    ("POST", "/api/matches", None): free_agent,
    ("POST", "/api/matches/$MATCH/join", None): lobby,
    ("GET", "/api/matches/$MATCH", None): my_turn,
    ("GET", "/api/matches/$MATCH/events", None): my_turn,
    ("POST", "/api/matches/$MATCH/action", "speak"): my_turn,
    ("POST", "/api/matches/$MATCH/action", "skip"): my_turn,
    ("POST", "/api/matches/$MATCH/action", "vote"): my_vote,
    ("POST", "/api/matches/$MATCH/action", "last_words"): voted_out_civilian,
    ("POST", "/api/matches/$MATCH/action", "guess_word"): voted_out_blank,
    ("POST", "/api/matches/$MATCH/action", "whisper"): undercover_with_fellow,
    ("POST", "/api/matches/$MATCH/action", "debate"): debating,
    ("POST", "/api/matches/$MATCH/action", "debate_pass"): debating,
    ("POST", "/api/matches/$MATCH/concede", None): living_civilian,
    ("POST", "/api/matches/$MATCH/abort", None): host_of_waiting_room,
}

ERROR_SETUPS: dict[str, Setup] = {
    "auth_required": my_turn,
    "invalid_api_key": no_state,
    "invalid_play_token": my_turn,
    "agent_not_in_match": outsider_of_running_match,
    "not_your_turn_to_speak": other_turn,
    "wrong_phase": other_turn,
    "already_voted": voted,
    "invalid_target": my_vote,
    "whisper_not_enabled": my_turn,
    "debate_not_enabled": my_turn,
    "debate_turn_over": debated,
    "whisper_target_not_fellow": civilian_with_whispers,
    "bad_request": my_turn,
    "you_are_eliminated": eliminated,
    "match_finished": finished,
    "match_not_in_progress": host_of_waiting_room,
    "already_in_match": host_of_waiting_room,
    "match_full": outsider_of_running_match,
    "not_host": guest_of_waiting_room,
    "match_not_waiting": host_of_running_match,
    "invalid_config": free_agent,
    "match_not_found": no_state,
    "speech_looks_like_instruction": compete_turn,
    "stale_state": my_turn,
    "idempotency_key_reused": key_used_for_a_speech,
    "invalid_webhook_url": free_agent,
}

MEASURE, MEASURE_ERRORS = measure_setups("undercover", SLOW)  # the "Measure your agent" section
SUCCESS_SETUPS.update(MEASURE)
ERROR_SETUPS.update(MEASURE_ERRORS)
EVENTS, EVENT_ERRORS = tournament_setups("undercover", SLOW)  # the "Enter a tournament" section
for route, setup in EVENTS.items():
    SUCCESS_SETUPS.setdefault(route, setup)
ERROR_SETUPS.update(EVENT_ERRORS)


def setup_for(block: Block) -> Setup:
    if block.code is not None:
        assert block.code in ERROR_SETUPS, f"line {block.line}: no setup builds the state for {block.code}"
        return ERROR_SETUPS[block.code]
    key = (block.curl.method, block.curl.route, block.curl.action)
    assert key in SUCCESS_SETUPS, f"line {block.line}: no setup for {key}"
    return SUCCESS_SETUPS[key]


async def send(client: httpx.AsyncClient, curl: Curl, values: Values) -> httpx.Response:
    values = {"WODI": BASE_URL, **values}
    headers = {name: expand(value, values) for name, value in curl.headers}
    if curl.data is not None and not any(name.lower() == "content-type" for name in headers):
        headers["Content-Type"] = "application/x-www-form-urlencoded"  # what curl -d sends by default
    content = expand(curl.data, values).encode() if curl.data is not None else None
    return await client.request(curl.method, expand(curl.url, values), headers=headers, content=content)


NDJSON = "application/x-ndjson"


def first_line(response: httpx.Response) -> Any:
    """An NDJSON answer (a dataset export): its first line stands for the rest (the guide shows one)."""
    lines = response.text.splitlines()
    assert lines, f"{response.request.url}: an empty export"
    return json.loads(lines[0])


async def run_blocks(client: httpx.AsyncClient, blocks: list[Block], setup_for: Callable[[Block], Setup],
                     guide: str) -> None:
    """Send every bash block of a guide in order, each after its setup, and check status, error code, the DM's
    message where the example shows one, and the example's shape."""
    executed: list[int] = []
    for block in blocks:
        values = await setup_for(block)(client, block)
        response = await send(client, block.curl, values)
        where = f"{guide} line {block.line}: {block.curl.method} {block.curl.url}"
        assert response.status_code == block.status, f"{where}: {response.status_code} {response.text}"
        body = first_line(response) if response.headers.get("content-type", "").startswith(NDJSON) else response.json()
        if block.code is not None:
            assert body["error"] == block.code and body["detail"]["error"] == block.code, f"{where}: {body}"
            if isinstance(block.example, dict) and "message" in block.example:
                assert body["message"] == block.example["message"], f"{where}: {body}"
        else:
            assert "error" not in body, f"{where}: {body}"
        if block.example is not None:
            assert_shape(block.example, body, where)
        executed.append(block.line)
    assert executed == [block.line for block in blocks]


def check_statuses(blocks: list[Block], status: dict[str, int]) -> None:
    """Every example's status is its error code's status in the catalogue; a success example is below 400."""
    for block in blocks:
        if block.code is not None:
            assert status[block.code] == block.status, f"line {block.line}: {block.code} is {status[block.code]}"
        else:
            assert block.status < 400, f"line {block.line}: an error status needs its error code"


def error_table(text: str, heading: str) -> dict[str, int]:
    """The codes of a guide's error table (the section under `heading`), each with the status its row gives."""
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    listed: dict[str, int] = {}
    for row in re.findall(r"^\| (\d{3}) \| ([^|]+) \|", section, flags=re.MULTILINE):
        for code in re.findall(r"`([a-z_]+)`", row[1]):
            listed[code] = int(row[0])
    return listed


# ---------------------------------------------------------------- the tests

BLOCKS = parse_guide(GUIDE.read_text(encoding="utf-8"))





def test_example_texts_never_contain_a_secret_word() -> None:
    """A speech example must be accepted whatever word the deal hands out."""
    words = {word.word for pair in default_library().pairs() for word in (pair.a, pair.b)}
    checked = 0
    for block in BLOCKS:
        body = block.curl.json_body if block.curl.data and block.curl.data.startswith("{") else {}
        for field in ("text", "comment"):
            if field in body:
                hits = [w for w in words if contains_word(body[field], w)]
                assert not hits, f"line {block.line}: {body[field]!r} contains {hits}"
                checked += 1
    assert checked >= 5
