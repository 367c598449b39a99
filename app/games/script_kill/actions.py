"""The seats' actions: the gate table first (`guard`), then each action's own checks, every refusal a DM line."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from app.games.base import GameError
from app.games.kit import Action
from app.games.script_kill import commands as c
from app.games.script_kill import discovery, voting
from app.games.script_kill.commands import MAX_SPEECH
from app.games.script_kill.discovery import clue_record, item_record, private_to
from app.games.script_kill.speaking import pass_floor
from app.games.script_kill.stages import FORBIDDEN, GATES, allowed_in
from app.games.script_kill.state import Chat, MatchState, Player
from app.games.script_kill.step import Step

INVESTIGATIONS_PER_ROUND = 3


def guard(state: MatchState, player: Player, action: str) -> None:
    """Check the match, the seat and the gate table before any action."""
    if state.status in ("finished", "aborted"):
        raise GameError("match_finished", "本局已经结束。", status=state.status)
    if player.conceded:
        raise GameError("you_are_eliminated", "你已离开本局，只能旁观。", seat=player.seat)
    if state.status == "waiting" or not allowed_in(action, state.phase):
        raise GameError("stage_forbids", FORBIDDEN[action] if state.status == "in_progress"
                        or action in GATES else "剧本尚未开始。", action=action, sub_stage=state.phase)


def _marks_read(rule: Callable[[Step, Player, Any], None]) -> Callable[[Step, Player, Any], None]:
    """An action that changes the match marks the seat's private chats read (the read-only ones do not)."""
    def run(step: Step, player: Player, cmd: Any) -> None:
        rule(step, player, cmd)
        player.chat_read_seq = step.state.seq
    return run


def _text(text: str | None) -> str:
    text = (text or "").strip()
    if not any(unicodedata.category(ch)[0] not in "CZ" for ch in text):
        raise GameError("bad_request", "内容不能为空。", field="text")
    if "\x00" in text:
        raise GameError("bad_request", "内容不能包含 NUL 字符。", field="text")
    if len(text) > MAX_SPEECH:
        raise GameError("text_too_long", f"发言不能超过 {MAX_SPEECH} 字（当前 {len(text)} 字）。", field="text",
                        limit=MAX_SPEECH, length=len(text))
    return text


def _name(state: MatchState, player: Player) -> str:
    return state.script.character(str(player.character)).name


def _own_item(state: MatchState, player: Player, item_id: str | None) -> str:
    if item_id is None or item_id not in player.items:
        name = _item_name(state, item_id)
        raise GameError("not_your_item", f"你没有{name}。", item=item_id)
    return item_id


def _item_name(state: MatchState, item_id: str | None) -> str:
    known = {i.id: i.name for i in state.script.items}
    return f"「{known[item_id]}」" if item_id in known else "这件物品"


def _visible_clue(state: MatchState, player: Player, clue_id: str | None) -> str:
    if clue_id is None or (clue_id not in player.clues and clue_id not in state.public_clues):
        raise GameError("unknown_clue", "你还没有这条线索，请先用 list_clues 查看你掌握的线索。", clue=clue_id)
    return clue_id


def _other_seat(state: MatchState, player: Player, seat: int | None, what: str) -> int:
    if seat is None or state.seat(seat) is None or seat == player.seat:
        others = "、".join(str(p.seat) for p in state.players if p.seat != player.seat)
        raise GameError("invalid_target", f"{what}的对象必须是其他玩家的座位号：{others}。", target=seat)
    return seat


def list_clues(step: Step, player: Player, cmd: c.ListCluesRequest) -> None:
    state = step.state
    step.reply = {"clues": [clue_record(state.script.clue(k)) for k in player.clues],
                  "public_clues": [clue_record(state.script.clue(k)) for k in state.public_clues]}


def list_items(step: Step, player: Player, cmd: c.ListItemsRequest) -> None:
    step.reply = {"items": [item_record(step.state, i) for i in player.items]}


