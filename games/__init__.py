"""Boards and games: deals, game records, their verification by the engine, Celery tasks.

The rules engine itself is the pure package games.engine (no Django).
"""
