"""The rule brain's tuning, named: every number a score or a choice depends on.

Fits and overlaps (`clues`) run from 0 (nothing in common) to 1 (the text holds the clue); scores
are sums of such terms, so the weights below are on the same scale.
"""

from __future__ import annotations

# ----------------------------------------------------------------- reading speeches

FITS_OWN_WORD = 0.5  # a speech fitting my clues at least this well describes my word
HOLDS_CLUE = 1.0  # a fit this high means the speech holds one of the word's clues
SKIPPED_FIT = 0.35  # a skipped turn neither proves nor disproves much
NEUTRAL = 0.5  # the suspicion of a seat nothing is known about yet

# ----------------------------------------------------------------- speaking

BLEND_AFTER_ROUND_1 = 0.25  # an undercover blends in more once the first round has shown the majority's word
CLEAR_ROOM = 2.0  # the word the room describes needs this much score before an undercover borrows its clues

# ----------------------------------------------------------------- suspicion

COPYCAT = 0.25  # × share of a seat's speeches that only repeat phrases others said first
LIKE_REVEALED_OTHER = 0.4  # × likeness to a revealed seat of another role (suspicious)
LIKE_REVEALED_MINE = 0.3  # × likeness to a revealed seat of my role (reassuring)
VOTED_OUT_MY_SIDE = 0.15  # voted out a revealed seat of my role
VOTED_OUT_OTHER_SIDE = 0.1  # voted out a revealed seat of another role (reassuring)

# ----------------------------------------------------------------- voting

HIDDEN_SIDE_FOLLOWS = 0.8  # undercovers and blanks join the votes already cast (hiding in the majority)
FELLOW_PENALTY = 5.0  # never vote out a known fellow while anyone else is eligible
THIRD_CHOICE = 0.5  # past the first two choices: the third, else a random eligible seat
SILENT_VOTE = 0.25  # chance to vote without a comment

# ----------------------------------------------------------------- the word the room describes

REVEALED_CIVILIAN_WEIGHT = 2.0  # speeches of a seat revealed as civilian count double
PARTIAL_FIT_WEIGHT = 0.3  # a speech that only overlaps a word's clues counts this much of its fit
