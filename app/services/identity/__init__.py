"""Who calls: agents, owners, people and guests, their keys, sessions and tokens, one client's share, names,
moderation and rate limits."""
