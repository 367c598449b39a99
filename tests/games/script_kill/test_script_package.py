"""The shipped script 松鹤山庄的最后一壶茶 (`songhe_manor`): valid, solvable from its clues, coherent, playable.

The validator's own checks are tested on the tiny script (test_package.py); here the real package is held to
what makes it a fair mystery: the key clues name the culprit, every innocent looks guilty once and is cleared,
the timelines and the clues agree on every time they both mention.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from typing import Any

import pytest

from app.games.script_kill.actions import INVESTIGATIONS_PER_ROUND
from app.games.script_kill.game import GAME
from app.games.script_kill.package import (
    CLUES_RANGE,
    ITEMS_RANGE,
    SCRIPTS_DIR,
    PackageError,
    Script,
    parse_script,
    problems,
)
from app.games.script_kill.validate import check_file
from tests.games.script_kill import helpers
from tests.games.script_kill.helpers import Played, expire, play, table

SCRIPT_ID = "songhe_manor"
PATH = SCRIPTS_DIR / f"{SCRIPT_ID}.json"
DATES = {1: "12月21日", 2: "12月22日"}
TIME = re.compile(r"\b(?:[01]\d|2[0-3]):[0-5]\d\b")


@pytest.fixture(scope="module")
def script() -> Script:
    return check_file(PATH)


def _raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PATH.read_text(encoding="utf-8"))
    return data


def _innocents(script: Script) -> list[str]:
    return [c.id for c in script.characters if c.id != script.culprit]


def test_the_validator_accepts_it(script: Script) -> None:
    assert script.id == SCRIPT_ID and not script.test_only
    assert problems(script, SCRIPT_ID) == []


def test_it_is_the_default_script() -> None:
    assert GAME.parse_config(None).script == SCRIPT_ID


def _set_clue_location(d: dict[str, Any]) -> None:
    d["clues"][5]["location"] = "vault"


def _set_item_effect(d: dict[str, Any]) -> None:
    next(i for i in d["items"] if i["id"] == "i15")["effect"]["clue"] = "k99"


def _set_held_item(d: dict[str, Any]) -> None:
    d["characters"][3]["items"].append("i99")


def _set_power_owner(d: dict[str, Any]) -> None:
    d["powers"][2]["owner"] = "c7"


def _set_anchor_unlock(d: dict[str, Any]) -> None:
    d["anchors"]["anchor_r1"]["unlock_locations"].append("vault")


def _set_culprit(d: dict[str, Any]) -> None:
    d["culprit"] = "c0"


def _set_key_weight(d: dict[str, Any]) -> None:
    next(k for k in d["clues"] if k["id"] == "k19")["weights"]["c1"] = 40


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (_set_clue_location, "clues[5].location: unknown location 'vault'"),
        (_set_item_effect, ".effect.clue: unknown clue 'k99'"),
        (_set_held_item, "characters[3].items[3]: unknown item 'i99'"),
        (_set_power_owner, "powers[2].owner: unknown character 'c7'"),
        (_set_anchor_unlock, "anchors.anchor_r1.unlock_locations[3]: unknown location 'vault'"),
        (_set_culprit, "culprit: unknown character 'c0'"),
        (_set_key_weight, "key clues' weights do not single out the culprit"),
    ],
)
def test_the_validator_refuses_a_broken_copy(mutate: Any, expected: str) -> None:
    doc = copy.deepcopy(_raw())
    mutate(doc)
    with pytest.raises(PackageError) as info:
        parse_script(json.dumps(doc, ensure_ascii=False), SCRIPT_ID)
    assert any(expected in p for p in info.value.problems), info.value.problems


def test_the_key_clues_rank_the_culprit_first_strictly(script: Script) -> None:
    totals = Counter({c.id: 0 for c in script.characters})
    for clue in script.clues:
        if clue.is_key:
            totals.update(clue.weights)
    ranking = totals.most_common()
    assert ranking[0][0] == script.culprit and ranking[0][1] > ranking[1][1], ranking


def test_no_key_clue_points_away_from_the_culprit(script: Script) -> None:
    for clue in (k for k in script.clues if k.is_key):
        culprit = clue.weights.get(script.culprit, 0)
        assert culprit >= 0, clue.id
        assert all(w < culprit for who, w in clue.weights.items() if who != script.culprit and w > 0), clue.id
    assert all(k.weights.get(script.culprit, 0) >= 0 for k in script.clues), "no clue clears the culprit"


def test_every_innocent_looks_guilty_once_and_is_cleared(script: Script) -> None:
    for who in _innocents(script):
        herrings = [k.id for k in script.clues if not k.is_key and k.weights.get(who, 0) > 0]
        cleared = [k.id for k in script.clues if k.is_key and k.weights.get(who, 0) < 0]
        assert herrings and cleared, (who, herrings, cleared)


def test_every_character_is_in_some_clue(script: Script) -> None:
    about = {who for k in script.clues for who in k.about}
    assert about == {c.id for c in script.characters}
    for clue in script.clues:
        assert set(clue.weights) <= set(clue.about), clue.id


def test_every_act_has_key_clues(script: Script) -> None:
    keys = Counter(k.act for k in script.clues if k.is_key)
    assert keys[1] >= 3 and keys[2] >= 3, keys


def test_every_timeline_covers_three_days_in_order(script: Script) -> None:
    for character in script.characters:
        for day in (1, 2, 3):
            times = [t.time for t in character.timeline if t.day == day]
            assert times and times == sorted(times), (character.id, day, times)
    review = [(t.day, t.time) for t in script.review.timeline]
    assert review == sorted(review)


def test_every_location_holds_a_clue(script: Script) -> None:
    held = Counter(k.location for k in script.clues)
    for location in script.locations:
        assert held[location.id] >= 2, location.id
        assert any(k.act == location.act for k in script.clues if k.location == location.id), location.id


def test_every_clue_can_be_found_by_searching(script: Script) -> None:
    assert all(k.location is not None for k in script.clues)


def _table_draws(script: Script, location: str) -> list[str]:
    """The cards the table draws at `location` when its searches there add up to three a round, whoever makes
    them (the cards are physical: one deck per location, the next undrawn card of the acts so far, tier first,
    then id)."""
    drawn: list[str] = []
    for act in range(script.location(location).act, 3):
        for _ in range(INVESTIGATIONS_PER_ROUND):
            here = sorted((k for k in script.clues if k.location == location and k.act <= act),
                          key=lambda k: (k.tier, k.id))
            drawn += [k.id for k in here if k.id not in drawn][:1]
    return drawn


def test_the_table_that_searches_a_room_reaches_its_key_clues_in_their_act(script: Script) -> None:
    for clue in (k for k in script.clues if k.is_key):
        assert clue.location is not None
        opens = script.location(clue.location).act
        rounds = clue.act - opens + 1
        assert clue.id in _table_draws(script, clue.location)[: rounds * INVESTIGATIONS_PER_ROUND], clue.id


def test_the_engine_draws_a_room_as_the_table_model_says(script: Script) -> None:
    """Three seats each search the study once a round: together they draw what the model says, none twice."""
    played = table(script=SCRIPT_ID, seed=5)
    drawn: list[str] = []
    while played.state.phase != "anchor_r2":
        if played.state.phase in ROOMS:
            for seat in range(INVESTIGATIONS_PER_ROUND):
                events = helpers.act(played, seat, type="investigate", location="study")
                drawn += [e["clue"]["id"] for e in events if e["type"] == "clue_found"]
        expire(played)
    assert drawn == _table_draws(script, "study")
    assert len(drawn) == len(set(drawn))


def test_counts_are_in_range(script: Script) -> None:
    assert CLUES_RANGE[0] <= len(script.clues) <= CLUES_RANGE[1]
    assert ITEMS_RANGE[0] <= len(script.items) <= ITEMS_RANGE[1]
    assert Counter(k.tier for k in script.clues) == Counter({1: 13, 2: 22, 3: 12})
    assert {i.type for i in script.items} == {"clue_item", "tool", "weapon", "personal"}
    for act in (1, 2):
        assert 1 <= sum(p.act == act for p in script.powers) <= 2
        assert 2 <= sum(e.act == act for e in script.events) <= 3


def test_key_items_are_not_tradable_and_the_tradable_ones_can_be_traded(script: Script) -> None:
    for item in script.items:
        if item.is_key or item.type == "weapon":
            assert not item.tradable, item.id
        if item.tradable:
            assert item.type == "clue_item" and not item.is_key, item.id
    assert any(i.tradable for i in script.items)


def test_an_item_lying_in_a_room_reveals_nothing_ahead_of_its_act(script: Script) -> None:
    """Items are taken by the first search of their room, whatever the act: their clue must not jump an act."""
    for item in script.items:
        clue = getattr(item.effect, "clue", None)
        if item.location is not None and clue is not None:
            assert script.clue(clue).act <= script.location(item.location).act, item.id


def test_every_item_starts_in_one_place(script: Script) -> None:
    held = [i for c in script.characters for i in c.items]
    placed = [i.id for i in script.items if i.location is not None]
    assert sorted(held + placed) == sorted(i.id for i in script.items)
    assert all(c.items for c in script.characters)


def test_texts_are_unique(script: Script) -> None:
    for texts in ([k.text for k in script.clues], [i.name for i in script.items], [i.text for i in script.items],
                  [c.name for c in script.characters], [x.name for x in script.locations]):
        assert len(texts) == len(set(texts))


def test_each_character_relates_to_all_the_others(script: Script) -> None:
    everyone = {c.id for c in script.characters}
    for character in script.characters:
        assert {r.to for r in character.relations} == everyone - {character.id}, character.id


def _timeline_times(script: Script) -> set[tuple[int, str]]:
    times = set()
    for character in script.characters:
        for entry in character.timeline:
            times.add((entry.day, entry.time))
            times.update((entry.day, t) for t in TIME.findall(entry.text))
    return times


def test_the_clues_times_agree_with_the_timelines(script: Script) -> None:
    """A time in a clue is the night of the murder (day 3, 12月23日) unless the clue names day 1 or 2's date."""
    known = _timeline_times(script)
    for clue in script.clues:
        day = next((d for d, date in DATES.items() if date in clue.text), 3)
        for time in TIME.findall(clue.text):
            assert (day, time) in known, (clue.id, day, time)


