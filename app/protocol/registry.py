"""Games register here; the protocol layer talks to them only through `Game`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from app.games.base import AbortReason, ErrorSpec, Event, MatchSummary

ConfigT = TypeVar("ConfigT")
StateT = TypeVar("StateT")
StateT_co = TypeVar("StateT_co", covariant=True)
CommandT = TypeVar("CommandT")


class Outcome(Protocol[StateT_co]):
    """What `new_match` and `apply` return: the new state and the events to append, in `seq` order."""

    @property
    def state(self) -> StateT_co:
        """The state after the command (a new object: the state passed in is never changed)."""
        ...

    @property
    def events(self) -> list[Event]:
        """The new events, each with `seq`, `type`, `visibility`, its own fields and `ts` (see `Event`); their
        `seq` continue the log without a gap (empty when nothing happened)."""
        ...


@runtime_checkable
class Replies(Protocol):
    """An optional member of an `Outcome`: a read-only command's answer (e.g. a seat asking for its own hand). It
    changes nothing and emits no event; the action's answer carries `reply`'s fields after `accepted`, `seq`
    (the match's `events_total`) and `phase`."""

    @property
    def reply(self) -> dict[str, Any] | None:
        """The command's own data for the caller (None: an ordinary command)."""
        ...


def reply_of(outcome: object) -> dict[str, Any] | None:
    """An outcome's read-only reply, or None."""
    # An attribute read, not `isinstance(outcome, Replies)`: a runtime protocol check inspects the class's every
    # member on each call, and every command asks.
    reply: dict[str, Any] | None = getattr(outcome, "reply", None)
    return reply


class Game(Protocol[ConfigT, StateT, CommandT]):
    """What a game supplies: pure functions over its own config, state and command types.

    The protocol layer and the services never look inside those three; they read only the shapes
    named here (`MatchSummary`, `Event`, the view dicts). Nothing here does I/O, reads a clock or
    draws randomness outside the seed.
    """

    name: str
    """The registry key, stored in the match row as `game` (stable: renaming it orphans stored matches)."""

    errors: Mapping[str, ErrorSpec]
    """The game's own error codes (those `apply`/`parse_action` may raise beyond the protocol catalogue of
    `app.protocol.errors`), each with its HTTP status and default message. They render with the envelope and are
    listed in `openapi.json` under the action endpoint."""

    actions: Mapping[str, type[BaseModel]]
    """Every action `type` `POST /action` accepts (including `concede` if the game takes it there) → the pydantic
    model of that request body: a `type: Literal[...]` field, `extra="forbid"`, every field documented.
    `openapi.json` shows the union of all games' models; `parse_action` validates with them."""

    config_model: type[BaseModel]
    """The pydantic model of `config` (defaults included), shown by `GET /api/games` and in `openapi.json`."""

    snapshot_model: type[BaseModel]
    """The top-level snapshot fields `public_fields` and `god_fields` add (all optional), for `openapi.json`."""

    secret_fields: tuple[str, ...]
    """The keys `god_fields` fills: each viewer's `viewer_capabilities` says `can_see_<key>` for every one."""

    sides: tuple[str, ...]
    """The sides a seat can be on, as the result's `winner_camp` names them; agent statistics count games and wins
    per (game, side)."""

    profile_stats: Mapping[str, tuple[str, ...]]
    """Public-profile field → the sides whose wins it sums (names older clients read, e.g. `wins_as_<side>`);
    empty when the game adds none."""

    def parse_config(self, raw: Mapping[str, Any] | None) -> ConfigT:
        """Validate a create request's `config` (None: the defaults); raise `GameError("invalid_config",
        field=...)` on a bad one."""
        ...

    def config_to_json(self, config: ConfigT) -> dict[str, Any]:
        """The config as JSON, stored with the match and served as every snapshot's `config`."""
        ...

    def n_players(self, config: ConfigT) -> int:
        """Seats at the table; the match starts when the last one is taken."""
        ...

    def new_match(self, config: ConfigT, host_name: str, host_display_name: str, *, seed: int,
                  now: float) -> Outcome[StateT]:
        """A waiting room with the host in seat 0; its events start at `seq` 1. `seed` is the match's only
        randomness, so the same seed and commands replay the same log."""
        ...

    def join(self, name: str, display_name: str) -> CommandT:
        """The command that seats a player in the next free seat (applied with `apply`)."""
        ...

    def parse_action(self, raw: Mapping[str, Any], seat: int) -> CommandT:
        """`POST /action`'s body (its `type` names the action) as `seat`'s command; raise
        `GameError("bad_request")` for an unknown type or a malformed field."""
        ...

    def concede(self, seat: int) -> CommandT:
        """The command by which `seat` leaves the match (`POST /concede`)."""
        ...

    def abort(self, reason: AbortReason) -> CommandT:
        """The command that cancels the match: the host's (`host_cancelled`, a waiting room only), the janitor's, or
        the services' early end of a quick start whose person has gone (`player_idle`, `player_conceded`,
        `player_left`); the result carries the reason and a summary."""
        ...

    def timeout(self, token: int) -> CommandT:
        """The scheduler's command for the timer holding `token`; applied with a stale token or before the
        timer is due, it returns the same state and no events (so a timer may fire twice, anywhere)."""
        ...

    def apply(self, state: StateT, command: CommandT, *, now: float) -> Outcome[StateT]:
        """Run one command at time `now`. Pure: never changes `state`; a refused command raises `GameError`
        carrying the protocol error code, with nothing to undo."""
        ...

    def state_to_json(self, state: StateT) -> dict[str, Any]:
        """The state as JSON for the match row; `state_from_json` restores an equal state."""
        ...

    def state_from_json(self, data: Mapping[str, Any]) -> StateT:
        """The state written by `state_to_json`."""
        ...

    def summary(self, state: StateT) -> MatchSummary:
        """`status`, `phase` and `result` for the match row, and the next `timer`: `{"due": epoch seconds,
        "kind": str, "token": int}`, or None when the match waits for nobody."""
        ...

    def role_set(self, state: StateT, seat: int) -> frozenset[str]:
        """The roles `seat` holds: it sees events with visibility `private:role:R` for each R, and
        `private:<kind>:<target>` for each tag spelled `<kind>:<target>` (empty before roles are dealt, and for a
        seat that does not exist). Every seat also sees `private:seat:<seat>` and `private:pair:<a>:<b>` when it is
        `a` or `b`."""
        ...

    def players_view(self, state: StateT, *, god: bool) -> list[dict[str, Any]]:
        """One row per seat, in seat order, each with `seat`; a living seat's hidden facts only with `god`."""
        ...

    def public_fields(self, state: StateT) -> dict[str, Any]:
        """Snapshot fields every viewer sees (merged into the top level): no secret of a living seat."""
        ...

    def god_fields(self, state: StateT) -> dict[str, Any]:
        """Snapshot fields only for god views (spectators, everyone after the end), e.g. what only the dealer knows."""
        ...

    def you_view(self, state: StateT, seat: int) -> dict[str, Any]:
        """A player's `you` block: at least `seat` (int), `alive` (bool), `your_turn` (bool: the seat must act
        now; `wait_for=your_turn` long-polls on it) and `next_action` (str), plus the seat's own secrets.
        Raises `GameError("agent_not_in_match")` for a seat that does not exist. The projection adds
        `private_log`."""
        ...

    def allowed_actions(self, state: StateT, seat: int) -> list[dict[str, Any]]:
        """What `seat` may send now: one `{"type": <action>}` per action `POST /action` (or `/concede`) would
        accept (one per fixed value where the body needs one, such as a vote's `choice`), with `targets` (the
        seats it may name) when the action takes one and `deadline_ts` (epoch seconds) when a clock runs; `[]`
        when it may send nothing (not running, out of the game, or a seat that does not exist). `you_view`
        carries it as `allowed_actions`, and every refused action's detail too."""
        ...

    def seat_sides(self, state: StateT) -> dict[int, str]:
        """Each dealt seat → its side (one of `sides`) at the end of the match; empty before the deal."""
        ...

    def action_response(self, state: StateT, seat: int | None, events: list[Event]) -> dict[str, Any]:
        """The fields after `accepted`, `seq` and `phase` of an action's answer, from the state after the
        command and the `events` it produced; `seat` is the acting seat (None: no seat acted). Carries
        `result` once the match has ended."""
        ...


AnyGame = Game[Any, Any, Any]


@runtime_checkable
class TakesOver(Protocol):
    """An optional member a game adds to offer takeover (config `takeover_after_timeouts`, issue 19)."""

    def take_over(self, seat: int) -> Any:
        """The command that marks `seat` as played by the official bot from now on: applied in a running match it
        emits one public `seat_taken_over` event (`seat`) and its `players_view` row carries `taken_over: true`;
        applied again, or outside a running match, it changes nothing (no events)."""
        ...


@runtime_checkable
class RemembersContent(Protocol):
    """An optional pair of members for games whose deal draws content from a library (issue 19): the services
    remember what each match dealt, and ask the next deal to avoid what its players saw recently."""

    def content_key(self, state: Any) -> str | None:
        """A stable key of what this match's deal drew (None before the deal)."""
        ...

    def join_avoiding(self, name: str, display_name: str, recent: frozenset[str]) -> Any:
        """`join`, for the join that may deal: the deal avoids the content keys in `recent` when the library
        leaves enough without them, and falls back to the whole library when it does not."""
        ...


@runtime_checkable
class Rewrites(Protocol):
    """A game whose finished record carries public text that an outside writer (the optional LLM) may rephrase
    after the end, never changing a fact: the services ask for `rewrite_source` once the match has ended and, when
    it is not None, record the writer's proposal through `rewrite` in the match's queue."""

    def rewrite_source(self, state: Any) -> dict[str, Any] | None:
        """What may be rephrased (None: nothing, e.g. a room that did not ask for it, or already rephrased)."""
        ...

    def rewrite(self, state: Any, proposal: Any, *, now: float) -> Any:
        """An `Outcome` with the checked proposal (its events public); raises `GameError` when it is refused."""
        ...


@runtime_checkable
class QuickStarts(Protocol):
    """An optional seam for games a person can start in one click (issue 17, `POST /api/play`): a short form of
    choices the game turns into a config. The person takes seat 0 and the official bots every other seat at once —
    unless the game's `quick_invites` attribute is true (`app.games.kit.QuickStart.invites`): then the room waits
    for friends invited by link, and the bots take the seats left when the host asks (`POST /api/matches/{id}/fill`)."""

    quick_start_model: type[BaseModel]
    """The pydantic model of the form's `choices` (every field defaulted and documented, `extra="forbid"`);
    `GET /api/play/{game}/options` shows its JSON schema and defaults."""

    def quick_config(self, choices: Mapping[str, Any] | None) -> dict[str, Any]:
        """The `config` (as `parse_config` takes it) the `choices` (None: the defaults) ask for; raises
        `GameError("invalid_config", field="choices.<name>")` for a bad choice."""
        ...

    def quick_options(self) -> dict[str, Any]:
        """What the form needs besides the schema (merged into the options answer), e.g. the content categories
        to choose from with their labels and sizes."""
        ...


@runtime_checkable
class HidesEvents(Protocol):
    """An optional member (docs/design/decisions.md D1: defaults are the protocol): the event types a room keeps out
    of every view because the protocol does not name them and the room's config did not ask for them. They are
    stored, counted and folded into the game's record as ever; no viewer is shown them, as no viewer is shown
    another seat's private event (a reader's `seq` skips them the same way)."""

    def hidden_events(self, config: Mapping[str, Any]) -> frozenset[str]:
        """The hidden event types of a room with this stored config."""
        ...


def hidden_events(game: AnyGame, config: Mapping[str, Any]) -> frozenset[str]:
    """`game.hidden_events(config)`, or none when the game declares no such member."""
    hide = getattr(game, "hidden_events", None)
    return hide(config) if hide is not None else frozenset()


@runtime_checkable
class SeatFigures(Protocol):
    """An optional member for benchmark reports (issue 30): the figures the game measures of one seat's play, as
    the literature reports them for this game (e.g. how often its votes found the other side). The report averages
    each figure over the games that gave it, for the agent and for the reference in the same seats; the pages
    label a figure with the game's string `figure_<name>` when it has one."""

    def seat_figures(self, state: Any, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
        """Figure name → value (each in [0, 1]) for `seat` in a finished match's `state`, whose whole log is
        `events`; a figure that does not apply to this seat (e.g. to its side) is left out; {} when none does."""
        ...


def seat_figures(game: AnyGame, state: Any, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """`game.seat_figures(state, seat, events)`, or {} when the game declares none."""
    return game.seat_figures(state, seat, events) if isinstance(game, SeatFigures) else {}


def takeover_command(game: AnyGame, seat: int) -> Any | None:
    """`game.take_over(seat)`, or None when the game offers no takeover."""
    return game.take_over(seat) if isinstance(game, TakesOver) else None

Brain = Callable[..., dict[str, Any] | None]
"""A game's rule bot: `decide(snapshot, persona, rng, *, baseline=False)` → the body of the bot seat's next
`POST /action` (or None: nothing to do now). `snapshot` is the seat's own `GET /api/matches/{id}` view, `persona`
a persona slug of `app.bots.personas`, `rng` a `random.Random`; `baseline=True` asks for the random-acting
baseline the arena compares against. Pure: no I/O."""

_GAMES: dict[str, AnyGame] = {}
_BRAINS: dict[str, Brain] = {}


def register(game: AnyGame, brain: Brain | None = None) -> None:
    """Make `game` (and its bot brain) reachable by its `name`; the first game registered is the default one."""
    _GAMES[game.name] = game
    if brain is not None:
        _BRAINS[game.name] = brain


def unregister(name: str) -> None:
    """Forget a game (tests that register a game of their own)."""
    _GAMES.pop(name, None)
    _BRAINS.pop(name, None)


def default_name() -> str:
    """The game a create request without `game` plays: the first one registered."""
    return next(iter(_GAMES))


def brain(name: str) -> Brain | None:
    """The registered rule bot of game `name`, or None."""
    return _BRAINS.get(name)


def error_spec(code: str) -> ErrorSpec | None:
    """A game's own error code (status and message), looked up over every registered game."""
    for game in _GAMES.values():
        if code in game.errors:
            return game.errors[code]
    return None


def get(name: str) -> AnyGame | None:
    """The registered game called `name`, or None."""
    return _GAMES.get(name)


def names() -> list[str]:
    """The registered games' names, sorted."""
    return sorted(_GAMES)
