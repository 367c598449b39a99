"""阿瓦隆 in the contract suite."""

from app.games.avalon.game import GAME
from tests.contract.fixture import Fixture, Goldens, SkillGuide
from tests.contract.games.avalon.secrets import secrets
from tests.games.avalon import scenarios
from tests.games.avalon.expect import EXPECT
from tests.test_avalon_skill_guide import GUIDE, setup_for

FIXTURE = Fixture(
    secrets=secrets,
    skill=SkillGuide(GUIDE, setup_for, "## 9. Errors", min_blocks=30),
    goldens=Goldens(scenarios.GOLDEN, scenarios.SCENARIOS, EXPECT, scenarios.replay, scenarios.dumps),
    game=GAME,
    configs=({"n_players": 5}, {"n_players": 7, "lady_of_the_lake": True}, {"n_players": 10},
             {"n_players": 6, "roles": {"merlin": 1, "loyal_servant": 3, "assassin": 1, "minion": 1}},
             {"n_players": 8, "lady_of_the_lake": True, "speak_timeout": 5, "vote_timeout": 5}),
    play_tables=16,
)
