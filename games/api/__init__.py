"""The REST API of referee entry (Django REST Framework), mounted at /api/.

Thin callers of the same services as the pages (games.services, games.versions, games.entry):
parse, fetch, check the role (tournaments.access), call one service, render. Every error has
one shape (games.api.errors).
"""
