"""The pure pieces of a benchmark: the plan (sides in proportion, every side, the deal's seat on the planned side),
the report's statistics, and the figures each game declares."""

from __future__ import annotations

from collections import Counter

import pytest

from app.bots.personas import PERSONAS
from app.bots.sim import play
from app.games.installed import installed
from app.protocol import registry
from app.services.platform.benchmark_report import GameFacts, bootstrap_interval, percentile, report
from app.services.platform.reference_pool import pool
from app.services.platform.seat_plan import dealt_sides, plan, quotas, side_order

GAMES = {game.name: (game, brain) for game, brain in installed()}


def test_quotas_follow_the_shares_and_give_every_side_a_game() -> None:
    assert quotas({"a": 4, "b": 2}, 6) == {"a": 4, "b": 2}
    assert quotas({"a": 5, "b": 1}, 6) == {"a": 5, "b": 1}
    assert quotas({"a": 4, "b": 1, "c": 1}, 60) == {"a": 40, "b": 10, "c": 10}
    assert quotas({"a": 5, "b": 1}, 2) == {"a": 1, "b": 1}  # a side too small for its share still plays once
    assert sum(quotas({"a": 7, "b": 3, "c": 2}, 11).values()) == 11
    order = side_order({"a": 4, "b": 2})
    assert Counter(order) == {"a": 4, "b": 2} and order[:3] != ["a", "a", "a"]  # interleaved


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_plan_seats_the_agent_on_its_planned_side(name: str) -> None:
    game, _ = GAMES[name]
    config = game.parse_config(None)
    planned = plan(game, config, 12, pool(), seed=4)
    assert planned == plan(game, config, 12, pool(), seed=4)  # the same arguments, the same plan
    assert [g.index for g in planned] == list(range(12))
    for g in planned:
        assert dealt_sides(game, config, g.seed)[g.seat] == g.side
        assert len(g.personas) == game.n_players(config)
    shares = Counter(dealt_sides(game, config, planned[0].seed).values())
    assert Counter(g.side for g in planned) == quotas(shares, 12)


def test_the_report_counts_and_intervals() -> None:
    facts = [GameFacts(0, "x", True, False, latencies=[1.0, 3.0], reported=2, input_tokens=10, output_tokens=5,
                       cost_usd=0.01),
             GameFacts(1, "x", False, False, timeouts=1, refusals=2, latencies=[2.0]),
             GameFacts(2, "y", True, True, figures={"f": 0.5}, reference_figures={"f": 1.0}),
             GameFacts(3, "y", None, True, timeouts=2)]  # taken over: counted for timeouts only
    body = report(["x", "y"], facts, ended_reason="agent_stopped_answering")
    assert body["games"] == 3 and body["timeouts"] == 3 and body["refusals"] == 2
    assert body["sides"]["x"]["games"] == 2 and body["sides"]["x"]["wins"] == 1
    assert body["sides"]["y"]["interval"][1] == 1.0
    assert body["duplicate"]["deals"] == 3 and body["duplicate"]["delta"] == round(1 / 3, 4)
    assert body["latency_s"] == {"p50": 2.0, "p95": 3.0, "n": 3}
    assert body["usage"]["games"] == 1 and body["usage"]["tokens_per_win"] == 15.0
    assert body["figures"] == {"agent": {"f": 0.5}, "reference": {"f": 1.0}}
    assert body["ended_reason"] == "agent_stopped_answering"


def test_the_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    deltas = [1, 0, 0, -1, 1, 1, 0, 0, 1, 0]
    low, high = bootstrap_interval(deltas) or (0.0, 0.0)
    assert bootstrap_interval(deltas) == (low, high) and low <= 0.3 <= high
    assert bootstrap_interval([0] * 20) == (0.0, 0.0) and bootstrap_interval([]) is None
    assert percentile([5.0, 1.0, 3.0], 50) == 3.0 and percentile([], 95) is None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_figures_are_shares_of_the_seats_own_play(name: str) -> None:
    game, brain = GAMES[name]
    assert brain is not None
    seen: set[str] = set()
    for seed in range(4):
        record = play(game, {}, list(PERSONAS), brain, seed)
        for seat in record.sides:
            figures = registry.seat_figures(game, record.state, seat, record.events)
            assert all(0.0 <= value <= 1.0 for value in figures.values()), figures
            seen |= set(figures)
    assert seen  # every installed game declares at least one figure
