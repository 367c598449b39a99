"""The civilians' later-round signals (`brain.signals`) and the moves built on them, on crafted snapshots."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pytest

from app.games.undercover.brain import compose_speech, guess_word, suspicion
from app.games.undercover.brain.clues import core, own_clues, phrases_of
from app.games.undercover.brain.context import context_from_snapshot
from app.games.undercover.brain.personas import VOICES
from app.games.undercover.brain.signals import hidden_left, hidden_odds, read_speeches, speech_evidence
from app.games.undercover.brain.voting import rank_targets
from app.games.undercover.brain.weights import CIVILIANS_CLOSE_RANKS
from tests.bots.helpers import snapshot

BAOZI, JIAOZI = own_clues("包子"), own_clues("饺子")
Said = list[tuple[int, str | None]]


def _with_config(snap: dict[str, Any], n_undercover: int, n_blank: int = 0) -> dict[str, Any]:
    snap["config"] = {"n_players": len(snap["players"]), "n_undercover": n_undercover, "n_blank": n_blank}
    return snap


def test_each_speech_reads_as_what_it_added() -> None:
    speeches: Said = [(1, f"我觉得是{BAOZI[0]}。"), (2, f"嗯，{JIAOZI[0]}。"), (3, "属于食物一类。"),
                      (4, "类别是食物。"), (5, f"1号说的{BAOZI[0]}我同意。")]
    ctx = context_from_snapshot(snapshot(0, "civilian", "包子", "vote", speeches=speeches))
    readings = read_speeches(ctx)
    assert [(r.seat, r.kind) for r in readings] == [(1, "mine"), (2, "other"), (3, "category"),
                                                    (4, "category_echo"), (5, "echo")]
    assert readings[1].distance > 0.5  # 饺子's clue has little in common with 包子's
    # my word had four clues; one was out before seat 2 spoke, still three fresh when seat 5 echoed seat 1
    assert [r.fresh for r in readings] == [4, 3, 3, 3, 3]


def test_a_blank_reads_nothing_it_has_no_word_to_read_against() -> None:
    ctx = context_from_snapshot(snapshot(0, "blank", None, "vote", speeches=[(1, BAOZI[0])]))
    assert read_speeches(ctx) == []


def test_an_echo_while_clues_were_fresh_is_suspicious_and_after_they_ran_out_is_not() -> None:
    early: Said = [(1, BAOZI[0]), (2, f"2号也觉得，{BAOZI[0]}。"), (3, BAOZI[1])]
    ctx = context_from_snapshot(snapshot(0, "civilian", "包子", "vote", speeches=early))
    evidence = speech_evidence(ctx)
    assert evidence[2][0] > 2.0  # (no blank at this table: only the undercover reading counts)
    assert evidence[1][0] < 0 and evidence[3][0] < 0
    spent: Said = [(1, BAOZI[0]), (2, BAOZI[1]), (3, BAOZI[2]), (4, BAOZI[3]), (5, f"跟1号一样，{BAOZI[0]}。")]
    later = context_from_snapshot(snapshot(0, "civilian", "包子", "vote", speeches=spent))
    assert speech_evidence(later)[5][0] < evidence[2][0] - 2.0  # everyone repeats once the word's clues are out


def test_a_new_facet_of_another_word_outweighs_everything_else() -> None:
    speeches: Said = [(1, BAOZI[0]), (2, "类别是食物。"), (3, f"我补充一个：{JIAOZI[1]}。"), (4, BAOZI[1]),
                      (5, BAOZI[2])]
    ctx = context_from_snapshot(_with_config(snapshot(0, "civilian", "包子", "vote", speeches=speeches), 1))
    scores = suspicion(ctx)
    assert max(scores, key=lambda s: scores[s]) == 3
    assert scores[3] > 0.8 and scores[3] > 3 * scores[2]
    assert sum(scores.values()) == pytest.approx(1.0)  # one undercover among these five seats


def test_a_blank_never_names_anything_first() -> None:
    """At a table with a blank, naming the category first clears a seat of being the blank; echoing does not."""
    speeches: Said = [(1, "属于食物一类。"), (2, "（附和）食物，1号说得对！"), (3, "往食物那边想。"),
                      (4, "类别是食物。"), (5, "食物范畴。")]
    snap = _with_config(snapshot(0, "civilian", "包子", "vote", speeches=speeches), 1, n_blank=1)
    evidence = speech_evidence(context_from_snapshot(snap))
    assert evidence[1][1] < -2.0  # named the category first
    assert all(evidence[seat][1] > evidence[1][1] + 2.0 for seat in (2, 3, 4, 5))


def _brute_force(evidence: dict[int, tuple[float, float]], ku: int, kb: int) -> dict[int, float]:
    seats = list(evidence)
    weights: dict[int, float] = dict.fromkeys(seats, 0.0)
    total = 0.0
    for hidden in itertools.permutations(seats, ku + kb):
        if list(hidden[:ku]) != sorted(hidden[:ku]) or list(hidden[ku:]) != sorted(hidden[ku:]):
            continue  # each set of undercovers and set of blanks once
        w = math.prod(math.exp(evidence[s][0]) for s in hidden[:ku]) * \
            math.prod(math.exp(evidence[s][1]) for s in hidden[ku:])
        total += w
        for s in hidden:
            weights[s] += w
    return {s: w / total for s, w in weights.items()}


@pytest.mark.parametrize(("ku", "kb"), [(1, 0), (2, 0), (1, 1), (2, 1), (0, 1)])
def test_the_posterior_is_the_exact_one(ku: int, kb: int) -> None:
    rng = random.Random(ku * 10 + kb)
    for _ in range(20):
        evidence = {s: (rng.uniform(-4, 4), rng.uniform(-4, 4)) for s in range(rng.randint(ku + kb + 1, 7))}
        odds = hidden_odds(evidence, ku, kb)
        assert sum(odds.values()) == pytest.approx(ku + kb)
        exact = _brute_force(evidence, ku, kb)
        for seat in evidence:
            assert odds[seat] == pytest.approx(exact[seat], rel=1e-9, abs=1e-12)


def test_the_posterior_without_evidence_is_the_prior() -> None:
    odds = hidden_odds(dict.fromkeys(range(5), (0.0, 0.0)), 2, 0)
    assert all(p == pytest.approx(0.4) for p in odds.values())
    assert hidden_odds({1: (5.0, 0.0), 2: (0.0, 0.0)}, 0, 0) == {1: 0.0, 2: 0.0}


def test_hidden_seats_left_are_the_config_minus_the_revealed() -> None:
    snap = _with_config(snapshot(0, "civilian", "包子", "vote", n=8, dead={3: "undercover", 5: "civilian"}), 2, 1)
    assert hidden_left(context_from_snapshot(snap)) == (1, 1)


def test_core_keeps_a_clue_whole_and_still_cuts_template_wording() -> None:
    assert "早餐煮一个" in core("直说吧，明摆着早餐煮一个。你们别笑我。")  # a clue holding the template bit "一个"
    assert phrases_of("推理如下：复盘，0号「娱乐」") == ("娱乐",)  # the template line "推理如下" is no clue "推理"


def test_a_blank_needs_two_different_clues_to_guess() -> None:
    """One clue said around the table is one clue: a blank that recognises every clue still does not guess."""
    once: Said = [(0, BAOZI[0]), (1, f"我也{BAOZI[0]}"), (2, f"同意，{BAOZI[0]}")]
    ctx = context_from_snapshot(snapshot(4, "blank", None, "guess_word", speeches=once))
    assert guess_word(ctx, random.Random(0), recall=1.0) == "不知道"
    twice: Said = [*once, (3, BAOZI[1])]
    ctx = context_from_snapshot(snapshot(4, "blank", None, "guess_word", speeches=twice))
    assert guess_word(ctx, random.Random(0), recall=1.0) == "包子"


def test_civilians_hold_clues_back_while_a_blank_may_listen() -> None:
    """Round 1 with a blank at the table: once one clue of the word is out, the next civilian names the category."""
    speeches: Said = [(0, BAOZI[0])]
    for slug, voice in VOICES.items():
        for seed in range(10):
            snap = _with_config(snapshot(1, "civilian", "包子", "speak", speeches=speeches), 1, n_blank=1)
            text = compose_speech(context_from_snapshot(snap), voice, random.Random(seed)) or ""
            assert not any(c in text for c in BAOZI[1:]), (slug, text)
            plain = _with_config(snapshot(1, "civilian", "包子", "speak", round_index=3, speeches=speeches), 1)
            assert compose_speech(context_from_snapshot(plain), voice, random.Random(seed))


def test_the_only_hidden_seat_borrows_on_one_clear_clue() -> None:
    """A room's only undercover (no blank) that blends (玲珑 always does then) borrows on a single clear clue."""
    snap = _with_config(snapshot(1, "undercover", "饺子", "speak", speeches=[(0, BAOZI[0])]), 1)
    texts = [compose_speech(context_from_snapshot(snap), VOICES["linglong"], random.Random(seed)) or ""
             for seed in range(30)]
    assert all(any(c in t for c in BAOZI[1:]) for t in texts)
    # with two undercovers it needs two clues first
    two = _with_config(snapshot(1, "undercover", "饺子", "speak", speeches=[(0, BAOZI[0])]), 2)
    texts = [compose_speech(context_from_snapshot(two), VOICES["linglong"], random.Random(seed)) or ""
             for seed in range(30)]
    assert not any(any(c in t for c in BAOZI[1:]) for t in texts)


