"""The one domain error base of the Django side.

Services raise `DomainError` subclasses for requests they refuse; views, admin forms and
management commands map them in one place each to an HTTP 400 page, a form error or exit
status 2. A refused request never leaves a half-write (services run in one transaction).
"""

from __future__ import annotations


class DomainError(Exception):
    """A request the domain refuses; `message` is shown to the person who made it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