def inspect(step: Step, player: Player, cmd: c.InspectRequest) -> None:
    state = step.state
    if (cmd.item is None) == (cmd.clue is None):
        raise GameError("bad_request", "请指定要查看的 item 或 clue（二选一）。", field="item")
    if cmd.item is not None:
        step.reply = {"inspected": {"kind": "item", **item_record(state, _own_item(state, player, cmd.item))}}
    else:
        clue = state.script.clue(_visible_clue(state, player, cmd.clue))
        step.reply = {"inspected": {"kind": "clue", **clue_record(clue)}}


def speak(step: Step, player: Player, cmd: c.SpeakRequest) -> None:
    state = step.state
    if state.phase == "self_intro":
        if player.spoke:
            raise GameError("already_spoke", "你已经做过自我介绍了，请等待其他玩家。")
        if state.speaker != player.seat:
            raise GameError("not_your_turn", f"还没轮到你发言，现在是 {state.speaker} 号位在自我介绍。",
                            speaker=state.speaker)
    text = _text(cmd.text)
    step.emit("speech", "public", seat=player.seat, character=player.character, name=_name(state, player),
              text=text, round=state.round_no)
    player.spoke = True
    if state.phase == "self_intro":
        pass_floor(step)


def reveal_clue(step: Step, player: Player, cmd: c.RevealClueRequest) -> None:
    state = step.state
    if (cmd.item is None) == (cmd.clue is None):
        raise GameError("bad_request", "请指定要公开的 clue 或 item（二选一）。", field="clue")
    if cmd.clue is not None:
        if cmd.clue not in player.clues:
            raise GameError("unknown_clue", "你还没有这条线索，只能公开自己找到的线索。", clue=cmd.clue)
        if cmd.clue not in state.public_clues:
            state.public_clues.append(cmd.clue)
        shown = {"clue": clue_record(state.script.clue(cmd.clue))}
    else:
        shown = {"item": item_record(state, _own_item(state, player, cmd.item))}
    step.emit("clue_revealed", "public", seat=player.seat, name=_name(state, player), **shown,
              text=f"{_name(state, player)}向大家展示了" + (f"线索：{shown['clue']['text']}" if "clue" in shown
                                                          else f"物品「{shown['item']['name']}」"))


def investigate(step: Step, player: Player, cmd: c.InvestigateRequest) -> None:
    state = step.state
    if cmd.location not in state.unlocked_locations:
        known = {x.id: x.name for x in state.script.locations}
        asked = known.get(str(cmd.location), str(cmd.location))
        raise GameError("unknown_location", f"未找到场景「{asked}」，本轮可调查：{discovery.location_names(state)}。",
                        location=cmd.location, locations=list(state.unlocked_locations))
    if player.investigations >= INVESTIGATIONS_PER_ROUND + player.extra_investigations:
        raise GameError("investigation_limit",
                        f"你已调查过 {player.investigations} 个场景，请等待讨论阶段。", limit=player.investigations)
    discovery.investigate(step, player, cmd.location)


def _target(state: MatchState, player: Player, kind: str, target: int | str | None) -> int | str | None:
    if kind == "none":
        return None
    if kind == "character":
        if not isinstance(target, int):
            target = None
        return _other_seat(state, player, target, "这项能力")
    if target not in state.unlocked_locations:
        raise GameError("invalid_target", f"请指定一个已开放的场景：{discovery.location_names(state)}。",
                        target=target)
    return target


def use_power(step: Step, player: Player, cmd: c.UsePowerRequest) -> None:
    state = step.state
    mine = [p for p in state.script.powers if p.owner == player.character]
    power = next((p for p in mine if p.id == cmd.power), None)
    if power is None:
        raise GameError("no_power", "你没有这项专属权力。" if mine else "你的角色没有专属权力。", power=cmd.power)
    if player.power_used:
        raise GameError("power_used", "你的专属权力已使用过，每局限用 1 次。", power=cmd.power)
    if power.id not in state.unlocked_powers:
        raise GameError("power_locked", f"「{power.name}」尚未解锁，请等待剧情推进。", power=power.id)
    target = _target(state, player, power.target, cmd.target)
    player.power_used = True
    shown = discovery.run_effect(step, player, power.effect, target, f"power:{power.id}")
    step.emit("power_used", "public", seat=player.seat, name=_name(state, player),
              text=f"{_name(state, player)}使用了专属权力。")
    step.emit("power_result", private_to(player), seat=player.seat, power=power.id, power_name=power.name,
              target=target, result=shown)


