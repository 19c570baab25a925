"""Pages named by the document's structure: "chapter 3", "section 2.10", "the chapter on catalogs", "the table of
contents", "the index at the back", "the appendices", "everything before chapter 1", "the front matter".

A structure reference is a page reference of its own kind: it binds to the page ranges of the file's own parts
(:attr:`docpilot.files.FileInfo.parts`, from its outline or its headings) and the clause is then read as if it said
those pages ("delete the index" → "delete pages 339-352"), so the plan, its explanation and its words show the
pages. A reference that fits several parts, or none, or whose pages hold another part's text too, is a question
with the candidates — never a guess. References are read only after a verb that acts on pages.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import replace

from docpilot.fileparts import Part, bare_title, front_matter, next_part, part_number, shares_pages
from docpilot.files import FileInfo
from docpilot.planning.fastpath.rules import NeedInfo
from docpilot.planning.fastpath.spans import is_filler
from docpilot.printedparts import printed_parts

__all__ = ["told_by_parts", "told_by_titles", "pages_told"]

_NUMS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|" + (
    "seventeen|eighteen|nineteen|twenty"
)
_NUM = rf"(?:\d+(?:[A-Za-z]\b)?(?:\.\d+)*|(?-i:[IVXLC]+(?:-[A-Z])?|[ivxlc]+(?:-[a-z])?)\b|(?-i:[A-Z])\b|(?:{_NUMS})\b)"
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "last": -1, "final": -1,
}  # fmt: skip
_ORD = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final|\d+(?:st|nd|rd|th))"
_NOUN = r"(?:chapter|section|part|appendix|annexe?|item|article|exhibit|kapitel|chapitre|abschnitt|anhang)"
_TITLE_END = r"(?=\s*(?:[,.;!?]|$)|\s+(?:and|then|from|of|in|into|as|to|please|too|also|out)\b)"
_WORDS = r"(?:⟦\d+⟧|[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,4}?)"
_REF = re.compile(
    r"(?:(?P<around>everything|all(?:\s+(?:of\s+)?the)?\s+pages|(?:the\s+)?pages|what(?:ever)?\s+comes|"
    r"(?:all\s+(?:of\s+)?)?(?:the\s+)?(?:[a-z]+\s+)?(?:stuff|material|bits|content))\s+"
    r"(?P<side>before|after|preceding|following|up\s+to)\s+)?"
    r"(?:"
    r"(?P<contents>(?:the\s+)?(?:table\s+of\s+contents|contents\s+pages?|toc)(?:\s+pages?)?)"
    r"|(?P<index>(?:the\s+)?index(?:\s+pages?)?(?:\s+(?:at|in)\s+the\s+(?:back|end)(?:\s+of\s+(?:the|this|it)"
    r"(?:\s+(?:book|document|file|manual|pdf))?)?)?)"
    r"|(?P<front>(?:the\s+|all\s+the\s+)?(?:front\s+matter|preliminary\s+pages|prelims))"
    r"|(?P<appendices>(?:all\s+(?:of\s+)?)?(?:the\s+)?(?:appendices|appendixes|annexes)|the\s+(?P<appendix>appendix)"
    r"(?!\s+(?:\d|(?-i:[A-Z])\b|[ivxlc]+\b|on\b|about\b|called\b|titled\b|entitled\b|named\b|headed\b)))"
    r"|(?:the\s+)?(?P<noun>chapters?|ch\.|sections?|parts?|appendix|annexe?|items?|articles?|exhibits?|kapitel|chapitre|"
    rf"abschnitt|anhang)\s+(?P<num>{_NUM}"
    rf"(?:\s*(?:-|–|to|through|and|&|,)\s*(?:{_NOUN}s?\s+)?{_NUM})*)"
    rf"|the\s+(?P<ord>{_ORD})\s+(?P<onoun>chapter|section|part|appendix)"
    rf"|(?:the\s+)?(?P<tnoun>{_NOUN})\s+(?:on|about|called|titled|entitled|named|headed)\s+(?P<title>{_WORDS}){_TITLE_END}"
    rf"|the\s+(?P<title2>{_WORDS})\s+(?P<tnoun2>{_NOUN})\b(?!\s+{_NUM})"  # ("the text of Part II": part II)
    r"|the\s+(?P<named>preface|foreword|introduction|conclusions?|afterword|epilogue|prologue|acknowledge?ments|"
    r"glossary|bibliography)"
    r"|(?:the\s+)?(?P<cap>table|figure|fig\.)\s*(?P<capnum>\d+(?:\.\d+)?)"
    r")(?![\w-])",
    re.IGNORECASE,
)
# Verbs that act on whole pages: a structure reference after one of them names pages
_PAGE_VERB = re.compile(
    r"\b(?:delete|remove|drop|cut|lose|ditch|strip|get\s+rid\s+of|take\s+out|throw\s+away|bin|extract|pull\s+out|"
    r"pull|keep|save|split|separate|rotate|turn|convert|export|give\s+me|send\s+me|copy|summari[sz]e|ocr|"
    r"just\s+want|only\s+want|need|want|make\s+(?:a|me\s+a)\s+(?:new\s+)?(?:pdf|file|document)\s+(?:of|from|with))\b",
    re.IGNORECASE,
)
_CHANGE_VERB = re.compile(
    r"\b(?:delete|remove|drop|cut|lose|ditch|strip|rid|take|throw|bin|erase|blank|redact|black|white|split|"
    r"separate|move|reorder|replace|rotate|turn|crop|insert|stamp|watermark|highlight|underline)\b",
    re.IGNORECASE,
)
_MARKS = re.compile(
    r"\b(?:highlight|underline|strike|redact|black\s+out|stamp|watermark|comment|search|find|look)\w*", re.IGNORECASE
)
_WHERE = re.compile(r"\b(?:in|within|throughout|search|searching)\s+$", re.IGNORECASE)
_CLAUSE_START = re.compile(r"[.;!?]\s+|,\s*(?:then|and\s+then)\s+|\bthen\s+")
# A question's choice given back as the answer (Conversation adds ", in <choice>" to the request)
_PICKED = re.compile(r",\s+in\s+[^,]*?\((?:pages?)\s+(?P<pages>\d+(?:-\d+)?)\)\s*$")
_STOP = {"the", "a", "an", "of", "on", "about", "and", "for", "to", "in", "with", "that", "this", "it"}


def _clause_start(text: str, at: int) -> int:
    """Where the clause holding ``at`` starts."""
    starts = [m.end() for m in _CLAUSE_START.finditer(text, 0, at)]
    return starts[-1] if starts else 0


def _copies(text: str, at: int) -> bool:
    """Whether the clause of the reference at ``at`` leaves the pages as they are (copies, reads or converts them):
    then a part's whole pages are taken, the pages it shares with another part too, as a reader would; to
    delete, stamp, rotate or split pages, a page another part shares is asked about."""
    return _CHANGE_VERB.search(text, _clause_start(text, at), at) is None


def _acted_on(text: str, at: int) -> bool:
    """Whether the reference at ``at`` names pages to act on: after a verb that acts on pages in its clause, or
    as where to act ("highlight napster in the Harms chapter", "search Item 7A for …")."""
    start = _clause_start(text, at)
    if _PAGE_VERB.search(text, start, at) is not None:
        return True  # (where to act, only after a verb that acts: "which year is highest in table 2?" asks)
    return _WHERE.search(text, 0, at) is not None and _MARKS.search(text, start, at) is not None


def told_by_parts(
    text: str, quotes: Sequence[str], files: dict[str, FileInfo], pdfs: Sequence[str], anywhere: bool = False
) -> str:
    """``text`` with each structure reference after a page verb (``anywhere``: wherever it stands) written
    as the pages it binds to.

    Raises:
        NeedInfo: a reference that fits several parts or none, pages another part shares, or several files.
    """
    found: list[re.Match[str]] = []
    for m in _REF.finditer(text):
        said_again = bool(found) and _PAREN.fullmatch(text, found[-1].end(), m.start()) is not None  # "(ch. 13)"
        if anywhere or said_again or _acted_on(text, m.start()):
            found.append(m)
    if not found:
        return told_by_titles(text, files, pdfs)
    picked = _PICKED.search(text)
    if picked and len(found) == 1:  # the answer to a question asked: "…, in 3: Catalogs (pages 62-66)"
        m = found[0]
        return text[: m.start()] + f"pages {picked.group('pages')}" + text[m.end() : picked.start()]
    if len(pdfs) != 1:
        what = found[0].group(0)
        raise NeedInfo(f"Which file's {_bare(what)} do you mean?", list(pdfs))
    info = files[pdfs[0]]
    out = text
    index = len(found) - 1
    while index >= 0:
        m = found[index]
        start, end, ranges = m.start(), m.end(), None
        outer = found[index - 1] if index > 0 else None
        if outer is not None and _PAREN.fullmatch(text, outer.end(), m.start()) and _CLOSE.match(text, m.end()):
            # "the Eldred chapter (ch. 13)": one part said twice; the one that binds alone says which
            ranges = _either(outer, m, quotes, info, _copies(text, outer.start()))
            start, end, index = outer.start(), _CLOSE.match(text, m.end()).end(), index - 1  # type: ignore[union-attr]
        if ranges is None:
            try:
                ranges = _bind(m, quotes, info, _copies(text, m.start()))
            except NeedInfo:
                glossed = _glossed_part(text, end, info)  # "the solutions section (Lösungen der Übungsaufgaben)"
                if glossed is None:
                    raise
                part, end = glossed
                ranges = [_clean(info, part, _after_of(info, part), _copies(text, m.start()))]
        pages = _pages_said(ranges)
        where = _PLACE.search(text, 0, start) if not m.group("around") else None
        if where is not None:  # "a blank page after the table of contents": after its last page, not its pages
            side = "first" if where.group("first") else "last"
            pages = f"page {ranges[0][0] if side == 'first' else ranges[-1][1]}"
        if m.group("cap"):  # "table 1" → "the table on page 3": what is on the page stays said
            pages = f"the {'figure' if m.group('cap').lower().startswith('fig') else 'table'} on {pages}"
        out = out[:start] + pages + out[end:]
        index -= 1
    return out


_PAREN = re.compile(r"\s*\(\s*")
# a place in the file named by a part: after its last page, before (or starting at) its first
_PLACE = re.compile(
    r"\b(?:(?:right|just|directly|immediately)\s+)?(?:(?P<last>after|behind|following)|(?P<first>before|ahead\s+of|"
    r"in\s+front\s+of|starts?\s+(?:right\s+)?(?:at|with)|begins?\s+(?:right\s+)?(?:at|with)))\s+$",
    re.IGNORECASE,
)
_CLOSE = re.compile(r"\s*\)")
_QUOTES_AND_REFS = re.compile(r"⟦\d+⟧|⟪\d+⟫")
_OPENED = re.compile(r"\(\s*$")  # an opening parenthesis right before a title
_GLOSS = re.compile(r"\s*\(([^()]{3,120})\)")  # a title in parentheses after what names it


def _glossed_part(text: str, at: int, info: FileInfo) -> tuple[Part, int] | None:
    """The one part whose whole title stands in parentheses right after ``at`` ("… section (Lösungen der
    Übungsaufgaben)"), with where the parentheses close; or None."""
    m = _GLOSS.match(text, at)
    if m is None:
        return None
    words = tuple(w for w in (_token(x) for x in _TOKEN.findall(m.group(1))) if w not in _STOP)
    found = [p for p in info.parts if words and _title_words(p.title) == words]
    return (found[0], m.end()) if len({(p.first, p.last) for p in found}) == 1 else None


