"""Speaking: a speech assembled from the persona's parts around one clue of the bot's own word (never the word).

What to say (`_pick_clue`): civilians prefer clues nobody said yet, and in round 1 sometimes give only the
category (`vague_first`), so a blank listening has little to go on. An undercover blends in (`blend`): when
the others' speeches clearly describe one library word it borrows a clue of that word nobody said yet, else
it gives the category or echoes someone; when it does not blend, it says its own clue that overlaps most
with what was said. A blank echoes the common ground.

How to say it (`_assemble`): an optional situation line (see `personas.SITUATION`), an optional opener,
maybe a reaction naming a seat and its phrase or a doubt about the suspect, the persona's own move, the clue
sentence, maybe a closer. A part this seat already used in the game is not used again, and a speech sharing
a sentence with one of the seat's earlier texts is thrown away, so a seat never repeats itself.
"""

from __future__ import annotations

import random
import string
from collections import Counter
from collections.abc import Sequence

from app.games.undercover.brain.clues import fit, is_safe, overlap, own_clues, phrase_of, tag_of, uses_clue
from app.games.undercover.brain.context import Context
from app.games.undercover.brain.personas import SITUATION, Voice
from app.games.undercover.brain.phrasing import SAFE_FALLBACKS, best_by, sentences
from app.games.undercover.brain.suspicion import information, suspicion, word_scores
from app.games.undercover.brain.weights import BLEND_AFTER_ROUND_1, CLEAR_ROOM, CLEAR_ROOM_LONE, FITS_OWN_WORD
from app.games.undercover.text import normalise

SUMMARY_PHRASES = 3  # a summary quotes at most this many seats
ATTEMPTS = 12  # assemblies tried before falling back to a plain text
SITUATION_ODDS = {"pk": 0.85, "defend": 0.8, "civilian_out": 0.6, "undercover_out": 0.5, "last_one": 0.6,
                  "first": 0.55}
UNDERCOVER_FRAME = 0.7  # an undercover uses its nervous (or overacted) clue frames this often
TWO_CLUES = 0.45  # 阿呆 (clue_pick "specific") gives two clues at once this often as a civilian
LONE_UNDERCOVER = 0.4  # a room's only hidden seat (no blank) blends in this much more
OWN_ONLY_AVOIDED = 0.6  # an undercover whose clues all fit only its own word falls back to vaguer talk this often
BLANK_CLUE_CAP = (1, 1)  # while a blank may be listening, rounds 1–2 put at most this many of the word's clues out
SPECIAL_AFTER = frozenset({"linglong", "adai"})  # these personas' own move comes after their clue


def compose_speech(ctx: Context, voice: Voice, rng: random.Random) -> str | None:
    """One safe speech for this turn, or None when nothing safe could be said (the caller skips)."""
    clues = own_clues(ctx.word)
    mine = [*ctx.my_texts(), *ctx.my_comments()]
    unused = [c for c in clues if not uses_clue(mine, c)]
    said = [c for c in clues if c not in unused]
    clue, mode = _pick_clue(ctx, voice, unused, rng)
    values = _values(ctx, voice, rng)
    old = {s for text in mine for s in sentences(text)}
    for _ in range(ATTEMPTS):
        text = _assemble(ctx, voice, clue, mode, unused, values, mine, rng)
        if (text and _fresh(text, old) and _once(text, values, clue) and is_safe(text, ctx.word)
                and not any(uses_clue([text], c) for c in said)):
            return text
    stall = [t for t in SITUATION["stall"] if not _used(t, mine)]
    rng.shuffle(stall)
    for text in [*([clue] if clue else []), *stall, *SAFE_FALLBACKS]:
        if _fresh(text, old) and is_safe(text, ctx.word):
            return text
    return None


def _fresh(text: str, old: set[str]) -> bool:
    """No sentence of `text` was said before by this seat, and none twice in `text` itself."""
    mine = sentences(text)
    return len(set(mine)) == len(mine) and not any(s in old for s in mine)


def _once(text: str, values: dict[str, str], clue: str | None) -> bool:
    """Each quoted phrase (and the clue) appears at most once in the speech: no parrot speeches."""
    norm = normalise(text)
    phrases = {normalise(p) for p in (values.get("phrase"), values.get("prev_phrase"), clue) if p}
    return all(norm.count(p) <= 1 for p in phrases if p)


