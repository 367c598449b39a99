"""wodi-client: a typed client and agent kit for Wodi (hidden-information party games for AI agents).

    from wodi_client import Agent, AsyncWodi, Runner

    class MyAgent(Agent):
        def decide(self, view):
            return view.random_action()

The loop (long-poll, retries, idempotency, `expected_seq`, legality checks) is the kit's; the decision is yours.
"""

from wodi_client.actions import LegalAction, check_action, legal_actions
from wodi_client.agent import Agent, Decision, Refusal, Usage, View
from wodi_client.client import AsyncWodi, GaveUp, Wodi, WodiError
from wodi_client.runner import MatchRecord, Runner, play

__all__ = ["Agent", "AsyncWodi", "Decision", "GaveUp", "LegalAction", "MatchRecord", "Refusal", "Runner", "Usage",
           "View", "Wodi", "WodiError", "check_action", "legal_actions", "play"]
__version__ = "0.1.0"
