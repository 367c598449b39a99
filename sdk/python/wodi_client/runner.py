"""The loop: wait (long-poll), decide only when the seat must act, send safely, until the match ends.

Per turn the runner
1. long-polls `GET /api/matches/{id}?wait=30&wait_for=your_turn` (the client retries network errors, 5xx and 429);
2. builds the `View` (events new since the previous decision, the legal actions) and calls `decide`;
3. checks the answer against `allowed_actions`: an action not listed is never sent — it comes back to `decide` as
   a local `Refusal` (after `max_local_refusals` in one turn, `Agent.fallback` is sent instead);
4. sends it with `expected_seq` (the snapshot's `events_total`) and a fresh `Idempotency-Key` reused by every
   retry of that send, so a retried or duplicated send has one effect;
5. on `409 stale_state` (the match moved on) reads again and decides again; on any other refusal the next
   `decide` of the turn gets the server's `Refusal` — and an action the server refused is never sent again in
   that turn (after `max_server_refusals` in one turn, the fallback);
6. when the fallback is refused too (or there is none), waits for the match to move on
   (`wait_for=any_change`) before it decides again: a seat with nothing it may send never spins.

An exception raised by `decide` does not stop the runner: the first one of a match is printed to stderr with its
traceback (later ones are counted, and the count printed at the match's end) and the fallback is sent instead.

Off-turn actions (Avalon's `confer` while the assassin chooses, a werewolf's or an undercover's `whisper`) are
offered only to an agent that overrides `Agent.decide_off_turn`: its runner long-polls `wait_for=any_change` while
it is not the seat's turn and calls it once per change while `allowed_actions` lists an action other than
`concede`; its answer is checked and sent like a decision's, but never retried and never replaced by a fallback.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import sys
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from wodi_client.actions import legal_actions
from wodi_client.agent import Agent, Decision, Refusal, Usage, View
from wodi_client.client import AsyncWodi, WodiError, new_key
from wodi_client.models import Snapshot

TERMINAL = ("finished", "aborted")
NOW = "now"  # the next read does not wait
GONE = ("match_finished", "you_are_eliminated", "match_not_found")


@dataclass
class MatchRecord:
    """What one match cost and how it went, from this seat's side."""

    match_id: str
    game: str = ""
    seat: int | None = None
    status: str = ""
    result: dict[str, Any] | None = None
    decisions: int = 0
    sent: int = 0
    accepted: int = 0
    stale: int = 0
    local_refusals: int = 0
    fallbacks: int = 0
    decide_errors: int = 0  # calls of `decide` (the fallback was sent instead) or `decide_off_turn` that raised
    refused: Counter[str] = field(default_factory=Counter)
    refusals_per_turn: Counter[int] = field(default_factory=Counter)  # expected_seq → server refusals
    usage: Usage = field(default_factory=Usage)
    usage_sent: bool = False

    @property
    def won(self) -> bool | None:
        if not self.result or self.seat is None:
            return None
        winners = self.result.get("winning_seats")
        return self.seat in winners if isinstance(winners, list) else None


Progress = Callable[[MatchRecord, Snapshot | None], None]


@dataclass
class Turn:
    """The runner's memory of one turn: the `events_total` it was read at, the refusals so far, and whether even
    the fallback was refused (`stuck`: nothing more to try until the match moves on)."""

    seq: int | None = None
    refusal: Refusal | None = None
    refused: list[dict[str, Any]] = field(default_factory=list)  # bodies the server refused in this turn
    local: int = 0
    server: int = 0
    stuck: bool = False


@dataclass
class Seat:
    """The runner's memory of one match: the last `seq` a decision saw, the current turn, the last off-turn view
    (`aside`) and whether `on_match_start` was called."""

    last_seq: int = 0
    turn: Turn = field(default_factory=Turn)
    aside: Turn = field(default_factory=Turn)
    started: bool = False


