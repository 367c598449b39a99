"""Use cases: the only place that combines rules, projections and persistence."""