def _either(
    outer: re.Match[str], inner: re.Match[str], quotes: Sequence[str], info: FileInfo, whole: bool
) -> list[tuple[int, int]]:
    """The pages of a part named twice, the second in parentheses: those both bind to, or those of the one that
    binds when the other fits several parts ("the Eldred chapter (ch. 13)": chapters 13 and 14 are "Eldred" and
    "Eldred II"). A part the two name differently, or that neither binds, is asked about."""
    bound: list[list[tuple[int, int]]] = []
    asked: list[NeedInfo] = []
    for m in (inner, outer):
        try:
            bound.append(_bind(m, quotes, info, whole))
        except NeedInfo as exc:
            asked.append(exc)
    if len(bound) == 2 and bound[0] != bound[1]:
        raise NeedInfo(
            f"{_cap(_bare(outer.group(0)))} and {_bare(inner.group(0))} are different parts of {info.name} "
            f"({_pages_said(bound[1])}; {_pages_said(bound[0])}). Which one?"
        )
    if not bound:
        raise asked[0]
    # the one that binds must be one of those the other fits ("the Eldred chapter (ch. 3)" is no Eldred chapter)
    candidates = asked[0].choices if asked else []
    if candidates and not any(f"({_pages_said(bound[0])})" in choice for choice in candidates):
        raise asked[0]
    return bound[0]


