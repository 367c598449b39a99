"""Example agents: `random_agent.RandomAgent`, `undercover_rules.UndercoverRules`, `llm_agent.LLMAgent`."""
