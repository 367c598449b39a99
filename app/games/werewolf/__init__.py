"""狼人杀 (werewolf): the pure rules engine, reached by the protocol layer through `game.WerewolfGame`.

Rules, including every decision where issue 15 is silent (the README's rules section copies this):

**Table.** 6–12 seats. `roles` is a preset (`"6p"` … `"12p"`, see `config`) or a composition
`{role: count}`; left out, the preset for `n_players` (7, 8, 10 and 11 seats have documented defaults).
Roles: `werewolf`, `villager`, `seer`, `witch`, `hunter`, `guard`. Camps: `werewolf` (the wolves) and
`village` (villagers and the four gods). The deal shuffles the composition with the match seed; each seat
learns its own role (`role_assigned`, `private:seat:N`), the wolves learn the pack (`wolf_pack`,
`private:role:werewolf`), the whole assignment is `god_only` (`roles_dealt`).

**Round N** = `night_round_N`, dawn, the dead's actions, `speak_round_N`, `vote_round_N`, the voted-out
seat's actions. Night 1 follows the deal at once.

**Night, first step** (`night_timeout`, default 60 s). Wolves, seer and guard act at once with
`{"type": "night_action", "action": …, "target_seat": …}`:
- wolves `kill` any living seat (a wolf too) or `pass` (no kill); a wolf may change its choice until the pack has
  decided. The pack decides when one choice (a seat, or no kill) has a strict majority of the living wolves; a split
  pack (every wolf chose, no majority) hears `pack_split`. At the deadline an undecided pack takes the most-chosen
  seat; a tie goes to the lowest tied seat (a seat beats "no kill" in a tie: "no kill" wins only with strictly more
  wolves); nobody chose → no kill. Choices (`wolf_kill_chosen`) and the decision (`wolves_decided`) are
  `private:role:werewolf`.
- wolves talk with the protocol's `whisper` (`allow_whisper`, default on): only at night, only a living
  wolf to a living fellow wolf; visibility `private:role:werewolf`; no public trace. By day `wrong_phase`
  for everyone; at night a non-wolf gets `whisper_target_not_fellow` whatever the target.
- the seer `check`s one other living seat and learns its camp at once (`seer_result`, `private:seat:N`:
  `camp`, `is_werewolf`); she may check a seat twice.
- the guard `guard`s one living seat (himself too), never the seat he guarded the night before
  (`guard_same_target`); a `pass` or a silent night frees every seat for the next night.
- a silent seer or guard does nothing that night. The step ends early once the pack has decided and the
  living seer and guard have acted.

**Night, witch step** (another `night_timeout`), only while the witch lives and holds a potion. While she
holds the antidote she learns the victim (`witch_informed`, `private:seat:N`; `victim_seat: null` when the
wolves killed nobody); after using it she is told nothing. She sends one of `save`, `poison
{target_seat}` or `pass` — at most one potion a night, each potion once a game (`potion_used`). She may
save herself on night 1 only (`witch_cannot_save_self`). Silence is a pass, and `pass` is always offered
(also when she has nothing usable tonight). Any other night role acting now gets `not_your_night_turn`. The
night's timing is public, so whether the witch step ran can be read from the clock (as in any app that skips a
dead role).

**Dawn.** The victim dies unless protected exactly once: guarded *or* saved; guarded *and* saved dies
(同守同救). The poisoned seat dies whatever the guard did. The dead are announced together in seat order
(`night_result` with `dead_seats`, `peaceful`; one `player_eliminated` each) without the cause; the
god-only `night_resolved` records everything.

**Deaths and cards.** `reveal_role_on_death`: `none` (default) shows nothing of a dead seat's card, `team`
its camp, `role` its role. A concession always shows the role (spec §2.8); a hunter who shoots shows his.

**The dead who act**, one at a time, each with `speak_timeout`: first any hunter's shot (`hunter_round_N`),
then last words (`last_words_round_N`). A hunter killed by the wolves or voted out may `shoot` one living
seat (`{"type": "shoot", "target_seat": …}`, `null` passes; silence passes); a poisoned or conceding hunter
cannot. The shot is public, its victim dies at once and gets last words if the hunter's death had them.
Last words: every seat voted out; the night-1 dead when `first_night_last_words` (default true); no later
night death. `last_words {text}` or `speak {text}` speaks them, `skip` passes. The window of a dead hunter
is public (`hunter_round_N` names the seat): deciding to shoot is turning the card over.

**Day.** `speak_round_N`: every living seat speaks once in ascending seat order (`speak`, `skip`;
`speak_timeout` each, silence = `speech_skipped` timeout). `vote_round_N`: simultaneous votes for another
living seat (`vote_timeout`; missing voters abstain). Most votes goes out; no vote at all → nobody goes
out. Ties follow `tie_break` with undercover's option names and meanings: `revote` (default here) gives the
tied seats a PK — they speak again, the others vote among them; a PK that ties again, or a tie of every
living seat, draws at random; `random` draws at once; `noop_then_random` sends nobody out unless the
previous day also ended in a tie, then draws at random. Random draws use the match seed.

**Winning** (checked after every batch of deaths, before the dead act): no living wolf → `village`
(checked first: a night that kills the last wolf and the last villager is the village's). `win_rule
"side"` (屠边, default): no living villager, or no living god → `werewolf`. `"all"` (屠城): no living
good seat → `werewolf`. If night `max_rounds + 1` (default `n_players`) would fall → `werewolf`
(`max_rounds_reached`). The result: `winner_camp`, `winning_seats` (every seat of the camp), `losing_seats`,
`reason`, `roles` (seat → role), `summary`.

**Concede** (any time while alive and running): the seat dies, its role is public; the win is checked; at
night its wolf choice is withdrawn and a night role that left is no longer waited for; by day the floor
passes on and votes by or for it are void (those voters vote again). **Abort**: as undercover.

**Actions** (`commands.ACTIONS`): `night_action` (`kill`, `check`, `guard`, `save`, `poison`, `pass`),
`speak`, `skip`, `vote`, `whisper`, `last_words`, `shoot`, `concede` (also `POST /concede`).
**`you.next_action`**: the spec's `speak`, `vote`, `wait_for_speak_round`, `wait_for_vote_resolution`,
`wait_for_next_phase`, `eliminated`, `none`, plus `night_action`, `shoot`, `last_words`; `your_turn` is true
for those five acting values. A wolf that has chosen waits (`wait_for_next_phase`) but may still change.
**Views.** `you` adds the seat's `role`, `camp` and what the role knows: wolves `fellow_wolves` and tonight's
`pack_choices`; the seer `seer_checks`; the witch `potions` and, in her step, `night_victim`; the guard
`last_guarded`. Snapshot fields (`snapshot.WerewolfSnapshot`): `round_index`, `is_night`,
`current_speaker_seat`, `acting_seat` (the dead seat shooting or speaking last words), `deadline_ts`,
`alive_count`, `alive_seats`, `pk_candidates`, `composition` (role counts are public, as in `match_started`),
`result`; god only: `roles`, `night_actions`. An action's answer adds what the actor's night action taught it
(`seer_result`, `pack_decision`, `pack_split`).
**Own error codes** (`errors.ERRORS`): `not_your_night_role` 403, `not_your_night_turn` 409,
`night_action_done` 409, `potion_used` 409, `no_victim_to_save` 409, `witch_cannot_save_self` 422,
`guard_same_target` 422, `not_your_shot` 409.
"""

from __future__ import annotations

from app.games.werewolf.commands import (
    Abort,
    Command,
    Concede,
    Join,
    LastWords,
    NightAction,
    Shoot,
    Skip,
    Speak,
    Timeout,
    Vote,
    Whisper,
    parse_command,
)
from app.games.werewolf.config import WerewolfConfig, parse_config
from app.games.werewolf.rules import apply, new_match
from app.games.werewolf.state import MatchState, Player, state_from_json, state_to_json
from app.games.werewolf.step import Outcome
from app.games.werewolf.view import next_action, players_view, public_fields, role_set, you_view

__all__ = [
    "Abort",
    "Command",
    "Concede",
    "Join",
    "LastWords",
    "MatchState",
    "NightAction",
    "Outcome",
    "Player",
    "Shoot",
    "Skip",
    "Speak",
    "Timeout",
    "Vote",
    "WerewolfConfig",
    "Whisper",
    "apply",
    "new_match",
    "next_action",
    "parse_command",
    "parse_config",
    "players_view",
    "public_fields",
    "role_set",
    "state_from_json",
    "state_to_json",
    "you_view",
]
