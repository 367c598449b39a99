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
CLEAR_ROOM_LONE = 1.0  # … a room's only hidden seat borrows on one clear clue (most of the table holds that word)

# ----------------------------------------------------------------- suspicion

COPYCAT = 0.45  # × share of a seat's speeches that only repeat phrases others said first
LIKE_REVEALED_OTHER = 1.5  # × likeness to a revealed seat of another role (suspicious)
LIKE_REVEALED_MINE = 0.3  # × likeness to a revealed seat of my role (reassuring)
THEIR_WORD = 2.0  # × a seat's best fit to the word a revealed undercover described (its fellow's word)
VOTED_OUT_MY_SIDE = 0.3  # voted out a revealed seat of my role
VOTED_OUT_OTHER_SIDE = 0.1  # voted out a revealed seat of another role (reassuring)

# ----------------------------------------------------------------- voting

CIVILIAN_FOLLOWS = 0.4  # civilians lean towards the seat already voted most (a split vote saves the undercover)
CIVILIANS_CLOSE_RANKS = 0.4  # … and this much more in a room with a blank (two hidden seats: a split vote saves one)
HIDDEN_SIDE_FOLLOWS = 0.8  # undercovers and blanks join the votes already cast (hiding in the majority)
FELLOW_PENALTY = 5.0  # never vote out a known fellow while anyone else is eligible
THIRD_CHOICE = 0.5  # past the first two choices: the third, else a random eligible seat
SILENT_VOTE = 0.25  # chance to vote without a comment

# ----------------------------------------------------------------- the word the room describes

REVEALED_CIVILIAN_WEIGHT = 2.0  # speeches of a seat revealed as civilian count double
PARTIAL_FIT_WEIGHT = 0.3  # a speech that only overlaps a word's clues counts this much of its fit

# ----------------------------------------------------------------- the blank

BLANK_RECALL = 0.1  # a blank connects a heard library clue with its word this often (it has not learnt the library)
BLANK_SURE = 2.0  # a blank names a word only when the speeches give it this much score (two clear clues)
BLANK_CLUES = 2  # … and it recognised this many different clues of that word in them
CATEGORY_FIT = 0.6  # a speech naming only the shared category fits a word this well (says little either way)

# ----------------------------------------------------------------- a civilian's evidence (`signals`)
# Log-likelihood ratios (undercover, blank), each against "holds my word", of what one speech added to the table
# (`signals.read_speeches`), by `signals.reading_key`: measured on bot-only games (civilians' view) and rounded.
# "other" rows are scaled by how far the new facet is from my word; a missing row reads (0, 0).

SPEECH_LLR: dict[str, tuple[float, float]] = {
    "-1category-": (0.8, 0.0), "-1categoryF": (0.3, 0.0), "-1category_echo-": (0.7, 0.0),
    "-1category_echoF": (0.1, 0.0), "-1echo-": (-1.1, 0.0), "-1echoF": (3.5, 0.0),
    "-1mineF": (-1.0, 0.0), "-1other-": (3.5, 0.0), "-1otherF": (3.5, 0.0),
    "-2category_echo-": (2.0, 0.0), "-2echo-": (-0.3, 0.0), "-2echoF": (3.2, 0.0),
    "-2mineF": (-0.5, 0.0), "-2other-": (3.5, 0.0), "-2otherF": (3.5, 0.0),
    "-3category_echo-": (3.3, 0.0), "-3echo-": (-0.2, 0.0), "-3mineF": (-0.2, 0.0),
    "-3other-": (3.5, 0.0), "B1categoryF": (0.3, -3.0), "B1category_echoF": (-0.8, -0.4),
    "B1echoF": (3.5, 3.5), "B1mineF": (-0.4, -3.5), "B1otherF": (3.5, 1.1),
    "B2category_echoF": (-1.7, -0.4), "B2echoF": (3.5, 3.5), "B2mineF": (3.5, 1.4),
    "B2otherF": (3.5, 1.4), "B3category_echo-": (3.0, 2.6), "B3category_echoF": (3.5, 3.3),
    "B3echo-": (-0.8, -0.1), "B3echoF": (3.3, 3.5), "B3mineF": (-0.5, -3.4),
}

