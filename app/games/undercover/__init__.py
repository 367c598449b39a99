"""谁是卧底 (Who is the Undercover), one kit definition (`game.GAME`, built by `app.games.kit`). The rules are
written once in `docs/_shared/undercover-rules.md` and `docs/_shared/undercover-end.md` (shown on the docs page
`docs/games/undercover.md` and in `undercover-skill.md`); the config, actions and error codes there are generated
from this package (`python -m tools.docs`).

The table extensions (issue 17, all opt-in by config; a default room has none of them, not even in its config):

- `host` — after each round's speeches a public `host_commentary`: a summary and a suspicion ranking from
  `reading.public_suspicion` (public information only; the rule brain scores with the same module). `chaos`
  may push an innocent civilian to the top (seeded), never names a role or a word, and says `may_mislead`.
- `debate` — `debate_rounds` (1–2) debate rounds between the speeches and the vote: `debate` (≤ 2 messages of
  ≤ 120 characters per seat and debate round) or `debate_pass`, closed when every living seat is done or at
  `debate_timeout`.
- `recap` — at the end, `result.recap`: an acting score 1–10 per seat (the weighted mean of rounds survived,
  stealth against votes drawn, vote accuracy, clue fit and the win), a one-line comment, 本场最佳, 翻车现场 and
  a highlight per seat, by the rules written out in `recap`'s docstring (and `docs/games/undercover-table.md`).
- `table` — the public record those read, folded from the events as they are emitted.
"""
