"""The pages' game seam on the server: which page module a game gets, its strings, and a shell that names no game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from app.api import pages
from tests.api.table import Table

ROOT = Path(pages.__file__).resolve().parents[2]
# What the shell, the shared strings and the shared templates may not say: it belongs to a game's page files.
VOCABULARY = re.compile(r"undercover|civilian|wordpair|werewolf|卧底|平民|白板|狼人", re.IGNORECASE)
BRANDING = {"brand", "tagline", "lobby_title"}  # the site's name today, not what a match shows


def test_a_game_gets_its_own_page_module_or_the_generic_one() -> None:
    assert pages.page_module("undercover") == "undercover"
    for name in ("no_such_game", "../undercover", "Undercover", "", "generic/../undercover"):
        assert pages.page_module(name) == "generic"


def test_game_strings_are_merged_and_may_not_redefine_the_pages_own(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    zh = pages.Texts("zh", "undercover")
    assert zh.camp_civilian == "平民胜利" and zh.seat == "{n}号"
    assert pages.Texts("zh").get("camp_civilian", "civilian") == "civilian"
    assert pages.Texts("en").for_game("undercover").get("phase_speak", "speak") == "Speak"

    (tmp_path / "clash.json").write_text(json.dumps({"zh": {"seat": "x"}, "en": {}}), encoding="utf-8")
    (tmp_path / "quiet.json").write_text(json.dumps({"zh": {"phase_night": "夜晚"}, "en": {}}), encoding="utf-8")
    monkeypatch.setattr(pages, "GAME_PAGES", tmp_path)
    pages.game_strings.cache_clear()
    try:
        with pytest.raises(ValueError, match="seat"):
            pages.game_strings("clash")
        assert pages.Texts("zh", "quiet").phase_night == "夜晚"
        assert pages.Texts("en", "quiet").get("phase_night", "night") == "night"
    finally:
        pages.game_strings.cache_clear()


def _shell_files() -> list[Path]:
    static = ROOT / "static"
    return [ROOT / "app" / "api" / "pages.py", static / "wodi.css", static / "js" / "match.js",
            static / "js" / "games" / "generic.js", *sorted((static / "js" / "match").glob("*.js")),
            *sorted((ROOT / "templates").glob("*.html"))]


def test_the_shell_names_no_game() -> None:
    found = [f"{path.relative_to(ROOT)}: {m.group(0)}" for path in _shell_files()
             for m in VOCABULARY.finditer(path.read_text(encoding="utf-8"))]
    strings = json.loads((ROOT / "static" / "i18n.json").read_text(encoding="utf-8"))
    found += [f"i18n.json {lang}.{key}" for lang, table in strings.items() for key, text in table.items()
              if key not in BRANDING and VOCABULARY.search(f"{key} {text}")]
    assert found == []


async def test_the_match_page_boots_the_games_module_and_strings(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, n_undercover=1)
    await table.open()
    page = await client.get(f"/match/{table.match_id}")
    assert page.status_code == 200
    boot = json.loads(re.search(r'<script type="application/json" id="wodi-boot">(.*?)</script>', page.text,
                                re.S).group(1))  # type: ignore[union-attr]
    assert boot["page_module"] == "undercover"
    assert boot["t"]["camp_undercover"] == "卧底胜利" and boot["t"]["seat"] == "{n}号"
    assert '<link rel="stylesheet" href="/static/js/games/undercover.css">' in page.text
    assert "<h1 id=\"match-title\">谁是卧底 · 4 人局</h1>" in page.text


async def test_a_profile_and_the_lobby_show_each_games_parts(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, n_undercover=1)
    await table.open()
    final = await table.play()
    pair = final["result"]["wordpair"]
    winner = table.names[final["result"]["winning_seats"][0]]
    profile = await client.get(f"/agents/{winner}")
    assert profile.status_code == 200
    assert '<b id="stat-civ">' in profile.text and "卧底胜" in profile.text  # undercover's profile.html
    assert f'<span class="w-civ">{pair["civilian"]}</span> / <span class="w-uc">{pair["undercover"]}</span>' \
        in profile.text  # its history.html
    lobby = await client.get("/?lang=en")
    camp = final["result"]["winner_camp"]
    assert pages.game_strings("undercover")["en"][f"camp_{camp}"] in lobby.text
    assert f'<span class="w-uc">{pair["undercover"]}</span>' in lobby.text  # its room.html


def test_english_strings_agree_with_their_number() -> None:
    """`{n|one|other}` picks the singular for 1 (the pages and `static/js/dom.js` read the same syntax)."""
    english, chinese = pages.Texts("en"), pages.Texts("zh")
    assert [english("seats_open", n=n) for n in (1, 2, 0)] == ["1 seat open", "2 seats open", "0 seats open"]
    assert english("game_waiting_n", n=1) == "1 room waiting"
    assert chinese("seats_open", n=1) == "还差 1 人"


async def test_account_pages_are_never_stored_by_a_cache(client: httpx.AsyncClient) -> None:
    """An account's pages and claim links depend on the session cookie: no-store, as the API's answers."""
    for path in ("/login", "/my", "/claim/not-a-token"):
        response = await client.get(path, follow_redirects=False)
        assert response.headers.get_list("cache-control") == ["no-store"], (path, response.headers)
        assert "Cookie" in response.headers["vary"]
    assert "no-store" not in (await client.get("/")).headers.get("cache-control", "")  # the lobby may be cached


async def test_the_skill_guides_are_served_head_works_and_the_language_switch_keeps_the_query(
        client: httpx.AsyncClient) -> None:
    """An agent fetches its game's guide from the server (`/<game>-skill.md`, as the docs say); `HEAD` answers as
    `GET` without the body (uptime checkers); the language switch keeps the page's own query (the form's game);
    an unknown game's form is a 404."""
    root = pages.ROOT
    for game in ("undercover", "werewolf", "script_kill", "avalon"):
        guide = await client.get(f"/{game}-skill.md")
        assert guide.status_code == 200 and guide.headers["content-type"].startswith("text/markdown")
        assert guide.content == (root / f"{game}-skill.md").read_bytes()
    assert (await client.get("/chess-skill.md")).status_code == 404
    assert (await client.get("/..%2Fpyproject.toml-skill.md")).status_code == 404
    for path in ("/", "/healthz", "/undercover-skill.md", "/play?game=avalon"):
        head = await client.head(path)
        assert head.status_code == 200 and head.content == b"", (path, head.status_code)
    form = (await client.get("/play?game=avalon")).text
    assert re.search(r'href="/play\?game=avalon&amp;lang=en" id="lang-switch"', form), form[:2000]
    english = (await client.get("/play?game=avalon&lang=en")).text
    assert re.search(r'href="/play\?game=avalon" id="lang-switch"', english)
    assert (await client.get("/play?game=nope")).status_code == 404
