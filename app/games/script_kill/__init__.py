"""剧本杀 (script_kill): seed 002's murder mystery for six seats, one kit definition (`game.GAME`, built by
`app.games.kit`). Every structured outcome is preset script data; the rules draw at random only to deal the
characters and to settle an abstention or a second tie of the vote.

**Packages** (`scripts/<id>.json`, models and cross-record checks in `package`, CLI `python -m
app.games.script_kill.validate [FILE…]`): 6 characters (public text, relations, a 3-day timeline, secret,
`secret_phrases`, private script, win condition, initial items), the culprit, locations (act 1 open from the start,
act 2 unlocked by anchor_r1 or an effect), 40–50 clues in three tiers, 20–30 items, 1–2 powers and 2–3 events per
act, the two anchors, the endings and the review. `"test_only": true` (the `tiny` script) lifts the count ranges.
Every shipped package is checked when the game registers; a bad one fails naming the bad field's path.

**Config** (`config`): `timing` standard | compressed, `script` (default: the first full script, else `tiny`),
`compete_mode`.

**Stages** (`stages.SUB_STAGES`; the match's `phase` is the sub-stage id): waiting (gm_init: the room fills) →
script_handout → self_intro → explore_r1 → discuss_r1 → anchor_r1 → explore_r2 → discuss_r2 → anchor_r2 →
final_discuss → final_vote → review → finished. Each stage runs on one server timer (standard: 127 min from
the deal, plus up to 3 for the room; compressed: 9 min 10 s, plus 10 s for the room; a second vote adds one vote
clock) and ends early once every seat still at the table sent `ready` (self_intro also once everyone introduced
themselves; final_vote once everyone voted). The result is written when the review opens (`ending` event); the
match is `finished` when the review's clock ends.

**Actions** (requests in `commands`, rules in `actions`; gate table `stages.GATES`, refused elsewhere with
`stage_forbids` 409 and the DM's line):
`list_clues`, `list_items`, `inspect` are read-only — their data comes back in the action's answer (`clues` +
`public_clues`, `items`, `inspected`), no event, nothing counted, `seq` is the current `events_total`. `speak`
(≤ 300 characters; self_intro in seat order, once each; `ready` on one's own turn passes the floor), `reveal_clue`
(a found clue becomes public; an item is shown), `investigate` (≤ 3 a round plus a power's extra searches; clue
cards are physical: the next card of the location in tier-then-id order from acts so far that **nobody** has drawn
yet, private to the finder — the others learn it only when it is shown or published —, and the first finder takes
an item lying there; nothing left → a private `dm_notice`, the search still counts; a card the DM published but
nobody drew still lies there), `use_power` (once a game;
act-2 powers unlock with anchor_r1), `use_item` (uses left; the effect's target), `trade` (clue items that are
tradable and not key), `private_chat`, `vote`, `ready`.

**Discovery** (`discovery`): one deck of cards a location (`undrawn_at`; a peek at a location shows its undrawn
cards); the script's events of a stage are announced as it opens (`dm_event`, then their effect); anchors
are published byte for byte (`anchor`); at the end of explore_rN every key clue of act N that no seat found is
published (`clue_published`, reason `key_clue_guarantee`).

**Vote and endings** (`voting`): private receipts, a second vote among the tied, random picks for abstainers and a
second tie. `perfect` / `normal` / `failure` by the matrix, counting key clues the players found (the DM's
publications do not count, or `normal` could never happen). Sides `innocent` and `culprit`.

**Visibility**: a character's handout, found clues, obtained items, item and power results
`private:character:<id>` (`role_set` gives the seat `character:<id>`); private chats and the trade's details
`private:pair:<a>:<b>` (a < b); vote receipts and DM notices `private:seat:N`; the deal with the culprit `god_only`.
**Errors** (`errors.ERRORS`): stage_forbids, investigation_limit, unknown_location, power_used, no_power,
power_locked, key_item_not_tradable, item_not_tradable, not_your_item, item_not_usable, item_used_up, unknown_clue,
not_your_turn, already_spoke, already_ready; plus the protocol's invalid_target, already_voted, text_too_long,
bad_request.
"""
