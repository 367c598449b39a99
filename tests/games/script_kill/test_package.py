"""The package schema and the validator: every shipped script passes, a bad one names the bad field's path."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games.script_kill.package import SCRIPTS_DIR, load_script, parse_script, script_ids
from app.games.script_kill.validate import PackageError, main


def _tiny() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCRIPTS_DIR / "tiny.json").read_text(encoding="utf-8"))
    return data


def _problems(doc: dict[str, Any]) -> list[str]:
    with pytest.raises(PackageError) as info:
        parse_script(json.dumps(doc, ensure_ascii=False))
    return info.value.problems


@pytest.mark.parametrize("script_id", script_ids())
def test_every_shipped_script_validates(script_id: str) -> None:
    script = load_script(script_id)
    assert script.id == script_id
    assert len(script.characters) == 6


def test_cli_reports_ok_and_failure(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    bad = _tiny()
    bad["culprit"] = "c9"
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    assert main([str(path)]) == 1
    assert "culprit: unknown character 'c9'" in capsys.readouterr().err


def test_shape_errors_name_the_path() -> None:
    doc = _tiny()
    doc["characters"][2]["timeline"][0]["day"] = 4
    doc["items"][1]["type"] = "gadget"
    problems = _problems(doc)
    assert any(p.startswith("characters[2].timeline[0].day:") for p in problems)
    assert any(p.startswith("items[1].type:") for p in problems)


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda d: d["characters"].pop(), "characters: exactly 6 required, 5 found"),
        (lambda d: d["clues"][1].update(location="cellarx"), "clues[1].location: unknown location 'cellarx'"),
        (lambda d: d["clues"][0].update(location="cellar"), "clues[0].location: 'cellar' opens in act 2"),
        (lambda d: d["clues"].append(dict(d["clues"][0])), "clues: id 'k01' appears 2 times"),
        (lambda d: d["clues"][1].update(is_key=False), "clues: no key clue in act 1"),
        (lambda d: d["items"][0].update(tradable=True), "items[0].tradable: key item 'i01' must not be tradable"),
        (lambda d: d["items"][2]["effect"].update(clue="k99"), "items[2].effect.clue: unknown clue 'k99'"),
        (lambda d: d.update(powers=[p for p in d["powers"] if p["act"] == 2]), "powers (act 1): 0 found, 1–2 required"),
        (lambda d: d["powers"].append({**d["powers"][0], "id": "p9", "owner": "c1"}), "powers (act 1): 3 found"),
        (lambda d: d["powers"][1].update(target="none"), "powers[1].target: peek_clues needs a character or location"),
        (lambda d: d["powers"][0].update(owner="c9"), "powers[0].owner: unknown character 'c9'"),
        (lambda d: d["events"].pop(0), "events (act 1): 1 found, 2–3 required"),
        (lambda d: d["events"][0].update(stage="discuss_r2"), "events[0].stage: 'discuss_r2' is not a stage of act 1"),
        (lambda d: d["anchors"]["anchor_r1"].update(unlock_locations=[]), "act-2 location 'cellar' is unlocked by"),
        (lambda d: d["characters"][0]["items"].append("i01"), "item 'i01' is held by 2 characters"),
        (lambda d: d["characters"][0]["secret_phrases"].__setitem__(0, " "), "secret_phrases[0]: blank phrase"),
        (lambda d: d["characters"][0]["timeline"].pop(), "characters[0].timeline: no entry for day 3"),
        (lambda d: d["clues"][1]["weights"].update(c4=-5), "key clues' weights do not single out the culprit"),
        (lambda d: d.update(test_only=False), "clues: 10 found, 40–50 required"),
    ],
)
def test_cross_record_checks(mutate: Any, expected: str) -> None:
    doc = _tiny()
    mutate(doc)
    assert any(expected in p for p in _problems(doc)), _problems(doc)


def test_file_stem_must_match_id() -> None:
    with pytest.raises(PackageError, match="differs from the file name"):
        parse_script((SCRIPTS_DIR / "tiny.json").read_text(encoding="utf-8"), "other")
