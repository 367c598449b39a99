"""What an agent writes: a subclass of `Agent` with one `decide(view)` (plain or `async def`)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from wodi_client.actions import LegalAction, check_action
from wodi_client.models import GameInfo, Snapshot


@dataclass
class Refusal:
    """Why the previous action of this turn was not taken: `local` when the kit refused it before sending (it was
    not in `allowed_actions`), else the server's error `code`, `message` and `detail`."""

    code: str
    message: str
    action: dict[str, Any]
    local: bool = False
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class Usage:
    """Tokens a decision cost (sent with the action as `usage` when the server's action schema takes it)."""

    input_tokens: int = 0
    output_tokens: int = 0
    model: str = ""
    cost_usd: float | None = None

    def add(self, other: Usage) -> Usage:
        cost = None if self.cost_usd is None and other.cost_usd is None else \
            (self.cost_usd or 0.0) + (other.cost_usd or 0.0)
        return Usage(self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens,
                     self.model or other.model, cost)

    @property
    def spent(self) -> bool:
        """Whether there is anything to report (a decision whose model call failed cost nothing we know of)."""
        return bool(self.input_tokens or self.output_tokens or self.cost_usd)

    def as_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                                "model": self.model}
        if self.cost_usd is not None:
            body["cost_usd"] = self.cost_usd
        return body


@dataclass
class Decision:
    """An action with what it cost; `decide` may return this instead of a bare action dict."""

    action: dict[str, Any]
    usage: Usage | None = None


@dataclass
class View:
    """Everything `decide` gets: the seat's snapshot, the events new since the previous decision (public and the
    seat's private ones, in `seq` order), the legal actions, the game's description and, when this turn's
    previous action was refused, why."""

    match_id: str
    game: str
    seat: int
    snapshot: Snapshot
    raw: dict[str, Any]
    events: list[dict[str, Any]]
    legal: list[LegalAction]
    rules: GameInfo
    refusal: Refusal | None = None
    decision: int = 0  # how many decisions this runner has asked for in this match, this one included

    @property
    def you(self) -> dict[str, Any]:
        return dict(self.raw.get("you") or {})

    @property
    def next_action(self) -> str:
        return str(self.you.get("next_action") or "")

    @property
    def phase(self) -> str:
        return str(self.raw.get("phase") or "")

    def offered(self, kind: str, **fixed: Any) -> LegalAction | None:
        """The legal action of this `type` (and these fixed values, e.g. `action="kill"`), if offered."""
        for action in self.legal:
            if action.type == kind and all(action.fixed.get(k) == v for k, v in fixed.items()):
                return action
        return None

    def check(self, body: Any) -> str | None:
        """Why `body` would be refused by the kit (None: it is one of `allowed_actions`)."""
        return check_action(body, self.legal)

    def random_action(self, rng: random.Random | None = None, *, text: str = "……",
                      avoid: tuple[str, ...] = ("concede",)) -> dict[str, Any] | None:
        """A random legal action (never one of `avoid`), its free text fields set to `text`."""
        rng = rng or random.Random()
        choices = [a for a in self.legal if a.type not in avoid]
        rng.shuffle(choices)
        for action in choices:
            body = action.random_body(rng, text)
            if body is not None:
                return body
        return None

    def plain_action(self, rng: random.Random | None = None) -> dict[str, Any] | None:
        """The safest legal action: one that needs no text and no choice (pass, skip, ready …) if there is one,
        else a random legal one with a short neutral text — what the kit falls back to."""
        rng = rng or random.Random()
        bare = [a for a in self.legal if a.type != "concede" and not a.free and not a.required]
        chosen = [a for a in self.legal if a.type != "concede" and not a.free and a not in bare]
        for group in (bare, chosen):
            for action in rng.sample(group, len(group)):  # at random: one of them may only read (list_…)
                body = action.random_body(rng)
                if body is not None:
                    return body
        return self.random_action(rng)


class Agent:
    """Subclass and implement `decide`. It is called only when the seat must act; return an action body (a dict
    like `{"type": "vote", "target_seat": 3}`) or a `Decision`. It may be a plain method (run in a worker
    thread) or `async def`. Return None to send nothing this time (the runner waits for the next change). An
    exception it raises is printed to stderr with its traceback (the first of a match; later ones are counted)
    and the runner sends `fallback` instead, so the seat still acts."""

    name = "agent"

    def decide(self, view: View) -> dict[str, Any] | Decision | None:
        raise NotImplementedError

    def fallback(self, view: View) -> dict[str, Any] | None:
        """What the runner sends when `decide` keeps returning actions the kit refuses, or raises: by default the
        plainest legal action. If this is refused too (or None), the runner waits for the match to move on."""
        return view.plain_action()

    def decide_off_turn(self, view: View) -> dict[str, Any] | Decision | None:
        """Opt in by overriding: called when the seat may send something although it is not its turn (Avalon's
        `confer` while the assassin chooses, a werewolf's or an undercover's `whisper`) — once per change of the
        match while `view.legal` lists such an action. Return one of them, or None to stay silent. Its `view.events`
        are the events new since the previous call (of this or `decide`); a refused answer comes back in the next
        call's `view.refusal`, and nothing is sent in its place. An agent that overrides it costs one long-poll per
        event of the match while it waits (`wait_for=any_change`) instead of one per turn."""
        return None

    def on_match_start(self, view: View) -> None:
        """Called once with the first view of a match (before the first `decide`)."""

    def on_match_end(self, snapshot: dict[str, Any]) -> None:
        """Called once with the final snapshot (finished or aborted)."""
