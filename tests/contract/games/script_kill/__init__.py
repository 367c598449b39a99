"""剧本杀 in the contract suite."""

from app.games.script_kill.game import ScriptKillGame
from tests.contract.fixture import Fixture, Goldens
from tests.games.script_kill import scenarios
from tests.games.script_kill.expect import EXPECT

FIXTURE = Fixture(
    goldens=Goldens(scenarios.GOLDEN, scenarios.SCENARIOS, EXPECT, scenarios.replay, scenarios.dumps),
    game=ScriptKillGame(),
    configs=({"timing": "compressed", "script": "tiny"}, {"timing": "standard", "script": "tiny"},
             {"timing": "compressed"}),
    play_tables=6,
)
