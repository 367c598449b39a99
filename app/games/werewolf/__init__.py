"""狼人杀 (werewolf), one kit definition (`game.GAME`, built by `app.games.kit`).

The rules, and every decision where issue 15 is silent, are written once in `docs/_shared/werewolf-rules.md`
(shown on the docs page `docs/games/werewolf.md` and in `werewolf-skill.md`); the config, actions and error codes
there are generated from this package (`python -m tools.docs`). Where to look in the code: `config` (presets,
`tie_break`, `win_rule`), `commands` (the request models), `errors.ERRORS`, `view` (`you`, `next_action`),
`snapshot`, and the definition in `game`.
"""
