"""Searching and marking up text: search, highlight, underline, strike out, comments, annotations.

Text is found the way a reader sees it (ligatures, line breaks, hyphenation, any case;
see :mod:`pdftools.textmatch`). A match broken across lines is one annotation with one
quad per line.
"""

from __future__ import annotations

from typing import Any, Literal

import pymupdf

from ._marking import NoMatchError, locate
from .colors import Color, parse_color
from .docio import open_pdf, write_pdf
from .entity_kinds import Kinds
from .errors import ToolArgumentError
from .pages import Pages, describe_pages, parse_pages
from .paths import output_path
from .registry import generic_answer, tool
from .textmatch import Targets, find_matches, page_text
from .words import Words

__all__ = [
    "search_text",
    "highlight_text",
    "underline_text",
    "strikeout_text",
    "add_comment",
    "read_annotations",
    "delete_annotations",
]

MAX_LISTED = 200  # matches listed by search_text; the count and pages are always complete

Terms = str | list[str] | None
Categories = Kinds
Position = Literal["top-left", "top-right", "bottom-left", "bottom-right", "center"]

# Friendly names for annotation types (read_annotations / delete_annotations).
_TYPE_NAMES = {
    "comment": "Text",
    "comments": "Text",
    "note": "Text",
    "notes": "Text",
    "sticky note": "Text",
    "sticky notes": "Text",
    "text": "Text",
    "highlight": "Highlight",
    "highlights": "Highlight",
    "underline": "Underline",
    "underlines": "Underline",
    "strikeout": "StrikeOut",
    "strike out": "StrikeOut",
    "strikethrough": "StrikeOut",
    "strikeouts": "StrikeOut",
    "squiggly": "Squiggly",
    "free text": "FreeText",
    "freetext": "FreeText",
    "text box": "FreeText",
    "stamp": "Stamp",
    "stamps": "Stamp",
    "ink": "Ink",
    "drawing": "Ink",
    "square": "Square",
    "rectangle": "Square",
    "circle": "Circle",
    "line": "Line",
    "polygon": "Polygon",
    "polyline": "PolyLine",
    "file attachment": "FileAttachment",
    "attachment": "FileAttachment",
    "redact": "Redact",
    "caret": "Caret",
    "sound": "Sound",
}
_KNOWN_TYPES = sorted(set(_TYPE_NAMES.values()))


def _page_list(pages: list[int]) -> str:
    """'page 3', 'pages 1, 2 and 5' for 1-based page numbers."""
    if not pages:
        return "no pages"
    words = [str(p) for p in pages]
    return f"page {words[0]}" if len(words) == 1 else "pages " + ", ".join(words[:-1]) + " and " + words[-1]


def _search_text_answer(value: Any) -> str:
    if not isinstance(value, dict):
        return generic_answer(value)
    count = value.get("count", 0)
    if not count:
        return "No matches were found."
    return f"Found {count} match{'es' if count != 1 else ''}, on {_page_list(value.get('pages', []))}."


@tool(
    kind="value",
    category="markup",
    explain="Search {file} for [{terms}][ {categories}][ the pattern {regex}] on {pages}",
    result_name="matches",
    answer=_search_text_answer,
    say="Search for[ {terms}][ every {categories}][ the pattern {regex}]",
    words=Words(verbs=("search", "find", "look for", "list"), nouns=("matches", "mentions", "occurrences")),
)
def search_text(
    file: str,
    terms: Terms = None,
    regex: str | None = None,
    categories: Categories = None,
    pages: Pages = "all",
    case_sensitive: bool = False,
    whole_words: bool = False,
) -> dict:
    """Find words, phrases, a regular expression or kinds of data (emails, dates …) in a PDF.

    Matching follows the text as a reader sees it: across line breaks, hyphenation and
    ligatures, ignoring case unless asked.

    Args:
        file: The PDF to search.
        terms: Words or phrases to find, e.g. ["battery", "warranty"].
        regex: A regular expression to find instead of (or as well as) terms.
        categories: Kinds of data to find: person, organization, party, address, date, email, phone, ssn,
            card, account, id, money, url, heading, or pii (people, addresses, dates, IDs, emails, phones,
            account/card numbers, SSNs).
        pages: Pages to search.
        case_sensitive: Match upper/lower case exactly.
        whole_words: Match whole words only ("art" does not match "party").

    Returns:
        {"count": number of matches, "pages": 1-based pages with a match, "matches": up to 200
        of {"page", "text", "kind", "context"}, "truncated": true when more were found}.
    """
    with open_pdf(file) as doc:
        _, _, matches = locate(
            doc, pages, terms, regex, categories, case_sensitive, whole_words, _name(file), required=False
        )
    return {
        "count": len(matches),
        "pages": sorted({m.page + 1 for m in matches}),
        "matches": [
            {"page": m.page + 1, "text": m.text, "kind": m.kind, "context": m.context} for m in matches[:MAX_LISTED]
        ],
        "truncated": len(matches) > MAX_LISTED,
    }