def told_by_titles(text: str, files: dict[str, FileInfo], pdfs: Sequence[str]) -> str:
    """``text`` with each part named by its own title written as its pages: "save the signatures page as a jpeg"
    → "save page 76 as a jpeg" in a 10-K whose page 76 is headed SIGNATURES; "I need the notes to the condensed
    consolidated financial statements" → "I need pages 8-14". The file's titles are the vocabulary, so no
    phrasing is listed. A title is named when the request says all of its words in order (its number and a
    parenthesis aside) and either it has two words or more, or it stands before "section", "chapter", "page" …,
    or it is typed with a capital and is no word of the tools; and when it names pages to act on (after a verb
    that acts on pages, as where to act, or before such a noun): "redact the Board of Directors names" names no
    pages. A clause that names a part by number ("section 3, Trace Trees") is read by that. Quoted text (⟦n⟧) is
    never a title.

    Raises:
        NeedInfo: a title that fits parts with other pages, or pages another part shares (see :func:`_clean`).
    """
    if len(pdfs) != 1 or not files[pdfs[0]].parts:
        return text
    info = files[pdfs[0]]
    tokens = [(m.start(), m.end(), _token(m.group(0))) for m in _TOKEN.finditer(text)]
    content = [t for t in tokens if t[2] not in _STOP]
    titled: dict[tuple[str, ...], list[Part]] = {}
    for part in info.parts:
        titled.setdefault(_title_words(part.title), []).append(part)
    spans: list[tuple[int, int, list[Part]]] = []
    for size in (6, 5, 4, 3, 2, 1):
        for i in range(len(content) - size + 1):
            words = tuple(t[2] for t in content[i : i + size])
            start, end = content[i][0], content[i + size - 1][1]
            if any(a < end and start < b for a, b, _ in spans):
                continue
            parts = titled.get(words, [])
            if not parts:
                continue
            noun = _AFTER_TITLE.match(text, end)
            typed = text[start:end]
            if size == 1 and not noun and not (typed[:1].isupper() and len(typed) > 4 and not is_filler(typed)):
                continue
            glossed = _OPENED.search(text, 0, start) is not None and _CLOSE.match(text, end) is not None
            if not (noun or glossed or _acted_on(text, start)) or _REF.search(_clause_of(text, start)):
                continue  # (a title in parentheses glosses what the request names: "the symbols (Symbolverzeichnis)")
            before = re.search(r"\bthe\s+$", text[:start], re.IGNORECASE)
            spans.append((before.start() if before else start, noun.end() if noun else end, parts))
    out = text
    for start, end, parts in sorted(spans, reverse=True):
        said = text[start:end].strip()
        part = _one(repr(said), parts, info.parts, info)[0]
        if re.search(r"\bpage$", said, re.IGNORECASE):  # "the signatures page": the page it opens on
            part = replace(part, last=part.first, open_end="")
        pages = [_clean(info, part, _after(info.parts, part), _copies(text, start))]
        out = out[:start] + _pages_said(pages) + out[end:]
    return out


