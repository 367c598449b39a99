"""Tests of the official bots: rule brain, LLM brain, lobby filler, self-play and arena."""
