"""What runs beside the matches: benchmarks against the reference pool, tournaments, the afterword, metrics and
health, the process's locks and idempotency."""
