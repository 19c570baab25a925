"""pdftools: the PDF tool API. One typed, documented function per tool.

Import the registry with ``from pdftools import all_tools, get_tool, call_tool``;
tool modules are loaded on first use.
"""

import sys

# PyMuPDF 2 imports its bundled layout analyser and pymupdf4llm (numpy and more: ~0.15 s of every
# start) when they are importable; no tool uses them. Marking them absent before PyMuPDF loads
# keeps start-up short.
if "pymupdf" not in sys.modules:
    for _optional in ("pymupdf.layout", "pymupdf4llm"):
        sys.modules.setdefault(_optional, None)  # type: ignore[arg-type]

from .errors import (
    EncryptedPdfError,
    NotAPdfError,
    PageRangeError,
    PdfToolError,
    RedactionError,
    ToolArgumentError,
    ToolUnavailableError,
    UnknownToolError,
    WrongPasswordError,
)
from .pages import Pages, describe_pages, parse_pages
from .registry import Tool, all_tools, call_tool, get_tool

__all__ = [
    "EncryptedPdfError",
    "NotAPdfError",
    "PageRangeError",
    "PdfToolError",
    "RedactionError",
    "ToolArgumentError",
    "ToolUnavailableError",
    "UnknownToolError",
    "WrongPasswordError",
    "Pages",
    "describe_pages",
    "parse_pages",
    "Tool",
    "all_tools",
    "call_tool",
    "get_tool",
]