def _name(file: str) -> str:
    return str(file).replace("\\", "/").rsplit("/", 1)[-1]


def _mark(
    style: str,
    what: str,
    file: str,
    terms: Terms,
    regex: str | None,
    categories: Categories,
    pages: Pages,
    case_sensitive: bool,
    whole_words: bool,
    color: Color,
    output: str | None,
) -> str:
    rgb = parse_color(color, (0, 0, 0)) if color else None
    with open_pdf(file) as doc:
        _, _, matches = locate(doc, pages, terms, regex, categories, case_sensitive, whole_words, _name(file))
        page = None
        for match in matches:
            if page is None or page.number != match.page:
                page = doc[match.page]
            annot = getattr(page, f"add_{style}_annot")(quads=match.rects)  # one quad per rect
            if rgb is not None:
                annot.set_colors(stroke=rgb)
                annot.update()
        return write_pdf(doc, output_path(file, what, ".pdf", output), garbage=1)


def _documented(summary: str, verb: str, default: str, what: str):
    """Give a marking tool its docstring (before @tool reads it)."""

    def attach(func):
        func.__doc__ = summary + "\n" + _MARK_ARGS.format(verb=verb, default=default, what=what)
        return func

    return attach


_MARK_ARGS = """
    Args:
        file: The PDF to mark up.
        terms: Words or phrases to {verb}, e.g. ["battery", "warranty"].
        regex: A regular expression to {verb} instead of (or as well as) terms.
        categories: Kinds of data to {verb}: person (people's names), organization, party (defined
            parties such as "the Client" and the name they stand for), address, date, email, phone, ssn,
            card, account, id (passport/ID numbers), money, url, heading (section headings), or pii
            (people, addresses, dates, IDs, emails, phones, account/card numbers, SSNs).
        pages: Pages to mark.
        case_sensitive: Match upper/lower case exactly.
        whole_words: Match whole words only ("art" does not match "party").
        color: Colour name or hex code, e.g. "yellow", "light green", "#ff0000" (default: {default}).
        output: File name for the result (default: <name>_{what}.pdf).

    Returns:
        Path of the marked-up PDF. Fails when nothing matched on the pages given.
"""


@tool(
    kind="pdf",
    category="markup",
    explain="Highlight [{terms}][ {categories}][ the pattern {regex}] on {pages} of {file}",
    result_name="highlighted",
    say="Highlight[ {terms}][ every {categories}][ the pattern {regex}]",
    words=Words(verbs=("highlight", "mark"), nouns=("highlights",), makes=("highlighted",)),
)
@_documented("Highlight words, phrases or kinds of data (names, dates) in a PDF.", "highlight", "yellow", "highlighted")
def highlight_text(
    file: str,
    terms: Terms = None,
    regex: str | None = None,
    categories: Categories = None,
    pages: Pages = "all",
    case_sensitive: bool = False,
    whole_words: bool = False,
    color: Color = None,
    output: str | None = None,
) -> str:
    return _mark(
        "highlight", "highlighted", file, terms, regex, categories, pages, case_sensitive, whole_words, color, output
    )


@tool(
    kind="pdf",
    category="markup",
    explain="Underline [{terms}][ {categories}][ the pattern {regex}] on {pages} of {file}",
    result_name="underlined",
    say="Underline[ {terms}][ every {categories}][ the pattern {regex}]",
    words=Words(verbs=("underline",), nouns=("underlines",), makes=("underlined",)),
)
@_documented(
    "Underline words, phrases or kinds of data (names, dates, headings …) in a PDF.", "underline", "green", "underlined"
)
def underline_text(
    file: str,
    terms: Terms = None,
    regex: str | None = None,
    categories: Categories = None,
    pages: Pages = "all",
    case_sensitive: bool = False,
    whole_words: bool = False,
    color: Color = None,
    output: str | None = None,
) -> str:
    return _mark(
        "underline", "underlined", file, terms, regex, categories, pages, case_sensitive, whole_words, color, output
    )


