"""One exception tree for every tool.

Messages are written for two readers: the person using DocPilot and the LLM
that may have to correct a plan. Each says what went wrong and what to do.
"""

from __future__ import annotations

__all__ = [
    "PdfToolError",
    "ToolArgumentError",
    "PageRangeError",
    "NotAPdfError",
    "EncryptedPdfError",
    "WrongPasswordError",
    "RedactionError",
    "ToolUnavailableError",
    "UnknownToolError",
    "NoMatchError",
    "LanguageError",
    "TooLargeError",
]


class PdfToolError(Exception):
    """Base of every error a tool raises on purpose."""


class ToolArgumentError(PdfToolError, ValueError):
    """An argument has the wrong type or value."""


class UnknownToolError(ToolArgumentError):
    """No tool is registered under this name."""


class PageRangeError(ToolArgumentError):
    """A page selection does not fit the document."""


class NoMatchError(ToolArgumentError):
    """Nothing on the selected pages matched what the tool was asked to find or mark."""


class NotAPdfError(PdfToolError):
    """The file is empty, truncated or not a PDF at all."""


class EncryptedPdfError(PdfToolError):
    """The PDF needs a password and none was given."""


class WrongPasswordError(EncryptedPdfError):
    """The password given does not open the PDF."""


class RedactionError(PdfToolError):
    """Redacted text could still be extracted after applying redactions."""


class ToolUnavailableError(PdfToolError):
    """A program the tool needs (tesseract, gs, qpdf) is not installed."""


class LanguageError(ToolArgumentError):
    """The text is in a language the tool cannot read (names and organisations are found in English only)."""


class TooLargeError(PdfToolError):
    """The file holds more than a tool reads safely: contents that expand past their limit (a decompression
    bomb) or an image of too many pixels."""
