"""The pages people see: the match page (live and replay), the lobby and agent profiles.

Thin on purpose: the match page is a shell whose script reads the JSON API from the browser; the lobby and
profiles are rendered here from the same service functions the API uses.

Nothing here knows a game. What a game shows is found by its name, in files next to its page module:
`static/js/games/<game>.js` (drawn by the match page's shell, `generic.js` when missing), `<game>.json` (its
strings, merged into the page's, never overriding one), `<game>.css` (linked on every page) and the partials
`templates/games/<game>/*.html` (a finished match's line in the lobby and in a profile).
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.responses import Response
from starlette.types import Scope

from app.api.deps import RuntimeDep
from app.games.installed import bot_seats
from app.protocol import registry
from app.protocol.errors import ApiError
from app.protocol.registry import QuickStarts
from app.services.identity import agents as agent_service
from app.services.match import listing
from app.services.match import match_reads as reads
from app.services.match.seating import Caller
from app.services.platform import tournament_reads
from app.services.rating import guesses as guess_service

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
STRINGS: dict[str, dict[str, str]] = json.loads((STATIC / "i18n.json").read_text(encoding="utf-8"))
GAME_PAGES = STATIC / "js" / "games"
GAME_NAME = re.compile(r"^[a-z][a-z0-9_]*$")

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=ROOT / "templates")
ANONYMOUS = Caller(agent=None, play_token=None)


PLURAL = re.compile(r"\{(\w+)\|([^|{}]*)\|([^|{}]*)\}")  # `{n|vote|votes}` (`Texts.__call__`)

def _when(value: str | datetime | None) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def _tint(name: str) -> int:
    """A stable colour slot (0–11) for an agent's avatar."""
    return sum(name.encode()) % 12


def page_module(game: str) -> str:
    """The page module that draws a match of `game`: its own when it has one, else the generic one."""
    return game if GAME_NAME.match(game) and (GAME_PAGES / f"{game}.js").is_file() else "generic"


@cache
def game_strings(game: str | None) -> dict[str, dict[str, str]]:
    """`static/js/games/<game>.json`: the game's UI strings per language (none for a game without the file)."""
    path = GAME_PAGES / f"{game}.json"
    if game is None or not GAME_NAME.match(game) or not path.is_file():
        return {lang: {} for lang in STRINGS}
    strings: dict[str, dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
    for lang, shared in STRINGS.items():
        clash = sorted(shared.keys() & strings.get(lang, {}).keys())
        if clash:
            raise ValueError(f"{path.name} redefines the page's own strings: {clash}")
    return strings


GAME_SHEETS = sorted(f"/static/js/games/{sheet.name}" for sheet in GAME_PAGES.glob("*.css"))
templates.env.globals["game_sheets"] = GAME_SHEETS
templates.env.globals["game_parts"] = sorted(part.name for part in (ROOT / "templates" / "games").iterdir()
                                             if part.is_dir())
templates.env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}  # `tojson` still escapes <>&'
templates.env.filters.update(
    tint=_tint,
    iso=lambda value: (_when(value) or datetime.min).isoformat(),
    short_time=lambda value: (_when(value) or datetime.min).strftime("%Y-%m-%d %H:%M"),
    percent=lambda rate: "–" if rate is None else f"{rate * 100:.0f}%",
)


class StaticAssets(StaticFiles):
    """`/static`, revalidated by ETag on every use: the page's modules import each other without a version."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.setdefault("Cache-Control", "no-cache")
        return response


class Texts:
    """The UI strings of one language (and of one game, if given), as `t.key` or `t('key', n=…)` in templates."""

    def __init__(self, lang: str, game: str | None = None) -> None:
        self.lang = lang
        self.strings = {**STRINGS[lang], **game_strings(game).get(lang, {})}

    def for_game(self, game: str) -> Texts:
        """The same language with `game`'s strings (a room card of that game in the lobby)."""
        return Texts(self.lang, game)

    def get(self, key: str, default: str) -> str:
        """A string a game may not define (a phase, a camp): `default` when it does not."""
        return self.strings.get(key, default)

    def __getattr__(self, key: str) -> str:
        if key.startswith(("_", "jinja")):  # Jinja probes objects for these; a missing UI string is a bug
            raise AttributeError(key)
        return self.strings[key]

    def __call__(self, key: str, **values: Any) -> str:
        """The string with its `{name}` slots filled; `{name|one|other}` is `one` when the value is 1, else `other`
        (English plurals, as `static/js/dom.js` reads them)."""
        return PLURAL.sub(lambda m: m[2] if values.get(m[1]) == 1 else m[3], self.strings[key]).format(**values)


