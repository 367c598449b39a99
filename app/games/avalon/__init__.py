"""阿瓦隆 (The Resistance: Avalon), 5–10 seats: one kit definition (`game.GAME`). Rules once in
`docs/_shared/avalon-rules.md`; code: `config`, `rules`, `view`, `requests`, `errors`, `figures`, `brain`."""
