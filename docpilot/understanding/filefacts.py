"""Questions that compare the uploaded files themselves ("which file is the longest?", "which one has the fewest
pages?", "which PDF is the biggest?"): answered by the tools over each file (``count_pages``; the size on disk),
naming only the files that were uploaded — never by reading pages with a model, whose answer could name a file
it read about in a document (an outline entry "14-01_Annexe_A_PDTA (003).pdf", a cited report).
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

__all__ = ["compare_files", "file_facts", "FACT_TOOLS"]

_WHICH = re.compile(
    r"^\s*(?:(?:can|could)\s+you\s+tell\s+me\s+)?(?:which|what)\s+(?:(?:one|file|document|pdf|doc)\s+|"
    r"of\s+(?:these|the|my|them|those|the\s+two|the\s+\w+)(?:\s+(?:files|documents|pdfs|docs|ones))?\s+)?"
    r"(?:is|has|'s|was)\s+(?:the\s+)?(?P<what>longest|shortest|longer|shorter|biggest|largest|smallest|bigger|"
    r"larger|smaller|most\s+pages|fewest\s+pages|least\s+pages|more\s+pages|fewer\s+pages|less\s+pages)"
    r"(?:\s+(?:one|file|document|pdf))?\s*\??\s*$",
    re.IGNORECASE,
)


def compare_files(question: str, files: dict[str, str], password: str | None = None) -> dict[str, Any] | None:
    """The answer (``ask``'s dict) to a question comparing ``{name: path}`` by length or size; None when the
    question is not one."""
    m = _WHICH.match(question)
    if not m or len(files) < 2:
        return None
    from pdftools import get_tool
    from pdftools.errors import PdfToolError

    started = time.perf_counter()
    what = m.group("what").lower()
    by_size = any(w in what for w in ("big", "larg", "small"))
    count = get_tool("count_pages")
    measured: dict[str, int] = {}
    unknown: list[str] = []
    for name, path in files.items():
        if by_size:
            measured[name] = os.path.getsize(path)
            continue
        try:
            measured[name] = int(count(file=path, password=password))
        except PdfToolError:
            unknown.append(name)
    if not measured:
        return None
    most = any(w in what for w in ("long", "big", "larg", "most", "more"))
    best = (max if most else min)(measured.values())
    winners = [n for n, v in measured.items() if v == best]

    def said(value: int) -> str:
        if by_size:
            return f"{value / 1e6:.1f} MB" if value >= 100_000 else f"{value / 1e3:.0f} KB"
        return f"{value} page{'s' if value != 1 else ''}"

    if "pages" in what:
        verb = f"has the {'most' if most else 'fewest'} pages"
    elif by_size:
        verb = f"is the {'biggest' if most else 'smallest'}"
    else:
        verb = f"is the {'longest' if most else 'shortest'}"
    head = f"{winners[0]} {verb}" if len(winners) == 1 else f"{' and '.join(winners)} tie"
    others = "; ".join(f"{n}: {said(v)}" for n, v in measured.items())
    lock = f" ({', '.join(unknown)}: password-protected, page count unknown)" if unknown else ""
    return {
        "answer": f"{head} ({said(best)}). {others}.{lock}",
        "answered": True,
        "citations": [],
        "stats": {"llm_calls": 0, "context_tokens": 0, "seconds": round(time.perf_counter() - started, 2)},
    }


# The tools that report a fact of the file with nothing but the file (the planner's reading of a question about
# the file itself names one of them: docpilot.planning.fastpath.asked)
FACT_TOOLS = frozenset(
    {"count_pages", "check_password", "get_metadata", "get_outline", "read_annotations", "read_form"}
)
_WHO = re.compile(r"\bwho\b|\bwr(?:ote|itten)\b|\bauthored\b", re.IGNORECASE)
_WITH_PASSWORD = ("count_pages", "get_metadata")  # (check_password's password is one to try, not one to open with)
_FIELDS = ("title", "author", "subject", "keywords", "creator", "producer")
_JUNK = re.compile(
    r"^(?:untitled|microsoft\s+\w+\s*-|document\d*$)|\.(?:docx?|pdf|pptx?|xlsx?|indd|tex|dvi)$", re.IGNORECASE
)


def file_facts(
    question: str, steps: list[tuple[str, str]], files: dict[str, str], password: str | None = None
) -> dict[str, Any] | None:
    """The answer (``ask``'s dict) to a question about the uploaded files themselves — how many pages, whether a
    file is password-protected or encrypted, its bookmarks, comments, form fields or properties — from the
    planner's reading of it as ``steps`` (a fact tool, file name), each run on its file: no model, no page read,
    only uploaded files named. None when a step is of another tool, or a property asked is not set (or is a
    program's placeholder, "Microsoft Word - draft.docx"): the pages say what the document's title is."""
    from pdftools import get_tool
    from pdftools.errors import PdfToolError

    if not steps or any(task not in FACT_TOOLS or name not in files for task, name in steps):
        return None
    started = time.perf_counter()
    asked = [f for f in _FIELDS if re.search(rf"\b{f}s?\b", question, re.IGNORECASE)]
    if not asked and _WHO.search(question):
        asked = ["author"]  # "who wrote the memo?": the author, or the pages when none is set
    lines: list[str] = []
    counted: list[int] = []
    for task, name in steps:
        tool = get_tool(task)
        try:
            value = tool(file=files[name], password=password) if task in _WITH_PASSWORD else tool(file=files[name])
        except PdfToolError as exc:
            lines.append(f"{name}: {exc}")
            continue
        if task == "get_metadata":
            shown = [(f, str(value.get(f) or "").strip()) for f in asked or _FIELDS]
            shown = [(f, v) for f, v in shown if v and not _JUNK.search(v)]
            if asked and not shown:
                return None
            said = "; ".join(f'{f} "{v}"' for f, v in shown) or "no title, author or subject set"
            lines.append(f"{name}'s properties: {said}")
            continue
        if task == "count_pages":
            counted.append(int(value))
        lines.append(_said(task, name, value))
    if len(counted) > 1 and len(counted) == len(steps):
        lines.append(f"{sum(counted)} pages in all")
    return {
        "answer": "; ".join(lines) + ".",
        "answered": True,
        "citations": [],
        "stats": {"llm_calls": 0, "context_tokens": 0, "seconds": round(time.perf_counter() - started, 2)},
    }


def _said(tool: str, name: str, value: Any) -> str:
    if tool == "count_pages":
        return f"{name} has {int(value)} page{'s' if int(value) != 1 else ''}"
    if tool == "check_password":
        return str(value.get("summary") or name).rstrip(".")
    kinds = {"get_outline": "bookmark{}", "read_annotations": "comment{} or markup{}", "read_form": "form field{}"}
    items = list(value or [])
    if not items:
        return f"{name} has no " + kinds[tool].replace("{}", "s")
    shown = [_item(tool, item) for item in items[:8]]
    more = f" and {len(items) - 8} more" if len(items) > 8 else ""
    plural = kinds[tool].replace("{}", "s" if len(items) != 1 else "")
    return f"{name} has {len(items)} {plural}: " + "; ".join(shown) + more


def _item(tool: str, item: Any) -> str:
    if not isinstance(item, dict):
        return str(item)
    if tool == "get_outline":
        return f"{item.get('title')} (page {item.get('page')})"
    if tool == "read_annotations":
        text = str(item.get("content") or item.get("text") or "").strip()
        return f"{item.get('type', 'note')} on page {item.get('page')}" + (f': "{text[:60]}"' if text else "")
    return str(item.get("name") or item)
