"""Persistence: SQLAlchemy models, the database handle and repositories."""