_TOKEN = re.compile(r"⟦\d+⟧|[^\W_]+(?:['’][^\W_]+)*")
_AFTER_TITLE = re.compile(r"\s+(?:sections?|chapters?|parts?|pages?|appendix|annexe?|statements?)\b", re.IGNORECASE)


def _token(word: str) -> str:
    low = unicodedata.normalize("NFKC", word).lower()
    low = re.sub(r"['’]s$", "", low)
    return low[:-1] if len(low) > 3 and low.endswith("s") and not low.endswith("ss") else low


def _title_words(title: str) -> tuple[str, ...]:
    """A title's words as a request would say them: its number, a parenthesis and small words aside."""
    return tuple(w for w in (_token(x) for x in _TOKEN.findall(bare_title(title))) if w not in _STOP)


def _clause_of(text: str, at: int) -> str:
    end = _CLAUSE_START.search(text, at)
    return text[_clause_start(text, at) : end.start() if end else len(text)]


def pages_told(request: str, files: dict[str, FileInfo], quoted: re.Pattern[str]) -> str:
    """The request as the model is to read it: each structure reference, wherever it stands, written as
    the pages it binds to ("highlight Disney in chapter one" → "highlight Disney in pages 35-44"), so
    the model never works out a part's pages itself; the rest of the words as they were. ``quoted``
    finds quoted texts (group 2), which may name a part ("the 'Catalogs' chapter").

    Raises:
        NeedInfo: as :func:`told_by_parts`.
    """
    pdfs = [n for n, i in files.items() if i.kind == "pdf"]
    if not pdfs or not any(files[n].parts for n in pdfs):
        return request
    quotes: list[str] = []
    spans: list[str] = []

    def mark(match: re.Match[str]) -> str:  # as the fast path marks them: ⟦n⟧ for the quoted span
        quotes.append(match.group(2))
        spans.append(match.group(0))
        return f"⟦{len(quotes) - 1}⟧"

    names: list[str] = []  # a file's name says no part ("with the name invoice_1001_backup.pdf")

    def set_aside(match: re.Match[str]) -> str:
        names.append(match.group(0))
        return f"⟪{len(names) - 1}⟫"

    told = told_by_parts(_FILE_NAME.sub(set_aside, quoted.sub(mark, request)), quotes, files, pdfs, anywhere=True)
    told = re.sub(r"⟪(\d+)⟫", lambda m: names[int(m.group(1))], told)
    return re.sub(r"⟦(\d+)⟧", lambda m: spans[int(m.group(1))], told)


