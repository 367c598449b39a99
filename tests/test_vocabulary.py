"""The seam holds: the protocol layer, the services, the database layer and the API speak no game's vocabulary.

Game words live in `app/games/` (each game's package and `app/games/installed.py`, the one place games are
registered), the page modules and the guides. A new game that needs a word up here needs a seam instead.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("app/protocol", "app/services", "app/db", "app/api")
VOCABULARY = re.compile(r"(?<![a-z])(undercover|civilian|word|werewolf|seer|witch|wolf|wolves|clue|culprit|investigat)"
                        r"|卧底|平民|白板|狼人|预言家|女巫|剧本|线索|凶手", re.IGNORECASE)


def test_no_game_vocabulary_above_the_games() -> None:
    found = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if VOCABULARY.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_pattern_would_catch_a_game_word() -> None:
    assert VOCABULARY.search('body["wordpair"]') and VOCABULARY.search("wins_as_civilian")
    assert VOCABULARY.search("狼人杀") and not VOCABULARY.search("password") and not VOCABULARY.search("forwarded")
    assert VOCABULARY.search("list_clues") and VOCABULARY.search("剧本杀") and VOCABULARY.search("culprit_seat")
