"""`can_see` for every visibility form, the game-agnostic ones added for script_kill included: `private:pair:<a>:<b>`
(the two seats of a conversation) and `private:<kind>:<target>` matched against `role_set` tags `<kind>:<target>`."""

from __future__ import annotations

import pytest

from app.protocol.viewer import can_see


@pytest.mark.parametrize(("visibility", "seat", "roles", "expected"), [
    ("public", None, frozenset(), True),
    ("god_only", 0, frozenset({"character:c1"}), False),
    ("private:seat:2", 2, frozenset(), True),
    ("private:seat:2", 3, frozenset(), False),
    ("private:pair:1:4", 1, frozenset(), True),
    ("private:pair:1:4", 4, frozenset(), True),
    ("private:pair:1:4", 2, frozenset(), False),
    ("private:pair:1:4", None, frozenset(), False),
    ("private:pair:11:4", 1, frozenset(), False),
    ("private:character:c3", 0, frozenset({"character:c3"}), True),
    ("private:character:c3", 0, frozenset({"character:c2"}), False),
    ("private:character:c3", 0, frozenset({"c3"}), False),
    ("private:character:", 0, frozenset({"character:"}), False),
    ("private:role:werewolf", 0, frozenset({"werewolf"}), True),
    ("private:unknown", 0, frozenset({"unknown"}), False),
    ("secret", 0, frozenset({"secret"}), False),
])
def test_can_see(visibility: str, seat: int | None, roles: frozenset[str], expected: bool) -> None:
    assert can_see(visibility, god=False, seat=seat, roles=roles) is expected
    assert can_see(visibility, god=True, seat=seat, roles=roles) is True
