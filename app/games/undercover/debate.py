"""`debate_round_N` (opt-in, `config.debate_rounds` 1–2): free debate between the speeches and the vote.

- After the round's speeches (not after a PK's), the host comments (`host`, when on), then debate round 1
  opens, then round 2 when `debate_rounds` is 2, then the vote. The phase is `debate_round_N` for both
  (N is the game's round); `phase_started` carries `debate_round` and `debate_rounds`.
- Every living seat may post up to `DEBATE_MAX_MESSAGES` messages (`debate`, at most `DEBATE_MAX_CHARS`
  characters; the same own-word and instruction checks as a speech) or pass (`debate_pass`). A seat is done
  once it has passed or used its messages; the debate round closes when every living seat is done, or at
  `debate_timeout` seconds (no warning; a seat that said nothing just said nothing).
- `debate_posted` names the seats a message addresses (`addressed_seats`: "N号" or a seat's display name),
  so a bot knows when it is challenged.
- A seat that concedes during a debate is no longer waited for.
"""

from __future__ import annotations

import re

from app.games.base import GameError
from app.games.kit.checks import clean_text, require_in_progress, require_living, require_stage
from app.games.kit.dispatch import Cue
from app.games.kit.transitions import VOTE_ROUND
from app.games.undercover import host
from app.games.undercover.actions import DebateAction, DebatePassAction
from app.games.undercover.checks import check_said, remember_said
from app.games.undercover.config import DEBATE_MAX_CHARS, DEBATE_MAX_MESSAGES
from app.games.undercover.instructions import screen
from app.games.undercover.state import MatchState, Player, Step
from app.games.undercover.transitions import DebateRound, Transition

_SEAT_MENTION = re.compile(r"(\d{1,2})\s*号")


def after_speeches(step: Step, _: Cue) -> Transition:
    """The speeches are over: the host's commentary and the debate when the room asked for them, then the vote."""
    state = step.state
    if state.pk or not state.config.table_extensions:
        return VOTE_ROUND
    if state.config.host != "off":
        host.comment(step)
    return DebateRound(1) if state.config.debate_rounds else VOTE_ROUND


def open_debate(step: Step, nxt: DebateRound) -> Transition:
    """Enter debate round `nxt.index` of the current round."""
    state = step.state
    state.phase = f"debate_round_{state.round_index}"
    state.current_speaker_seat = None
    state.debate_index = nxt.index
    state.debate_posts, state.debate_done = {}, []
    deadline = step.start_clock(state.config.debate_timeout, "debate_expire")
    step.emit("phase_started", "public", phase=state.phase, round_index=state.round_index, deadline_ts=deadline,
              pk=False, debate_round=nxt.index, debate_rounds=state.config.debate_rounds,
              max_messages=DEBATE_MAX_MESSAGES, max_chars=DEBATE_MAX_CHARS)
    return None


def debate(step: Step, actor: Player, req: DebateAction) -> Transition:
    """A debate message: public, checked like a speech."""
    state = step.state
    player = _require_debater(state, actor.seat)
    text = clean_text(req.text)
    if len(text) > DEBATE_MAX_CHARS:
        raise GameError("text_too_long", f"a debate message is at most {DEBATE_MAX_CHARS} characters",
                        field="text", limit=DEBATE_MAX_CHARS, length=len(text))
    check_said(state, player, text)
    flags = screen([text], compete_mode=state.config.compete_mode)
    posted = state.debate_posts.get(actor.seat, 0) + 1
    state.debate_posts[actor.seat] = posted
    if posted >= DEBATE_MAX_MESSAGES:
        state.debate_done.append(actor.seat)
    step.emit("debate_posted", "public", seat=actor.seat, round=state.round_index, debate_round=state.debate_index,
              text=text, addressed_seats=addressed(state, actor.seat, text),
              messages_left=DEBATE_MAX_MESSAGES - posted, **flags)
    remember_said(state, actor.seat, text)
    return _close_if_done(step)


def debate_pass(step: Step, actor: Player, req: DebatePassAction) -> Transition:
    """The seat has nothing (more) to say this debate round."""
    state = step.state
    _require_debater(state, actor.seat)
    state.debate_done.append(actor.seat)
    step.emit("debate_passed", "public", seat=actor.seat, round=state.round_index, debate_round=state.debate_index)
    return _close_if_done(step)


def on_expire(step: Step) -> Transition:
    """The debate round's time is up."""
    return _next(step)


def after_concede(step: Step, _seat: int) -> Transition:
    """A seat left mid-debate: stop waiting for it."""
    return _close_if_done(step)


def done(state: MatchState, seat: int) -> bool:
    """True when `seat` has passed or used its messages in this debate round."""
    return seat in state.debate_done


def addressed(state: MatchState, speaker: int, text: str) -> list[int]:
    """Other seats `text` names, by "N号" or by display name, ascending."""
    named = {int(m) for m in _SEAT_MENTION.findall(text)}
    named |= {p.seat for p in state.players if len(p.display_name.strip()) >= 2 and p.display_name in text}
    return sorted(s for s in named if s != speaker and state.seat(s) is not None)


def _close_if_done(step: Step) -> Transition:
    state = step.state
    if all(done(state, seat) for seat in state.living_seats()):
        return _next(step)
    return None


def _next(step: Step) -> Transition:
    state = step.state
    state.debate_posts, state.debate_done = {}, []
    if state.debate_index < state.config.debate_rounds:
        return DebateRound(state.debate_index + 1)
    state.debate_index = 0
    return VOTE_ROUND


def _require_debater(state: MatchState, seat: int) -> Player:
    require_in_progress(state)
    if not state.config.debate_rounds:
        raise GameError("debate_not_enabled", "this room has no debate (config.debate_rounds is 0)")
    player = require_living(state, seat)
    require_stage(state, "debate")
    if done(state, seat):
        raise GameError("debate_turn_over", "you have passed or used your messages in this debate round",
                        max_messages=DEBATE_MAX_MESSAGES)
    return player
