"""The frozen reference pools a benchmark (and a tournament) plays against (issue 30).

A pool is a version name and the persona of each seat: every reference seat is played by the game's registered
rule brain (`registry.brain`) in that persona, server-side, with no LLM and seeded dice. The brains are code, so a
pool is pinned by its name plus `brain_digest` (a digest of the brain's source files, stored with every report):
a report names the exact brain that played it. A new brain version is a new pool — add a line to `POOLS` and move
`CURRENT`; old reports keep naming theirs.
"""

from __future__ import annotations

import hashlib
import inspect
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from app.bots.personas import BY_SLUG
from app.protocol import registry


@dataclass(frozen=True)
class ReferencePool:
    """A versioned set of reference players: seat `s` of game `i` is played in `persona(s, i)`."""

    version: str
    personas: tuple[str, ...]

    def persona(self, seat: int, index: int) -> str:
        """The persona slug of seat `seat` in planned game `index` (rotated, so no seat keeps one persona)."""
        return self.personas[(seat + index) % len(self.personas)]

    def display_name(self, slug: str, nth: int = 1) -> str:
        """How a reference seat is shown at the table; `nth` > 1 tells apart a persona playing a second seat (a
        table larger than the pool, or an event naming fewer opponents than it has reference seats)."""
        return f"{BY_SLUG[slug].display_name}{f' {nth}' if nth > 1 else ''} · {self.version}"

    def display_names(self, slugs: Mapping[int, str]) -> dict[int, str]:
        """Seat → display name for a table's reference seats (seat → persona), each persona's repeats numbered in
        seat order."""
        seen: Counter[str] = Counter()
        names = {}
        for seat in sorted(slugs):
            seen[slugs[seat]] += 1
            names[seat] = self.display_name(slugs[seat], seen[slugs[seat]])
        return names


POOLS: dict[str, ReferencePool] = {
    "ref-2026.12": ReferencePool("ref-2026.12", ("yingyan", "adai", "linglong", "laotie", "nuomi", "oscar")),
}
CURRENT = "ref-2026.12"


def pool(version: str | None = None) -> ReferencePool:
    """A pool by version (the current one by default); KeyError for an unknown version."""
    return POOLS[version or CURRENT]


@cache
def brain_digest(game: str) -> str | None:
    """The first 16 hex digits of the SHA-256 over the source files of `game`'s brain package (None: no brain)."""
    decide = registry.brain(game)
    if decide is None:
        return None
    source = inspect.getsourcefile(decide)
    if source is None:
        return None
    folder = Path(source).parent
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
