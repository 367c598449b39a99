"""The recap's rewrite seam (`recap_voice`): what may be rephrased, and the checks a proposal must pass."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from app.games.base import GameError
from app.games.undercover import recap_voice
from app.games.undercover.game import GAME as UNDERCOVER_GAME
from app.games.undercover.wordpairs import default_library
from app.protocol.registry import Rewrites

from .helpers import Table
from .test_table import play_to_end


def finished(**config: Any) -> Table:
    t = Table.started(6, **config)
    play_to_end(t)
    assert t.state.status == "finished"
    return t


def proposal(t: Table) -> dict[str, Any]:
    source = recap_voice.source(t.state)
    assert source is not None
    return {"players": [{"seat": r["seat"], "score": r["score"], "comment": f"{r['seat']}号演得{r['score']}/10分"}
                        for r in source["players"]],
            "best": f"全场最佳是{source['best']['seat']}号，{source['best']['score']}/10",
            "blunder": f"{source['blunder']['seat']}号这局翻车了"}


def test_a_default_room_has_nothing_to_rewrite() -> None:
    t = finished()
    assert recap_voice.source(t.state) is None
    with pytest.raises(GameError) as refused:
        recap_voice.rewrite(t.state, {"players": []}, 1.0)
    assert refused.value.code == "invalid_rewrite"


def test_an_accepted_rewrite_is_one_public_event_and_an_additive_field() -> None:
    t = finished(recap=True)
    before = copy.deepcopy(t.state.result)
    source = recap_voice.source(t.state)
    assert source is not None and [r["seat"] for r in source["players"]] == list(range(6))
    assert source["words"] == [t.state.wordpair.civilian, t.state.wordpair.undercover]  # type: ignore[union-attr]
    wanted = proposal(t)
    game = UNDERCOVER_GAME
    assert isinstance(game, Rewrites)
    outcome = game.rewrite(t.state, wanted, now=2.0)
    assert [e["type"] for e in outcome.events] == ["recap_rewritten"]
    event = outcome.events[0]
    assert event["visibility"] == "public" and event["seq"] == t.state.seq + 1
    assert event["players"] == [{"seat": r["seat"], "comment": r["comment"]} for r in wanted["players"]]
    assert event["best"] == wanted["best"] and event["blunder"] == wanted["blunder"]
    result = outcome.state.result
    assert result is not None and result["recap"]["rewritten"] == {k: event[k] for k in ("players", "best", "blunder")}
    assert recap_voice.source(outcome.state) is None  # once only
    del result["recap"]["rewritten"]
    assert result == before and t.state.result == before  # the rule recap stays, the input state is untouched


@pytest.mark.parametrize("spoil", ["seat_missing", "seat_twice", "score_changed", "foreign_seat", "foreign_score",
                                   "foreign_word", "two_lines", "too_long", "not_text", "empty", "not_object"])
def test_a_proposal_that_changes_a_fact_is_refused(spoil: str) -> None:
    t = finished(recap=True)
    bad: Any = proposal(t)
    rows = bad["players"]
    pair = t.state.wordpair
    assert pair is not None
    other = next(w.word for p in default_library().pairs()
                 for w in (p.a, p.b) if len(w.word) >= 2 and w.word not in (pair.civilian, pair.undercover)
                 and pair.civilian not in w.word and pair.undercover not in w.word
                 and w.word not in pair.civilian and w.word not in pair.undercover)
    if spoil == "seat_missing":
        rows.pop()
    elif spoil == "seat_twice":
        rows[1]["seat"] = 0
    elif spoil == "score_changed":
        rows[2]["score"] += 1 if rows[2]["score"] < 10 else -1
    elif spoil == "foreign_seat":
        rows[0]["comment"] = "和7号配合得不错"
    elif spoil == "foreign_score":
        rows[0]["comment"] = f"至少值{rows[0]['score'] % 10 + 1}/10"
    elif spoil == "foreign_word":
        bad["best"] = f"描述得像{other}一样"
    elif spoil == "two_lines":
        rows[3]["comment"] = "第一句\n第二句"
    elif spoil == "too_long":
        bad["blunder"] = "长" * (recap_voice.MAX_AWARD + 1)
    elif spoil == "not_text":
        rows[4]["comment"] = 5
    elif spoil == "empty":
        rows[5]["comment"] = "   "
    else:
        bad = ["not", "an", "object"]
    with pytest.raises(GameError) as refused:
        recap_voice.rewrite(t.state, bad, 2.0)
    assert refused.value.code == "invalid_rewrite"


def test_the_pair_itself_may_be_named_after_the_end() -> None:
    t = finished(recap=True)
    pair = t.state.wordpair
    assert pair is not None
    wanted = proposal(t)
    wanted["best"] = f"把{pair.civilian}和{pair.undercover}演活了"
    outcome = recap_voice.rewrite(t.state, wanted, 2.0)
    assert outcome.events[0]["best"] == wanted["best"]


def test_the_table_names_and_rule_texts_are_not_invented_words() -> None:
    t = finished(recap=True)
    assert "侦探" in default_library_words() and "主持人" in default_library_words()  # both are library words
    t.state.players[0].display_name = "侦探·鹰眼"
    wanted = proposal(t)
    wanted["players"][0]["comment"] = "侦探·鹰眼今天眼神不太好"
    wanted["blunder"] = "主持人都看笑了"
    outcome = recap_voice.rewrite(t.state, wanted, 2.0)
    assert outcome.events[0]["blunder"] == "主持人都看笑了"
    wanted["players"][1]["comment"] = "像个侦探一样"  # fine too: 侦探 is at this table
    recap_voice.rewrite(t.state, wanted, 2.0)
    t.state.players[0].display_name = "P0"
    with pytest.raises(GameError):  # without 侦探 at the table, it is an invented fact
        recap_voice.rewrite(t.state, wanted, 2.0)


def default_library_words() -> set[str]:
    return {w.word for p in default_library().pairs() for w in (p.a, p.b)}
