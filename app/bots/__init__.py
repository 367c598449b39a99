"""Official bots: six personas (seed 000) that fill empty seats and play over the public HTTP API.

- `personas` — the six characters as data; `context`, `clues`, `brain` — the rule brain (pure);
- `llm` — the optional LLM brain with rule-brain fallback; `player` — one bot's play loop for one match;
- `runner` — `LobbyFiller`, the lobby filler the server (or `python -m app.bots`) runs;
- `sim` / `arena` — bot-only games on the pure engine; `selfplay` — bot-only games over HTTP.
"""