_FILE_NAME = re.compile(r"(?<![\w.])[\w-]+\.(?:pdf|docx?|pptx?|xlsx?|md|txt|png|jpe?g|tiff?)\b", re.IGNORECASE)


def _bare(said: str) -> str:
    return re.sub(r"^(?:the|all(?:\s+of)?(?:\s+the)?)\s+", "", said.strip(), flags=re.IGNORECASE)


def _pages_said(ranges: list[tuple[int, int]]) -> str:
    spec = ",".join(f"{a}-{b}" if b > a else str(a) for a, b in ranges)
    return f"pages {spec}" if len(ranges) > 1 or ranges[0][1] > ranges[0][0] else f"page {spec}"


def _bind(m: re.Match[str], quotes: Sequence[str], info: FileInfo, whole: bool) -> list[tuple[int, int]]:
    """The page ranges a reference binds to; ``whole``: the pages a part shares with another are taken with it
    (to read or copy them, not to delete them)."""
    if m.group("cap"):
        return [_captioned(m.group("cap"), m.group("capnum"), info)]
    parts = info.parts
    said = m.group(0)
    what = _bare(said if not m.group("around") else said[m.start("side") - m.start() :].split(None, 1)[-1])
    chosen = _chosen(m, quotes, parts, what, info)
    side = (m.group("side") or "").lower()
    if side in ("before", "preceding", "up to"):
        first = min(p.first for p in chosen)
        if first <= 1:
            raise NeedInfo(f"{_cap(what)} starts on page 1 of {info.name}: nothing comes before it.")
        _check_clean(info, chosen[0], None, start_only=True)
        return [(1, first - 1)]
    if side in ("after", "following"):
        last = max(p.last for p in chosen)
        if last >= (info.pages or last):
            raise NeedInfo(f"{_cap(what)} runs to the end of {info.name}: nothing comes after it.")
        _check_clean(info, chosen[-1], _after_of(info, chosen[-1]), end_only=True)
        return [(last + 1, info.pages or last + 1)]
    ranges = []
    for run in _runs(chosen, info):
        head, tail = run[0], run[-1]
        if head.kind == "front" and head.title == "the front matter":
            ranges.append((head.first, head.last))
            continue
        joined = replace(head, last=max(p.last for p in run), open_end=tail.open_end) if len(run) > 1 else head
        ranges.append(_clean(info, joined, _after_of(info, tail), whole))
    return _merged(ranges)


