"""The public events' floor fields (issue 27: who holds the floor next, its deadline, who may vote) are additive.

Strip exactly those keys from each golden transcript as the games write it today and it is, byte for byte, the
transcript committed before the fields existed: `goldens_before_floor_fields.json` holds the sha256 of every
golden file at that commit (check one with `git show 762af2f:<path> | sha256sum`). So the golden transcripts prove
the behaviour unchanged while the events carry more. One rule changed since, on purpose (`CONCEDED_WINNERS`).
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from tests.contract.test_golden import CASES, GOLDENS

ROOT = Path(__file__).resolve().parents[2]
BEFORE = json.loads((Path(__file__).with_name("goldens_before_floor_fields.json")).read_text(encoding="utf-8"))
ADDED: dict[str, tuple[str, ...]] = {
    "phase_started": ("current_speaker_seat", "voters"),
    "speech_posted": ("next_speaker_seat", "deadline_ts"),
    "speech_skipped": ("next_speaker_seat", "deadline_ts"),
    "player_conceded": ("next_speaker_seat", "deadline_ts"),
}
"""Event type → the keys the floor added to it (only the kit's floor and ballot write them)."""
CONCEDED_WINNERS: dict[str, tuple[int, ...]] = {"tests/games/undercover/golden/speaker_concedes.json": (1,)}
"""The one intended rule change since: a seat that conceded on the winning side is a loser (§2.8), where it was a
winner. File → those seats; they are put back among the winners before the comparison."""


def strip_added(transcript: dict[str, Any]) -> dict[str, Any]:
    """The transcript without the added keys: of a speech or a concession, only when it names the next speaker
    (another game's own `speech_skipped` may carry its own `deadline_ts`)."""
    out = copy.deepcopy(transcript)
    for event in out["events"]:
        keys = ADDED.get(event["type"], ())
        if event["type"] != "phase_started" and "next_speaker_seat" not in event:
            keys = ()
        for key in keys:
            event.pop(key, None)
    return out


def as_before_the_concession_rule(transcript: dict[str, Any], seats: tuple[int, ...]) -> dict[str, Any]:
    out = copy.deepcopy(transcript)
    ended = [e for e in out["events"] if e["type"] == "match_finished"] + [out["result"]]
    for result in ended:
        assert set(seats) <= set(result["losing_seats"])  # the rule did move them
        result["winning_seats"] = sorted([*result["winning_seats"], *seats])
        result["losing_seats"] = [s for s in result["losing_seats"] if s not in seats]
    return out


def test_every_golden_file_had_a_transcript_before() -> None:
    assert {f"{GOLDENS[g].folder.relative_to(ROOT)}/{n}.json" for g, n in CASES} == set(BEFORE["sha256"])


@pytest.mark.parametrize(("game", "name"), CASES)
def test_the_transcript_less_the_floor_fields_is_the_one_before(game: str, name: str) -> None:
    goldens = GOLDENS[game]
    path = goldens.folder / f"{name}.json"
    transcript = strip_added(json.loads(path.read_text(encoding="utf-8")))
    moved = CONCEDED_WINNERS.get(str(path.relative_to(ROOT)))
    text = goldens.dumps(transcript if moved is None else as_before_the_concession_rule(transcript, moved))
    before = BEFORE["sha256"][str(path.relative_to(ROOT))]
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == before


def test_the_floor_fields_are_there() -> None:
    """Not a vacuous strip: the round tables' transcripts carry the new keys."""
    seen: set[tuple[str, str]] = set()
    for game, name in CASES:
        transcript = json.loads((GOLDENS[game].folder / f"{name}.json").read_text(encoding="utf-8"))
        for event in transcript["events"]:
            seen |= {(event["type"], key) for key in ADDED.get(event["type"], ()) if key in event}
    assert seen >= {("phase_started", "current_speaker_seat"), ("phase_started", "voters"),
                    ("speech_posted", "next_speaker_seat"), ("speech_posted", "deadline_ts"),
                    ("speech_skipped", "next_speaker_seat"), ("player_conceded", "next_speaker_seat")}
