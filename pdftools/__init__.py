"""pdftools: the PDF tool API. One typed, documented function per tool.

Import the registry with ``from pdftools import all_tools, get_tool, call_tool``;
tool modules are loaded on first use.
"""

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
    "EncryptedPdfError", "NotAPdfError", "PageRangeError", "PdfToolError", "RedactionError",
    "ToolArgumentError", "ToolUnavailableError", "UnknownToolError", "WrongPasswordError",
    "Pages", "describe_pages", "parse_pages", "Tool", "all_tools", "call_tool", "get_tool",
]