def lang_of(request: Request) -> str:
    """The page's language: English with `?lang=en`, else Chinese (every HTML page, the account pages too)."""
    return "en" if request.query_params.get("lang") == "en" else "zh"


def _page(request: Request, name: str, status: int = 200, game: str | None = None,
          **context: Any) -> HTMLResponse:
    lang = lang_of(request)
    suffix = "?lang=en" if lang == "en" else ""
    # The language switch keeps the page's other parameters (the lobby's `?game=`, the form's game).
    kept = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"] + ([("lang", "en")] if lang == "zh"
                                                                                      else [])
    base = {"lang": lang, "t": Texts(lang, game), "q": suffix, "other_lang": f"?{urlencode(kept)}" if kept else ""}
    response = templates.TemplateResponse(request, name, {**base, **context}, status_code=status)
    return response


def _not_found(request: Request, message_key: str, **values: Any) -> HTMLResponse:
    return _page(request, "not_found.html", 404, message=Texts(lang_of(request))(message_key, **values))


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, runtime: RuntimeDep) -> HTMLResponse:
    """Every installed game with its live figures, the rooms (of one game with `?game=`), a featured live match (the
    showcase while there is one), and the boards: agents that have played, and the rating ladder of the chosen (or
    default) game."""
    asked = request.query_params.get("game")
    game = asked if asked and registry.get(asked) is not None else None
    rooms = {status: await listing.list_matches(runtime, status=status, newest_first=True, agent=None, game=game,
                                                seats_open=None, limit=limit)
             for status, limit in (("waiting", 12), ("in_progress", 12), ("finished", 12))}
    counts = await listing.live_counts(runtime)
    games = [{"name": name, "live": counts.get((name, "in_progress"), 0), "waiting": counts.get((name, "waiting"), 0),
              "quick": isinstance(registry.get(name), QuickStarts)} for name in registry.names()]
    leaders = await agent_service.leaderboard(runtime, 20, played_only=True)
    ladder_game = game or registry.default_name()
    ladder = await agent_service.leaderboard(runtime, 20, sort="rating", game=ladder_game)
    readers = await guess_service.board(runtime, 10)
    events = await tournament_reads.listing(runtime, None, 40)
    events = [e for e in events if e["status"] in ("entry", "running")][:12]
    live = rooms["in_progress"]
    # The showcase first (it is opened so a visitor has a table to watch), else the fullest live table shown.
    shows = await listing.list_matches(runtime, status="in_progress", newest_first=True, agent=None, game=None,
                                       seats_open=None, limit=1, showcase=True)
    featured = shows[0] if shows else max(live, key=lambda m: len(m.get("players") or ()), default=None)
    return _page(request, "lobby.html", waiting=rooms["waiting"], live=live, finished=rooms["finished"],
                 leaders=leaders, ladder=ladder, ladder_game=ladder_game, games=games, game_filter=game,
                 featured=featured, readers=readers, events=events)


@router.get("/match/{match_id}", response_class=HTMLResponse)
async def match_page(match_id: str, request: Request, runtime: RuntimeDep) -> HTMLResponse:
    try:
        snap = await reads.snapshot_body(runtime, match_id, ANONYMOUS)  # what an anonymous GET of the API returns
    except ApiError as exc:
        if exc.code != "match_not_found":
            raise
        return _not_found(request, "not_found_match", id=match_id)
    game = snap["game"]
    seats_for = await listing.seats_for(runtime, match_id)
    boot = {"match_id": match_id, "lang": lang_of(request), "page_module": page_module(game),
            "t": Texts(lang_of(request), game).strings, "seats_for": seats_for,
            "bot_seats": bot_seats(game, snap.get("config") or {})}
    return _page(request, "match.html", game=game, snap=snap, boot=boot, seats_for=seats_for,
                 showcase=await listing.is_showcase(runtime, match_id))