@tool(
    kind="pdf",
    category="markup",
    explain="Strike out [{terms}][ {categories}][ the pattern {regex}] on {pages} of {file}",
    result_name="struck",
    say="Strike out[ {terms}][ every {categories}][ the pattern {regex}]",
    words=Words(verbs=("strike out", "strike through", "cross out"), nouns=("strikeout", "strikethrough")),
)
@_documented("Strike out words, phrases or kinds of data in a PDF.", "strike out", "red", "struck")
def strikeout_text(
    file: str,
    terms: Terms = None,
    regex: str | None = None,
    categories: Categories = None,
    pages: Pages = "all",
    case_sensitive: bool = False,
    whole_words: bool = False,
    color: Color = None,
    output: str | None = None,
) -> str:
    return _mark(
        "strikeout", "struck", file, terms, regex, categories, pages, case_sensitive, whole_words, color, output
    )


def _corner(page: pymupdf.Page, position: str) -> pymupdf.Point:
    """A point near a corner of the page as displayed, in unrotated page coordinates."""
    rect = page.rect  # as displayed (rotation applied)
    margin = 36.0
    x = {"left": rect.x0 + margin, "right": rect.x1 - margin - 20, "center": (rect.x0 + rect.x1) / 2}
    y = {"top": rect.y0 + margin + 20, "bottom": rect.y1 - margin, "center": (rect.y0 + rect.y1) / 2}
    vertical, _, horizontal = position.partition("-")
    point = pymupdf.Point(x[horizontal or "center"], y[vertical])
    return point * page.derotation_matrix


@tool(
    kind="pdf",
    category="markup",
    explain="Add the comment {text} on page {page} of {file}",
    result_name="commented",
    say="Add the comment {text}",
    words=Words(verbs=("comment", "annotate", "note"), nouns=("comment", "note", "sticky note"), makes=("commented",)),
)
def add_comment(
    file: str,
    text: str,
    page: Pages = 1,
    near: str | None = None,
    position: Position = "top-right",
    output: str | None = None,
) -> str:
    """Add a comment (a sticky note) to a page.

    Args:
        file: The PDF to comment on.
        text: The comment's text.
        page: Page(s) to put the comment on.
        near: Put the note beside the first occurrence of this word or phrase on the page.
        position: Where on the page the note goes when 'near' is not given.
        output: File name for the result (default: <name>_commented.pdf).

    Returns:
        Path of the PDF with the comment.
    """
    if not text or not text.strip():
        raise ToolArgumentError("The comment text is empty; give the text of the comment.")
    with open_pdf(file) as doc:
        indices = parse_pages(page, doc.page_count)
        anchors: dict[int, pymupdf.Point] = {}
        if near and near.strip():
            found = find_matches(doc, indices, Targets.build(terms=[near]))
            for match in found:
                first = match.rects[0]
                anchors.setdefault(match.page, pymupdf.Point(first.x1 + 2, first.y0))
            missing = [i for i in indices if i not in anchors]
            if missing:
                raise NoMatchError(
                    f'"{near}" does not occur on {describe_pages(missing, doc.page_count)} of {_name(file)}; '
                    "leave 'near' out to place the note by position, or choose another page."
                )
        for index in indices:
            pg = doc[index]
            point = anchors.get(index) or _corner(pg, position)
            annot = pg.add_text_annot(point, text.strip(), icon="Comment")
            annot.set_info(title="DocPilot")
            annot.update()
        return write_pdf(doc, output_path(file, "commented", ".pdf", output), garbage=1)


class _PageChars:
    """A page's characters as read (see textmatch.page_text) with their centres, read once."""

    def __init__(self, page: pymupdf.Page) -> None:
        pt = page_text(page)
        self.chars = pt.text
        self.centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) if b else None for b in pt.boxes]

    def under(self, rect: pymupdf.Rect) -> str:
        out: list[str] = []
        for char, centre in zip(self.chars, self.centres, strict=False):
            if centre and rect.x0 <= centre[0] <= rect.x1 and rect.y0 <= centre[1] <= rect.y1:
                out.append(char)
            elif out and out[-1] != " ":
                out.append(" ")
        return " ".join("".join(out).split())


