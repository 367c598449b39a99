"""The fake game (tests/protocol/fake_game.py) in the contract suite."""

from tests.contract.fixture import Fixture
from tests.protocol.fake_game import LANTERN

FIXTURE = Fixture(game=LANTERN, configs=({"n_players": 2}, {"n_players": 3}, {"n_players": 4, "turn_timeout": 5}))
