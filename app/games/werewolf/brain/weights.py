"""Every tuning number of the werewolf brain, named (measured with `python -m app.bots.arena --game werewolf`)."""

from __future__ import annotations

KNOWN = 100.0  # a seat whose camp this seat knows
VICTIM_GOOD = 4.0  # the witch: a seat the wolves knifed is good
SINGLE_CLAIM_BELIEF = 0.75  # a lone seer claim is believed this much (±0.1 per point of credit)
CREDIT_FLOOR = 0.05
CREDIT_KILLED = 3.0  # a claimant the wolves knifed was the real seer
CREDIT_CHECK_RIGHT = 3.0  # a check the revealed cards proved right (or wrong)
CREDIT_FIRST = 0.5  # the first to claim
CREDIT_COUNTER_JUMP = 1.0  # claimed after being named 查杀 by an earlier claimant
FAKE_CLAIM = 6.0  # a disbelieved claimant is a wolf
REAL_CLAIM = 3.0
CHECK_WOLF = 8.0  # a believed 查杀
FAKE_CHECK_WOLF = 1.0  # a disbelieved claimant's 查杀 is likely good
CHECK_GOOD = 4.0  # a believed 金水
FAKE_CHECK_GOOD = 3.0  # a disbelieved claimant's 金水 is likely its fellow wolf
VOTE_ON_SEER = 2.5  # voted against a believed claimant
VOTE_WITH_SEER = 0.5  # voted for a believed 查杀
VOTE_FOR_GOLD = 1.5  # voted for a believed 金水

SAVE_UNTIL_NIGHT = 2  # the witch saves the victim on nights 1..this
SAVE_LATER_BELIEF = 0.6  # after that: only a claimant believed this much
POISON_AT = 5.0  # the witch poisons the most wolf-like seat from this suspicion on
SHOOT_AT = 1.0  # the hunter shoots the most wolf-like seat from this suspicion on (else passes)
WOLF_FAKE_CLAIM = 0.3  # the pack's first speaker fakes a seer claim on day 1 (× persona boldness)
WOLF_COUNTER_CLAIM = 0.75  # a wolf named 查杀 counter-claims (× persona boldness, capped at 1)
SEER_EARLY_CLAIM = 0.25  # the seer claims with only 金水 on day 1 (× persona boldness)
SEER_THREAT_VOTES = 2  # votes against the seer the day before that make her claim
