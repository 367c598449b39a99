"""The waiting room: create, join, deal when full, abort.

The deal draws the pair, its orientation (which word the civilians get), the roles and a
random first speaker from `Random(f"{seed}:{seq}:deal")`. In production the seed comes from
`secrets.randbits(64)`, so the pair is drawn with the secrets module (spec §7.1) while a
stored game still replays byte-for-byte.
"""

from __future__ import annotations

from app.games.base import GameError
from app.games.kit import lobby as room
from app.games.undercover.commands import Abort, Join
from app.games.undercover.config import UndercoverConfig
from app.games.undercover.state import MatchState, Player, WordPair
from app.games.undercover.step import Outcome, Step
from app.games.undercover.transitions import SpeakRound, Transition


def new_match(config: UndercoverConfig, host_name: str, host_display_name: str,
              seed: int, now: float) -> Outcome:
    """A waiting room with the host in seat 0."""
    host = Player(seat=0, name=host_name, display_name=host_display_name)
    step = Step(MatchState(seed=seed, config=config, players=[host]), now)
    room.announce(step, config.model_dump(), host_name, host_display_name)
    return Outcome(step.state, step.events)


def join(step: Step, cmd: Join) -> Transition:
    """Seat a player in the next free seat; the last seat triggers the deal."""
    state = step.state
    seated = room.seat_player(step, lambda seat: state.players.append(
        Player(seat=seat, name=cmd.name, display_name=cmd.display_name)), cmd.name, cmd.display_name,
        state.config.n_players)
    return _deal(step) if seated else None


def abort(step: Step, cmd: Abort) -> Transition:
    """Cancel a waiting room (the janitor may also clear a running one)."""
    if step.state.status != "finished":
        step.state.current_speaker_seat = None
        step.state.pending = []
    room.abort(step, cmd.reason)
    return None


def _deal(step: Step) -> Transition:
    state, config = step.state, step.state.config
    if not step.pairs:
        raise GameError("invalid_config", "no word pair matches this config", field="wordpair_tag")
    rng = step.rng("deal")
    civilian, undercover = step.pairs[rng.randrange(len(step.pairs))]
    if rng.random() < 0.5:
        civilian, undercover = undercover, civilian
    state.wordpair = WordPair(civilian=civilian, undercover=undercover)
    _assign_roles(state, rng.sample(range(config.n_players), config.n_players))
    first = config.first_speaker
    state.first_speaker_seat = rng.randrange(config.n_players) if first == "random" else first
    state.status = "in_progress"
    _announce_deal(step)
    return SpeakRound(1)


def _assign_roles(state: MatchState, shuffled: list[int]) -> None:
    config, pair = state.config, state.wordpair
    assert pair is not None
    undercovers = set(shuffled[: config.n_undercover])
    blanks = set(shuffled[config.n_undercover: config.n_undercover + config.n_blank])
    for player in state.players:
        if player.seat in undercovers:
            player.role, player.word = "undercover", pair.undercover
        elif player.seat in blanks:
            player.role, player.word = "blank", None
        else:
            player.role, player.word = "civilian", pair.civilian


def _announce_deal(step: Step) -> None:
    state, config = step.state, step.state.config
    assert state.wordpair is not None
    step.emit("match_started", "public", n_players=config.n_players,
              n_undercover=config.n_undercover, n_blank=config.n_blank)
    step.emit("roles_dealt", "god_only", wordpair=state.wordpair.model_dump(),
              roles=[{"seat": p.seat, "role": p.role, "word": p.word} for p in state.players],
              first_speaker_seat=state.first_speaker_seat)
    for p in state.players:
        step.emit("role_assigned", f"private:seat:{p.seat}", seat=p.seat, role=p.role, word=p.word)
    reveal = config.fellow_roles_visible or config.allow_whisper
    step.emit("fellow_role_hint", "private:role:undercover", n_undercover=config.n_undercover,
              note=_hint_note(config.n_undercover, reveal))
    if reveal:
        step.emit("fellow_role_revealed", "private:role:undercover",
                  fellow_seats=state.seats_with("undercover"))


def _hint_note(n_undercover: int, revealed: bool) -> str:
    tail = "同伴座位见 fellow_role_revealed" if revealed else "卧底之间不知道彼此身份"
    return f"本局共 {n_undercover} 名卧底（含你）；{tail}"
