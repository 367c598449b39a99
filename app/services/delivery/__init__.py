"""Telling the world a match moved: wake-ups within and across processes (`notifier`, `pg_notifier`), event streams,
webhooks and their sender."""
