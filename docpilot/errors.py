"""DocPilot's exceptions. Tool errors come from :mod:`pdftools.errors` and share the same root."""

from __future__ import annotations

from pdftools.errors import PdfToolError

__all__ = ["DocPilotError", "UsageError", "LLMError", "PdfToolError"]


class DocPilotError(PdfToolError):
    """A request DocPilot cannot carry out; the message says why and what to do."""


class UsageError(DocPilotError):
    """The command line or the request was used wrongly (exit code 2)."""


class LLMError(DocPilotError):
    """The language model could not answer: server unreachable, model missing, timeout, bad reply."""