def test_a_blank_votes_as_the_civilians_it_poses_as() -> None:
    """A blank does not know who the undercover is: it votes against the seat that stands out from the table."""
    speeches: Said = [(0, f"{BAOZI[0]}，{BAOZI[1]}"), (1, f"{BAOZI[1]}，{BAOZI[0]}"), (2, f"我也说{BAOZI[0]}"),
                      (3, f"嗯，{JIAOZI[1]}")]
    snap = _with_config(snapshot(4, "blank", None, "vote", speeches=speeches), 1, n_blank=1)
    ctx = context_from_snapshot(snap)
    assert rank_targets(ctx, VOICES["yingyan"])[0][0] == 3


def test_civilians_close_ranks_in_a_room_with_a_blank() -> None:
    """With a blank at the table (two hidden seats), the votes already cast weigh CIVILIANS_CLOSE_RANKS more."""
    speeches: Said = [(1, BAOZI[0]), (2, "属于食物一类"), (3, BAOZI[1]), (4, BAOZI[2]), (5, "不好说")]
    pull = {}
    for n_blank in (0, 1):
        scores = []
        for votes in ([], [(1, 2), (3, 2)]):
            snap = _with_config(snapshot(0, "civilian", "包子", "vote", speeches=speeches, votes=votes), 1, n_blank)
            scores.append(dict(rank_targets(context_from_snapshot(snap), VOICES["adai"])))
        pull[n_blank] = scores[1][2] - scores[0][2]
    assert pull[0] > 0
    assert math.isclose(pull[1] - pull[0], CIVILIANS_CLOSE_RANKS)
