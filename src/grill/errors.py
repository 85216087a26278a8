"""The GrillError family: every expected failure, each carrying its exit code.

Only the CLI turns a GrillError into one line on stderr and an exit code; everything below it
raises. A traceback reaching the user means an *unexpected* failure, i.e. a bug.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DeckError",
    "DeckIssue",
    "GrillError",
    "GrillWarning",
    "NotFoundError",
    "StoreError",
    "UsageError",
]


class GrillError(Exception):
    """An expected failure with a message meant for the user."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class GrillWarning(UserWarning):
    """Something went wrong that must not stop the command (a daily backup that could not be
    written): raised with `warnings.warn`; the CLI prints it as one line on stderr."""


class UsageError(GrillError):
    """The user asked for something that cannot be done as asked (bad value, bad option)."""

    exit_code = 2


class NotFoundError(GrillError):
    """A card, deck or case the user named does not exist."""

    exit_code = 2


class StoreError(GrillError):
    """The database cannot be opened, read or written."""

    exit_code = 1


@dataclass(frozen=True)
class DeckIssue:
    """One problem in a deck file, located by file, line and column (1-based)."""

    path: str
    line: int
    column: int
    message: str
    card: str | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}"
        who = f"card '{self.card}': " if self.card else ""
        return f"{where}: {who}{self.message}"


class DeckError(GrillError):
    """One or more deck files are invalid; every issue found is listed, not only the first."""

    exit_code = 2

    def __init__(self, issues: list[DeckIssue]) -> None:
        self.issues = list(issues)
        super().__init__("\n".join(str(i) for i in self.issues))
