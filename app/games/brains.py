"""What a game's brain offers the official bots (`app/bots`) besides its `decide`: one declaration per game.

The bots name no game. They find a game's `BotPlay` through `app.games.installed.bot_play()` and read from it
everything game-specific they used to hard-code; every member but `decide` is optional:

- `arena_presets`: the configs `python -m app.bots.arena --game <name>` plays in its line-ups (each side in
  persona against the others random), by label;
- `arena`: instead, a game's own arena report, handed the simulator and the cast (`Arena`);
- `draws`: the phases in which the simulator draws which of several due seats acts first (default: every
  phase); in the others the lowest due seat acts;
- `voice`: the game's own LLM prompts for a bot's texts (`Voice`; default: `app.bots.phrasing` rephrases the
  rule brain's text in persona);
- `recap_prompt`: the chat asking an LLM to rewrite the game's finished recap in the seats' voices (the game's
  `Rewrites.rewrite_source`, each player row with the `voice` its comment is to be written in).

`json_object` and `one_line` read an LLM's answer the same way for the bots and for a game's own voice.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TextIO, TypeVar

Brain = Callable[..., dict[str, Any] | None]
"""A rule brain: `decide(snapshot, persona, rng, *, baseline=False)` → an action body or None
(`app.protocol.registry.Brain` states the contract)."""
Chat = list[dict[str, str]]
Usage = dict[str, Any] | None


class Slugged(Protocol):
    """A game's voice of one persona, known by the persona's slug."""

    @property
    def slug(self) -> str: ...


class Lined(Slugged, Protocol):
    """A voice with templates of its own, by part (`opener`, `suspect`, …)."""

    @property
    def lines(self) -> Mapping[str, tuple[str, ...]]: ...


S = TypeVar("S", bound=Slugged)


class Cast(Generic[S]):
    """A game's voices of the official personas by slug, the one an unknown slug plays as, and the templates every
    voice shares (a voice's own `lines` come first: `pool`)."""

    def __init__(self, voices: Sequence[S], default: S, shared: Mapping[str, tuple[str, ...]] | None = None) -> None:
        self.voices: dict[str, S] = {v.slug: v for v in voices}
        self.default = default
        self.shared: Mapping[str, tuple[str, ...]] = shared or {}

    def voice(self, slug: str) -> S:
        return self.voices.get(slug, self.default)

    def pool(self, style: Lined, key: str) -> tuple[str, ...]:
        """The persona's own templates for `key`, then the shared ones."""
        return tuple(style.lines.get(key, ())) + tuple(self.shared.get(key, ()))


class Speaker(Protocol):
    """One official-bot persona as a prompt sees it (`app.bots.personas.Persona`)."""

    @property
    def slug(self) -> str: ...

    @property
    def display_name(self) -> str: ...

    @property
    def style(self) -> str: ...

    @property
    def tendency(self) -> str: ...


class Endpoint(Protocol):
    """The LLM endpoint a voice asks (`app.bots.llm.LLMBrain`): its time budget, its counters, one completion."""

    timeout: float
    stats: Counter[str]

    async def complete(self, chat: Chat, max_tokens: int = 200, within: float | None = None) -> tuple[str, Usage]:
        """The answer and its usage; raises `TimeoutError` when `within` seconds pass first."""
        ...


Voice = Callable[[Endpoint, dict[str, Any], Speaker, dict[str, Any] | None, float | None],
                 Awaitable[dict[str, Any] | None]]
"""`voice(endpoint, snapshot, persona, body, budget)` → the body with the LLM's text, or `body` itself on any
failure (the rule brain's action always stands)."""


class Simulate(Protocol):
    """One bot-only game of this game on the in-process simulator (`app.bots.sim.play`, game and brain bound)."""

    def __call__(self, raw_config: Mapping[str, Any], personas: Sequence[Any], seed: int, *,
                 baseline_sides: frozenset[str] = ...,
                 observe: Callable[[int, dict[str, Any], dict[str, Any] | None], None] | None = None) -> Any: ...


Arena = Callable[[Simulate, Sequence[Any], int, int, int, TextIO], str]
"""`arena(simulate, personas, games, seed, every, out)` → the report (progress lines go to `out`)."""


@dataclass(frozen=True)
class BotPlay:
    """See the module docstring."""

    decide: Brain
    arena_presets: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    arena: Arena | None = None
    draws: Callable[[str], bool] | None = None
    voice: Voice | None = None
    recap_prompt: Callable[[dict[str, Any]], Chat] | None = None


MAX_SPEECH = 120  # the longest text a voice keeps from an LLM's answer
_QUOTES = "\"'“”‘’「」『』`"


def json_object(answer: str) -> dict[str, Any] | None:
    """The first `{…}` of an LLM's answer as a JSON object, or None."""
    found = re.search(r"\{.*\}", answer, re.DOTALL)
    if not found:
        return None
    try:
        data = json.loads(found.group(0))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def one_line(answer: str) -> str:
    """The first non-empty line of a text, without surrounding quotes."""
    lines = [line.strip() for line in answer.strip().splitlines() if line.strip()]
    return lines[0].strip(_QUOTES).strip() if lines else ""


def vote_action(target: int | None, comment: Callable[[int], str | None]) -> dict[str, Any] | None:
    """A brain's vote: none without a target, else the target and the brain's comment when it has one."""
    if target is None:
        return None
    said = comment(target)
    return {"type": "vote", "target_seat": target, **({"comment": said} if said else {})}