def use_item(step: Step, player: Player, cmd: c.UseItemRequest) -> None:
    state = step.state
    item = state.script.item(_own_item(state, player, cmd.item))
    if item.effect is None:
        raise GameError("item_not_usable", f"「{item.name}」无法使用。", item=item.id)
    if item.uses is not None and state.item_uses.get(item.id, 0) <= 0:
        raise GameError("item_used_up", f"「{item.name}」已经用完了。", item=item.id)
    target_kind = getattr(item.effect, "target", "none")
    target = _target(state, player, target_kind, cmd.target)
    if item.uses is not None:
        state.item_uses[item.id] -= 1
    shown = discovery.run_effect(step, player, item.effect, target, f"item:{item.id}")
    step.emit("item_used", private_to(player), seat=player.seat, item=item.id, item_name=item.name, target=target,
              uses_left=state.item_uses.get(item.id), result=shown)


def trade(step: Step, player: Player, cmd: c.TradeRequest) -> None:
    state = step.state
    to = _other_seat(state, player, cmd.to, "交易")
    item = state.script.item(_own_item(state, player, cmd.item))
    if item.is_key:
        raise GameError("key_item_not_tradable", f"「{item.name}」为关键物品，不可交易。", item=item.id)
    if item.type != "clue_item" or not item.tradable:
        raise GameError("item_not_tradable", f"「{item.name}」不可交易，只有线索物品可以交易。", item=item.id)
    player.items.remove(item.id)
    receiver = state.players[to]
    receiver.items.append(item.id)
    step.emit("trade", f"private:pair:{min(player.seat, to)}:{max(player.seat, to)}", seat=player.seat, to=to,
              item=item_record(state, item.id))
    step.emit("item_obtained", private_to(receiver), seat=to, how=f"trade:{player.seat}",
              item=item_record(state, item.id))
    step.emit("trade_made", "public", seat=player.seat, to=to,
              text=f"{_name(state, player)}与{_name(state, receiver)}完成了一次交易。")


def private_chat(step: Step, player: Player, cmd: c.PrivateChatRequest) -> None:
    state = step.state
    to = _other_seat(state, player, cmd.to, "私聊")
    text = _text(cmd.text)
    event = step.emit("private_chat", f"private:pair:{min(player.seat, to)}:{max(player.seat, to)}",
                      seat=player.seat, to=to, text=text, round=state.round_no)
    state.chats.append(Chat(seq=event["seq"], from_seat=player.seat, to_seat=to, text=text))


def vote(step: Step, player: Player, cmd: c.VoteRequest) -> None:
    voting.vote(step, player, cmd.target if isinstance(cmd.target, int) else None)


def ready(step: Step, player: Player, cmd: c.ReadyRequest) -> None:
    state = step.state
    if player.ready:
        raise GameError("already_ready", "你已示意准备完毕，请等待其他玩家。")
    player.ready = True
    done = sum(p.ready for p in state.seated())
    step.emit("player_ready", "public", seat=player.seat, ready=f"{done}/{len(state.seated())}")
    if state.phase == "self_intro" and state.speaker == player.seat:
        player.spoke = True  # ready on one's own turn passes the floor
        pass_floor(step)


ACTIONS: Mapping[str, Action[Step]] = MappingProxyType({
    "list_clues": Action(c.ListCluesRequest, list_clues), "list_items": Action(c.ListItemsRequest, list_items),
    "inspect": Action(c.InspectRequest, inspect), "speak": Action(c.SpeakRequest, _marks_read(speak)),
    "reveal_clue": Action(c.RevealClueRequest, _marks_read(reveal_clue)),
    "investigate": Action(c.InvestigateRequest, _marks_read(investigate)),
    "use_power": Action(c.UsePowerRequest, _marks_read(use_power)),
    "use_item": Action(c.UseItemRequest, _marks_read(use_item)), "trade": Action(c.TradeRequest, _marks_read(trade)),
    "private_chat": Action(c.PrivateChatRequest, _marks_read(private_chat)),
    "vote": Action(c.VoteRequest, _marks_read(vote)), "ready": Action(c.ReadyRequest, _marks_read(ready)),
})
