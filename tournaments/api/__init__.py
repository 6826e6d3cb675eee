"""The REST API of referee entry (Django REST Framework), mounted at /api/.

Thin callers of the same services as the pages (tournaments.tables.submission,
tournaments.tables.review, games.steps):
parse, fetch, check the role (tournaments.core.access), call one service, render. Every error has
one shape (ddz_site.api.errors).
"""