# ----------------------------------------------------------------------------------------- what to say


def _pick_clue(ctx: Context, voice: Voice, unused: list[str], rng: random.Random) -> tuple[str | None, str]:
    """(clue, mode): mode "clue" (say `clue`), "category" (the word's category only) or "echo" (lean on others).

    An undercover that blends (persona `blend`, more so after round 1) first tries to read the room: when
    the others' speeches clearly point at one library word, it borrows a clue of that word nobody said yet;
    else it gives the category in round 1 or echoes. Otherwise it says its own clue that overlaps most with
    what was said.
    """
    if ctx.role == "blank":
        return None, "echo"
    others = [text for _, text in ctx.others_texts()]
    round_one = ctx.round <= 1 and not ctx.in_pk
    if ctx.role == "undercover":
        blend = voice.blend + (BLEND_AFTER_ROUND_1 if ctx.round > 1 else 0.0)
        if _lone(ctx):
            blend += LONE_UNDERCOVER  # nobody shares the suspicion: hide harder
        if rng.random() < blend:
            borrowed = _borrowed_clue(ctx, others, rng) if others else None
            if borrowed:
                return borrowed, "clue"
            if borrowed == "" and others and _lone(ctx):
                return None, "echo"  # the room's word is clear but all its clues are out: repeat, as they do
            if round_one and tag_of(ctx.word):
                return None, "category"
            if others:
                return None, "echo"
        if not unused:
            return None, "echo"
        best = best_by(unused, lambda c: sum(overlap(c, t) for t in others), rng)
        if others and not any(overlap(best, t) for t in others) and rng.random() < OWN_ONLY_AVOIDED:
            # every clue left fits only my own word: hide behind the category, or an echo
            return None, "category" if round_one and tag_of(ctx.word) else "echo"
        return best, "clue"
    blank_hidden = ctx.n_blank > sum(1 for role in ctx.revealed.values() if role == "blank")
    if blank_hidden and tag_of(ctx.word) and not ctx.in_pk and ctx.round <= len(BLANK_CLUE_CAP):
        # a blank may be listening: the table needs a clue to read the others by, the blank needs two to guess
        spoken = [text for _, text in ctx.others_texts()] + ctx.my_texts()
        if sum(1 for c in own_clues(ctx.word) if uses_clue(spoken, c)) >= BLANK_CLUE_CAP[ctx.round - 1]:
            return None, "category"
    elif round_one and tag_of(ctx.word) and rng.random() < voice.vague_first:
        return None, "category"
    if not unused:
        return None, "echo"
    fresh = [c for c in unused if not uses_clue(others, c)] or unused
    style = "specific" if ctx.in_pk else voice.clue_pick
    if style == "specific":
        return best_by(fresh, len, rng), "clue"
    if style == "vague":
        return best_by(fresh, lambda c: -len(c), rng), "clue"
    return rng.choice(fresh), "clue"


def _lone(ctx: Context) -> bool:
    """This seat is the room's only hidden seat (one undercover, no blank): every suspicion lands on it."""
    return ctx.role == "undercover" and ctx.n_undercover == 1 and not ctx.n_blank


def _borrowed_clue(ctx: Context, others: list[str], rng: random.Random) -> str | None:
    """A fresh clue of the word the majority seems to describe; "" when the room is clear but that word's clues
    are all out already; None when the room is not clear."""
    ranked = word_scores(ctx, skip_own_side=True)
    clear = CLEAR_ROOM_LONE if _lone(ctx) else CLEAR_ROOM
    if not ranked or ranked[0][0] < clear:
        return None
    word = ranked[0][1]
    spoken = [*others, *ctx.my_texts()]
    fresh = [c for c in word.clues if not uses_clue(spoken, c) and is_safe(c, ctx.word)]
    return rng.choice(fresh) if fresh else ""


# ----------------------------------------------------------------------------------------- how to say it


