"""Helpers the tests share: sample paths, session and history builders, the PostgreSQL server, driving the app."""
