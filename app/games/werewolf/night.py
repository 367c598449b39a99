"""`night_round_N`, first step: the wolves choose a victim, the seer checks, the guard protects — all at once.

- Each living wolf sends `kill` (any living seat, a wolf too) or `pass` (no kill); a wolf may change its
  choice until the pack has decided. The pack decides as soon as one choice (a seat, or no kill) holds a
  strict majority of the living wolves. Every choice and the decision are `private:role:werewolf`.
- When every living wolf has chosen and no choice has a majority, the pack hears `pack_split` (the choices) and
  may still change. At `night_timeout` an undecided pack takes the most-chosen seat among the choices made; a tie
  goes to the lowest tied seat (a seat beats "no kill" in a tie); no choice at all is no kill. A silent seer or
  guard does nothing that night.
- The seer checks one living seat other than herself and learns its camp at once (`seer_result`,
  `private:seat:N`). The guard protects one living seat (himself too), never the seat he protected the
  night before; a pass, or a silent night, frees any seat for the next night.
- The step ends when the pack has decided and the living seer and guard have acted; then the witch
  wakes (`witch`) if she lives and holds a potion, else dawn comes.
"""

from __future__ import annotations

from collections import Counter

from app.games.base import GameError
from app.games.kit.choices import receipt, waiting, wake
from app.games.werewolf import ending
from app.games.werewolf.checks import require_night_actor, require_target
from app.games.werewolf.commands import NightActionRequest
from app.games.werewolf.state import MatchState, Night, Player, SeerCheck, Step
from app.games.werewolf.transitions import DAWN, WITCH_WAKES, NightFalls, Transition


def open_night(step: Step, nxt: NightFalls) -> Transition:
    """Enter `night_round_N` and wake the wolves, the seer and the guard; night `max_rounds + 1` ends the match
    instead (the pack survived)."""
    state = step.state
    if nxt.round_index > state.config.max_rounds:
        ending.finish(step, "werewolf", "max_rounds_reached")
        return None
    state.round_index = nxt.round_index
    state.phase = f"night_round_{nxt.round_index}"
    state.night = Night()
    state.current_speaker_seat, state.votes, state.pk, state.pk_candidates = None, {}, False, []
    deadline = step.start_clock(state.config.night_timeout, "night_expire")
    step.emit("phase_started", "public", phase=state.phase, round_index=state.round_index, deadline_ts=deadline)
    wake(step, due_seats(state), "your_turn_to_act", lambda seat: {"role": state.players[seat].role},
                 deadline_ts=deadline)
    return None


def due_seats(state: MatchState) -> list[int]:
    """Living seats the night still waits for (a wolf that has chosen is no longer waited for)."""
    if state.stage != "night":
        return []
    night = state.night
    if night.step == "witch":
        witch = state.holder("witch")
        return [witch.seat] if witch and not night.witch_done else []
    seats = [] if night.wolves_done else waiting(state.alive_with("werewolf"), night.wolf_choices)
    seer, guard = state.holder("seer"), state.holder("guard")
    seats += [seer.seat] if seer and not night.seer_done else []
    seats += [guard.seat] if guard and not night.guard_done else []
    return sorted(seats)


def kill_targets(state: MatchState) -> list[int]:
    """Seats the wolves may choose: every living seat."""
    return state.living_seats()


def check_targets(state: MatchState, seer: int) -> list[int]:
    """Seats the seer may check: every other living seat."""
    return [s for s in state.living_seats() if s != seer]


def guard_targets(state: MatchState) -> list[int]:
    """Seats the guard may protect: every living seat but last night's."""
    return [s for s in state.living_seats() if s != state.last_guarded]


def night_action(step: Step, actor: Player, cmd: NightActionRequest) -> Transition:
    """A wolf's choice, the seer's check or the guard's protection (the witch acts in `witch`)."""
    state, seat = step.state, actor.seat
    player = require_night_actor(state, seat, cmd)
    if state.night.step != "wolves" or player.role == "witch":
        raise GameError("not_your_night_turn", "wait until the night reaches your role", role=player.role)
    if player.role == "werewolf":
        return _wolf_choice(step, seat, cmd)
    if player.role == "seer":
        _seer(step, seat, cmd)
    else:
        _guard(step, seat, cmd)
    return step_over(state)


