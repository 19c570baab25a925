"""A file's parts by its own structure: chapters and sections with their page ranges, the table of contents,
the index, the appendices and the front matter.

Read from the file's outline (PyMuPDF's ``get_toc``) when it has one, else from its headings (weight, size and
numbering, :func:`docpilot.understanding.structure.read_structure`). A part runs from its page to the page
before the next part at its level or above (the last one to the end of the file); when the next one starts
on the same page, the part is that one page. Whether a part shares its first or last page with another part
is read from the page itself when a request is about to use it (:func:`shares_pages`), never guessed.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

__all__ = [
    "WORD_NUMBERS", "DOT_LEADER", "Part", "read_parts", "shares_pages", "part_number", "front_matter", "bare_title",
    "next_part", "HEADINGS_MAX_PAGES",
]  # fmt: skip

HEADINGS_MAX_PAGES = 120  # without an outline, headings are read from the pages of files up to this long

_CONTENTS = re.compile(
    r"^(?:table\s+of\s+)?contents$|^toc$|^inhalt(?:sverzeichnis)?$|^sommaire$|^table\s+des\s+mati[eè]res$|"
    r"^[ií]ndice$",
    re.IGNORECASE,
)
_INDEX = re.compile(
    r"^(?:general\s+|subject\s+|alphabetical\s+|name\s+)?index(?:\s+of\s+\w+)?$|^stichwortverzeichnis$|^register$",
    re.IGNORECASE,
)
_APPENDIX = re.compile(r"^(?:appendix|appendices|annex(?:es)?|anhang|annexe)\b", re.IGNORECASE)
# What comes before the body of a book or a report
_FRONT = re.compile(
    r"^(?:cover|front\s+cover|title(?:\s+page)?|half[- ]title|copyright|dedication|epigraph|(?:table\s+of\s+)?"
    r"contents|toc|preface|foreword|prologue|acknowledge?ments?|abstract|summary|executive\s+summary|about\s+"
    r"(?:this|the)\s+\w+|list\s+of\s+(?:figures|tables|abbreviations|illustrations)|praise\s+for\b.*|"
    r"manual\s+transmittal)$",
    re.IGNORECASE,
)
WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20,
}  # fmt: skip
_ROMAN = re.compile(r"^(?=[ivxlc]+$)c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$", re.IGNORECASE)
# "Chapter 3: Catalogs", "3: Catalogs", "2.10 Fees", "PART II - OBLIGATIONS", "Appendix A: …", "III-B Artistic …"
_NUMBERED = re.compile(
    r"^(?:(?P<noun>chapter|section|part|article|appendix|annexe?|schedule|item|exhibit|kapitel|teil|chapitre)\s+)?"
    r"(?P<number>\d+[A-Z]?(?:\.\d+)*|[IVXLC]+(?:-[A-Z])?|[A-Z](?:-[A-Z])?|"
    + "|".join(WORD_NUMBERS)
    + r")(?=[\s.:)–—-]|$)[.:)]?(?:\s*[–—-]\s*|\s+|$)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Part:
    """One part of a file, as its outline or its headings give it."""

    title: str
    level: int  # 1 = the top of the outline
    first: int  # 1-based, inclusive
    last: int
    kind: str  # "contents" | "index" | "appendix" | "front" | "body"
    number: str  # "3", "2.10", "II", "A" as the title numbers it; "" when unnumbered
    noun: str  # the word before the number ("chapter", "part", "appendix"), lower case; "" when none
    open_end: str = ""  # why where it ends is not known ("" when it is): an outline entry without a page follows

    @property
    def pages(self) -> str:
        return f"{self.first}-{self.last}" if self.last > self.first else str(self.first)

    def describe(self) -> str:
        where = f"pages {self.first}-{self.last}" if self.last > self.first else f"page {self.first}"
        return f"{self.title} ({where})"


def part_number(text: str) -> str:
    """A number as a title or a request says it, made comparable: "Three" → "3", "iv" → "4", "2.10" stays."""
    low = text.strip().lower().rstrip(".")
    if low in WORD_NUMBERS:
        return str(WORD_NUMBERS[low])
    if _ROMAN.match(low) and low not in ("c", "l"):  # "Appendix C" is a letter, not 100
        values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
        total = 0
        for a, b in zip(low, low[1:] + " ", strict=True):
            total += -values[a] if b != " " and values[b] > values[a] else values[a]
        return str(total)
    return low


def bare_title(title: str) -> str:
    """A title as a request says it: without its number ("Item 1A.", "3.2") and its parentheses."""
    m = _NUMBERED.match(title)
    bare = title[m.end() :] if m and title[m.end() :].strip() else title
    return " ".join(re.sub(r"\([^)]*\)", " ", bare).split())


def next_part(parts: tuple[Part, ...], index: int) -> Part | None:
    """The part after ``parts[index]`` at its level or above: where it ends."""
    level = parts[index].level
    return next((p for p in parts[index + 1 :] if p.level <= level), None)


def _kind(title: str) -> str:
    bare = re.sub(r"[\"'“”‘’*]", "", title).strip()
    if _CONTENTS.match(bare):
        return "contents"
    if _INDEX.match(bare):
        return "index"
    if _APPENDIX.match(bare):
        return "appendix"
    if _FRONT.match(bare):
        return "front"
    return "body"


def _part(title: str, level: int, first: int, last: int, open_end: str = "") -> Part:
    title = " ".join(title.split())
    m = _NUMBERED.match(title)
    noun = (m.group("noun") or "").lower() if m else ""
    number = part_number(m.group("number")) if m else ""
    if not noun and re.search(r"\d[a-z]$", number):  # "3D Printing" is a title, not part 3d ("Item 1A" is)
        number = ""
    return Part(title, level, first, last, _kind(title), number, noun, open_end)


def _deeper(level: int, own: str | None, entry: tuple[int, str, int | None]) -> bool:
    return entry[0] > level and (not own or _lead(entry[1], True) in (None, own))


def _lead(title: str, dotted: bool = False) -> str | None:
    """The first number of a heading numbered with digits ("2" of "2.1.6 Change …", of "Chapter 2."), else None;
    ``dotted``: only of a number with parts ("2.1.6", not a note's "1.")."""
    m = _NUMBERED.match(title)
    number = m.group("number") if m else ""
    if not number[:1].isdigit() or (dotted and not re.fullmatch(r"\d+(?:\.\d+)+", number)):
        return None
    return number.split(".")[0]


def _ranges(entries: list[tuple[int, str, int | None]], page_count: int, by_numbers: bool = False) -> tuple[Part, ...]:
    """(level, title, page) in reading order → parts, each to the page before the next at its level or above.

    An entry without a page (an outline link to the web, a broken destination) still ends the part before it:
    where that part ends is then unknown (``Part.open_end``). ``by_numbers`` (headings read from the pages): a
    section numbered under another number ends a numbered part too ("2.1.6" after "Chapter 1", whose chapter 2
    heading was not read)."""
    parts: list[Part] = []
    for index, (level, title, page) in enumerate(entries):
        if page is None:
            continue
        own = _lead(title) if by_numbers else None
        after = next(
            (
                (lv, p)
                for lv, t, p in entries[index + 1 :]
                if lv <= level or (own and _lead(t, True) not in (None, own))
            ),
            None,
        )
        following = after[1] if after else None
        last = page_count if following is None else max(page, following - 1)
        # its own sections' pages are its pages: in two columns the next part may head a page its last section
        # is on ("III-C" beside "IV" on page 3)
        inside = itertools.takewhile(functools.partial(_deeper, level, own), entries[index + 1 :])
        last = max([last, *(p for _, _, p in inside if p is not None and p <= page_count)])
        unknown = after is not None and (following is None or following < page)  # no page, or out of order
        why = "the outline entry after it has no page" if unknown else ""
        parts.append(_part(title, level, page, last, open_end=why))
    return tuple(parts)


# Nouns whose numbers run in order (Item 1, 1A, 1B, 2 …; Part I, II …), so a number skipped is a heading not read
_IN_ORDER = ("item", "article", "part", "chapter")


def _gaps_open(parts: tuple[Part, ...], doc: Any) -> tuple[Part, ...]:
    """The parts whose next part at their level skips a number that the pages between them do print as a line's
    start ("Item 6" then "Item 7A", and page 19 starts a line with "Item 7."): that heading was not read, so where
    the part ends is not known ("Item 6" is not pages 18-31). A number a form leaves out (Part C, then Part G,
    with no "Part D" printed) is no gap."""
    out = list(parts)
    for index, part in enumerate(parts):
        if part.noun not in _IN_ORDER or not part.number or part.open_end:
            continue
        after = next_part(parts, index)
        if after is None or after.level != part.level or after.noun != part.noun:
            continue
        skipped = _successors(part.number)
        if not skipped or after.number in skipped:
            continue
        said = "|".join(re.escape(n) for n in sorted(skipped))
        line = re.compile(rf"^\s*{part.noun}\s+(?:{said})\b", re.IGNORECASE | re.MULTILINE)
        if any(line.search(doc[i].get_text()) for i in range(part.first - 1, min(after.first, doc.page_count))):
            out[index] = replace(part, open_end=f"{after.title} follows it; a heading between them was not read")
    return tuple(out)


_ROMANS = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv"]


def _successors(number: str) -> set[str]:
    """The numbers that may follow ``number`` (as :func:`part_number` writes them), as a page may print them: "6"
    → 6a, 7, vii; "1a" → 1b, 2, ii; "c" → d. Empty when no order is read ("2.10")."""
    m = re.fullmatch(r"(\d+)([a-z]?)", number)
    if m:
        n, letter = int(m.group(1)), m.group(2)
        nexts = {f"{n}{chr(ord(letter or '`') + 1)}", str(n + 1)}
        return nexts | ({_ROMANS[n]} if n < len(_ROMANS) else set())
    if re.fullmatch(r"[a-y]", number):
        return {chr(ord(number) + 1)}
    return set()


def read_parts(path: str, page_count: int | None) -> tuple[Part, ...]:
    """The parts of the PDF at ``path`` (empty when it has neither an outline nor headings, or cannot be read)."""
    if not page_count:
        return ()
    import pymupdf

    try:
        doc = pymupdf.open(path)
    except Exception:  # noqa: BLE001 - an unreadable file has no parts; its FileInfo already says why
        return ()
    with doc:
        if doc.needs_pass:
            return ()
        toc = [(int(lv), str(t).strip(), int(p)) for lv, t, p, *_ in doc.get_toc(simple=True)]
        entries = [(lv, t, p if 1 <= p <= page_count else None) for lv, t, p in toc if t]
        if any(p is not None for _, _, p in entries):
            return _with_contents(_lettered(_gaps_open(_ranges(entries, page_count), doc)), doc)
        if page_count > HEADINGS_MAX_PAGES:
            return ()
        from docpilot.understanding.structure import read_structure

        sections = read_structure(doc, path).sections
        # Sizes say little about levels across a file: every heading ends the part before it, except the headings
        # its number or noun shows are inside it ("2.1" in "2", "Item 1A" in "PART I"); shares_pages then checks
        # the pages of the part a request uses
        titled = [(t, s.page) for s in sections if (t := " ".join(s.title.split())) and not _CAPTION.match(t)]
        parts = _gaps_open(_unsure_ends(_ranges(_levelled(_unlisted(titled)), page_count, by_numbers=True)), doc)
        return _with_contents(_lettered(parts), doc)


# A table's or a figure's caption set like a heading ("Table 2: Cost structure 2023"): no part of the text
_CAPTION = re.compile(r"^(?:table|figure|fig\.|chart|graph)\s+\d+[a-z]?\s*(?:[:.–—-]|$)", re.IGNORECASE)
# Unnumbered headings of the back of a report stay parts of their own in a file that numbers its sections
_BACK = re.compile(
    r"^(?:references|bibliography|works\s+cited|literature|acknowledge?ments?|glossary|notes|endnotes|"
    r"literaturverzeichnis|bibliographie|r[ée]f[ée]rences)\b",
    re.IGNORECASE,
)
_NUMBERED_FILE = 3  # numbered top headings from which a file is read as numbering its sections


# A contents page's lines (and any listing's): a title, dot leaders, its page ("1.1 Topologische Räume . . . . . 6")
DOT_LEADER = re.compile(r"(?:\.\s?){4,}\s*(?:\d+|[ivxlc]+)\s*$", re.IGNORECASE)
_CONTENTS_SCAN = 20  # the first pages a table of contents is looked for on


def _with_contents(parts: tuple[Part, ...], doc: Any) -> tuple[Part, ...]:
    """``parts`` with the table of contents its outline leaves out, read from the pages before the first part: a
    page headed "Contents" ("Inhaltsverzeichnis", "Sommaire"…) or holding five or more dot-leader lines, and the
    pages after it that are headed so too or hold such lines (a German lecture script's contents on pages 4-5,
    its outline starting at chapter 1 on page 6)."""
    if not parts or any(p.kind == "contents" for p in parts):
        return parts
    before = min(p.first for p in parts)
    pages = [i for i in range(min(before - 1, _CONTENTS_SCAN, doc.page_count)) if _contents_page(doc[i], first=True)]
    if not pages:
        return parts
    first = last = pages[0] + 1
    while last < before - 1 and _contents_page(doc[last], first=False):
        last += 1
    top = min(p.level for p in parts)
    return (Part("Table of Contents", top, first, last, "contents", "", ""), *parts)


def _contents_page(page: Any, first: bool) -> bool:
    lines = [" ".join(line.split()) for line in page.get_text().splitlines() if line.strip()]
    headed = any(_CONTENTS.match(line) for line in lines[:4])
    leaders = sum(bool(DOT_LEADER.search(line)) for line in lines)
    return headed or leaders >= (5 if first else 2)


# Filings, statutes and contracts number their parts with nouns ("PART II", "Item 1A.", "Article 4", "Exhibit
# 31.1"): the noun says the level (a part holds items), and the headings without one between them are inside
_RANKS = {"part": 1, "teil": 1, "item": 2, "article": 2, "exhibit": 2, "schedule": 2}


def _lettered(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """The parts lettered A, B, C … at the top level after the last part numbered 1, 2, 3 … there: a paper's
    appendices ("A Distant Supervision" after "8 Conclusion" and the references), kind "appendix"."""
    top = min((p.level for p in parts), default=0)
    numbered = [i for i, p in enumerate(parts) if p.level == top and p.number.isdigit()]
    if len(numbered) < _NUMBERED_FILE:
        return parts
    after = parts[numbered[-1] + 1 :]
    letters = [p for p in after if p.level == top and re.fullmatch(r"[a-z]", p.number) and not p.noun]
    if not letters or letters[0].number != "a":
        return parts
    return tuple(replace(p, kind="appendix") if p in letters else p for p in parts)


def _unsure_ends(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """Read from headings, an unnumbered part followed by another heading at its level does not show where it
    ends (the headings inside it read at its level, and a table's header set in bold reads as a heading too):
    "Notes to … Financial Statements" is not page 8 alone because "1. Basis of Presentation" follows it there.
    Marked so; a request that uses its end is asked."""
    out = list(parts)
    for index, part in enumerate(parts):
        if part.kind != "body" or part.number or part.open_end:
            continue
        after = next_part(parts, index)
        if after is not None and after.level == part.level:
            out[index] = replace(part, open_end=f"its headings do not show it; {after.title} follows it")
    return tuple(out)


def _levelled(titled: list[tuple[str, int]]) -> list[tuple[int, str, int | None]]:
    """Each heading with its level: by the noun that numbers it where the file numbers two or more headings
    with one of :data:`_RANKS`'s nouns, else (and for the headings without one) by its number's depth."""
    nouns = [(m.group("noun") or "").lower() if (m := _NUMBERED.match(t)) else "" for t, _ in titled]
    used = {n for n in set(nouns) if n in _RANKS and nouns.count(n) >= 2}
    ranks = {n: 1 + sorted({_RANKS[u] for u in used}).index(_RANKS[n]) for n in used}
    below = max(ranks.values(), default=0)
    levels = [ranks.get(n) or below + _depth(t) for (t, _), n in zip(titled, nouns, strict=True)]
    numbered = [i for i, (t, _) in enumerate(titled) if (m := _NUMBERED.match(t)) and (m["noun"] or t[0].isdigit())]
    if len(numbered) >= _NUMBERED_FILE:
        # a file that numbers its sections: a bold line without a number after the first ("Cost item Share of
        # revenue", a table's header) is inside the section before it, not a section of its own that ends it
        current = None
        for index, (title, _) in enumerate(titled):
            if index in numbered:
                current = levels[index]
            elif _NUMBERED.match(title):
                continue  # lettered ("A Distant Supervision", an appendix) or roman: a level of its own
            elif current is not None and _kind(title) == "body" and not _BACK.match(title):
                levels[index] = current + 1
    return [(level, t, page) for level, (t, page) in zip(levels, titled, strict=True)]


def _unlisted(titled: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The headings less those of a listing ahead of the parts: a page where three or more headings stand that
    each come again on a later page (a filing's index of its parts is set like the parts' own headings)."""
    later: dict[str, int] = {}
    for title, page in titled:
        later[title.lower()] = max(page, later.get(title.lower(), 0))
    repeated: dict[int, int] = {}
    for title, page in titled:
        if later[title.lower()] > page:
            repeated[page] = repeated.get(page, 0) + 1
    return [(t, p) for t, p in titled if not (repeated.get(p, 0) >= 3 and later[t.lower()] > p)]


def _depth(title: str) -> int:
    """How deep a heading's number puts it: "3" and "III" 1, "3.2" and "III-A" 2, "2.3.59.1" 4."""
    m = _NUMBERED.match(title.strip())
    return 1 + len(re.findall(r"[.-]", m.group("number").rstrip("."))) if m else 1


def front_matter(parts: tuple[Part, ...]) -> Part | None:
    """The pages before the body: before the first top-level part that opens it (a numbered part, "Chapter …",
    "Part …", an introduction) after page 1; None when no such part says where the body starts."""
    top = min((p.level for p in parts), default=0)
    body = next(
        (
            p
            for p in parts
            if p.level == top
            and p.first > 1
            and p.kind == "body"
            and (p.number or re.match(r"^(?:chapter|part|introduction)\b", p.title, re.IGNORECASE))
        ),
        None,
    )
    if body is None:
        return None
    return Part("the front matter", top, 1, body.first - 1, "front", "", "")


def shares_pages(path: str, part: Part, after: Part | None) -> list[str]:
    """Why taking ``part``'s whole pages would take another part's text too ("… begins partway down page 5"),
    read from the pages; ``after`` is the next part at its level or above. Empty when its pages are its own."""
    import pymupdf

    reasons: list[str] = []
    with pymupdf.open(path) as doc:
        if _below_top(doc, part.first - 1, part.title):
            reasons.append(f"{part.title} begins partway down page {part.first}")
        if after is not None and after.first == part.last + 1 and _below_top(doc, after.first - 1, after.title):
            reasons.append(f"it runs onto page {after.first}, where {after.title} begins")
        elif after is not None and after.first == part.first:
            reasons.append(f"{after.title} begins on the same page")
        elif after is not None and after.first == part.last:  # its last section is on the page the next opens
            reasons.append(f"{after.title} begins on page {after.first}, its last page")
    return reasons


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).lower())  # "Grundbegriﬀe": ligatures


def _top_lines(page: Any) -> set[tuple[str, ...]]:
    """The words (numbers left out) of the blocks in a page's top band: what a running header says."""
    band = page.rect.height * 0.1
    return {
        tuple(w for w in _words(b[4]) if not w.isdigit()) for b in page.get_text("blocks", sort=True) if b[1] < band
    }


_RUN_ON_WORDS = 15  # a block this long in the top band is text run on from the page before, not a note


def _below_top(doc: Any, index: int, title: str) -> bool:
    """Whether body text stands above ``title`` on page ``index`` (0-based); a running header (the same words at
    the top of the page before or after it) does not count. A title not found on the page is read as below the
    top (the page cannot show that the part starts there)."""
    page = doc[index]
    m = _NUMBERED.match(title)
    wanted = _words(title[m.end() :] if m and title[m.end() :].strip() else title)[:3]
    if not wanted:
        return True
    headers: set[tuple[str, ...]] = set()
    for near in (index - 1, index + 1):
        if 0 <= near < doc.page_count:
            headers |= _top_lines(doc[near])
    band = page.rect.height * 0.1
    above = 0
    for _x0, y0, _x1, _y1, text, *_ in page.get_text("blocks", sort=True):
        said = _words(text)
        if y0 < band and tuple(w for w in said if not w.isdigit()) in headers:
            continue  # the running header
        if any(said[i : i + len(wanted)] == wanted for i in range(len(said))):
            return above > 6
        # a note in the top band ("to navigate this PDF, use the bookmark bar") is no body text; a sentence run on
        # from the page before ("goods in an unlawful or unethical manner, …") is
        if y0 >= band or text.lstrip()[:1].islower() or len(said) >= _RUN_ON_WORDS:
            above += len(said)
    return True
