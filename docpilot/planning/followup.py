"""Follow-ups across turns: what "now do the same for the invoice", "and on page 3 too", "also lock it" mean.

A follow-up is read against the previous turn (its request and plan) and the last run's results:

- "the same for X" / "repeat that for the other file": the previous request, on the file(s) now named;
- "and on page 3 too" / "page 5 as well": the previous request with its pages changed to the new ones, on
  the last result when there is one (the pages it already did stay done);
- "also lock it" / "now compress it" / "then turn it into Word" after a run: the request, on the last
  result ("it" = what the last run made).

Anything else is a new request (None).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docpilot.files import FileInfo
from docpilot.planning.fastpath.extract import pages_in
from docpilot.planning.fastpath.grounding import ground_files, name_pattern

__all__ = ["FollowUp", "follow_up"]

_SAME = re.compile(
    r"\b(?:do|apply|repeat|redo|run)\s+(?:exactly\s+)?(?:the\s+)?same(?:\s+thing|\s+steps?|\s+changes?)?\b|"
    r"^\W*(?:now\s+|and\s+|also\s+|then\s+)?(?:the\s+)?same\s+(?:for|to|with|on|in)\b|"
    r"\b(?:repeat|redo)\s+(?:that|it|this|those\s+steps)\b|\bdo\s+(?:that|this|it)\s+(?:again\s+)?(?:for|to|on|with|in)\b",
    re.IGNORECASE,
)
_OTHER = re.compile(r"\bthe\s+other\s+(?:one|file|document|pdf)s?\b|\bthe\s+others\b|\bthe\s+rest\b", re.IGNORECASE)
_TOO = re.compile(
    r"^\W*(?:and\s+|also\s+|now\s+|plus\s+)?(?:do\s+(?:it|that|the\s+same)\s+)?(?:on|for|to)?\s*(?P<pages>.+?)\s+"
    r"(?:too|as\s+well|also)\W*$",
    re.IGNORECASE,
)
_CONTINUE = re.compile(r"^\W*(?:also|now|then|next|and\s+then|and\s+now|and\s+also|after\s+that)\b", re.IGNORECASE)
_RESULT = re.compile(
    r"\b(?:it|them|the\s+result|the\s+results|the\s+output|the\s+new\s+(?:file|one|pdf|version)|that\s+file)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class FollowUp:
    """What to plan for a follow-up: a request (shown as the person's words say it) and the files it acts on."""

    request: str
    files: dict[str, FileInfo]
    on_results: bool


def follow_up(
    text: str,
    previous: str | None,
    files: dict[str, FileInfo],
    results: dict[str, FileInfo] | None,
    previous_files: list[str] | None = None,
) -> FollowUp | None:
    """The follow-up ``text`` makes of the previous request (and the last run's ``results``), or None."""
    if previous and _SAME.search(text):
        return _same(text, previous, files, previous_files or [])
    if previous and (too := _TOO.match(text)):
        pages = pages_in(too.group("pages"))
        if pages:
            request = _with_pages(previous, too.group("pages"))
            return FollowUp(request, results or files, on_results=bool(results))
    if results and _CONTINUE.search(text) and _RESULT.search(text) and not _names_a_file(text, files):
        return FollowUp(text, results, on_results=True)
    return None


def _same(text: str, previous: str, files: dict[str, FileInfo], previous_files: list[str]) -> FollowUp | None:
    pdfs = [n for n, i in files.items() if i.kind == "pdf"]
    if _OTHER.search(text):
        chosen = [n for n in pdfs if n not in previous_files]
    else:
        grounding = ground_files(text, files)
        chosen = grounding.pdfs if grounding.mentioned and not grounding.ambiguous else []
    if not chosen:
        return None
    meant = {n: i for n, i in files.items() if n in chosen or i.kind != "pdf"}
    request = previous
    for name in previous_files:  # "… to invoice 1001" → "… to invoice_1002.pdf"
        request = name_pattern(name).sub(chosen[0] if len(chosen) == 1 else "each file", request)
    return FollowUp(request, meant, on_results=False)


def _with_pages(previous: str, pages: str) -> str:
    """The previous request with its page reference replaced by ``pages`` (or ``pages`` added)."""
    pages = re.sub(r"^(?:the\s+)?", "", pages.strip())
    pages = pages if re.match(r"(?i)p(?:age|\.)|first|last|odd|even|cover|title", pages) else f"page {pages}"
    span = re.search(
        r"\b(?:on|of|to|from|in)?\s*(?:the\s+)?(?:pages?\s+\d+(?:\s*(?:-|–|to|through|and|,)\s*\d+)*|"
        r"(?:first|last|odd|even|cover|title)\s+(?:\w+\s+)?pages?)\b",
        previous,
        re.IGNORECASE,
    )
    if span:
        lead = re.match(r"\s*(on|of|to|from|in)\b", span.group(0), re.IGNORECASE)
        return previous[: span.start()] + f"{lead.group(1) + ' ' if lead else ''}{pages}" + previous[span.end() :]
    return f"{previous.rstrip(' .')} on {pages}"


def _names_a_file(text: str, files: dict[str, FileInfo]) -> bool:
    grounding = ground_files(text, files)
    return grounding.mentioned and len([i for i in files.values() if i.kind == "pdf"]) > 1
