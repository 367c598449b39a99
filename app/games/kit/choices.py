"""The phase kit "secret simultaneous choices": several seats choose at once and each choice stays private (a
night's roles; a secret ballot). Each seat the phase waits for is woken privately (`wake`), each choice is
acknowledged to its seat alone (`receipt`), and the phase waits for the seats that have not chosen yet (`waiting`)
until every one has or its clock runs out; what the choices add up to is the game's.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from typing import Any


def wake(step: Any, seats: Iterable[int], event: str, per_seat: Callable[[int], dict[str, Any]] | None = None,
         **fields: Any) -> None:
    """A private `event` to each of `seats` (`seat`, `round`, `per_seat(seat)`'s fields, then `fields`)."""
    for seat in seats:
        step.emit(event, f"private:seat:{seat}", seat=seat, round=step.state.round_index,
                  **(per_seat(seat) if per_seat is not None else {}), **fields)


def receipt(step: Any, seat: int, event: str, **fields: Any) -> None:
    """`seat`'s choice, acknowledged to it alone (`seat`, `round`, `fields`)."""
    step.emit(event, f"private:seat:{seat}", seat=seat, round=step.state.round_index, **fields)


def waiting(seats: Iterable[int], chosen: Container[int]) -> list[int]:
    """The seats of `seats` that have not chosen yet."""
    return [seat for seat in seats if seat not in chosen]
