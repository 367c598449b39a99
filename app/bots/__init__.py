"""Official bots: six personas (seed 000) that fill empty seats and play over the public HTTP API, for any game.

- `personas` — the six characters as data (how each plays a game lives in that game's brain);
- `seat` — the one seat loop (view → brain → action) every bot seat goes through;
- `player` — one bot's play loop for one match over HTTP; `llm` / `phrasing` / `recap_voice` — the optional LLM
  voice;
- `runner` — `LobbyFiller`, the lobby filler the server (or `python -m app.bots`) runs, over `pool` (the agents),
  `lobby` (which rooms get which bots) and `seats` (the seated agents' play tasks);
- `sim` / `arena` — bot-only games of any game on the pure engine.

A game's brain is found through `app.games.installed` (`brains()`, `bot_play()`); nothing here names a game.
"""
