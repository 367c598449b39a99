"""Reading the table from public information only: the suspicion scoring the rule brain and the host share.

Pure functions over what every viewer sees — the speeches, the public votes and the roles of seats already
out — so the host (`host`) can rank suspects without knowing a single role, and the rule brain
(`brain.suspicion`) scores the same way where it has nothing better (a blank holds no word). It lives in the
engine package, not in `brain/`, because the brain imports the engine: the engine never imports the brain.

Text measures are parameters: the brain passes its own (`brain.clues.overlap` / `phrases_of`, which know the
bots' template wording and the library's clues); the host uses `content_overlap` / `longest_phrase`, which
need nothing but the text.

Public score of a living seat (higher = more suspicious; the host shows it as 0–100):

- **outlier**: 1 − the mean, over the seat's speeches, of the best character overlap with any other seat's
  speech (`NEUTRAL` when there is nothing to compare);
- **copycat** (`COPYCAT` ×): the share of its speeches that only repeat a phrase another seat said first;
- **silence** (`SILENT` ×): the share of its turns it skipped or let run out;
- **votes for revealed seats**: each vote it cast for a seat later revealed as a civilian adds
  `VOTED_CIVILIAN`, for a revealed undercover or blank subtracts `VOTED_HIDDEN`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import mean

from app.games.undercover.text import normalise

# Function characters that say nothing about a word (shared with `brain.clues`).
STOP = frozenset("的了我是一个这那就说很有在不都吧呢啊和也它他她们你大家吗呀哦嗯么之其且而与及或把被让给对于"
                 "吗嘛哈呃诶唔咦哎嘿哼啦咧号前面后点觉得想要会能到过还再又才只太真")

NEUTRAL = 0.5  # nothing to compare yet
COPYCAT = 0.45  # × share of a seat's speeches that only repeat phrases others said first
SILENT = 0.3  # × share of a seat's turns skipped or timed out
VOTED_CIVILIAN = 0.3  # per vote for a seat revealed as a civilian
VOTED_HIDDEN = 0.1  # per vote for a seat revealed as an undercover or a blank (reassuring)

Overlap = Callable[[str, str], float]
Phrases = Callable[[str], tuple[str, ...]]


@dataclass(frozen=True)
class Said:
    """One public speaking turn; `text` is None for a skip or a timeout."""

    seat: int
    round: int
    text: str | None
    pk: bool = False


@dataclass(frozen=True)
class Cast:
    """One public vote."""

    seat: int
    round: int
    target: int
    pk: bool = False


def content(text: str) -> frozenset[str]:
    """The meaningful characters of `text`: letters and digits after `normalise`, stop characters dropped."""
    return frozenset(ch for ch in normalise(text) if ch.isalpha() and ch not in STOP)


def content_overlap(a: str, b: str) -> float:
    """Share of `a`'s meaningful characters that also appear in `b` (0…1)."""
    ca = content(a)
    return len(ca & content(b)) / len(ca) if ca else 0.0


def clue_fit(text: str, clues: Iterable[str], norm: Callable[[str], str] = normalise,
             chars: Callable[[str], frozenset[str]] = content) -> float:
    """How well `text` fits a word's clues (0…1): 1 when it holds one whole (normalised), else 0.7 × the largest
    share of a clue's meaningful characters it holds. The bots read with their own `norm` and `chars` (their
    template wording cut out)."""
    said, theirs = norm(text), chars(text)
    best = 0.0
    for clue in clues:
        key = normalise(clue)
        if key and key in said:
            return 1.0
        mine = chars(clue)
        if mine:
            best = max(best, 0.7 * (len(mine & theirs) / len(mine)))
    return best


def longest_run(norm: str) -> str:
    """The longest run of meaningful characters of normalised text (at most 6), or ''."""
    run, longest = "", ""
    for ch in norm:
        if ch in STOP or not ch.isalpha():
            run = ""
            continue
        run += ch
        if len(run) > len(longest):
            longest = run
    return longest[:6]


def longest_phrase(text: str) -> tuple[str, ...]:
    """The longest run of meaningful characters of `text` (at most 6), as a one-phrase tuple; () when none."""
    run = longest_run(normalise(text))
    return (run,) if run else ()


def outlier(own: Sequence[str], others: Sequence[str], overlap: Overlap = content_overlap) -> float:
    """1 − how much the texts `own` overlap the best match among `others`; `NEUTRAL` when either is empty."""
    if not own or not others:
        return NEUTRAL
    return 1.0 - mean(max(overlap(text, o) for o in others) for text in own)


def copycat_shares(turns: Iterable[tuple[int, str | None]], phrases: Phrases = longest_phrase) -> dict[int, float]:
    """Per seat, the share of its speeches (in order, `(seat, text)`; None skipped) that only repeat phrases
    another seat said first, or say nothing at all."""
    first_said: dict[str, int] = {}
    hits: Counter[int] = Counter()
    totals: Counter[int] = Counter()
    for seat, text in turns:
        if not text:
            continue
        found = phrases(text)
        totals[seat] += 1
        if not any(first_said.setdefault(p, seat) == seat for p in found):
            hits[seat] += 1
    return {seat: hits[seat] / totals[seat] for seat in totals}


def public_suspicion(alive: Sequence[int], speeches: Sequence[Said], ballots: Sequence[Cast],
                     revealed: Mapping[int, str], *, overlap: Overlap = content_overlap,
                     phrases: Phrases = longest_phrase) -> dict[int, float]:
    """The public score of every seat in `alive` (see the module docstring)."""
    copied = copycat_shares(((s.seat, s.text) for s in speeches), phrases)
    scores: dict[int, float] = {}
    for seat in alive:
        own = [s.text for s in speeches if s.seat == seat and s.text]
        others = [s.text for s in speeches if s.seat != seat and s.text]
        turns = [s for s in speeches if s.seat == seat]
        silent = sum(1 for s in turns if not s.text) / len(turns) if turns else 0.0
        votes = 0.0
        for ballot in ballots:
            if ballot.seat == seat and ballot.target in revealed:
                votes += VOTED_CIVILIAN if revealed[ballot.target] == "civilian" else -VOTED_HIDDEN
        scores[seat] = outlier(own, others, overlap) + COPYCAT * copied.get(seat, 0.0) + SILENT * silent + votes
    return scores


def ranking(scores: Mapping[int, float]) -> list[int]:
    """Seats, most suspicious first; equal scores in seat order."""
    return sorted(scores, key=lambda seat: (-round(scores[seat], 9), seat))


def percent(score: float) -> int:
    """A public score as the host's 0–100 suspicion index."""
    return max(0, min(100, round(100 * score)))
