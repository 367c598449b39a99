"""The table extensions (issue 17): the host's commentary, the debate phase and the recap — and that a default
room shows none of them."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from app.games.undercover.config import DEBATE_MAX_CHARS, DEBATE_MAX_MESSAGES
from app.games.undercover.host import comment
from app.games.undercover.state import Step
from tests.games.undercover.rules import (
    Concede,
    Debate,
    DebatePass,
    MatchState,
    Speak,
    Vote,
    WordPair,
    allowed_actions,
    next_action,
    state_to_json,
    you_view,
)

from .helpers import Table
from .scenarios import GOLDEN, SCENARIOS

# What a default room has shown since before the table extensions (the golden transcripts pin it byte for byte).
TODAY_TYPES = {
    "match_created", "player_joined", "match_started", "roles_dealt", "fellow_role_hint", "fellow_role_revealed",
    "phase_started", "your_turn_to_speak", "turn_warning", "speech_posted", "speech_skipped", "your_turn_to_vote",
    "vote_warning", "vote_cast", "your_vote_recorded", "vote_abstained", "votes_voided", "vote_tied",
    "round_resolved", "your_turn_for_last_words", "your_turn_to_guess", "last_words_posted", "last_words_skipped",
    "word_guessed", "whisper_received", "whisper_sent", "player_conceded", "match_finished", "match_aborted",
    "analysis_recorded", "seat_taken_over", "role_assigned",
}
TODAY_PHASE = re.compile(r"^(waiting|finished|aborted|(speak|vote|reveal)_round_\d+)$")
TODAY_NEXT = {"none", "wait_for_next_phase", "speak", "wait_for_speak_round", "vote", "wait_for_vote_resolution",
              "eliminated", "last_words", "guess_word"}
ROLE_WORDS = ("平民", "卧底", "白板", "civilian", "undercover", "blank")
TABLE = {"host": "chaos", "debate_rounds": 2}


def debate_all(t: Table, text: str | None = None) -> None:
    """Every living seat passes (or posts `text` once, then passes) until the debate phase is over."""
    while t.state.stage == "debate":
        seat = next(s for s in t.state.living_seats() if s not in t.state.debate_done)
        posted = t.state.debate_posts.get(seat, 0)
        t.do(Debate(seat=seat, text=text) if text and not posted else DebatePass(seat=seat))


def debate_once(t: Table) -> None:
    """Every living seat passes in the debate round now running."""
    index = t.state.debate_index
    while t.state.stage == "debate" and t.state.debate_index == index:
        t.do(DebatePass(seat=next(s for s in t.state.living_seats() if s not in t.state.debate_done)))


def play_to_end(t: Table, *, text: str | None = "我觉得有人在装") -> None:
    """Speak, debate and vote out the first undercover (else the first living civilian) until the end."""
    while t.state.status == "in_progress":
        stage = t.state.stage
        if stage == "speak":
            t.speak_all()
        elif stage == "debate":
            debate_all(t, text)
        elif stage == "vote":
            t.vote_out((t.undercovers or t.civilians)[0])
        else:
            t.fire()


def phases(t: Table) -> list[str]:
    return [e["phase"] for e in t.events if e["type"] == "phase_started"]


# ----------------------------------------------------------------- the default room is today's room

@pytest.mark.parametrize("name", sorted(n for n in SCENARIOS if not n.startswith("table_")))
def test_default_rooms_show_exactly_todays_event_types_and_phases(name: str) -> None:
    t = SCENARIOS[name]()
    assert set(t.types()) <= TODAY_TYPES
    assert all(TODAY_PHASE.match(p) for p in phases(t)), phases(t)
    assert t.state.record is None and "recap" not in (t.state.result or {})
    assert not {"host", "debate_rounds", "debate_timeout", "recap"} & set(t.config.model_dump())
    assert not {"record", "debate_index", "debate_posts", "debate_done"} & set(state_to_json(t.state))
    for seat in range(len(t.state.players)):
        assert next_action(t.state, seat) in TODAY_NEXT


def test_default_games_over_many_seeds_keep_todays_types_phases_and_next_actions() -> None:
    seen: set[str] = set()
    for seed, config in itertools.product(range(12), ({}, {"last_words": True, "blank_guess": True,
                                                           "n_blank": 1, "n_players": 8,
                                                           "tie_break": "revote"})):
        t = Table.started(seed, **config)
        while t.state.status == "in_progress":
            for seat in range(len(t.state.players)):
                assert next_action(t.state, seat) in TODAY_NEXT
                assert {a["type"] for a in allowed_actions(t.state, seat)} <= {
                    "speak", "skip", "vote", "last_words", "guess_word", "concede", "whisper"}
            play_to_end_step(t)
        seen |= set(t.types())
        assert all(TODAY_PHASE.match(p) for p in phases(t))
    assert seen <= TODAY_TYPES and {"speech_posted", "vote_cast", "match_finished"} <= seen


def play_to_end_step(t: Table) -> None:
    stage = t.state.stage
    if stage == "speak":
        t.speak_all()
    elif stage == "vote":
        t.vote_out((t.undercovers or t.civilians)[0])
    else:
        t.fire()


def test_golden_transcripts_hold_no_extension() -> None:
    for path in GOLDEN.glob("*.json"):
        text = path.read_text(encoding="utf-8")
        if path.stem.startswith("table_"):
            continue
        for word in ("host_commentary", "debate_", "recap", '"host"'):
            assert word not in text, (path.name, word)


def test_debate_commands_in_a_default_room_are_refused() -> None:
    t = Table.started(3)
    t.fail(Debate(seat=0, text="我有话说"), "debate_not_enabled")
    t.fail(DebatePass(seat=1), "debate_not_enabled")


# ----------------------------------------------------------------- the host

def test_plain_host_comments_once_after_each_round_of_speeches() -> None:
    t = Table.started(5, host="plain")
    t.speak_all()
    commentary = t.last("host_commentary")
    types = t.types()
    assert types[types.index("host_commentary") - 1] == "speech_posted"
    assert commentary["visibility"] == "public" and commentary["round"] == 1 and commentary["mode"] == "plain"
    assert commentary["may_mislead"] is False
    assert sorted(commentary["ranking"]) == t.state.living_seats()
    assert [s["seat"] for s in commentary["suspicion"]] == commentary["ranking"]
    scores = [s["score"] for s in commentary["suspicion"]]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 100 for s in scores)
    assert commentary["summary"].startswith("第1轮发言结束")
    after = t.types()[t.types().index("host_commentary") + 1:]
    assert after[0] == "phase_started" and t.state.phase == "vote_round_1"  # no debate: the vote opens
    assert "host_steered" not in t.types()


def test_no_commentary_after_a_pk() -> None:
    from .helpers import tie

    t = Table.started(15, n_players=6, n_undercover=1, tie_break="revote", host="plain")
    t.speak_all()
    tie(t, t.civilians[0], t.civilians[1])
    assert t.state.pk
    t.speak_all()
    assert t.state.stage == "vote" and len(t.all_of("host_commentary")) == 1


def _at_the_end_of_speeches(seed: int, host: str, texts: dict[int, str]) -> Table:
    t = Table.started(seed, host=host)
    while t.state.stage == "speak":
        seat = t.state.current_speaker_seat
        assert seat is not None
        t.do(Speak(seat=seat, text=texts[seat]))
    return t


def _comment_on(state: MatchState) -> dict[str, Any]:
    step = Step(MatchState.model_validate(state.model_dump()), 1.0)
    comment(step)
    return {k: v for k, v in step.events[0].items() if k not in ("seq", "ts")}


SPEECHES = {0: "早上来一杯", 1: "有点苦但提神", 2: "甜甜的用吸管", 3: "拉花很好看", 4: "提神饮品", 5: "街边小店都有"}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_plain_host_knows_no_role_and_no_word(seed: int) -> None:
    """The same public log with the deal shuffled among the seats gives the same commentary, word for word."""
    t = _at_the_end_of_speeches(seed, "plain", SPEECHES)
    original = t.last("host_commentary")
    state = t.state
    base = _comment_on(state)
    assert base["ranking"] == original["ranking"] and base["suspicion"] == original["suspicion"]
    deals = [(p.role, p.word) for p in state.players]
    for shift in range(1, len(deals)):
        shuffled = MatchState.model_validate(state.model_dump())
        for player, (role, word) in zip(shuffled.players, deals[shift:] + deals[:shift], strict=True):
            player.role, player.word = role, word
        shuffled.wordpair = WordPair(civilian="豆浆", undercover="米浆")
        assert _comment_on(shuffled) == base
    text = original["summary"]
    assert not any(w in text for w in ROLE_WORDS) and "咖啡" not in text and "奶茶" not in text


def test_chaos_host_only_ever_pushes_a_civilian_and_says_it_may_mislead() -> None:
    steered_rounds = plain_rounds = 0
    for seed in range(30):
        t = Table.started(seed, host="chaos")
        play_to_end(t)
        comments = t.all_of("host_commentary")
        steers = {e["round"]: e for e in t.all_of("host_steered")}
        assert comments and all(c["may_mislead"] is True and c["mode"] == "chaos" for c in comments)
        for c in comments:
            assert not any(w in c["summary"] for w in ROLE_WORDS), c["summary"]
            assert state_words(t.state) & set(re.findall(r"\w+", c["summary"])) == set()
            assert "混乱模式" in c["summary"]
            steer = steers.get(c["round"])
            if steer is None:
                plain_rounds += 1
                continue
            steered_rounds += 1
            assert steer["visibility"] == "god_only"
            assert c["ranking"][0] == steer["target_seat"]
            assert t.state.players[steer["target_seat"]].role == "civilian"
    assert steered_rounds and plain_rounds  # it steers often, not always


def state_words(state: MatchState) -> set[str]:
    assert state.wordpair is not None
    return {state.wordpair.civilian, state.wordpair.undercover}


def test_chaos_steering_is_seeded() -> None:
    a, b = Table.started(4, host="chaos"), Table.started(4, host="chaos")
    play_to_end(a)
    play_to_end(b)
    assert a.events == b.events


# ----------------------------------------------------------------- the debate

def test_debate_rounds_open_between_the_speeches_and_the_vote() -> None:
    t = Table.started(2, **TABLE)
    t.speak_all()
    assert t.state.phase == "debate_round_1" and t.state.debate_index == 1
    opened = t.last("phase_started")
    assert (opened["debate_round"], opened["debate_rounds"], opened["max_messages"], opened["max_chars"]) == (
        1, 2, DEBATE_MAX_MESSAGES, DEBATE_MAX_CHARS)
    assert opened["deadline_ts"] == t.state.deadline_ts and t.state.timer is not None
    types = t.types()
    between = types[len(types) - 1 - types[::-1].index("speech_posted") + 1:-1]
    assert between in (["host_commentary"], ["host_commentary", "host_steered"])
    for seat in t.state.living_seats():
        you = you_view(t.state, seat)
        assert you["next_action"] == "debate" and you["your_turn"] is True
        kinds = {a["type"]: a for a in you["allowed_actions"]}
        assert kinds["debate"]["messages_left"] == DEBATE_MAX_MESSAGES and "debate_pass" in kinds
    debate_once(t)
    assert t.state.phase == "debate_round_1" and t.state.debate_index == 2
    debate_once(t)
    assert t.state.phase == "vote_round_1" and t.state.debate_index == 0


def test_debate_limits_and_checks() -> None:
    t = Table.started(2, debate_rounds=1)
    t.speak_all()
    word = t.state.players[0].word
    assert word is not None
    t.fail(Debate(seat=0, text="长" * (DEBATE_MAX_CHARS + 1)), "text_too_long")
    t.fail(Debate(seat=0, text=f"我的是{word}"), "speech_contains_secret_word")
    t.fail(Debate(seat=0, text="   "), "bad_request")
    posted = t.do(Debate(seat=0, text="长" * DEBATE_MAX_CHARS))
    assert posted[0]["messages_left"] == DEBATE_MAX_MESSAGES - 1
    t.do(Debate(seat=0, text="3号和P4你们俩说得太像了"))
    event = t.last("debate_posted")
    assert event["addressed_seats"] == [3, 4] and event["visibility"] == "public"
    t.fail(Debate(seat=0, text="再说一句"), "debate_turn_over")
    t.fail(DebatePass(seat=0), "debate_turn_over")
    assert next_action(t.state, 0) == "wait_for_next_phase" and allowed_actions(t.state, 0) == [{"type": "concede"}]
    t.do(DebatePass(seat=1))
    t.fail(Debate(seat=1, text="改主意了"), "debate_turn_over")
    t.fail(Speak(seat=2, text="不是发言时间"), "wrong_phase")
    t.fail(Vote(seat=2, target_seat=3), "wrong_phase")


def test_the_deadline_ends_a_debate_round() -> None:
    t = Table.started(2, debate_rounds=2, debate_timeout=30)
    t.speak_all()
    t.do(Debate(seat=1, text="有人没说话"))
    assert t.state.deadline_ts is not None
    t.fire()
    assert t.state.phase == "debate_round_1" and t.state.debate_index == 2 and t.state.debate_posts == {}
    t.fire()
    assert t.state.phase == "vote_round_1"


def test_a_seat_that_concedes_mid_debate_is_not_waited_for() -> None:
    t = Table.where(lambda t: len(t.undercovers) == 2 and t.role(5) == "civilian", debate_rounds=1)
    t.speak_all()
    for seat in range(5):
        t.do(DebatePass(seat=seat))
    assert t.state.stage == "debate"
    t.do(Concede(seat=5))
    assert t.state.stage == "vote"


def test_a_debate_game_plays_to_the_end_with_the_recap() -> None:
    t = Table.started(9, host="plain", debate_rounds=1)
    play_to_end(t)
    assert t.state.status == "finished"
    recap = t.state.result["recap"] if t.state.result else None
    assert recap is not None and recap == t.last("match_finished")["recap"]
    assert [r["seat"] for r in recap["players"]] == list(range(6))


# ----------------------------------------------------------------- the recap

def test_recap_scores_every_player_by_the_documented_rules() -> None:
    t = Table.where(lambda t: t.undercovers[:2] == [1, 4], recap=True)
    t.speak_all()
    votes = {0: 1, 1: 0, 2: 1, 3: 1, 4: 1, 5: 1}  # the other undercover (4) votes its fellow out too
    for voter, target in votes.items():
        t.do(Vote(seat=voter, target_seat=target))
    t.speak_all()
    votes = {0: 4, 2: 4, 3: 4, 4: 0, 5: 4}
    for voter, target in votes.items():
        t.do(Vote(seat=voter, target_seat=target))
    assert t.state.status == "finished" and t.state.result is not None
    recap = t.state.result["recap"]
    rows = {r["seat"]: r for r in recap["players"]}
    assert set(rows) == set(range(6)) and all(1 <= r["score"] <= 10 for r in rows.values())
    assert rows[1]["stats"] == {"rounds_survived": 0, "votes_drawn": 5, "votes_cast": 1, "votes_accurate": 1,
                                "clue_fit": 0.0, "missed_turns": 0, "debate_messages": 0}
    assert rows[1]["comment"] == "开局就被识破，演技还需修炼。"
    assert rows[0]["stats"]["votes_accurate"] == 2 and rows[0]["comment"] == "票票投中，火眼金睛。"
    assert rows[0]["highlight"] == "第1轮投中1号（卧底），助攻出局"
    assert recap["blunder"]["seat"] == 4 and "亲手把队友1号投了出去" in recap["blunder"]["text"]
    best = max(r["score"] for r in rows.values())
    assert recap["best"]["score"] == best and rows[recap["best"]["seat"]]["score"] == best
    assert recap["best"]["seat"] in t.state.result["winning_seats"]


def test_clue_fit_reads_the_library_clues() -> None:
    def dealt(t: Table) -> bool:
        return t.role(0) == "civilian" and t.state.wordpair is not None and t.state.wordpair.civilian == "咖啡"

    t = Table.where(dealt, pairs=[("咖啡", "奶茶")], recap=True)
    texts = {s: ("早上来一杯" if s == 0 else "很常见的东西") for s in range(6)}
    while t.state.stage == "speak":
        seat = t.state.current_speaker_seat
        assert seat is not None
        t.do(Speak(seat=seat, text=texts[seat]))
    for seat in list(t.undercovers):
        t.do(Concede(seat=seat))
    assert t.state.status == "finished" and t.state.result is not None
    rows = {r["seat"]: r for r in t.state.result["recap"]["players"]}
    assert rows[0]["stats"]["clue_fit"] == 1.0
    conceded = [s for s in range(6) if t.state.players[s].conceded]
    assert conceded and all(rows[s]["score"] == 1 for s in conceded)
    assert all(rows[s]["comment"] == "中途自爆退场，勇气可嘉。" for s in conceded)


def test_recap_is_deterministic() -> None:
    a, b = Table.started(6, **TABLE), Table.started(6, **TABLE)
    play_to_end(a)
    play_to_end(b)
    assert a.state.result == b.state.result and a.state.result is not None and "recap" in a.state.result
