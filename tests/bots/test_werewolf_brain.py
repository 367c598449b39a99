"""The werewolf brain on the generic in-process simulator: every seat sees only its projection snapshot.

Persona bots and the random baseline send nothing the rules refuse; persona villages beat the random
village; no seat repeats a sentence within a game; the brain reads no god field; and the table behaves as
the brain's docstrings say (the witch saves on night 1, the pack agrees, the seer reveals a wolf, wolves
sometimes fake a claim).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from app.bots import arena
from app.bots.sim import TableRecord, play
from app.games.werewolf import brain
from app.games.werewolf.game import GAME

PRESETS = [6, 9, 12]
GAMES_PER_PRESET = 30
GOD_ROWS = ("role", "camp", "death_cause")


def _personas(seed: int, n: int) -> list[Any]:
    return arena.seats(seed, f"{n}p", 0, n)[0]


def _play(n: int, seed: int, baseline: frozenset[str] = frozenset()) -> TableRecord:
    return play(GAME, {"n_players": n}, _personas(seed, n), brain.decide, seed, baseline_sides=baseline)


@pytest.fixture(scope="module")
def persona_games() -> dict[int, list[TableRecord]]:
    return {n: [_play(n, 100 * n + i) for i in range(GAMES_PER_PRESET)] for n in PRESETS}


@pytest.mark.parametrize("n", PRESETS)
def test_persona_bots_finish_every_game_with_nothing_refused(persona_games: dict[int, list[TableRecord]],
                                                            n: int) -> None:
    records = persona_games[n]
    assert all(r.winner in ("village", "werewolf") for r in records)
    assert sum((r.errors for r in records), Counter[str]()) == Counter()
    assert sum(r.silent for r in records) == 0
    assert {r.winner for r in records} == {"village", "werewolf"}


@pytest.mark.parametrize("n", PRESETS)
def test_the_random_baseline_sends_nothing_refused_either(n: int) -> None:
    records = [_play(n, 7000 + i, frozenset(GAME.sides)) for i in range(GAMES_PER_PRESET)]
    assert all(r.winner in ("village", "werewolf") for r in records)
    assert sum((r.errors for r in records), Counter[str]()) == Counter()
    assert sum(r.silent for r in records) == 0


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"[。！？!?…～~]+", text) if s.strip()]


@pytest.mark.parametrize("n", PRESETS)
def test_no_seat_says_a_sentence_twice_and_texts_stay_in_persona(persona_games: dict[int, list[TableRecord]],
                                                                n: int) -> None:
    spoken = 0
    for record in persona_games[n]:
        for seat, texts in record.texts.items():
            said = [s for text in texts for s in _sentences(text)]
            assert len(said) == len(set(said)), (seat, Counter(said).most_common(3))
            assert all(0 < len(text) <= 500 for text in texts)
            assert not [t for t in texts if re.search(r"AI|机器人|bot|人工智能|程序", t, re.IGNORECASE)]
            spoken += len(texts)
    assert spoken > 10 * GAMES_PER_PRESET


def test_speech_varies_across_seats_and_games(persona_games: dict[int, list[TableRecord]]) -> None:
    texts = [t for r in persona_games[9] for ts in r.texts.values() for t in ts]
    assert len(set(texts)) > 0.8 * len(texts)
    sentences = Counter(s for t in texts for s in _sentences(t))
    assert len(sentences) > 150


def test_persona_villages_beat_the_random_village() -> None:
    """Measured at 300 deals (README): +33 points at 6 seats, +28 at 9, +40 at 12; asserted loosely here."""
    persona = baseline = 0
    deals = 150
    for i in range(deals):
        personas, seed = arena.seats(11, "9p", i, 9)
        for plain, _ in ((frozenset({"werewolf"}), "persona village"), (frozenset(GAME.sides), "random")):
            record = play(GAME, {"n_players": 9}, personas, brain.decide, seed, baseline_sides=plain)
            won = record.winner == "village"
            persona += won and plain != frozenset(GAME.sides)
            baseline += won and plain == frozenset(GAME.sides)
    assert (persona - baseline) / deals > 0.15, (persona, baseline)


def _has_god_field(snap: dict[str, Any]) -> bool:
    return (any(k in snap for k in GAME.secret_fields) or "spectator_log" in snap
            or any(k in row for row in snap["players"] for k in GOD_ROWS))


def test_the_brain_reads_no_god_field() -> None:
    """Each call gets the seat's projection snapshot (no god field in it); the same call with false god fields
    added (wrong roles everywhere, a made-up night) decides exactly the same."""
    calls = 0

    def spying(snap: dict[str, Any], persona: str, rng: random.Random, *, baseline: bool = False) -> Any:
        nonlocal calls
        calls += 1
        assert not _has_god_field(snap)
        state = rng.getstate()
        body = brain.decide(snap, persona, rng, baseline=baseline)
        liar = random.Random(calls)
        roles = ["werewolf", "villager", "seer", "witch", "hunter", "guard"]
        poisoned = {**snap, "roles": {str(p["seat"]): liar.choice(roles) for p in snap["players"]},
                    "night_actions": {"victim": liar.randrange(len(snap["players"])), "wolf_choices": {}},
                    "spectator_log": [{"type": "roles_dealt", "visibility": "god_only", "roles": {}}],
                    "players": [{**p, "role": liar.choice(roles), "camp": "werewolf", "death_cause": "shot"}
                                for p in snap["players"]]}
        copy = random.Random()
        copy.setstate(state)
        assert brain.decide(poisoned, persona, copy, baseline=baseline) == body
        return body

    for n in PRESETS:
        record = play(GAME, {"n_players": n}, _personas(5, n), spying, 900 + n)
        assert record.winner is not None and not record.errors
    assert calls > 100


def _events(record: TableRecord, kind: str) -> list[dict[str, Any]]:
    return [e for e in record.events if e["type"] == kind]


def test_the_witch_saves_on_night_one_and_the_pack_agrees(persona_games: dict[int, list[TableRecord]]) -> None:
    informed = saved = 0
    for record in (r for rs in persona_games.values() for r in rs):
        for event in _events(record, "witch_informed"):
            if event["round"] == 1 and event["victim_seat"] is not None:
                informed += 1
                night = next(e for e in _events(record, "night_resolved") if e["round"] == 1)
                saved += bool(night.get("saved"))
        decided = _events(record, "wolves_decided")
        assert decided and all(e["by"] == "majority" and e["target_seat"] is not None for e in decided)
        wolves = {s for s, side in record.sides.items() if side == "werewolf"}
        assert not [e for e in decided if e["target_seat"] in wolves]
    assert informed > 50 and saved == informed


def test_the_seer_reveals_a_wolf_and_wolves_sometimes_fake_a_claim(
        persona_games: dict[int, list[TableRecord]]) -> None:
    found = revealed = fakes = 0
    for record in (r for rs in persona_games.values() for r in rs):
        speeches = _events(record, "speech_posted") + _events(record, "last_words_posted")
        for result in _events(record, "seer_result"):
            if not result["is_werewolf"]:
                continue
            nxt = [e for e in speeches if e["seat"] == result["seat"] and e["round"] == result["round"]]
            if nxt:
                found += 1
                revealed += any(f"{result['target_seat']}号" in e["text"] and re.search("查杀|狼人", e["text"])
                               for e in nxt)
        wolves = {s for s, side in record.sides.items() if side == "werewolf"}
        fakes += any(e["seat"] in wolves and "预言家" in e["text"] and "查杀" in e["text"] for e in speeches)
    assert found > 20 and revealed == found
    assert fakes > 5
