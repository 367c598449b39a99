"""狼人杀 in the contract suite."""

from app.games.werewolf.game import GAME as WEREWOLF_GAME
from tests.contract.fixture import Fixture, Goldens, SkillGuide
from tests.contract.games.werewolf.secrets import secrets
from tests.games.werewolf import scenarios
from tests.games.werewolf.expect import EXPECT
from tests.test_werewolf_skill_guide import GUIDE, setup_for

FIXTURE = Fixture(
    secrets=secrets,
    skill=SkillGuide(GUIDE, setup_for, "## 8. Errors", min_blocks=25),
    goldens=Goldens(scenarios.GOLDEN, scenarios.SCENARIOS, EXPECT, scenarios.replay, scenarios.dumps),
    game=WEREWOLF_GAME,
    configs=(
        {"n_players": 6},
        {"n_players": 9, "win_rule": "all", "reveal_role_on_death": "role", "tie_break": "random"},
        {"n_players": 12, "allow_whisper": False, "tie_break": "noop_then_random", "first_night_last_words": False},
        {"n_players": 8, "roles": {"werewolf": 2, "villager": 3, "seer": 1, "witch": 1, "guard": 1}},
    ),
    play_tables=16,
    aliases={"speak": "last_words"},  # the guide: last words by `last_words` or `speak`
)
