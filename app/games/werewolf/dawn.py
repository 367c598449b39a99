"""Dawn: the night resolves, and the day hears who died (never how).

- The wolves' victim dies unless protected exactly once: guarded *or* saved. Guarded *and* saved dies
  (同守同救, the antidote and the guard cancel out). The poisoned seat dies whatever the guard did.
- Deaths are announced together in seat order (`night_result`, then one `player_eliminated` each);
  the god-only `night_resolved` records what each role did.
- A hunter killed by the wolves may shoot (not one who was poisoned).
- On night 1 with `first_night_last_words` the dead speak last words, after any shot; later night
  deaths have none.
"""

from __future__ import annotations

from app.games.kit.dispatch import Cue
from app.games.werewolf import deaths, ending
from app.games.werewolf.state import DeathCause, Pending, Step
from app.games.werewolf.transitions import NEXT_PENDING, Transition


def resolve(step: Step, _: Cue) -> Transition:
    """Apply the night, announce the dead, check the win, queue the dead's actions."""
    state = step.state
    night, n = state.night, state.round_index
    dead: dict[int, DeathCause] = {}
    victim = night.victim
    if victim is not None and state.players[victim].alive and (night.guard_target == victim) == night.saved:
        dead[victim] = "killed"
    if night.poison_target is not None and state.players[night.poison_target].alive:
        dead[night.poison_target] = "poisoned"
    state.last_guarded = night.guard_target
    step.emit("night_resolved", "god_only", round=n, wolves_target=victim, guarded=night.guard_target,
              saved=night.saved, poisoned=night.poison_target, seer_checked=night.seer_target,
              deaths={str(seat): cause for seat, cause in sorted(dead.items())})
    for seat, cause in dead.items():
        deaths.kill(state, seat, cause, f"night_{n}")
    order = sorted(dead)
    state.phase = f"dawn_round_{n}"
    step.emit("night_result", "public", round=n, dead_seats=order, peaceful=not order)
    for seat in order:
        deaths.announce(step, seat)
    if ending.finish_if_won(step):
        return None
    last_words = n == 1 and state.config.first_night_last_words
    state.pending = [p for seat in order for p in deaths.hunter_shot_due(state, seat, last_words=last_words)]
    if last_words:
        state.pending += [Pending(seat=seat, kind="last_words") for seat in order]
    state.then_night = False
    return NEXT_PENDING
