"""阿瓦隆 (The Resistance: Avalon) for 5–10 seats, one kit definition (`game.GAME`, built by `app.games.kit`).

The rules are written once in `docs/_shared/avalon-rules.md` (on `docs/games/avalon.md` and in `avalon-skill.md`).
Where to look: `config` (role sets, presets, quest sizes), `rules` (deal, round, Lady, assassination, clocks),
`view` (each viewer's fields, `allowed_actions`), `requests` (action bodies), `errors`, `brain` (the bots).
"""