_MARKUP_TYPES = (
    pymupdf.PDF_ANNOT_HIGHLIGHT,
    pymupdf.PDF_ANNOT_UNDERLINE,
    pymupdf.PDF_ANNOT_STRIKE_OUT,
    pymupdf.PDF_ANNOT_SQUIGGLY,
    pymupdf.PDF_ANNOT_REDACT,
)
_ICON_TYPES = (
    pymupdf.PDF_ANNOT_TEXT,
    pymupdf.PDF_ANNOT_FILE_ATTACHMENT,
    pymupdf.PDF_ANNOT_SOUND,
    pymupdf.PDF_ANNOT_POPUP,
)


def _text_under(annot: pymupdf.Annot, chars: _PageChars) -> str:
    kind = annot.type[0]
    if kind in _ICON_TYPES:
        return ""  # an icon: it covers no text worth reporting
    vertices = annot.vertices
    if vertices and kind in _MARKUP_TYPES:
        rects = [pymupdf.Quad(*vertices[i : i + 4]).rect for i in range(0, len(vertices) - 3, 4)]
    else:
        rects = [annot.rect]
    return " ".join(chars.under(rect) for rect in rects).strip()


@tool(
    kind="value",
    category="markup",
    explain="List the comments and markups on {pages} of {file}",
    result_name="annotations",
    say="List the comments and markups",
    words=Words(verbs=("list", "read", "show"), nouns=("comments", "annotations", "markups")),
)
def read_annotations(file: str, pages: Pages = "all") -> list[dict]:
    """List the annotations (comments, highlights, underlines …) in a PDF.

    Args:
        file: The PDF.
        pages: Pages to read.

    Returns:
        A list of {"page", "type", "content", "text", "author"}: "text" is the page text under a
        highlight/underline/strike-out, "content" the comment written on it.
    """
    out: list[dict] = []
    with open_pdf(file) as doc:
        for index in sorted(parse_pages(pages, doc.page_count)):
            page = doc[index]
            chars = None
            for annot in page.annots():
                if annot.type[0] == pymupdf.PDF_ANNOT_POPUP:
                    continue
                chars = chars or _PageChars(page)
                info = annot.info
                out.append(
                    {
                        "page": index + 1,
                        "type": annot.type[1],
                        "content": info.get("content", ""),
                        "text": _text_under(annot, chars),
                        "author": info.get("title", ""),
                    }
                )
    return out


def _annot_types(types: list[str] | None) -> set[str] | None:
    if not types:
        return None
    wanted = set()
    for name in [types] if isinstance(types, str) else types:
        key = name.strip().lower().replace("_", " ").replace("-", " ")
        canonical = _TYPE_NAMES.get(key) or next((t for t in _KNOWN_TYPES if t.lower() == key.replace(" ", "")), None)
        if canonical is None:
            raise ToolArgumentError(
                f"'{name}' is not an annotation type. Use e.g. comment, highlight, underline, strikeout, "
                "free text, stamp, ink."
            )
        wanted.add(canonical)
    return wanted


@tool(
    kind="pdf",
    category="markup",
    explain="Delete the[ {types}] annotations on {pages} of {file}",
    result_name="cleaned",
    say="Delete the annotations",
    words=Words(
        verbs=("delete", "remove", "clear", "strip", "get rid of", "take off"),
        nouns=("annotations", "comments", "markups", "highlights"),
    ),
)
def delete_annotations(
    file: str,
    pages: Pages = "all",
    types: list[str] | None = None,
    output: str | None = None,
) -> str:
    """Delete annotations (comments, highlights, underlines …) from a PDF; form fields and links stay.

    Args:
        file: The PDF.
        pages: Pages to clean.
        types: Only these kinds, e.g. ["highlight", "comment"] (default: every kind).
        output: File name for the result (default: <name>_no_annotations.pdf).

    Returns:
        Path of the PDF without those annotations. Fails when there were none to delete.
    """
    wanted = _annot_types(types)
    with open_pdf(file) as doc:
        indices = parse_pages(pages, doc.page_count)
        deleted = 0
        for index in indices:
            page = doc[index]
            doomed = [
                a
                for a in page.annots()
                if a.type[0] != pymupdf.PDF_ANNOT_POPUP and (wanted is None or a.type[1] in wanted)
            ]
            for annot in doomed:
                page.delete_annot(annot)
                deleted += 1
        if not deleted:
            kinds = ", ".join(sorted(wanted)) + " " if wanted else ""
            raise NoMatchError(
                f"{_name(file)} has no {kinds}annotations on {describe_pages(indices, doc.page_count)}; "
                "there is nothing to delete."
            )
        return write_pdf(doc, output_path(file, "no_annotations", ".pdf", output))
