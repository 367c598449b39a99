"""Later-round signals: what each speech added to the table, read against this seat's own word.

A speech is read in the order it was said, against what the other seats had said before it:

- `mine`: it adds a phrase nobody said yet that holds one of my word's clues (a new facet of my word);
- `other`: it adds a phrase nobody said yet that fits my word poorly (a facet of another word);
- `category`: all it adds is our shared category, named first; `category_echo`: the category someone named
  before (a blank can only ever echo: it has no word of its own, not even a category);
- `echo`: it adds nothing — it repeats phrases others said first (or quotes them), or only stalls;
- `skip`: the turn was skipped.

`fresh` counts my word's clues nobody had said when the speech was made: a seat holding my word that still
has a fresh clue to give gives it, so an echo then is the copying of a seat that has no word of its own to
describe (a blank) or hides its own (an undercover).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.games.undercover.brain.clues import fit, is_library_clue, own_clues, phrases_of, tag_of, uses_clue
from app.games.undercover.brain.context import Context
from app.games.undercover.brain.weights import HOLDS_CLUE, SPEECH_LLR
from app.games.undercover.text import normalise


@dataclass(frozen=True)
class Reading:
    """How one speech reads from this seat: its kind, how far a new facet is from my word, fresh clues then."""

    seat: int
    round: int
    pk: bool
    kind: str  # mine | other | category | category_echo | echo | skip
    distance: float  # for `other`: 1 − the new facet's best fit to my clues (1 = nothing in common)
    fresh: int  # my word's clues nobody had said before this speech


def read_speeches(ctx: Context) -> list[Reading]:
    """Every speech of the public log (this seat's own included), read in order against my own word.

    Empty for a seat with no library word (a blank): it has no clues to read speeches against.
    """
    clues = own_clues(ctx.word)
    if not clues:
        return []
    tag = normalise(tag_of(ctx.word) or "")
    said: list[tuple[int, str]] = []  # (seat, normalised text) of every speech so far
    readings: list[Reading] = []
    for speech in ctx.speeches:
        fresh = sum(1 for c in clues if not uses_clue([t for _, t in said], c))
        if not speech.text:
            readings.append(Reading(speech.seat, speech.round, speech.pk, "skip", 0.0, fresh))
            continue
        before = [t for seat, t in said if seat != speech.seat]
        tag_said = bool(tag) and any(tag in t for t in before)
        new = [p for p in phrases_of(speech.text)
               if not any(p in t for t in before) and not (tag_said and _about_tag(p, tag))]
        kind, distance = _kind(speech.text, new, clues, tag)
        readings.append(Reading(speech.seat, speech.round, speech.pk, kind, distance, fresh))
        said.append((speech.seat, normalise(speech.text)))
    return readings


def _kind(text: str, new: list[str], clues: tuple[str, ...], tag: str) -> tuple[str, float]:
    fits = [fit(p, clues) for p in new]
    if fits and max(fits) >= HOLDS_CLUE:
        return "mine", 0.0
    facets = [f for p, f in zip(new, fits, strict=True) if not _about_tag(p, tag)]
    if facets:
        return "other", 1.0 - max(facets)
    if new:
        return "category", 0.0
    if tag and tag in normalise(text):
        return "category_echo", 0.0
    return "echo", 0.0


def _about_tag(phrase: str, tag: str) -> bool:
    """The phrase only names the category ("食物", "跟地点" read as "跟地"), not a facet of a word."""
    if not tag:
        return False
    if tag in phrase or phrase in tag:
        return True
    return len(phrase) <= len(tag) + 1 and bool(set(phrase) & set(tag)) and not is_library_clue(phrase)


def reading_key(reading: Reading, blank_hidden: bool) -> str:
    """The `weights.SPEECH_LLR` row of a reading: table ("B" while a blank may be listening, else "-"), round
    (1, 2, or 3 for later rounds and PK speeches), kind, and whether my word still had fresh clues ("F")."""
    rnd = 1 if reading.round <= 1 and not reading.pk else 2 if reading.round == 2 and not reading.pk else 3
    return f"{'B' if blank_hidden else '-'}{rnd}{reading.kind}{'F' if reading.fresh else '-'}"


def speech_evidence(ctx: Context) -> dict[int, tuple[float, float]]:
    """Per other living seat: the summed log-likelihood ratios of its speeches, (undercover, blank) each
    against holding my word (`weights.SPEECH_LLR`)."""
    evidence = dict.fromkeys(ctx.others_alive(), (0.0, 0.0))
    for reading in read_speeches(ctx):
        if reading.seat not in evidence:
            continue
        blanks_out = sum(1 for seat, role in ctx.revealed.items()
                         if role == "blank" and ctx.eliminated_round.get(seat, 0) < reading.round)
        uc, blank = SPEECH_LLR.get(reading_key(reading, ctx.n_blank > blanks_out), (0.0, 0.0))
        if reading.kind == "other":
            uc *= reading.distance
        old = evidence[reading.seat]
        evidence[reading.seat] = (old[0] + uc, old[1] + blank)
    return evidence


def hidden_odds(evidence: dict[int, tuple[float, float]], undercovers: int, blanks: int) -> dict[int, float]:
    """P(seat is hidden) per seat, given its log-likelihood ratios (undercover, blank) against holding my
    word, and that exactly `undercovers` undercovers and `blanks` blanks are among these seats.

    The exact posterior under independent evidence: every way of placing the hidden seats weighs the
    product of its seats' likelihood ratios; summed by dynamic programming over the seats, no enumeration.
    """
    seats = list(evidence)
    ku, kb = max(0, undercovers), max(0, blanks)
    if ku + kb > len(seats):
        ku = max(0, len(seats) - kb)
        kb = min(kb, len(seats))
    if not seats or ku + kb == 0:
        return dict.fromkeys(seats, 0.0)
    top = max(max(uc, bl) for uc, bl in evidence.values())
    ratios = {s: (math.exp(max(uc - top, -60.0)), math.exp(max(bl - top, -60.0)))
              for s, (uc, bl) in evidence.items()}

    def table(order: list[int]) -> list[list[float]]:
        t = [[0.0] * (kb + 1) for _ in range(ku + 1)]
        t[0][0] = 1.0
        for s in order:
            ru, rb = ratios[s]
            for i in range(ku, -1, -1):
                for j in range(kb, -1, -1):
                    t[i][j] = (t[i][j] + (ru * t[i - 1][j] if i else 0.0) + (rb * t[i][j - 1] if j else 0.0))
        return t

    total = table(seats)[ku][kb]
    if total <= 0.0:
        return dict.fromkeys(seats, (ku + kb) / len(seats))
    odds = {}
    for s in seats:
        rest = table([t for t in seats if t != s])
        ru, rb = ratios[s]
        odds[s] = ((ru * rest[ku - 1][kb] if ku else 0.0) + (rb * rest[ku][kb - 1] if kb else 0.0)) / total
    return odds


def hidden_left(ctx: Context) -> tuple[int, int]:
    """(undercovers, blanks) among the living seats other than mine: the config minus the revealed ones."""
    undercovers = ctx.n_undercover if ctx.n_undercover is not None else max(1, len(ctx.alive) // 4)
    out = [role for role in ctx.revealed.values()]
    return max(0, undercovers - out.count("undercover")), max(0, ctx.n_blank - out.count("blank"))

