"""What each seat is shown: you_view, allowed_actions, players_view, and the Game members."""

from __future__ import annotations

from typing import Any

from app.games.werewolf.game import GAME as WEREWOLF_GAME
from app.protocol.registry import Game
from tests.games.werewolf.rules import (
    Command,
    MatchState,
    NightAction,
    Shoot,
    WerewolfConfig,
    god_fields,
    players_view,
    public_fields,
    you_view,
)

from .helpers import Table

GAME = WEREWOLF_GAME
TYPED: Game[WerewolfConfig, MatchState, Command] = GAME  # mypy checks the structural fit


def types(actions: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    return [(a["type"], a.get("action")) for a in actions]


def test_the_night_roles_know_their_own_things() -> None:
    t = Table.started()
    wolf, seer, witch = t.wolves[0], t.one("seer"), t.one("witch")
    assert you_view(t.state, wolf)["fellow_wolves"] == t.wolves
    t.act("seer", "check", wolf)
    assert you_view(t.state, seer)["seer_checks"] == [{"seat": wolf, "round": 1, "camp": "werewolf"}]
    victim = t.seats("villager")[0]
    t.kill(victim)
    you = you_view(t.state, witch)
    assert you["night_victim"] == victim and you["potions"] == {"antidote": True, "poison": True}
    assert you["your_turn"] and you["next_action"] == "night_action"
    assert "fellow_wolves" not in you and "seer_checks" not in you_view(t.state, victim)


def test_your_turn_follows_what_the_night_waits_for() -> None:
    t = Table.started()
    a, b = t.wolves
    villager = t.seats("villager")[0]
    assert you_view(t.state, a)["next_action"] == "night_action"
    assert you_view(t.state, villager)["your_turn"] is False
    assert you_view(t.state, t.one("witch"))["next_action"] == "wait_for_next_phase"
    t.do(NightAction(seat=a, action="kill", target_seat=villager))
    assert you_view(t.state, a)["your_turn"] is False
    assert ("night_action", "kill") in types(you_view(t.state, a)["allowed_actions"])  # may still change


def test_allowed_actions_per_role_at_night() -> None:
    t = Table.started(n_players=12)
    wolf, seer, guard = t.wolves[0], t.one("seer"), t.one("guard")
    assert types(GAME.allowed_actions(t.state, wolf)) == [
        ("night_action", "kill"), ("night_action", "pass"), ("whisper", None), ("concede", None)]
    assert types(GAME.allowed_actions(t.state, seer))[:2] == [("night_action", "check"), ("night_action", "pass")]
    check = GAME.allowed_actions(t.state, seer)[0]
    assert seer not in check["targets"] and check["deadline_ts"] == t.state.deadline_ts
    assert types(GAME.allowed_actions(t.state, t.seats("villager")[0])) == [("concede", None)]
    assert types(GAME.allowed_actions(t.state, t.one("witch"))) == [("concede", None)]
    t.act("guard", "guard", 0)
    assert types(GAME.allowed_actions(t.state, guard)) == [("concede", None)]
    assert GAME.allowed_actions(t.state, 99) == []


def test_allowed_actions_for_the_witch_and_the_hunter() -> None:
    t = Table.started(n_players=9)
    hunter = t.one("hunter")
    t.night(hunter, witch=None)
    saves = GAME.allowed_actions(t.state, t.one("witch"))
    assert types(saves) == [("night_action", "save"), ("night_action", "poison"), ("night_action", "pass"),
                            ("concede", None)]
    assert saves[0]["targets"] == [hunter]
    t.act("witch", "pass")
    assert GAME.allowed_actions(t.state, hunter)[0]["type"] == "shoot"
    assert you_view(t.state, hunter)["next_action"] == "shoot" and you_view(t.state, hunter)["your_turn"]
    t.do(Shoot(seat=hunter, target_seat=None))
    assert types(GAME.allowed_actions(t.state, hunter)) == [("last_words", None), ("skip", None)]
    assert public_fields(t.state)["acting_seat"] == hunter


def test_players_view_hides_living_roles_and_shows_dead_cards_by_config() -> None:
    for reveal, keys in (("none", set()), ("team", {"revealed_camp"}), ("role", {"revealed_camp", "revealed_role"})):
        t = Table.started(reveal_role_on_death=reveal)
        victim = t.seats("villager")[0]
        t.night(victim)
        rows = players_view(t.state, god=False)
        assert all("role" not in r and "camp" not in r for r in rows)
        assert {k for k in rows[victim] if k.startswith("revealed")} == keys
        assert players_view(t.state, god=True)[victim]["death_cause"] == "killed"


def test_game_members() -> None:
    t = Table.started()
    assert GAME.name == "werewolf" and GAME.sides == ("village", "werewolf") and dict(GAME.profile_stats) == {}
    assert set(GAME.seat_sides(t.state).values()) == {"village", "werewolf"}
    assert [s for s, side in GAME.seat_sides(t.state).items() if side == "werewolf"] == t.wolves
    assert {spec.status for spec in GAME.errors.values()} <= {403, 409, 422}
    assert set(GAME.secret_fields) == set(god_fields(t.state))
    assert set(GAME.public_fields(t.state)) | set(GAME.secret_fields) <= set(GAME.snapshot_model.model_fields)
    GAME.snapshot_model.model_validate({**GAME.public_fields(t.state), **GAME.god_fields(t.state)})
    summary = GAME.summary(t.state)
    assert summary["phase"] == "night_round_1" and summary["timer"] is not None
    assert GAME.state_from_json(GAME.state_to_json(t.state)) == t.state
    assert GAME.role_set(t.state, t.wolves[0]) == frozenset({"werewolf"}) and GAME.role_set(t.state, 42) == frozenset()
    assert GAME.parse_config({"n_players": 9}).n_players == 9 and GAME.config_model.__name__ == "WerewolfConfig"


def test_action_response_of_a_vote() -> None:
    t = Table.started()
    t.night(None)
    t.speak_all()
    seat = t.state.living_seats()[0]
    events = t.do(GAME.parse_action({"type": "vote", "target_seat": t.state.living_seats()[1]}, seat))
    body = GAME.action_response(t.state, seat, events)
    assert body["match_status"] == "in_progress" and body["votes_in"] == "1/6"


def test_action_response_tells_the_actor_only_what_it_may_see() -> None:
    t = Table.started()
    a, b = t.wolves
    seer = t.one("seer")
    events = t.do(GAME.parse_action({"type": "night_action", "action": "check", "target_seat": a}, seer))
    assert GAME.action_response(t.state, seer, events)["seer_result"]["camp"] == "werewolf"
    t.do(NightAction(seat=a, action="kill", target_seat=seer))
    events = t.do(NightAction(seat=b, action="kill", target_seat=seer))
    assert GAME.action_response(t.state, b, events)["pack_decision"]["target_seat"] == seer
    assert "pack_decision" not in GAME.action_response(t.state, seer, events)


def test_a_witch_with_nothing_to_use_tonight_may_still_pass() -> None:
    t = Table.started()
    t.night(None, witch=("poison", t.seats("villager")[0]))
    t.day(None)
    t.night(None, witch=None)
    witch = t.one("witch")
    assert you_view(t.state, witch)["your_turn"] is True
    assert types(GAME.allowed_actions(t.state, witch)) == [("night_action", "pass"), ("concede", None)]
