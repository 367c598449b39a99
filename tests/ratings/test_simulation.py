"""The rating measures skill rather than role luck or volume: 40 synthetic agents, 3,000 seeded games.

Role-frequency neutrality is checked on the residuals of a least-squares line of rating on true skill: the twenty
agents dealt the small (usually losing) side twice as often must sit neither above nor below that line on average
(their mean residual within a third of the residuals' standard deviation; the same check on raw wins fails by far).
"""

from __future__ import annotations

import statistics

import pytest
from scipy.stats import spearmanr

from app.ratings.model import PROVISIONAL_UNDER
from tests.ratings.sim import N_AGENTS, OFTEN_SMALL, Population, run


@pytest.fixture(scope="module", params=[1, 2])
def pop(request: pytest.FixtureRequest) -> Population:
    return run(request.param)


def _ratings(pop: Population) -> list[float]:
    return [pop.ratings[str(a)].conservative for a in range(N_AGENTS)]


def test_rating_follows_true_skill_far_better_than_wins(pop: Population) -> None:
    rating_rho = spearmanr(_ratings(pop), pop.skill).statistic
    wins_rho = spearmanr(pop.wins, pop.skill).statistic
    print(f"spearman rating {rating_rho:.3f}, wins-desc {wins_rho:.3f}")
    assert rating_rho >= 0.8
    assert rating_rho - wins_rho >= 0.2


def test_being_dealt_the_losing_side_twice_as_often_neither_helps_nor_hurts(pop: Population) -> None:
    share = [pop.small_deals[a] / pop.games[a] for a in range(N_AGENTS)]
    often = statistics.mean(share[a] for a in OFTEN_SMALL)
    rest = statistics.mean(share[a] for a in range(N_AGENTS) if a not in OFTEN_SMALL)
    assert often > 1.6 * rest  # the deal really is skewed
    ratings = _ratings(pop)
    fit = statistics.linear_regression(pop.skill, ratings)
    residual = [r - (fit.intercept + fit.slope * s) for r, s in zip(ratings, pop.skill, strict=True)]
    others = [residual[a] for a in range(N_AGENTS) if a not in OFTEN_SMALL]
    gap = statistics.mean(residual[a] for a in OFTEN_SMALL) - statistics.mean(others)
    print(f"often-small residual gap {gap:+.3f} (others' residual sd {statistics.stdev(others):.3f})")
    assert abs(gap) <= statistics.stdev(others) / 3
    assert abs(_gap(pop.skill, [float(w) / g for w, g in zip(pop.wins, pop.games, strict=True)])) > 1.0


def _gap(skill: list[float], score: list[float]) -> float:
    """Mean residual (in residual standard deviations) of the OFTEN_SMALL agents minus the others'."""
    fit = statistics.linear_regression(skill, score)
    residual = [r - (fit.intercept + fit.slope * s) for r, s in zip(score, skill, strict=True)]
    others = [residual[a] for a in range(N_AGENTS) if a not in OFTEN_SMALL]
    gap = statistics.mean(residual[a] for a in OFTEN_SMALL) - statistics.mean(others)
    return gap / statistics.stdev(others)


def test_the_expected_result_is_calibrated_to_the_side_dealt(pop: Population) -> None:
    """Over the last 1,500 games the predicted chance of the small side, side anchors included, matches how
    often it really won (the anchors started at even odds)."""
    late = pop.predicted[-1500:]
    predicted = statistics.mean(p for p, _ in late)
    observed = sum(won for _, won in late) / len(late)
    print(f"small side: predicted {predicted:.3f}, observed {observed:.3f}")
    assert abs(predicted - observed) < 0.05

def test_every_agent_leaves_provisional(pop: Population) -> None:
    assert min(pop.games) >= PROVISIONAL_UNDER
