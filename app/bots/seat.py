"""The one bot seat loop: view → brain → action, for any game.

Everything that plays a seat with a rule brain goes through `turn`: the HTTP bot player (`app.bots.player`,
whose view is `GET /api/matches/{id}`), the in-process simulator (`app.bots.sim`, also the benchmark reference
pool's player) and the server-side takeover (`app.services.match.takeover`), both of which build the very same view
in process with `seat_view`. What happens to a refused action is the caller's, with one of two plain moves:
`retry` (the same turn without its text, what the HTTP player sends after a refused text) and `offered` (a plain
move the rules list right now, what the simulator sends so a game goes on).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from app.protocol.projection import MatchView, snapshot
from app.protocol.registry import AnyGame, Brain
from app.protocol.viewer import Viewer


def seat_view(game: AnyGame, state: Any, seat: int, log: Sequence[dict[str, Any]],
              view: MatchView | None = None, config: dict[str, Any] | None = None) -> dict[str, Any]:
    """`GET /api/matches/{id}` as the agent in `seat` sees it, built in process (`view`: the match row's fields;
    by default a bare in-memory match of `config`, every seat an official bot)."""
    if view is None:
        summary = game.summary(state)
        view = MatchView(match_id="arena", game=game.name, status=summary["status"], phase=summary["phase"],
                         config=config or {}, created_at="", invite_url="", seats_open=0, events_total=len(log),
                         official_seats=frozenset(range(len(game.players_view(state, god=False)))))
    return snapshot(game, view, state, Viewer("player_agent", seat), list(log))


def turn(brain: Brain, view: dict[str, Any], persona: str, rng: random.Random, *, baseline: bool = False,
         plain: bool = False) -> dict[str, Any] | None:
    """The body of the seat's next action (None: nothing to send now). `plain`: this turn was refused a text
    before, so send its plain version (`retry`)."""
    body = brain(view, persona, rng, baseline=baseline)
    if body is None or not plain:
        return body
    return retry(body, (view.get("you") or {}).get("allowed_actions") or [])


def retry(body: dict[str, Any], allowed: list[dict[str, Any]]) -> dict[str, Any]:
    """The turn's plain retry after a refused text: skip the speech (or, in a game without `skip`, say the seat
    is done with the stage), a bare last word, the vote without its comment."""
    kind = body.get("type")
    offered_types = {str(row.get("type")) for row in allowed}
    if kind in ("speak", "private_chat") and "skip" not in offered_types and "ready" in offered_types:
        return {"type": "ready"}
    if kind == "speak":
        return {"type": "skip"}
    if kind == "last_words":
        return {"type": "last_words", "text": "……"}
    if kind == "vote":
        return {"type": "vote", "target_seat": body["target_seat"]}
    if kind == "debate":
        return {"type": "debate_pass"}
    return body


def offered(allowed: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A plain action the rules offer right now (`skip`, `ready`, a pass, the first offered target), or None."""
    for row in allowed:
        kind = row["type"]
        if kind in ("skip", "ready") or (kind == "night_action" and row.get("action") == "pass"):
            return {"type": kind, **({"action": "pass"} if kind == "night_action" else {})}
        if kind in ("vote", "shoot") and row.get("targets"):
            return {"type": kind, "target_seat": row["targets"][0]}
    return None
