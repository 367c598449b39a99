"""The pure parts of an event: table sizes, splits (owners apart, repeats avoided, sides owed, scores together;
exhaustive for small fields, by swaps for large ones), seats by the side owed, and standings with their
tie-breaks on hand-made results."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from app.services.platform import tournament_pairing as pairing
from app.services.platform.tournament_pairing import Entrant
from app.services.platform.tournament_standings import Game, side_rates, standings
from app.services.platform.tournaments import default_rounds

SHARES = {"a": 4, "b": 2}  # a 6-seat table: 4 seats of side a, 2 of side b


def test_table_sizes() -> None:
    assert pairing.table_sizes(8, 6, "swiss") == [4, 4]
    assert pairing.table_sizes(13, 6, "swiss") == [5, 4, 4]
    assert pairing.table_sizes(6, 6, "round_robin") == [6]
    assert pairing.table_sizes(3, 6, "gauntlet") == [1, 1, 1]
    assert pairing.table_sizes(0, 6, "swiss") == []


def test_owners_apart_then_repeats_then_scores() -> None:
    field = [Entrant(f"e{i}", owner=f"o{i // 2}", score=float(i)) for i in range(8)]
    split = pairing.group(field, 6, "swiss", {}, SHARES, random.Random(1))
    assert all(len({e.owner for e in table}) == len(table) for table in split)  # o0's two agents never together
    unowned = [Entrant(f"e{i}", owner=f"e{i}", score=float(i // 4)) for i in range(8)]
    split = pairing.group(unowned, 6, "swiss", {}, SHARES, random.Random(1))
    assert sorted(sorted(e.score for e in t) for t in split) == [[0.0] * 4, [1.0] * 4]  # similar scores together
    met = {frozenset(p): 1 for p in itertools.combinations([e.key for e in unowned[:4]], 2)}
    split = pairing.group(unowned, 6, "swiss", met, SHARES, random.Random(1))
    assert all(sum(e.key in {"e0", "e1", "e2", "e3"} for e in t) == 2 for t in split)  # repeats beat scores


def test_a_large_field_is_split_by_swaps_without_repeats() -> None:
    field = [Entrant(f"e{i:02}", owner=f"e{i:02}") for i in range(24)]
    rng = random.Random(3)
    met: Counter[frozenset[str]] = Counter()
    for _ in range(3):  # 24 entrants at 6 tables of 4: ~10^13 splits, searched by swaps
        split = pairing.group(field, 4, "round_robin", met, {"a": 3, "b": 1}, rng)
        assert sorted(len(t) for t in split) == [4] * 6
        for table in split:
            met.update(frozenset(p) for p in itertools.combinations([e.key for e in table], 2))
    assert max(met.values()) == 1  # three rounds, nobody met twice


def test_seats_go_to_the_side_most_owed() -> None:
    sides = {0: "a", 1: "b", 2: "a", 3: "a", 4: "b", 5: "a"}
    fresh = Entrant("fresh", "fresh")
    owed_b = Entrant("owed", "owed", sides={"a": 2})
    full = [fresh, owed_b, *(Entrant(f"e{i}", f"e{i}") for i in range(4))]  # no reference seat to draw
    placed = pairing.seat(full, sides, SHARES, random.Random(1))
    assert sides[next(s for s, e in placed.items() if e.key == "owed")] == "b"
    assert sides[next(s for s, e in placed.items() if e.key == "fresh")] == "a"  # 2/3 owed of a, 1/3 of b
    assert len(placed) == 6


def test_the_reference_seats_are_drawn_by_lot() -> None:
    """Which seats the reference plays is public while the match runs: their sides must tell nothing. Fresh
    entrants are all owed the big side; had they chosen first, the reference would always hold the small one."""
    sides = {0: "a", 1: "b", 2: "a", 3: "a", 4: "b", 5: "a"}
    entrants = [Entrant(f"e{i}", f"e{i}") for i in range(4)]
    held: Counter[str] = Counter()
    for lot in range(600):
        placed = pairing.seat(entrants, sides, SHARES, random.Random(lot))
        assert len(placed) == 4 and {e.key for e in placed.values()} == {e.key for e in entrants}
        held.update(sides[s] for s in sides if s not in placed)
    assert 0.27 < held["b"] / sum(held.values()) < 0.40  # 1/3 of the seats are b, and so of the reference's


def test_standings_with_tie_breaks() -> None:
    games = [
        Game((1, 0), "x", "a", True), Game((1, 0), "y", "a", True), Game((1, 0), "z", "b", False),
        Game((1, 0), None, "b", False),
        Game((2, 0), "x", "b", False), Game((2, 0), "y", "b", False, forfeit=True), Game((2, 0), "z", "a", True),
        Game((2, 0), None, "a", True),
    ]
    rates = side_rates(games)
    assert rates == {"a": pytest.approx(5 / 6), "b": pytest.approx(1 / 6)}
    rows = {r["agent_id"]: r for r in standings(["x", "y", "z"], games)}
    assert rows["x"]["score"] == round(1 + 0.5 - 5 / 6 + 0.5 - 1 / 6, 4) == rows["y"]["score"]
    assert rows["y"]["forfeits"] == 1 and rows["y"]["wins"] == 1
    # x and y tie on score and Buchholz; they never beat each other (both won in round 1): entry order decides
    assert rows["x"]["buchholz"] == rows["y"]["buchholz"] and rows["x"]["direct"] == rows["y"]["direct"] == 0
    assert [r["agent_id"] for r in standings(["y", "x", "z"], games)][:2] == ["y", "x"]
    # z beat x and y in round 2 (y forfeited): a direct result breaks a tie between z and another
    alone = [g for g in games if g.table == (2, 0)]
    ranked = standings(["x", "z"], alone)
    assert ranked[0]["agent_id"] == "z" and ranked[0]["wins"] == 1


def test_default_round_robin_rounds() -> None:
    assert default_rounds("round_robin", 6, 6, {"village": 4, "werewolf": 2}) == 3  # each turn as a wolf
    assert default_rounds("round_robin", 8, 4, {"a": 3, "b": 1}) == 4  # 8 at 2 tables of 4: the b seats decide
    # 5 at tables of 3 and 2 hold 4 of the 10 pairs a round: 3 rounds at least, though each meets 2 others a round
    assert default_rounds("round_robin", 5, 4, {"a": 4}) == 3


def test_reference_personas_repeat_only_when_there_are_too_few() -> None:
    """The event's opponents go in turn over the reference seats (not by seat number: seats 1 and 3 of a two-persona
    event once got the same one); a persona at a second seat is numbered in its display name."""
    from app.services.platform.reference_pool import pool
    from app.services.platform.tournaments import _reference_personas
    reference = pool()
    for turn in range(4):
        got = _reference_personas(["adai", "nuomi"], reference, [1, 3], turn)
        assert sorted(got.values()) == ["adai", "nuomi"], got
        assert len(set(_reference_personas(None, reference, [0, 2, 4, 6, 8, 10], turn).values())) == 6
    three = _reference_personas(["adai", "nuomi"], reference, [0, 2, 5], 0)
    assert three == {0: "adai", 2: "nuomi", 5: "adai"}
    assert reference.display_names(three) == {0: f"{reference.display_name('adai')}",
                                              2: reference.display_name("nuomi"),
                                              5: reference.display_name("adai", 2)}
    assert reference.display_name("adai", 2) != reference.display_name("adai")
