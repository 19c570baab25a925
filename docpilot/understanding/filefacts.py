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

__all__ = ["compare_files"]

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
        "citations": [],
        "stats": {"llm_calls": 0, "context_tokens": 0, "seconds": round(time.perf_counter() - started, 2)},
    }
