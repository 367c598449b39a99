"""A match's commands and reads: the one write path (`matches`: create, join, act, timers), its side effects
(`effects`), the match cache, seating, takeover, quick starts and the showcase, the lobby's room list."""
