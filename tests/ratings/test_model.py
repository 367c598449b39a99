"""The pure rating model and the rules of what is rated."""

from __future__ import annotations

import pytest

from app.ratings.eligibility import SeatFacts, owner_identities, pairing, unrated_reason
from app.ratings.model import SeatResult, Skill, composition, default_anchors, expected_win, rate, wilson


def _table(small_won: bool) -> list[SeatResult]:
    return [SeatResult(f"a{i}", "small" if i < 2 else "big", (i < 2) == small_won) for i in range(6)]


def _unlikely_small_side() -> dict[str, Skill]:
    """Anchors that make the small side a 30 % shot at equal skill (as learned ones do, see test_simulation)."""
    anchors = default_anchors(_table(False))
    low, high = -60.0, 60.0
    for _ in range(60):
        mid = (low + high) / 2
        shifted = {**anchors, "small": Skill(anchors["small"].mu + mid, anchors["small"].sigma)}
        low, high = (mid, high) if expected_win(_table(False), {}, shifted)["small"] < 0.3 else (low, mid)
    return {**anchors, "small": Skill(anchors["small"].mu + low, anchors["small"].sigma)}


def test_a_seat_on_the_unlikely_side_loses_little_and_gains_a_lot() -> None:
    anchors = _unlikely_small_side()
    assert expected_win(_table(False), {}, anchors)["small"] == pytest.approx(0.3, abs=0.01)
    gain = rate(_table(True), {}, anchors).agents["a0"].mu - Skill().mu
    loss = Skill().mu - rate(_table(False), {}, anchors).agents["a0"].mu
    assert gain > 1.5 * loss > 0  # 1.98 against 1.17 μ points


def test_default_anchors_make_every_side_even_at_equal_skill() -> None:
    odds = expected_win(_table(False), {}, {})
    assert odds["small"] == pytest.approx(odds["big"])


def test_nobody_won_moves_nothing() -> None:
    seats = [SeatResult("a", "x", False), SeatResult("b", "y", False)]
    assert rate(seats, {}, {}).agents == {"a": Skill(), "b": Skill()}


def test_composition_key_counts_seats_per_side() -> None:
    assert composition(6, _table(False)) == "6:big=4,small=2"


def test_wilson_interval() -> None:
    assert wilson(0, 0) is None
    low, high = wilson(5, 10) or (0, 0)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)


def _seat(agent: str | None = "a", *, official: bool = False, owner: str | None = None, taken_over: bool = False,
          acted: bool = True, conceded: bool = False) -> SeatFacts:
    owners = frozenset({f"owner:{owner}"} if owner else ())
    return SeatFacts(agent, official, owners, taken_over, acted=acted, conceded=conceded)


@pytest.mark.parametrize(("status", "competitive", "seats", "reason"), [
    ("finished", True, [_seat("a", owner="o"), _seat("b", owner="p")], None),
    ("aborted", True, [_seat("a", owner="o"), _seat("b", owner="p")], "not_finished"),
    ("finished", False, [_seat("a", owner="o"), _seat("b", owner="p")], "casual"),
    ("finished", True, [_seat("a", owner="o"), _seat(None)], "guest_seat"),
    ("finished", True, [_seat("a", owner="o"), _seat("b", owner="p", taken_over=True)], "taken_over"),
    ("finished", True, [_seat("a", official=True), _seat("b", official=True)], "bots_only"),
    ("finished", True, [_seat("a", official=True), _seat("b", owner="p")], None),
    ("finished", True, [_seat("a", official=True), _seat("b")], "unclaimed"),
    ("finished", True, [_seat("a"), _seat("b")], "unclaimed"),  # issue 26: the sock puppets' table
    ("finished", True, [_seat("a", owner="o"), _seat("b")], "unclaimed"),
    ("finished", True, [_seat("a", owner="o"), _seat("b", owner="o")], "one_owner"),
    ("finished", True, [_seat("a", owner="o"), _seat("b", owner="p", acted=False, conceded=True)],
     "conceded_early"),
    ("finished", True, [_seat("a", owner="o", acted=False), _seat("b", owner="p", conceded=True)],
     "conceded_early"),
    ("finished", True, [_seat("a", owner="o"), _seat("b", owner="p", conceded=True)], None),  # acted, then left
    ("finished", True, [_seat("a", owner="o", acted=False), _seat("b", owner="p")], None),  # no concession
])
def test_what_is_rated(status: str, competitive: bool, seats: list[SeatFacts], reason: str | None) -> None:
    verdict = unrated_reason(status=status, competitive=competitive, seats=seats, sides=range(len(seats)))
    assert verdict.reason == reason


def test_the_pairing_is_the_owners_at_the_table() -> None:
    two = [_seat("a", owner="o"), _seat("b", owner="p")]
    swapped = [_seat("c", owner="p"), _seat("d", owner="o")]  # other agents, the same two owners
    assert pairing(two) == pairing(swapped) is not None
    assert pairing([*two, _seat("bot", official=True)]) == pairing(two)  # official bots are nobody's
    assert pairing([_seat("a", owner="o"), _seat("b", owner="q")]) != pairing(two)
    assert pairing([_seat("a", owner="o"), _seat("bot", official=True)]) is None  # one player: nobody to collude


def test_only_an_allow_listed_provider_vouches_for_an_owner() -> None:
    trusted = frozenset({"clawdchat"})
    assert owner_identities(None, False, "clawdchat", "u1", trusted) == {"provider:clawdchat:u1"}
    assert owner_identities(None, False, "elsewhere", "u1", trusted) == frozenset()
    assert owner_identities(None, False, "clawdchat", "", trusted) == frozenset()
    assert owner_identities("o1", True, None, None, frozenset()) == {"owner:o1"}
    assert owner_identities("o1", False, None, None, frozenset()) == frozenset()  # claimed after the match ended