def _wolf_choice(step: Step, seat: int, cmd: NightActionRequest) -> Transition:
    state = step.state
    if state.night.wolves_done:
        raise GameError("night_action_done", "the pack has already decided", target_seat=state.night.victim)
    target = None if cmd.action == "pass" else require_target(cmd.target_seat, kill_targets(state))
    state.night.wolf_choices[seat] = target
    step.emit("wolf_kill_chosen", "private:role:werewolf", seat=seat, round=state.round_index,
              target_seat=target)
    nxt = settle_by_majority(step)
    wolves = state.alive_with("werewolf")
    if not state.night.wolves_done and all(w in state.night.wolf_choices for w in wolves):
        step.emit("pack_split", "private:role:werewolf", round=state.round_index,
                  choices={str(s): state.night.wolf_choices[s] for s in wolves})
    return nxt


def settle_by_majority(step: Step) -> Transition:
    """Decide for the pack once one choice holds a strict majority of the living wolves."""
    state = step.state
    wolves = state.alive_with("werewolf")
    choices = Counter(t for seat, t in state.night.wolf_choices.items() if seat in wolves)
    agreed = [target for target, n in choices.items() if 2 * n > len(wolves)]
    if agreed and not state.night.wolves_done:
        _decide(step, agreed[0], "majority")
    return step_over(state)


def _decide(step: Step, target: int | None, by: str) -> None:
    state = step.state
    state.night.wolves_done = True
    state.night.victim = target
    step.emit("wolves_decided", "private:role:werewolf", round=state.round_index, target_seat=target, by=by)


def _seer(step: Step, seat: int, cmd: NightActionRequest) -> None:
    state = step.state
    if state.night.seer_done:
        raise GameError("night_action_done", "you have already checked tonight")
    state.night.seer_done = True
    if cmd.action == "pass":
        _recorded(step, seat, "pass", None)
        return
    target = require_target(cmd.target_seat, check_targets(state, seat))
    state.night.seer_target = target
    camp = state.players[target].camp
    assert camp is not None
    state.seer_checks.append(SeerCheck(seat=target, round=state.round_index, camp=camp))
    _recorded(step, seat, "check", target)
    step.emit("seer_result", f"private:seat:{seat}", seat=seat, round=state.round_index,
              target_seat=target, camp=camp, is_werewolf=camp == "werewolf")


def _guard(step: Step, seat: int, cmd: NightActionRequest) -> None:
    state = step.state
    if state.night.guard_done:
        raise GameError("night_action_done", "you have already protected a seat tonight")
    target = None
    if cmd.action == "guard":
        if cmd.target_seat is not None and cmd.target_seat == state.last_guarded:
            raise GameError("guard_same_target", "you protected that seat last night", target_seat=cmd.target_seat)
        target = require_target(cmd.target_seat, guard_targets(state))
    state.night.guard_done = True
    state.night.guard_target = target
    _recorded(step, seat, cmd.action, target)


def _recorded(step: Step, seat: int, action: str, target: int | None) -> None:
    receipt(step, seat, "night_action_recorded", action=action, target_seat=target)


def step_over(state: MatchState) -> Transition:
    """The first step is over once nobody is waited for: the witch wakes, or dawn comes."""
    if state.night.step != "wolves" or due_seats(state) or not state.night.wolves_done:
        return None
    return _after_first_step(state)


def _after_first_step(state: MatchState) -> Transition:
    witch = state.holder("witch")
    if witch is not None and (state.antidote or state.poison):
        return WITCH_WAKES
    return DAWN


def on_expire(step: Step) -> Transition:
    """Time is up: an undecided pack follows the deadline rule; silent roles did nothing."""
    state = step.state
    night = state.night
    if not night.wolves_done:
        wolves = state.alive_with("werewolf")
        choices = Counter(t for seat, t in night.wolf_choices.items() if seat in wolves)
        _decide(step, _plurality(choices), "deadline")
    night.seer_done = night.guard_done = True
    return _after_first_step(state)


def _plurality(choices: Counter[int | None]) -> int | None:
    seats = Counter({t: n for t, n in choices.items() if t is not None})
    if not seats:
        return None
    top = max(seats.values())
    if choices.get(None, 0) > top:
        return None
    return min(t for t, n in seats.items() if n == top)


def after_concede(step: Step, seat: int) -> Transition:
    """A seat left at night: its wolf choice goes (the pack may now agree); a night role that left is done."""
    state = step.state
    state.night.wolf_choices.pop(seat, None)
    if state.night.step == "witch":
        return DAWN if state.holder("witch") is None else None
    return settle_by_majority(step)