def test_the_review_replays_the_characters_timelines(script: Script) -> None:
    entries = {(t.day, t.time) for c in script.characters for t in c.timeline}
    for entry in script.review.timeline:
        assert (entry.day, entry.time) in entries, entry


# Moments two or more characters share: each of them has an entry at that very time.
SHARED = [
    (2, "15:00", "c1 c2 c3 c4 c5 c6"),  # the snow shovelling (and who stayed in the hall)
    (2, "19:00", "c1 c3"),  # the quarrel in the study, overheard in the corridor
    (3, "20:40", "c1 c4 c6"),  # the announcement of the new will
    (3, "22:06", "c2 c4 c6"),  # the game of go starts; the "typing" starts
    (3, "22:12", "c2 c6"),  # the victim crosses the hall to the greenhouse
    (3, "22:18", "c4 c5"),  # the tea artist slips into the study; the poisoner hears it through the bookcase
    (3, "22:25", "c2 c5"),  # the tea artist glimpsed at the end of the east corridor
    (3, "22:30", "c2 c6"),  # the victim back from the greenhouse
    (3, "22:42", "c2 c6"),  # "明天再说，我有点不舒服" through the door
    (3, "22:55", "c1 c4"),  # the meeting on the stairs
]


@pytest.mark.parametrize(("day", "time", "who"), SHARED)
def test_shared_moments_agree_across_timelines(script: Script, day: int, time: str, who: str) -> None:
    for cid in who.split():
        assert any(t.day == day and t.time == time for t in script.character(cid).timeline), (cid, day, time)


