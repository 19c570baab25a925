"""Parts a file prints as headings but its outline leaves out: "Annexe A", "Appendix B", "3.2. Résultats …".

An outline is the author's list and is often short of the document: a French report's bookmarks stop at its
sections while its two annexes are printed as headings on pages 31 and 56; its section 3.2 is printed on page 15
but never bookmarked. When a request names such a part by its noun and number and the outline has none, the
pages are read for a line that starts with it. A lettered or numbered appendix ("Annexe B") is a line of its own
or with its title after it; a section is a dotted number ("3.2", "4.1.2") and a title with a capital, never a
plain "3." (numbered lists print those). Contents pages and dot-leader lines (a listing of the parts) are no
heading. A part runs to the page before the next heading of its kind and rank, onto that page when the next
starts partway down it (as :func:`docpilot.fileparts.shares_pages` then reads); where the last one ends no
heading shows (the file's end, or a journal's back page after its appendix): asked about, never guessed.
"""

from __future__ import annotations

import functools
import re

from docpilot.fileparts import DOT_LEADER, Part, part_number

__all__ = ["printed_parts"]

_APPENDIX_NOUNS = ("appendix", "annex", "annexe", "anhang", "exhibit", "schedule")
_LONGEST = 120  # a heading line is short; a sentence that starts "Annexe A presents …" is not one


def _appendix_line(noun: str) -> re.Pattern[str]:
    return re.compile(
        rf"^\s*(?P<noun>{noun})\s+(?P<number>[A-Z]|\d+|[IVXLC]+)\b[.:)]?(?:\s*[–—-]\s*|\s+|$)(?P<rest>.*)$",
        re.IGNORECASE,
    )


_SECTION_LINE = re.compile(r"^\s*(?P<number>\d+(?:\.\d+)+)\.?\s+(?P<rest>[A-ZÀ-ÝÄÖÜ].*)$")


@functools.lru_cache(maxsize=32)
def printed_parts(path: str, kind: str, skip: tuple[tuple[int, int], ...] = ()) -> tuple[Part, ...]:
    """The parts of ``kind`` ("appendix": appendices, annexes, exhibits, schedules; "section": dotted numbers)
    printed as headings in the PDF at ``path``, in page order; ``skip``: page ranges (1-based) to leave out, the
    contents pages. Each heading's first printing counts."""
    import pymupdf

    found: list[tuple[int, str, str, str]] = []  # (page, title, noun, number)
    seen: set[tuple[str, str]] = set()
    try:
        doc = pymupdf.open(path)
    except Exception:  # noqa: BLE001 - an unreadable file prints no parts
        return ()
    with doc:
        if doc.needs_pass:
            return ()
        count = doc.page_count
        pattern = _appendix_line("|".join(_APPENDIX_NOUNS)) if kind == "appendix" else _SECTION_LINE
        for index in range(count):
            if any(a <= index + 1 <= b for a, b in skip):
                continue
            for line in doc[index].get_text().splitlines():
                line = " ".join(line.split())
                if not line or len(line) > _LONGEST or DOT_LEADER.search(line):
                    continue
                m = pattern.match(line)
                if m is None:
                    continue
                rest = m.group("rest").strip()
                if rest[:1].islower():
                    continue  # a sentence about it ("Annexe A présente …")
                noun = m.group("noun").lower() if kind == "appendix" else "section"
                number = part_number(m.group("number"))
                if (noun, number) in seen:
                    continue
                seen.add((noun, number))
                found.append((index + 1, line, noun, number))
    return _ranged(found, kind, count)


def _ranged(found: list[tuple[int, str, str, str]], kind: str, count: int) -> tuple[Part, ...]:
    parts: list[Part] = []
    for index, (page, title, noun, number) in enumerate(found):
        depth = number.count(".")
        after = next(
            (f for f in found[index + 1 :] if (f[2] == noun if kind == "appendix" else f[3].count(".") <= depth)),
            None,
        )
        if after is None:  # the file's end, or back matter no heading names (a journal's last page): not known
            last, open_end = count, "no heading after it is printed"
        else:
            last, open_end = max(page, after[0] - 1), ""
        level = 1 if kind == "appendix" else 1 + depth
        role = "appendix" if kind == "appendix" else "body"
        parts.append(Part(title, level, page, last, role, number, noun, open_end))
    return tuple(parts)
