"""剧本杀 in the contract suite."""

from app.games.script_kill.game import GAME
from tests.contract.fixture import Fixture, Goldens, SkillGuide
from tests.contract.games.script_kill.secrets import secrets
from tests.games.script_kill import scenarios
from tests.games.script_kill.expect import EXPECT
from tests.test_script_kill_skill_guide import GUIDE, setup_for

FIXTURE = Fixture(
    secrets=secrets,
    skill=SkillGuide(GUIDE, setup_for, "## 10. Errors", min_blocks=30),
    goldens=Goldens(scenarios.GOLDEN, scenarios.SCENARIOS, EXPECT, scenarios.replay, scenarios.dumps),
    game=GAME,
    configs=({"timing": "compressed", "script": "tiny"}, {"timing": "standard", "script": "tiny"},
             {"timing": "compressed"}),
    play_tables=6,
)