@router.get("/play", response_class=HTMLResponse)
async def play_form(request: Request) -> HTMLResponse:
    """The quick-start form (开一局): its fields come from `GET /api/play/{game}/options`, read by the page's script."""
    asked = request.query_params.get("game") or registry.default_name()
    if registry.get(asked) is None:
        return _not_found(request, "not_found_game", name=asked)
    game = asked
    boot = {"game": game, "lang": lang_of(request), "t": Texts(lang_of(request), game).strings}
    return _page(request, "play.html", game=game, boot=boot)


@router.get("/{game}-skill.md", response_class=PlainTextResponse)
async def skill_guide(game: str) -> Response:
    """The agents' guide of an installed game (`<game>-skill.md`, the file the docs tell an agent to fetch), as
    Markdown; 404 for any other name."""
    guide = _guide(game) if registry.get(game) is not None else None
    if guide is None:
        return PlainTextResponse(f"no guide for {game!r}\n", status_code=404)
    return Response(guide, media_type="text/markdown; charset=utf-8")


@cache
def _guide(game: str) -> bytes | None:
    """An installed game's guide, read once (the files ship with the release)."""
    path = ROOT / f"{game}-skill.md"
    return path.read_bytes() if path.is_file() else None


@router.get("/agents/{name}", response_class=HTMLResponse)
async def agent_page(name: str, request: Request, runtime: RuntimeDep) -> HTMLResponse:
    profile = await agent_service.profile(runtime, name)
    if profile is None:
        return _not_found(request, "not_found_agent", name=name)
    recent = await listing.list_matches(runtime, status=None, newest_first=True, agent=profile["name"], game=None,
                                        seats_open=None, limit=20)
    arena = []
    for game, fields in profile["ratings"].items():
        rated = await agent_service.ratings(runtime, profile["name"], game)
        if fields["rated_games"] or profile["side_records"].get(game):
            arena.append({"game": game, **fields, "sides": profile["side_records"].get(game, {}),
                          "chart": rating_chart((rated or {}).get("history", []))})
    return _page(request, "agent.html", agent=profile, arena=arena,
                 recent=[_outcome(m, profile["name"]) for m in recent])


CHART_W, CHART_H, CHART_PAD = 320.0, 120.0, 8.0


def rating_chart(history: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The rating-history chart as SVG coordinates (drawn server-side: no script, nothing inline to allow)."""
    if not history:
        return None
    values = [history[0]["rating_before"]] + [h["rating_after"] for h in history]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (CHART_W - 2 * CHART_PAD) / max(len(values) - 1, 1)
    points = [(CHART_PAD + i * step, CHART_H - CHART_PAD - (v - low) / span * (CHART_H - 2 * CHART_PAD))
              for i, v in enumerate(values)]
    return {"width": CHART_W, "height": CHART_H, "low": low, "high": high, "last": values[-1],
            "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points),
            "dots": [{"x": round(x, 1), "y": round(y, 1), "won": h["result"] == "win", "match_id": h["match_id"]}
                     for (x, y), h in zip(points[1:], history, strict=True)]}


def _outcome(match: dict[str, Any], name: str) -> dict[str, Any]:
    """One row of a profile's recent matches, with that agent's seat and result."""
    seat = next((p["seat"] for p in match["players"] if p["name"] == name), None)
    result = match.get("result") or {}
    if match["status"] == "finished":
        outcome = "won" if seat in (result.get("winning_seats") or []) else "lost"
    else:
        outcome = {"aborted": "aborted", "in_progress": "live"}.get(match["status"], "waiting")
    return {**match, "seat": seat, "outcome": outcome}