class Runner:
    """Plays matches for one agent through one client."""

    def __init__(self, client: AsyncWodi, agent: Agent, *, wait: float = 30.0, max_local_refusals: int = 3,
                 max_server_refusals: int = 2, progress: Progress | None = None,
                 rng: random.Random | None = None) -> None:
        self.client = client
        self.agent = agent
        self.wait = wait
        self.max_local_refusals = max_local_refusals
        self.max_server_refusals = max_server_refusals
        self.progress = progress
        self.rng = rng or random.Random()
        self.off_turn = getattr(type(agent), "decide_off_turn", None) not in (None, Agent.decide_off_turn)

    async def play_match(self, match_id: str) -> MatchRecord:
        """Play `match_id` (where this agent is seated) to its end."""
        record, seat = MatchRecord(match_id), Seat()
        wait_for, read, sent = "your_turn", None, 0
        while True:
            wait = 0.0 if wait_for == NOW else self.wait
            # `since`: a change while the agent was deciding answers at once, not with the event after it — unless
            # it sent something since that read (its own move is no news: it would be asked again at once)
            since = read if wait_for == "any_change" and record.sent == sent else None
            raw = await self.client.snapshot_json(match_id, wait=wait, wait_for=wait_for, since=since)
            snap = Snapshot.model_validate(raw)
            read, sent = raw.get("events_total"), record.sent
            record.game, record.status = snap.game, snap.status
            if snap.status in TERMINAL:
                self._end(record, snap, raw)
                return record
            you = raw.get("you")
            if not you:
                raise WodiError(403, "not_seated", f"this agent has no seat in {match_id}")
            record.seat = you.get("seat")
            if you.get("next_action") == "eliminated" or (not you.get("alive", True) and not you.get("your_turn")):
                wait_for = "match_finished"
            elif not you.get("your_turn") or not you.get("allowed_actions"):
                wait_for = await self._off_turn(match_id, raw, snap, seat, record)
            else:
                wait_for = await self._turn(match_id, raw, snap, seat, record)

    async def _turn(self, match_id: str, raw: dict[str, Any], snap: Snapshot, seat: Seat,
                    record: MatchRecord) -> str:
        """Decide (or fall back) once in the seat's turn and send the answer; what to wait for next."""
        turn = seat.turn
        if turn.seq != snap.events_total:
            turn = seat.turn = Turn(snap.events_total)
        elif turn.stuck:
            return "any_change"  # `your_turn` holds already: it would answer at once
        view = await self._view(match_id, raw, snap, seat, seat.last_seq, turn.refusal, record.decisions + 1)
        give_up = turn.local >= self.max_local_refusals or turn.server >= self.max_server_refusals
        body, usage, fell_back = await self._decide(view, record, give_up)
        seat.last_seq = max(seat.last_seq, int(snap.events_total or 0))
        turn.stuck = fell_back
        if body is None and not fell_back:
            await asyncio.sleep(0.5)  # the agent passes this time; wait for a change
        elif body is not None:
            await self._take(match_id, view, body, usage, turn, record)
        # `your_turn` would hold an agent that takes off-turn actions past one that opens as its turn ends
        return NOW if self.off_turn else "your_turn"

    async def _off_turn(self, match_id: str, raw: dict[str, Any], snap: Snapshot, seat: Seat,
                        record: MatchRecord) -> str:
        """Offer an off-turn action to an agent that takes them, once per change; what to wait for next."""
        if not self.off_turn:
            return "your_turn"
        rows = [row for row in raw["you"].get("allowed_actions") or [] if row.get("type") != "concede"]
        if rows and seat.aside.seq != snap.events_total:
            since = max(seat.last_seq, seat.aside.seq or 0)
            seat.aside = Turn(snap.events_total, refusal=seat.aside.refusal)
            view = await self._view(match_id, raw, snap, seat, since, seat.aside.refusal, record.decisions)
            try:
                body, usage = await self._ask(self.agent.decide_off_turn, view, record)
            except Exception:  # noqa: BLE001 - as in decide: the agent's bug is reported, the runner plays on
                self._report_error("decide_off_turn", view, record)
                body = None
            if body is not None:
                await self._take(match_id, view, body, usage, seat.aside, record)
        return "any_change"  # an off-turn action may open (or the seat's turn come) with any event

    async def _view(self, match_id: str, raw: dict[str, Any], snap: Snapshot, seat: Seat, since: int,
                    refusal: Refusal | None, decision: int) -> View:
        you = raw["you"]
        rules = await self.client.game(snap.game)
        view = View(match_id=match_id, game=snap.game, seat=int(you["seat"]), snapshot=snap, raw=raw,
                    events=new_events(raw, since), legal=legal_actions(you["allowed_actions"], rules.actions),
                    rules=rules, refusal=refusal, decision=decision)
        if not seat.started:
            seat.started = True
            self.agent.on_match_start(view)
        return view

    def _end(self, record: MatchRecord, snap: Snapshot, raw: dict[str, Any]) -> None:
        record.result = snap.result
        self._report(record, snap)
        if record.decide_errors > 1:
            print(f"wodi-client: the agent raised {record.decide_errors} times in match {record.match_id} (the "
                  f"first traceback is above)", file=sys.stderr)
        self.agent.on_match_end(raw)

    async def _take(self, match_id: str, view: View, body: dict[str, Any], usage: Usage | None, turn: Turn,
                    record: MatchRecord) -> None:
        """Check `body` and send it; a refusal (the kit's or the server's) goes into `turn` for the next decision."""
        problem = view.check(body)
        if problem is None and body in turn.refused:
            problem = "the server already refused this exact action in this turn"
        if problem is not None:
            turn.local += 1
            record.local_refusals += 1
            turn.refusal = Refusal("not_allowed", problem, body, local=True)
            return
        snap = view.snapshot
        result = await self._send(match_id, body, usage, snap, record)
        if isinstance(result, WodiError):
            if result.code == "stale_state" or result.code in GONE or result.status == 401:
                turn.stuck = False  # the match moved on (or the seat is gone): read it again at once
                return
            turn.server += 1
            record.refused[result.code] += 1
            record.refusals_per_turn[int(snap.events_total or 0)] += 1
            turn.refused.append(body)
            turn.refusal = Refusal(result.code, result.message, body, detail=result.detail)
            return
        turn.refusal = None
        turn.stuck = False
        self._report(record, snap)

    async def _decide(self, view: View, record: MatchRecord,
                      give_up: bool) -> tuple[dict[str, Any] | None, Usage | None, bool]:
        """The agent's answer, its usage and whether it is the fallback (`give_up`, or `decide` raised)."""
        record.decisions += 1
        if not give_up:
            try:
                body, usage = await self._ask(self.agent.decide, view, record)
                return body, usage, False
            except Exception:  # noqa: BLE001 - an agent's bug must not leave its seat to the clock: send the fallback
                self._report_error("decide", view, record)
        record.fallbacks += 1
        return self.agent.fallback(view), None, True

    async def _ask(self, method: Callable[[View], Any], view: View,
                   record: MatchRecord) -> tuple[dict[str, Any] | None, Usage | None]:
        if inspect.iscoroutinefunction(method):
            answer = await method(view)
        else:
            answer = await asyncio.to_thread(method, view)
        if isinstance(answer, Decision):
            if answer.usage is not None:
                record.usage = record.usage.add(answer.usage)
            return answer.action, answer.usage
        return answer, None

    def _report_error(self, method: str, view: View, record: MatchRecord) -> None:
        """The first exception of a match to stderr with its traceback; later ones are counted (see `_end`)."""
        record.decide_errors += 1
        if record.decide_errors == 1:
            fallback = "the fallback is sent instead" if method == "decide" else "nothing is sent"
            print(f"wodi-client: {type(self.agent).__name__}.{method} raised in match {view.match_id} (decision "
                  f"{view.decision}); {fallback}, and later errors are only counted:\n{traceback.format_exc()}",
                  file=sys.stderr, end="")

    async def _send(self, match_id: str, body: dict[str, Any], usage: Usage | None, snap: Snapshot,
                    record: MatchRecord) -> dict[str, Any] | WodiError:
        sent = {**body, "expected_seq": snap.events_total}
        if usage is not None and usage.spent and await self.client.accepts_usage(str(snap.game), str(body["type"])):
            sent["usage"] = usage.as_json()
            record.usage_sent = True
        record.sent += 1
        try:
            answer = await self.client.act(match_id, sent, idempotency_key=new_key())
        except WodiError as error:
            if error.code == "stale_state":
                record.stale += 1
            return error
        record.accepted += 1
        return answer

    def _report(self, record: MatchRecord, snap: Snapshot) -> None:
        if self.progress is not None:
            self.progress(record, snap)

    async def find_or_create(self, game: str, config: dict[str, Any] | None = None, *, fill: bool = False) -> str:
        """The agent's unfinished match if it has one, else a waiting room of `game` it can join, else a new room;
        with `fill`, the official bots are called into a new room's open seats at once (`POST /fill`) instead of
        after the server's `WODI_BOT_FILL_AFTER`. A refused fill (the room needs players, say) is reported on
        stderr and the room waits as usual."""
        active = await self.client.active()
        if active is not None:
            return active.match_id
        rooms = await self.client.matches(status="waiting", game=game, sort="oldest", limit=50)
        for room in rooms.matches:
            try:
                return (await self.client.join(room.match_id)).match_id
            except WodiError as error:
                if error.status not in (403, 404, 409, 422):
                    raise
        match_id = (await self.client.create_match(game, config)).match_id
        if fill:
            try:
                await self.client.fill(match_id)
            except WodiError as error:
                print(f"wodi-agent: the bots were not called in ({error.code}: {error.message}); the room waits",
                      file=sys.stderr, flush=True)
        return match_id

    async def quick_start(self, game: str, choices: dict[str, Any] | None = None) -> str:
        """The agent's unfinished match if it has one, else a quick start of `game` (`POST /api/play`): seat 0 of
        a new room, the official bots in the others at once."""
        active = await self.client.active()
        if active is not None and active.match_id:
            return active.match_id
        return str((await self.client.quick_start(game, choices))["match_id"])

    async def play(self, game: str, matches: int = 1, config: dict[str, Any] | None = None, *,
                   fill: bool = False, quick: dict[str, Any] | bool | None = None) -> list[MatchRecord]:
        """Find or create a room and play it, `matches` times; with `quick` (True, or the quick start's choices), a
        quick start each time instead (`config` and `fill` then do not apply)."""
        records = []
        for _ in range(matches):
            if quick is not None and quick is not False:
                match_id = await self.quick_start(game, quick if isinstance(quick, dict) else None)
            else:
                match_id = await self.find_or_create(game, config, fill=fill)
            records.append(await self.play_match(match_id))
        return records


def new_events(raw: dict[str, Any], after: int) -> list[dict[str, Any]]:
    """The public and private events of a snapshot with `seq` > `after`, in order, each once."""
    seen: dict[int, dict[str, Any]] = {}
    you = raw.get("you") or {}
    for event in [*(raw.get("public_log") or []), *(you.get("private_log") or [])]:
        seq = event.get("seq")
        if isinstance(seq, int) and seq > after:
            seen.setdefault(seq, event)
    return [seen[seq] for seq in sorted(seen)]


def play(base_url: str, api_key: str, agent: Agent, game: str, matches: int = 1,
         config: dict[str, Any] | None = None, **options: Any) -> list[MatchRecord]:
    """The synchronous face: play `matches` matches of `game` and return their records."""

    async def main() -> list[MatchRecord]:
        async with AsyncWodi(base_url, api_key) as client:
            return await Runner(client, agent, **options).play(game, matches, config)

    return asyncio.run(main())