def _runs(chosen: list[Part], info: FileInfo) -> list[list[Part]]:
    """``chosen`` in runs of parts one after the other (appendices A to D, chapters 2 and 3): the pages they share
    with each other are theirs; only a run's edges are checked against the parts around it."""
    runs: list[list[Part]] = []
    for part in chosen:
        if runs and _after_of(info, runs[-1][-1]) == part:
            runs[-1].append(part)
        else:
            runs.append([part])
    return runs


def _captioned(noun: str, number: str, info: FileInfo) -> tuple[int, int]:
    """The page whose caption starts "Table 3" ("Figure 3", "Fig. 3") and a stop or the line's end ("Table 3:
    Revenue", "TABLE 3"), else whose line starts so at all (prose says "Table 3 shows …"); a question when no page
    or several pages do (a list of tables names them all)."""
    import pymupdf

    word = r"(?:figure|fig\.)" if noun.lower().startswith("fig") else "table"
    said = rf"^\s*{word}\s*{re.escape(number)}(?![\d.]\d)"
    caption = re.compile(said + r"\s*(?:[.:|–—-]|$)", re.IGNORECASE | re.MULTILINE)
    line = re.compile(said + r"(?:\s|$)", re.IGNORECASE | re.MULTILINE)
    with pymupdf.open(info.path) as doc:
        texts = [doc[i].get_text() for i in range(doc.page_count)]
    pages = [i + 1 for i, t in enumerate(texts) if caption.search(t)] or [
        i + 1 for i, t in enumerate(texts) if line.search(t)
    ]
    what = f"{'Figure' if 'fig' in word else 'Table'} {number}"
    if len(pages) == 1:
        return (pages[0], pages[0])
    if not pages:
        raise NeedInfo(f"I cannot find {what} in {info.name}: no caption on its pages starts with it. Which pages?")
    shown = [f"page {p}" for p in pages[:8]]
    raise NeedInfo(
        f"{what} is named at the start of a line on several pages of {info.name}: {', '.join(shown)}. Which one?", shown
    )


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _after(parts: tuple[Part, ...], part: Part) -> Part | None:
    return next_part(parts, parts.index(part)) if part in parts else None


def _clean(info: FileInfo, part: Part, after: Part | None, whole: bool) -> tuple[int, int]:
    """The pages of ``part``: its own, or (``whole``) every page it has text on, the one it runs onto too."""
    if whole and not part.open_end:
        reasons = shares_pages(info.path, part, after)
        runs_on = after is not None and any(f"runs onto page {after.first}," in r for r in reasons)
        return (part.first, after.first if runs_on and after is not None else part.last)
    _check_clean(info, part, after)
    return (part.first, part.last)


def _check_clean(
    info: FileInfo, part: Part, after: Part | None, start_only: bool = False, end_only: bool = False
) -> None:
    if part.open_end and not start_only:
        raise NeedInfo(
            f"{info.name} does not show where {part.title} ends ({part.open_end}). "
            f"Which pages do you mean? It starts on page {part.first}."
        )
    reasons = shares_pages(info.path, part, None if start_only else after)
    if end_only:
        reasons = [r for r in reasons if not r.startswith(part.title)]
    if not reasons:
        return
    with_shared = f"pages {part.first}-{part.last}" if part.last > part.first else f"page {part.first}"
    raise NeedInfo(
        f"In {info.name}, {'; '.join(reasons)}: whole pages would take text of another part too. "
        f"Say which pages to use (e.g. {with_shared}).",
    )


