"""剧本杀 (script_kill): seed 002's murder mystery for six seats, one kit definition (`game.GAME`, built by
`app.games.kit`).

The rules are written once in `docs/_shared/script_kill-rules.md` and `docs/_shared/script_kill-stages.md` (shown
on the docs page `docs/games/script_kill.md` and in `script_kill-skill.md`); the config, actions and error codes
there are generated from this package (`python -m tools.docs`). Where to look in the code: `package` (the script
package's models and checks; CLI `python -m app.games.script_kill.validate [FILE…]`), `stages` (`SUB_STAGES`, the
gate table `GATES`), `actions`, `discovery`, `voting` (the vote and the endings matrix), `errors.ERRORS`.
"""
