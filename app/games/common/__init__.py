"""Rules both games play the same way: the waiting room, the vote's tie-break, the shared commands.

Each function works on any game's state through the small Protocols in `table`; nothing here knows
words, roles or nights.
"""
