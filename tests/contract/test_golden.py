"""The golden runner: every game's scripted scenarios reproduce their committed transcripts byte for byte, show
what their expectation says, replay from the file alone and play the same way twice.

Regenerate after an intended rule change with `WODI_REGEN_GOLDEN=1`, then review the diff.
"""

from __future__ import annotations

import json
import os

import pytest

from tests.contract.fixture import FIXTURES, Goldens

REGEN = os.environ.get("WODI_REGEN_GOLDEN") == "1"
GOLDENS: dict[str, Goldens] = {name: f.goldens for name, f in FIXTURES.items() if f.goldens is not None}
CASES = [(game, name) for game, g in sorted(GOLDENS.items()) for name in sorted(g.scenarios)]


@pytest.mark.parametrize("game", sorted(GOLDENS))
def test_every_scenario_has_an_expectation_and_a_file(game: str) -> None:
    goldens = GOLDENS[game]
    assert set(goldens.expect) == set(goldens.scenarios)
    assert {p.stem for p in goldens.folder.glob("*.json")} == set(goldens.scenarios)


@pytest.mark.parametrize(("game", "name"), CASES)
def test_golden_transcript(game: str, name: str) -> None:
    goldens = GOLDENS[game]
    text = goldens.dumps(goldens.scenarios[name]().transcript(name))
    assert goldens.expect[name](json.loads(text)), name
    path = goldens.folder / f"{name}.json"
    if REGEN:
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(("game", "name"), CASES)
def test_transcript_replays_from_the_file_alone(game: str, name: str) -> None:
    goldens = GOLDENS[game]
    transcript = json.loads((goldens.folder / f"{name}.json").read_text(encoding="utf-8"))
    assert json.loads(json.dumps(goldens.replay(transcript))) == transcript["events"]


@pytest.mark.parametrize(("game", "name"), CASES)
def test_deterministic(game: str, name: str) -> None:
    scenario = GOLDENS[game].scenarios[name]
    assert json.dumps(scenario().events, sort_keys=True) == json.dumps(scenario().events, sort_keys=True)
