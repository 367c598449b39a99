"""The schedule (a fake clock), anchors byte for byte, the key-clue guarantee and the endings matrix over seeded
random games, the DM's refusals, the vote's tie-break, and reconnecting from a snapshot alone."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.base import GameError
from app.games.script_kill.package import load_script
from app.games.script_kill.stages import SUB_STAGES
from app.games.script_kill.voting import PERFECT_SHARE
from tests.games.script_kill.helpers import GAME, T0, Played, act, expire, play, table

SEEDS = range(12)


def seat_playing(played: Played, character: str) -> int:
    return played.state.seat_of(character)


def refused(played: Played, seat: int, **body: Any) -> GameError:
    with pytest.raises(GameError) as info:
        act(played, seat, **body)
    return info.value


@pytest.mark.parametrize(("timing", "low", "high"), [("standard", 110 * 60, 130 * 60), ("compressed", 0, 600)])
def test_the_stage_schedule_with_a_fake_clock(timing: str, low: int, high: int) -> None:
    played = table(timing)
    starts = {played.state.phase: played.now}
    while played.state.status == "in_progress":
        expire(played)
        starts.setdefault(played.state.phase, played.now)
    total = played.now - T0 + getattr(SUB_STAGES[0], timing)  # the room's gm_init, then the clock from the deal
    assert low <= total <= high
    assert list(starts) == [s.id for s in SUB_STAGES[1:]] + ["finished"]
    for current, following in zip(SUB_STAGES[1:], SUB_STAGES[2:], strict=False):
        assert starts[following.id] - starts[current.id] == getattr(current, timing)


def test_ready_from_every_seat_ends_a_stage_early() -> None:
    played = table()
    for seat in range(5):
        act(played, seat, type="ready")
        assert played.state.phase == "script_handout"
    assert refused(played, 0, type="ready").code == "already_ready"
    act(played, 5, type="ready")
    assert played.state.phase == "self_intro" and played.state.speaker == 0


@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_games_keep_anchors_the_guarantee_and_the_matrix(seed: int) -> None:
    played = play(seed, silent=frozenset({seed % 6}) if seed % 3 == 0 else frozenset())
    script = load_script("tiny")
    anchors = [e["text"] for e in played.events if e["type"] == "anchor"]
    assert anchors == [script.anchors.anchor_r1.text, script.anchors.anchor_r2.text]
    assert played.state.anchors == anchors
    for act_no, after in ((1, "discuss_r1"), (2, "discuss_r2")):
        state = next(s for s in played.states if s.phase == after)
        known = state.found_anywhere()
        assert {k.id for k in script.clues if k.is_key and k.act == act_no} <= known
    state = played.state
    keys = [k.id for k in script.clues if k.is_key]
    share = sum(any(k in p.clues for p in state.players) for k in keys) / len(keys)
    caught = state.players[state.voted_out].character == script.culprit if state.voted_out is not None else False
    expected = ("perfect" if share >= PERFECT_SHARE else "normal") if caught else "failure"
    assert state.result is not None and state.result["ending"] == expected
    assert state.result["winner_camp"] == ("culprit" if expected == "failure" else "innocent")
    assert played.events[-1]["type"] == "match_finished"
    assert sum(e["type"] == "review" and e["part"] == "comment" for e in played.events) == 6


def _to(played: Played, phase: str) -> None:
    while played.state.phase != phase:
        expire(played)


def test_investigation_refusals_speak_the_dm_line() -> None:
    played = table()
    _to(played, "explore_r1")
    error = refused(played, 0, type="investigate", location="cellar")
    assert (error.code, error.message) == ("unknown_location", "未找到场景「地下室」，本轮可调查：书房、花园、大厅。")
    for _ in range(3):
        act(played, 0, type="investigate", location="study")
    error = refused(played, 0, type="investigate", location="study")
    assert (error.code, error.message) == ("investigation_limit", "你已调查过 3 个场景，请等待讨论阶段。")
    notice = [e for e in played.events if e["type"] == "dm_notice"]
    assert notice and notice[-1]["text"] == "「书房」已经搜查不出新的东西了。"


def test_the_next_clue_in_tier_order_and_the_first_finder_takes_the_item() -> None:
    played = table()
    _to(played, "explore_r1")
    found = [e["clue"]["id"] for e in act(played, 1, type="investigate", location="study") if e["type"] == "clue_found"]
    found += [e["clue"]["id"] for e in act(played, 1, type="investigate", location="study")
              if e["type"] == "clue_found"]
    assert found == ["k01", "k02"]
    act(played, 2, type="investigate", location="hall")
    act(played, 3, type="investigate", location="hall")
    assert "i09" in played.state.players[2].items and "i09" not in played.state.players[3].items


def _drawn(events: list[dict[str, Any]]) -> list[str]:
    return [e["clue"]["id"] for e in events if e["type"] == "clue_found"]


def test_clue_cards_are_physical_a_card_one_seat_drew_is_not_drawn_again() -> None:
    played = table()
    _to(played, "explore_r1")
    first = act(played, 1, type="investigate", location="study")
    second = act(played, 2, type="investigate", location="study")
    assert _drawn(first) == ["k01"] and _drawn(second) == ["k02"]  # the next undrawn card, not seat 1's again
    found = next(e for e in second if e["type"] == "clue_found")
    assert found["visibility"] == f"private:character:{played.state.players[2].character}"
    assert "k01" not in played.state.players[2].clues and "k02" not in played.state.players[1].clues
    third = act(played, 3, type="investigate", location="study")  # nobody's card is left: the DM says so
    assert _drawn(third) == [] and played.state.players[3].investigations == 1
    notice = next(e for e in third if e["type"] == "dm_notice")
    assert (notice["text"], notice["visibility"]) == ("「书房」已经搜查不出新的东西了。", "private:seat:3")
    # a card shown to the table stays its finder's: the others learn it, nobody draws it
    _to(played, "discuss_r1")
    act(played, 1, type="reveal_clue", clue="k01")
    _to(played, "explore_r2")  # act 2 adds k07 to the study
    assert _drawn(act(played, 4, type="investigate", location="study")) == ["k07"]
    assert _drawn(act(played, 5, type="investigate", location="study")) == []


def test_a_published_card_nobody_drew_still_lies_where_it_was() -> None:
    played = table()
    _to(played, "discuss_r1")  # nobody searched: the guarantee read k02 out
    assert "k02" in played.state.public_clues and not any("k02" in p.clues for p in played.state.players)
    _to(played, "explore_r2")
    assert _drawn(act(played, 0, type="investigate", location="study")) == ["k01"]
    assert _drawn(act(played, 1, type="investigate", location="study")) == ["k02"]  # drawn: it counts as found


def test_power_item_and_trade_refusals() -> None:
    played = table()
    _to(played, "explore_r1")
    c2, c4, c6 = (seat_playing(played, c) for c in ("c2", "c4", "c6"))
    target = (c2 + 1) % 6
    act(played, c2, type="use_power", power="p1", target=target)
    error = refused(played, c2, type="use_power", power="p1", target=target)
    assert (error.code, error.message) == ("power_used", "你的专属权力已使用过，每局限用 1 次。")
    assert refused(played, c6, type="use_power", power="p3").code == "power_locked"
    error = refused(played, c4, type="trade", to=c2, item="i01")
    assert (error.code, error.message) == ("key_item_not_tradable", "「带血的水果刀」为关键物品，不可交易。")
    assert refused(played, c6, type="trade", to=c2, item="i08").code == "key_item_not_tradable"
    assert refused(played, c2, type="trade", to=c4, item="i02").code == "not_your_item"
    act(played, c2, type="use_item", item="i03")
    assert "k09" in played.state.players[c2].clues
    assert refused(played, c2, type="use_item", item="i03").code == "item_used_up"
    assert refused(played, c2, type="private_chat", to=c2, text="我").code == "invalid_target"


def test_self_intro_turns_and_text_limits() -> None:
    played = table()
    _to(played, "self_intro")
    error = refused(played, 1, type="speak", text="我先说")
    assert error.code == "not_your_turn" and "0 号位" in error.message
    assert refused(played, 0, type="speak", text="长" * 301).code == "text_too_long"
    act(played, 0, type="speak", text="大家好")
    assert refused(played, 0, type="speak", text="再说一次").code == "already_spoke"
    assert played.state.speaker == 1


def test_a_tie_goes_to_a_second_vote_then_a_random_pick() -> None:
    played = table()
    _to(played, "final_vote")
    for voter, target in ((0, 1), (1, 0), (2, 1), (3, 0), (4, 5), (5, 4)):
        if voter == 5:
            assert refused(played, 4, type="vote", target=0).code == "already_voted"
        act(played, voter, type="vote", target=target)
    assert played.state.vote_round == 2 and played.state.vote_candidates == [0, 1]
    assert refused(played, 2, type="vote", target=3).code == "invalid_target"
    for voter, target in ((0, 1), (1, 0), (2, 1), (3, 0)):
        act(played, voter, type="vote", target=target)
    expire(played)  # 4 and 5 abstain: their votes are drawn among the tied
    assert played.state.phase == "review" and played.state.voted_out in (0, 1)
    receipts = [e for e in played.events if e["type"] == "vote_cast"]
    assert all(e["visibility"] == f"private:seat:{e['seat']}" for e in receipts) and len(receipts) == 10
    assert len(played.state.tally) == 2 and played.state.tally[1]["abstained"] == [4, 5]


def test_reconnect_restores_everything_from_the_snapshot() -> None:
    played = table()
    _to(played, "explore_r1")
    c1 = seat_playing(played, "c1")
    act(played, c1, type="investigate", location="garden")
    act(played, c1, type="trade", to=(c1 + 1) % 6, item="i02")
    act(played, (c1 + 2) % 6, type="private_chat", to=c1, text="你昨晚在哪？")
    act(played, (c1 + 3) % 6, type="private_chat", to=c1, text="我相信你。")
    restored = GAME.state_from_json(GAME.state_to_json(played.state))
    you = GAME.you_view(restored, c1)
    assert you == GAME.you_view(played.state, c1)
    assert GAME.public_fields(restored)["sub_stage"] == "explore_r1"
    assert you["character"]["script"] == load_script("tiny").character("c1").script
    assert [i["id"] for i in you["items"]] == ["i04"]  # i02 traded away, i04 found in the garden
    assert [c["id"] for c in you["clues"]] == ["k03"]
    assert you["unread_private_chats"]["count"] == 2
    assert [c["text"] for c in you["unread_private_chats"]["chats"]] == ["你昨晚在哪？", "我相信你。"]
    act(played, c1, type="ready")
    assert GAME.you_view(played.state, c1)["unread_private_chats"]["count"] == 0


def _vote_all(played: Played, target: int) -> None:
    _to(played, "final_vote")
    for voter in range(6):
        if voter != target:
            act(played, voter, type="vote", target=target)
    act(played, target, type="vote", target=(target + 1) % 6)


def test_the_endings_matrix() -> None:
    perfect = table(seed=3)
    _to(perfect, "explore_r1")
    searcher = 0
    act(perfect, searcher, type="investigate", location="study")
    act(perfect, searcher, type="investigate", location="study")  # k02 (key) after k01
    _to(perfect, "explore_r2")
    act(perfect, searcher, type="investigate", location="cellar")
    act(perfect, searcher, type="investigate", location="cellar")  # k05 (key, tier 3) after k06
    act(perfect, searcher, type="investigate", location="attic")  # k08 (key); the attic opened with event e3
    culprit = perfect.state.seat_of("c4")
    _vote_all(perfect, culprit)
    assert perfect.state.result is not None and perfect.state.result["ending"] == "perfect"
    assert perfect.state.result["winner_camp"] == "innocent" and culprit in perfect.state.result["losing_seats"]

    normal = table(seed=3)
    _vote_all(normal, normal.state.seat_of("c4"))  # nobody searched: the DM published every key clue
    assert set(normal.state.public_clues) >= {"k02", "k05", "k08"}
    assert normal.state.result is not None and normal.state.result["ending"] == "normal"

    failure = table(seed=3)
    _vote_all(failure, failure.state.seat_of("c1"))
    assert failure.state.result is not None and failure.state.result["ending"] == "failure"
    assert failure.state.result["winning_seats"] == [failure.state.seat_of("c4")]
    ending = next(e for e in failure.events if e["type"] == "ending")
    assert ending["text"] == load_script("tiny").endings.failure and ending["visibility"] == "public"
