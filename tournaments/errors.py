"""Errors raised by the tournament services; the API and the pages turn them into 4xx answers."""

from __future__ import annotations


class TournamentError(ValueError):
    """A request the event cannot accept: ``where`` names the field, ``code`` the kind of fault.

    ``details`` optionally carries the verifier's errors (pointer, code, message) for a record.
    """

    def __init__(
        self,
        where: str,
        message: str,
        *,
        code: str = "invalid",
        details: list[dict[str, str]] | None = None,
    ) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message
        self.code = code
        self.details = details or []


class NotAllowed(PermissionError):
    """The user may not do this to this event (not a director, not at this table)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
