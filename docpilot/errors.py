"""DocPilot's exceptions: one tree with its own root, beside the tools' own (:mod:`pdftools.errors`).

``DocPilotError`` is what planning, running and the model backends raise for a request that cannot be
done; ``PdfToolError`` is what a tool raises about a file or its arguments. The faces (CLI, app) catch
both, as :data:`USER_ERRORS`, and show the message; anything else is a bug and is raised.
"""

from __future__ import annotations

from typing import Any

from pdftools.errors import PdfToolError

__all__ = [
    "DocPilotError",
    "UsageError",
    "MissingPart",
    "LimitError",
    "LLMError",
    "Stopped",
    "RepairFailed",
    "ProgramRefused",
    "ProgramFailed",
    "USER_ERRORS",
    "PdfToolError",
]


class DocPilotError(Exception):
    """A request DocPilot cannot carry out; the message says why and what to do."""


class UsageError(DocPilotError):
    """The command line or the request was used wrongly (exit code 2)."""


class MissingPart(DocPilotError):
    """A part DocPilot needs is not installed; the message names what to install. Raised instead of carrying on
    without it, so a missing part never silently changes what a request means."""


class LimitError(DocPilotError):
    """A file is over a configured limit (an upload's size or page count); the message names the limit."""


class LLMError(DocPilotError):
    """The language model could not answer: server unreachable, model missing, timeout, bad reply."""


class Stopped(LLMError):
    """The model's work on a request was stopped: the person cancelled it, or it used its time.

    ``cancelled`` tells the two apart (a cancel is not a failure to report as one).
    """

    def __init__(self, message: str, cancelled: bool) -> None:
        super().__init__(message)
        self.cancelled = cancelled


class RepairFailed(DocPilotError):
    """A bounded repair loop (ask, check, feed the problems back) ran out of rounds.

    Carries every attempt (what the model gave each round), the problems of the last one, and the
    usage of the whole loop, so a caller can report them (instructor's ``InstructorRetryException``).
    """

    def __init__(self, message: str, attempts: list[Any], problems: list[Any], usage: Any = None) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.problems = problems
        self.usage = usage


class ProgramRefused(DocPilotError):
    """A program over a document's data was refused before it ran: it used something outside the allow-list.

    ``problems`` holds every problem found (line and message, written for the model that wrote it), so one
    revision round can fix them together.
    """

    def __init__(self, message: str, problems: list[Any]) -> None:
        super().__init__(message)
        self.problems = problems


class ProgramFailed(DocPilotError):
    """A checked program over a document's data ran and failed (a missing column, a type error, the sandbox's
    limits); the message says what happened, for the model to revise the program once."""


# What a face catches and shows as "I could not do that: …".
USER_ERRORS: tuple[type[Exception], ...] = (DocPilotError, PdfToolError)