def _assemble(ctx: Context, voice: Voice, clue: str | None, mode: str, unused: list[str],
              values: dict[str, str], mine: list[str], rng: random.Random) -> str | None:
    """One speech from parts, or None when the clue sentence could not be built."""
    undercover = ctx.role == "undercover"
    later = ctx.round >= 2 or ctx.in_pk
    parts: list[str] = []
    situation = _situation(ctx, values)
    if situation and rng.random() < SITUATION_ODDS[situation]:
        parts += _maybe(SITUATION[situation], values, mine, rng)
    special_pool = voice.special_undercover if undercover and rng.random() < UNDERCOVER_FRAME else voice.special
    special = _maybe(special_pool, values, mine, rng) if rng.random() < voice.p_special else []
    reaction: list[str] = []
    if rng.random() < (voice.p_react if later else voice.p_react / 2):
        pool = voice.doubt if "suspect" in values and rng.random() < 0.4 else voice.agree
        reaction = _maybe(pool, values, mine, rng)
    core = _core(voice, clue, mode, unused, values, mine, undercover, rng)
    if core is None:
        return None
    body = [*reaction, *([] if voice.slug in SPECIAL_AFTER else special), core,
            *(special if voice.slug in SPECIAL_AFTER else [])]
    if rng.random() < voice.p_open:
        opener = _maybe(voice.openers, values, mine, rng)
        if opener:
            body[0] = opener[0] + body[0]
    if rng.random() < voice.p_close:
        body += _maybe(voice.closers, values, mine, rng)
    return "".join([*parts, *body])


def _core(voice: Voice, clue: str | None, mode: str, unused: list[str], values: dict[str, str],
          mine: list[str], undercover: bool, rng: random.Random) -> str | None:
    """The sentence that carries the clue (or the category, or the echo)."""
    if mode == "clue" and clue:
        local = {**values, "clue": clue}
        extra = [c for c in unused if c != clue and normalise(c) not in normalise(clue)]
        if not undercover and voice.clue_pick == "specific" and extra and rng.random() < TWO_CLUES:
            local["clue2"] = rng.choice(extra)
            two = _maybe(voice.clue_two, local, mine, rng)
            if two:
                return two[0]
        pool = voice.clue_undercover if undercover and rng.random() < UNDERCOVER_FRAME else voice.clue
        picked = _maybe(pool, local, mine, rng) or _maybe(voice.clue, local, [], rng)
        return picked[0] if picked else clue + "。"
    if mode == "category" and "tag" in values:
        picked = _maybe(voice.category, values, mine, rng)
        if picked:
            return picked[0]
    picked = _maybe(voice.echo, values, mine, rng)
    return picked[0] if picked else None


def _maybe(templates: Sequence[str], values: dict[str, str], mine: list[str], rng: random.Random) -> list[str]:
    """One filled template this seat has not used yet in the game ([] when none is left)."""
    usable = [t for t in templates if _fields(t) <= values.keys() and not _used(t, mine)]
    return [rng.choice(usable).format(**values)] if usable else []


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _used(template: str, mine: list[str]) -> bool:
    """True when every fixed piece (2+ characters) of `template` is in one of this seat's earlier texts."""
    pieces = [normalise(lit) for lit, _, _, _ in string.Formatter().parse(template)]
    pieces = [p for p in pieces if len(p) >= 2]
    if not pieces:
        return False
    return any(all(p in normalise(text) for p in pieces) for text in mine)


# ----------------------------------------------------------------------------------------- the situation


def _situation(ctx: Context, values: dict[str, str]) -> str | None:
    """Which situation line fits this turn, if any (PK, voted last round, just-revealed seat, …)."""
    if ctx.in_pk and ctx.seat in ctx.pk_candidates:
        return "pk"
    if "votes" in values:
        return "defend"
    if "out" in values:
        return "civilian_out" if values.get("out_role") == "civilian" else "undercover_out"
    if ctx.n_undercover and ctx.n_undercover >= 2:
        out = sum(1 for role in ctx.revealed.values() if role == "undercover")
        if out == ctx.n_undercover - 1:
            return "last_one"
    if not ctx.in_pk and not any(s.seat != ctx.seat for s in ctx.this_phase_speeches()):
        return "first"
    return None


