"""Every tuning number of the script_kill brain, named."""

from __future__ import annotations

ABOUT = 1.0  # a visible clue about a character with no preset weights counts this much against them
JITTER = 0.4  # × the persona's noise: a stable per-game nudge to each suspicion, so personas disagree
ACCUSED_ME = 1.5  # trust lost towards a seat whose speech named my character as the suspect
CHATTED = 1.0  # trust gained per private chat a seat sent me
TRADED = 3.0  # trust gained per item a seat gave me
SUSPECT_TRUST = 0.5  # trust lost per point of suspicion on a seat's character
TRUST_TO_TRADE = 1.0  # a seat must be trusted at least this much to receive an item
CHATS_PER_ROUND = 2  # proactive private chats per round (seed 002 §三)
ANSWERS_PER_ROUND = 2  # answers to chats received, per round
TRADES_PER_ROUND = 1
REVEALS_PER_STAGE = 1
SNIPPET = 60  # characters of a clue's text quoted in speech
NOT_OWN_STORY = 1.5  # search order: a place the seat's own script, secret and timeline do not name
NOT_NEAR_SUSPECTS = 0.5  # … where no clue about the two top suspects was found
CROWD = 2.0  # … per search another seat made there this stage (it draws the place's cards)
DRAWN_BEFORE = 0.5  # … per search another seat made there in an earlier round
SEARCHED_BEFORE = 2.0  # … a place the seat searched in an earlier round
PEEKED_KEY = 3.0  # … less per key clue a peek (power or item) showed still hides there
KEY_LOOKING = 2  # a preset weight this high on a character makes a clue look decisive (shown first)
KEY_SHOWN = 3.0  # reveal order: the bonus of a key-looking clue
