"""The Django admin: events and their structure (events), clubs (clubs), boards and games
(games). Imported here so that admin autodiscovery registers them all.
"""

from tournaments.admin import clubs, events, games  # noqa: F401
