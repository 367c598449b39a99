"""The deal, when the kit's waiting room is full.

It draws the pair, its orientation (which word the civilians get), the roles and a
random first speaker from `Random(f"{seed}:{seq}:deal")`. In production the seed comes from
`secrets.randbits(64)`, so the pair is drawn with the secrets module (spec §7.1) while a
stored game still replays byte-for-byte.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.base import GameError
from app.games.kit import Join
from app.games.kit.transitions import SpeakRound
from app.games.undercover.fairness import fresh_pairs
from app.games.undercover.state import MatchState, Step, WordPair
from app.games.undercover.transitions import Transition
from app.games.undercover.wordpairs import default_library


def candidates(step: Step) -> Sequence[tuple[str, str]]:
    """The pairs the deal draws from: a test's `pairs`, else the library's for the room's tag without those the
    joining command asks to avoid (`Join.avoid`)."""
    if "pairs" in step.context:
        pairs: Sequence[tuple[str, str]] = step.context["pairs"]
        return pairs
    avoid = step.command.avoid if isinstance(step.command, Join) else ()
    return fresh_pairs([pair.words for pair in default_library().pairs(step.state.config.wordpair_tag)], avoid)


def deal(step: Step) -> Transition:
    """The table is full: draw the pair and the roles, start the match."""
    state, config = step.state, step.state.config
    pairs = candidates(step)
    if not pairs:
        raise GameError("invalid_config", "no word pair matches this config", field="wordpair_tag")
    rng = step.rng("deal")
    civilian, undercover = pairs[rng.randrange(len(pairs))]
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