def test_secret_phrases_are_private_words(script: Script) -> None:
    public = " ".join([script.intro, script.anchors.anchor_r1.text, script.anchors.anchor_r2.text,
                       *(c.public for c in script.characters), *(e.text for e in script.events)])
    for character in script.characters:
        private = " ".join([character.secret, character.script, *(t.text for t in character.timeline)])
        for phrase in character.secret_phrases:
            assert phrase in private, (character.id, phrase)
            assert phrase not in public, (character.id, phrase)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_game_of_it_plays_to_an_ending(script: Script, seed: int) -> None:
    played = play(seed=seed, script=SCRIPT_ID)
    state = played.state
    assert state.status == "finished" and state.ending in ("perfect", "normal", "failure")
    anchors = [e["text"] for e in played.events if e["type"] == "anchor"]
    assert anchors == [script.anchors.anchor_r1.text, script.anchors.anchor_r2.text]
    assert {k.id for k in script.clues if k.is_key} <= state.found_anywhere()
    culprit_out = state.voted_out is not None and state.players[state.voted_out].character == script.culprit
    assert (state.ending != "failure") == culprit_out


# A table that shares the rooms out: each seat searches its room three times a round (act 2 keeps the library and
# the east rooms with the seats that began them); the greenhouse's copper key opens the attic for seat 5.
ROOMS = {
    "explore_r1": ["study", "hall", "library", "west_rooms", "east_rooms", "kitchen"],
    "explore_r2": ["greenhouse", "cellar", "library", "backyard", "east_rooms", "attic"],
}


def _search_the_rooms(played: Played, stage: str) -> None:
    for seat, room in enumerate(ROOMS[stage]):
        if room == "attic":
            holder = played.state.holder("i21")
            assert holder is not None
            helpers.act(played, holder, type="use_item", item="i21")
        for _ in range(INVESTIGATIONS_PER_ROUND):
            helpers.act(played, seat, type="investigate", location=room)


def _to_the_end(played: Played, search: bool, accuse: str) -> None:
    """Every stage runs out on the clock, but for the searches (`search`) and the final vote: everybody accuses the
    character `accuse` (who accuses the first other character)."""
    state = played.state
    while state.status == "in_progress":
        if search and state.phase in ROOMS:
            _search_the_rooms(played, state.phase)
        if state.phase == "final_vote":
            seats = {str(p.character): p.seat for p in state.players}
            other = next(cid for cid in sorted(seats) if cid != accuse)
            for p in state.players:
                helpers.act(played, p.seat, type="vote", target=seats[other if p.character == accuse else accuse])
        else:
            expire(played)
        state = played.state


@pytest.mark.parametrize(("search", "accused", "ending"), [
    (True, "culprit", "perfect"),
    (False, "culprit", "normal"),
    (True, "c1", "failure"),
])
def test_the_endings_matrix_on_this_script(script: Script, search: bool, accused: str, ending: str) -> None:
    played = table(script=SCRIPT_ID, seed=11)
    _to_the_end(played, search, script.culprit if accused == "culprit" else accused)
    found = set().union(*(p.clues for p in played.state.players))
    keys = {k.id for k in script.clues if k.is_key}
    assert (keys <= found) == search
    assert played.state.ending == ending