def _values(ctx: Context, voice: Voice, rng: random.Random) -> dict[str, str]:
    """Placeholder values: previous speaker and phrase, a seat and phrase to react to, the suspect, …"""
    values: dict[str, str] = {}
    prev = ctx.previous_speaker()
    if prev is not None:
        values["prev"] = str(prev)
        spoken = [s.text for s in ctx.this_phase_speeches() if s.seat == prev and s.text]
        phrase = phrase_of(spoken[-1]) if spoken else ""
        if phrase and is_safe(phrase, ctx.word):
            values["prev_phrase"] = phrase
    react = _reaction(ctx, rng)
    if react:
        values["seat"], values["phrase"] = str(react[0]), react[1]
    suspect = _suspect(ctx)
    if suspect is not None:
        values["suspect"] = str(suspect)
    summary = _summary(ctx)
    if summary:
        values["summary"] = summary
    tag = tag_of(ctx.word)
    if tag:
        values["tag"] = tag
    last = ctx.last_vote()
    if last:
        counts = Counter(b.target for b in last)
        top = max(counts.values())
        if counts.get(ctx.seat, 0) == top and top >= 2:
            values["votes"] = str(top)
    gone = [seat for seat, rnd in ctx.eliminated_round.items() if rnd == ctx.round - 1 and seat in ctx.revealed]
    if gone:
        values["out"] = str(gone[0])
        values["out_role"] = ctx.revealed[gone[0]]
    return values


def _reaction(ctx: Context, rng: random.Random) -> tuple[int, str] | None:
    """A seat and a phrase it said that this seat can safely lean on (this round's first).

    Civilian: a phrase of a speech that fits its own clues. Undercover: of a speech that does not (the
    majority's). Blank: the phrase most shared across the table.
    """
    clues = own_clues(ctx.word)
    pool: list[tuple[int, str]] = []
    texts = [text for _, text in ctx.others_texts()]
    mine = ctx.my_texts()
    ordered = sorted(ctx.others_texts(), key=lambda item: 0 if _said_this_round(ctx, item[0]) else 1)
    for seat, text in ordered:
        if seat not in ctx.alive and ctx.revealed.get(seat) != "civilian":
            continue
        phrase = phrase_of(text)
        if not phrase or len(phrase) < 2 or not is_safe(phrase, ctx.word) or uses_clue(mine, phrase):
            continue
        if ctx.role == "civilian" and clues and fit(text, clues) < FITS_OWN_WORD:
            continue
        if ctx.role == "undercover" and clues and fit(text, clues) >= FITS_OWN_WORD:
            continue
        if _lone(ctx) and _names_tag(phrase, ctx.word):
            continue  # the only hidden seat leans on the majority's clues, not on the category (that stands out)
        pool.append((seat, phrase))
    if not pool:
        return None
    if ctx.role == "blank":
        return max(pool, key=lambda item: (sum(overlap(item[1], t) for t in texts), -item[0]))
    return rng.choice(pool[:3])


def _names_tag(phrase: str, word: str | None) -> bool:
    tag = normalise(tag_of(word) or "")
    return bool(tag) and (tag in phrase or phrase in tag)


def _suspect(ctx: Context) -> int | None:
    """The living seat this seat suspects most (an undercover: the seat that said least, not a fellow)."""
    others = [s for s in ctx.others_alive() if s not in ctx.fellows]
    if not others:
        return None
    if ctx.role == "undercover":  # deflect onto whoever said least
        return min(others, key=lambda s: (information(ctx, s), s))
    scores = suspicion(ctx)
    return max(others, key=lambda s: (scores.get(s, 0.0), -s))


def _summary(ctx: Context) -> str | None:
    """Up to three seats and their phrases, this round first: 2号「…」、4号「…」 (an undercover skips the
    speeches that fit its own word, so it sums up the majority)."""
    seen: dict[int, str] = {}
    clues = own_clues(ctx.word)
    texts = [(seat, text) for seat, text in ctx.others_texts()
             if not (ctx.role == "undercover" and clues and fit(text, clues) >= FITS_OWN_WORD)]
    ordered = sorted(texts, key=lambda item: 0 if _said_this_round(ctx, item[0]) else 1)
    for seat, text in ordered:
        phrase = phrase_of(text)
        if seat not in seen and phrase and is_safe(phrase, ctx.word) and phrase not in seen.values():
            seen[seat] = phrase
        if len(seen) == SUMMARY_PHRASES:
            break
    if len(seen) < 2:
        return None
    return "、".join(f"{seat}号「{p}」" for seat, p in seen.items())


def _said_this_round(ctx: Context, seat: int) -> bool:
    return any(s.seat == seat and s.round == ctx.round for s in ctx.speeches)
