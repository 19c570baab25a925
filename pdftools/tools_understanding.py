"""Understanding a PDF's text: a summary with page citations. The model work is the host's
(:mod:`pdftools.hosted`): this tool reads the pages and hands their text over, nothing more."""

from __future__ import annotations

from typing import Any

from . import hosted
from .docio import open_pdf
from .errors import ToolArgumentError
from .pages import Pages, parse_pages
from .registry import tool
from .words import Words

__all__ = ["summarize"]

MAX_PAGES = 60  # pages of text handed over at once; a longer selection is refused with a clear message


def _summary_answer(value: Any) -> str:
    return str(value) if value else "There was no text to summarise."


@tool(
    kind="value",
    category="understanding",
    explain="Summarise {file}[ {pages}] in {sentences} points",
    result_name="summary",
    answer=_summary_answer,
    say="Summarise it",
    words=Words(verbs=("summarise", "summarize", "sum up"), nouns=("summary", "gist", "overview")),
)
def summarize(file: str, pages: Pages = "all", sentences: int = 3) -> str:
    """Summarise pages of a PDF in a few points, each taken from or grounded in the text.

    The best sentences are chosen by TextRank; when a language model is available it rewrites them
    as short bullets that cite the sentences they come from.

    Args:
        file: The PDF to summarise.
        pages: Pages to read (at most 60).
        sentences: How many points (1-8).

    Returns:
        The summary as bullet lines ("- ..."), ready to be written on a page.
    """
    if not 1 <= int(sentences) <= 8:
        raise ToolArgumentError("sentences must be between 1 and 8.")
    with open_pdf(file) as doc:
        indices = sorted(parse_pages(pages, doc.page_count))
        if len(indices) > MAX_PAGES:
            raise ToolArgumentError(f"Summarise at most {MAX_PAGES} pages at once ({len(indices)} were selected).")
        texts = [[i + 1, doc[i].get_text()] for i in indices]
    reply = hosted.call("summarize", {"pages": texts, "sentences": int(sentences)})
    bullets = reply.get("bullets") if isinstance(reply, dict) else None
    if not bullets:
        return ""
    return "\n".join(f"- {b}" for b in bullets)
