"""The rule brain (pure): safe speeches over the whole library, fresh clues, suspicion, PK, the blank's guess."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from app.bots.personas import PERSONAS, persona_of_handle
from app.games.kit.checks import MAX_TEXT
from app.games.undercover.brain import (
    choose_vote,
    compose_last_words,
    compose_speech,
    decide,
    guess_word,
    suspicion,
)
from app.games.undercover.brain.clues import own_clues, phrase_of, uses_clue
from app.games.undercover.brain.context import context_from_snapshot
from app.games.undercover.brain.personas import VOICES
from app.games.undercover.text import contains_word
from app.games.undercover.wordpairs import default_library
from tests.bots.helpers import snapshot

HANDLE = re.compile(r"^[a-z][a-z0-9@._-]{2,63}$")
VOICE_LIST = tuple(VOICES.values())
ADAI, LINGLONG, LAOTIE, NUOMI, YINGYAN, OSCAR = VOICE_LIST


def _pairs() -> list[tuple[str, str, tuple[str, ...], tuple[str, ...]]]:
    return [(p.a.word, p.b.word, p.a.clues, p.b.clues) for p in default_library().pairs()]


def test_personas_are_the_six_of_seed_000() -> None:
    assert [p.display_name for p in PERSONAS] == ["老实人·阿呆", "话术师·玲珑", "杠精·老铁", "迷糊鬼·糯米",
                                                  "侦探·鹰眼", "戏精·奥斯卡"]
    for persona in PERSONAS:
        for index in (1, 2, 3):
            handle = persona.handle(index)
            assert HANDLE.match(handle), handle
            assert persona_of_handle(handle) is persona
        assert persona.name_for(1) == persona.display_name
        assert persona.name_for(2) != persona.display_name
    names = [persona.name_for(index) for persona in PERSONAS for index in range(1, 41)]
    assert len(set(names)) == len(names), "every official bot's display name is its own"
    assert persona_of_handle("bot_selfplay3@wodi") is None
    assert persona_of_handle("alice") is None


@pytest.mark.parametrize("persona", VOICE_LIST, ids=lambda p: p.slug)
def test_no_text_ever_contains_the_own_word(persona) -> None:  # type: ignore[no-untyped-def]
    """Every word of the library, as civilian and as undercover, five rounds, with hostile table talk."""
    rng = random.Random(persona.slug)
    for mine, other, my_clues, other_clues in _pairs():
        for word, partner, clues, partner_clues in ((mine, other, my_clues, other_clues),
                                                    (other, mine, other_clues, my_clues)):
            for role in ("civilian", "undercover"):
                said: list[tuple[int, int, str]] = []
                for rnd in range(1, 6):
                    # the others: a partner clue, one of my clues, and a seat that says my word outright
                    table = [(1, partner_clues[rnd % len(partner_clues)]), (2, clues[rnd % len(clues)]),
                             (3, f"{word}，就是{word}呀")]
                    snap = snapshot(0, role, word, "speak", round_index=rnd, speeches=table, previous=said)
                    text = compose_speech(context_from_snapshot(snap), persona, rng)
                    assert text is not None
                    assert not contains_word(text, word), (persona.slug, word, text)
                    assert 0 < len(text) <= MAX_TEXT
                    said += [(rnd, seat, t) for seat, t in table] + [(rnd, 0, text)]
                ctx = context_from_snapshot(snapshot(0, role, word, "last_words", previous=said))
                assert not contains_word(compose_last_words(ctx, persona, rng), word)
                vote = decide(snapshot(0, role, word, "vote", previous=said), persona.slug, rng)
                assert vote is not None and not contains_word(vote.get("comment") or "", word)
                assert partner  # both sides of every pair were covered


@pytest.mark.parametrize("role", ["civilian", "undercover"])
def test_no_clue_is_repeated_across_rounds(role: str) -> None:
    for persona in VOICE_LIST:
        rng = random.Random(1)
        for pair in default_library().pairs()[:60]:
            word, clues = pair.a.word, pair.a.clues
            said: list[tuple[int, int, str]] = []
            mine: list[str] = []
            for rnd in range(1, len(clues) + 3):
                snap = snapshot(0, role, word, "speak", round_index=rnd, previous=said)
                text = compose_speech(context_from_snapshot(snap), persona, rng)
                assert text is not None
                used_now = [c for c in clues if uses_clue([text], c)]
                assert not [c for c in used_now if uses_clue(mine, c)], (persona.slug, word, mine, text)
                mine.append(text)
                said.append((rnd, 0, text))
            if role == "civilian":  # alone at the table a civilian says every clue once
                assert all(uses_clue(mine, c) for c in clues)


def test_a_civilian_clue_is_fresh_when_possible() -> None:
    word = default_library().find_word("包子")
    assert word is not None
    taken = word.clues[:3]
    # round 2: in round 1 a civilian may give only the category
    snap = snapshot(3, "civilian", "包子", "speak", round_index=2,
                    speeches=[(0, taken[0]), (1, taken[1]), (2, taken[2])])
    for seed in range(20):
        text = compose_speech(context_from_snapshot(snap), YINGYAN, random.Random(seed))
        assert text is not None and word.clues[3] in text


def test_suspicion_ranks_the_odd_one_out_highest() -> None:
    baozi, jiaozi = own_clues("包子"), own_clues("饺子")
    speeches = [(1, f"我觉得是{baozi[0]}"), (2, baozi[1]), (3, f"嗯，{jiaozi[0]}"), (4, baozi[2]), (5, baozi[3])]
    ctx = context_from_snapshot(snapshot(0, "civilian", "包子", "vote", speeches=speeches))
    scores = suspicion(ctx)
    assert max(scores, key=lambda s: scores[s]) == 3
    # a data-driven civilian votes for it nearly always; nobody ever votes for themselves
    votes = [choose_vote(ctx, YINGYAN, random.Random(seed)) for seed in range(100)]
    assert votes.count(3) >= 80
    assert 0 not in votes


def test_a_skipped_turn_is_more_suspicious_than_a_fitting_clue() -> None:
    clues = own_clues("包子")
    ctx = context_from_snapshot(snapshot(0, "civilian", "包子", "vote",
                                         speeches=[(1, clues[0]), (2, None), (3, clues[1])]))
    scores = suspicion(ctx)
    assert scores[2] > scores[1] and scores[2] > scores[3]


def test_pk_candidates_are_respected_and_self_never_chosen() -> None:
    for persona in VOICE_LIST:
        for seed in range(100):
            rng = random.Random(seed)
            snap = snapshot(0, "civilian", "包子", "vote", speeches=[(1, "蒸笼"), (2, "过年必吃")], pk=[2, 4],
                            votes=[(1, 4), (3, 4)])
            assert choose_vote(context_from_snapshot(snap), persona, rng) in (2, 4)
            free = snapshot(5, rng.choice(["civilian", "undercover", "blank"]), "饺子", "vote",
                            speeches=[(s, "随便说说") for s in range(6)], dead={1: "civilian"})
            target = choose_vote(context_from_snapshot(free), persona, rng)
            assert target in (0, 2, 3, 4)


def test_the_random_baseline_votes_uniformly_among_eligible_seats() -> None:
    snap = snapshot(0, "civilian", "包子", "vote", pk=[2, 4])
    picks = {choose_vote(context_from_snapshot(snap), ADAI, random.Random(s), random_vote=True) for s in range(50)}
    assert picks == {2, 4}


def test_an_undercover_avoids_a_revealed_fellow_and_follows_the_crowd() -> None:
    snap = snapshot(0, "undercover", "饺子", "vote", speeches=[(1, "蒸笼里热腾腾"), (2, "过年必吃"), (3, "圆鼓鼓")],
                    votes=[(4, 3), (5, 3)])
    snap["you"]["private_log"] = [{"type": "fellow_role_revealed", "fellow_seats": [0, 2]}]
    for seed in range(50):
        assert choose_vote(context_from_snapshot(snap), YINGYAN, random.Random(seed)) != 2


def test_a_blank_guesses_the_word_the_majority_describes() -> None:
    baozi, jiaozi = own_clues("包子"), own_clues("饺子")
    speeches = [(0, f"我说{baozi[0]}"), (1, baozi[1]), (2, f"{jiaozi[0]}吧"), (3, f"（深情地）{baozi[2]}……")]
    ctx = context_from_snapshot(snapshot(4, "blank", None, "guess_word", speeches=speeches))
    assert guess_word(ctx, random.Random(0), recall=1.0) == "包子"
    # not clairvoyant: it recognises a heard clue only now and then, and says it does not know when unsure
    guesses = [decide(snapshot(4, "blank", None, "guess_word", speeches=speeches), "oscar", random.Random(seed))
               for seed in range(200)]
    words = Counter(g["word"] for g in guesses if g)
    assert set(words) <= {"包子", "不知道"}
    assert 0 < words["包子"] < 100


def test_a_blank_speaks_vaguely_and_echoes_the_table() -> None:
    baozi = own_clues("包子")
    snap = snapshot(4, "blank", None, "speak", speeches=[(0, baozi[0]), (1, baozi[1]), (2, baozi[0])])
    texts = {compose_speech(context_from_snapshot(snap), p, random.Random(3)) for p in VOICE_LIST}
    assert all(texts)
    assert any(baozi[0] in t or baozi[1] in t for t in texts if t)


def test_an_undercover_leans_on_what_the_others_said() -> None:
    """After two clear civilian clues, a blending undercover borrows a third clue of the civilians' word."""
    baozi = own_clues("包子")
    snap = snapshot(2, "undercover", "饺子", "speak", speeches=[(0, baozi[0]), (1, baozi[1])])
    texts = [compose_speech(context_from_snapshot(snap), LINGLONG, random.Random(seed)) for seed in range(40)]
    borrowed = [t for t in texts if t and (baozi[2] in t or baozi[3] in t)]
    assert len(borrowed) >= 10
    assert not any(contains_word(t or "", "饺子") for t in texts)


def test_phrases_ignore_the_bots_own_template_wording() -> None:
    assert phrase_of("天哪！一想到它我就激动——走秀！！") == "走秀"
    assert phrase_of("各位！时装！掌声在哪里？") == "时装"