def _chosen(m: re.Match[str], quotes: Sequence[str], parts: tuple[Part, ...], what: str, info: FileInfo) -> list[Part]:
    if m.group("contents"):
        return _one(what, [p for p in parts if p.kind == "contents"], parts, info)
    if m.group("index"):
        return _one(what, [p for p in parts if p.kind == "index"], parts, info)
    if m.group("front"):
        front = front_matter(parts)
        return _one(what, [front] if front else [], parts, info)
    if m.group("appendices"):
        appendices = [p for p in parts if p.kind == "appendix"]
        if not appendices:  # printed as headings, not in the outline ("Annexe A" on page 31, "Annexe B" on 56)
            appendices = [p for p in _printed_of(info, "appendix") if p.noun in ("appendix", "annex", "annexe")]
        top = min((p.level for p in appendices), default=0)
        chosen = [p for p in appendices if p.level == top]
        if m.group("appendix") and len(_merged([(p.first, p.last) for p in chosen])) > 1:
            return _one(what, chosen, parts, info)  # "the appendix" of several apart: which one
        return _some(what, chosen, parts, info)  # (the appendix: A to D, one after the other)
    if m.group("noun"):
        noun = m.group("noun").lower().rstrip("s")
        numbers = re.findall(_NUM, re.sub(rf"\b{_NOUN}s?\b", " ", m.group("num"), flags=re.I), flags=re.I)
        spans = re.search(r"\d\s*(?:-|–|to|through)\s*\S", m.group("num"))
        noun = _SAME_NOUN.get(noun, noun)
        said = _QUOTES_AND_REFS.sub(" ", m.string)  # the request's other words may say which ("the statements")
        picked = [
            _one(f"{noun} {n}", _numbered(noun, n, parts) or _printed(info, noun, n), parts, info, said)[0]
            for n in numbers
        ]
        if spans and len(picked) == 2:  # "chapters 3 to 5": every part in between too
            between = [p for p in parts if picked[0].first <= p.first and p.last <= picked[1].last]
            return [p for p in between if p.level == picked[0].level] or picked
        return picked
    if m.group("ord"):
        chapters = _chapters(m.group("onoun").lower(), parts)
        word = m.group("ord").lower()
        n = _ORDINALS.get(word) or int(re.sub(r"\D", "", word) or 0)
        if not chapters or n == 0 or n > len(chapters):
            return _one(what, [], parts, info)
        return [chapters[n - 1 if n > 0 else -1]]
    if m.group("title") or m.group("title2"):
        raw = m.group("title") or m.group("title2")
        title = quotes[int(raw[1:-1])] if raw.startswith("⟦") else raw
        noun = (m.group("tnoun") or m.group("tnoun2")).lower()
        return _one(what, _titled(title, noun, parts), parts, info)
    named = m.group("named").lower()
    return _one(what, _titled(named, "", parts), parts, info)


# a part's noun as other languages say it
_SAME_NOUN = {
    "kapitel": "chapter", "chapitre": "chapter", "abschnitt": "section", "anhang": "appendix", "ch.": "chapter",
}  # fmt: skip


def _printed_of(info: FileInfo, kind: str) -> tuple[Part, ...]:
    skip = tuple((p.first, p.last) for p in info.parts if p.kind == "contents")
    return printed_parts(info.path, kind, skip)


def _printed(info: FileInfo, noun: str, number: str) -> list[Part]:
    """The part a request names by noun and number that the outline leaves out, as the file prints its heading
    (:mod:`docpilot.printedparts`): an appendix, annex or exhibit by its letter or number, a section by a dotted
    number."""
    n = part_number(number)
    if noun in ("appendix", "annex", "annexe", "exhibit", "schedule"):
        same = ("appendix", "annex", "annexe", "anhang") if noun != "exhibit" and noun != "schedule" else (noun,)
        return [p for p in _printed_of(info, "appendix") if p.noun in same and p.number == n]
    if noun == "section" and "." in n:
        return [p for p in _printed_of(info, "section") if p.number == n]
    return []


