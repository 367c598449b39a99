"""谁是卧底 in the contract suite."""

from app.games.undercover.game import GAME as UNDERCOVER_GAME
from tests.contract.fixture import Fixture, Goldens, SkillGuide
from tests.contract.games.undercover.secrets import secrets
from tests.games.undercover import scenarios
from tests.games.undercover.expect import EXPECT
from tests.test_skill_guide import GUIDE, setup_for

FIXTURE = Fixture(
    secrets=secrets,
    skill=SkillGuide(GUIDE, setup_for, "## 6. Errors", min_blocks=15),
    goldens=Goldens(scenarios.GOLDEN, scenarios.SCENARIOS, EXPECT, scenarios.replay, scenarios.dumps),
    game=UNDERCOVER_GAME,
    configs=(
        {"n_players": 5},
        {"n_players": 6, "n_undercover": 1, "n_blank": 1, "last_words": True, "blank_guess": True,
         "allow_whisper": True, "tie_break": "revote"},
        {"n_players": 7, "n_undercover": 2, "tie_break": "noop_then_random", "host": "chaos", "debate_rounds": 1},
        {"n_players": 5, "tie_break": "random", "host": "plain", "debate_rounds": 2, "allow_whisper": True},
        {"n_players": 12, "n_undercover": 3, "n_blank": 1, "last_words": True, "blank_guess": True,
         "allow_whisper": True, "tie_break": "revote"},
    ),
    play_tables=40,
)