def _after_of(info: FileInfo, part: Part) -> Part | None:
    """The part after ``part``: in the file's parts, or among the printed headings it was found in."""
    if part in info.parts:
        return _after(info.parts, part)
    for kind in ("appendix", "section"):
        printed = _printed_of(info, kind)
        if part in printed:
            return _after(printed, part)
    return None


def _one(what: str, candidates: list[Part], parts: tuple[Part, ...], info: FileInfo, said: str = "") -> list[Part]:
    """The one part of ``candidates``; of several, the one whose title's own words the request says besides
    (``said``: "the financial statements (Item 1)" of a 10-Q with an Item 1 in each part); else a question."""
    if len({(p.first, p.last) for p in candidates}) > 1 and said:
        told = set(_title_words(said))
        named = [p for p in candidates if (own := set(_title_words(p.title)) - {part_number(p.number)}) and own <= told]
        candidates = named if len({(p.first, p.last) for p in named}) == 1 else candidates
    if len({(p.first, p.last) for p in candidates}) == 1:  # several entries, the same pages: no doubt about them
        return [candidates[0]]
    if candidates:
        choices = [p.describe() for p in candidates[:8]]
        raise NeedInfo(f"More than one part of {info.name} fits {what!r}: {'; '.join(choices)}. Which one?", choices)
    return _none(what, parts, info)


def _some(what: str, candidates: list[Part], parts: tuple[Part, ...], info: FileInfo) -> list[Part]:
    return candidates if candidates else _none(what, parts, info)


def _none(what: str, parts: tuple[Part, ...], info: FileInfo) -> list[Part]:
    if not parts:
        raise NeedInfo(
            f"I cannot find {what!r} in {info.name}: it has no outline (bookmarks) and no headings I can read. "
            "Which pages do you mean?"
        )
    top = min(p.level for p in parts)
    choices = [p.describe() for p in parts if p.level == top][:8]
    raise NeedInfo(f"I cannot find {what!r} in {info.name}. Its parts: {'; '.join(choices)}. Which pages?", choices)


def _chapters(noun: str, parts: tuple[Part, ...]) -> list[Part]:
    """The parts a noun counts: chapters are the parts called "Chapter N", else the integer-numbered parts at the
    level they start at (a book's "2: Mere Copyists" beside "Chapter 1: Creators")."""
    if noun in ("appendix", "annex", "annexe"):
        return [p for p in parts if p.kind == "appendix"]
    called = [p for p in parts if p.noun == noun]
    numbered = [p for p in parts if p.number.isdigit() and p.noun in ("", noun) and p.kind == "body"]
    level = min((p.level for p in called or numbered), default=0)
    if noun == "chapter":
        return [p for p in parts if p.level == level and (p.noun == "chapter" or p in numbered)]
    if noun == "part":
        return called or [p for p in parts if p.level == min((q.level for q in parts), default=0)]
    return called or numbered


def _numbered(noun: str, number: str, parts: tuple[Part, ...]) -> list[Part]:
    n = part_number(number)
    if noun == "section":
        found = [p for p in parts if p.number == n and p.kind != "appendix"]
        called = [p for p in found if p.noun == "section"]
        return called or found
    return [p for p in _chapters(noun, parts) if p.number == n]


def _stems(text: str) -> list[str]:
    words = re.findall(r"[^\W_]+", text.lower())
    return [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words if w not in _STOP]


def _titled(title: str, noun: str, parts: tuple[Part, ...]) -> list[Part]:
    wanted = _stems(title)
    if not wanted:
        return []
    found = [p for p in parts if all(any(t.startswith(w) for t in _stems(p.title)) for w in wanted)]
    if noun in ("chapter", "part", "appendix", "annex", "annexe"):  # "the PROPERTY part": the part, not chapter 10
        kinds = _chapters(noun, parts)
        return [p for p in found if p in kinds] or found
    return found
