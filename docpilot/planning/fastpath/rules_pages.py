"""Rules for page operations, files, forms, conversion and extraction."""

from __future__ import annotations

import re
from typing import Any

from docpilot.planning.fastpath.extract import (
    COVER,
    degrees_in,
    format_in,
    lengths_in,
    number_words,
    pages_in,
    position_in,
    unit_of,
    width_in,
)
from docpilot.planning.fastpath.grounding import mentions
from docpilot.planning.fastpath.rules import (
    Context,
    Intent,
    NeedInfo,
    _has,
    _pages,
    _quoted,
    _with_output,
    convert_task,
)

__all__: list[str] = []


_PUT_IT_ON_A_PAGE = re.compile(
    r"^\s*(?:then\s+)?(?:add|put|insert|prepend|append|place|write)\s+(?:it|that|this|the summary|them)\s+"
    r"(?:as|on|onto|at|to|in)\s+(?:a\s+|the\s+)?(?:(?:new\s+)?(first|front|cover|last|final|start|beginning|end)"
    r"(?:\s+page)?|(?:start|beginning|end)\s+of\s+(?:it|the\s+(?:document|file|pdf)))\s*$"
)


_SUMMARIZE = re.compile(
    r"^\s*(?:please\s+)?(?:summari[sz]e|sum\s+up|write\s+a\s+summary\s+of|make\s+a\s+summary\s+of)\s+"
    r"(?:it|this|the\s+(?:document|file|pdf|report|contract|paper)|(?:pages?\s+)?[\d,\s-]+(?:and\s+\d+)?|"
    r"pages?\s+[\d,\s-]+(?:and\s+\d+)?(?:\s+of\s+(?:it|the\s+\w+))?)"
    r"(?:\s+in\s+(\w+)\s+(?:points|bullets|bullet\s+points|sentences))?\s*$"
)
_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}


def _all_words(text: str) -> set[str]:
    """Every run of words of ``text``: a rule that matched the whole clause accounts for all of it."""
    tokens = re.findall(r"[\w'-]+", text.lower())
    return {" ".join(tokens[i:j]) for i in range(len(tokens)) for j in range(i + 1, min(len(tokens), i + 6) + 1)}


def summarize(c: str, low: str, ctx: Context) -> list[Intent] | None:
    """ "Summarize pages 1-2" when the request also puts the summary on a page; a summary alone is a question
    for document QA (answered with citations), not a plan."""
    m = _SUMMARIZE.match(low)
    if not m or not re.search(
        r"\b(?:add|put|insert|prepend|append|place|write)\s+(?:it|that|this|the summary)\b", ctx.request
    ):
        return None
    args: dict[str, Any] = {}
    pages = pages_in(c, ctx.page_count)
    if pages and pages != "all":
        args["pages"] = pages
    if m.group(1):
        count = _COUNTS.get(m.group(1)) or (int(m.group(1)) if m.group(1).isdigit() else None)
        if count is None or not 1 <= count <= 8:
            return None
        args["sentences"] = count
    return [Intent("summarize", args, words=_all_words(low))]


def summary_page(c: str, low: str, ctx: Context) -> list[Intent] | None:
    """ "… and add it as the first page" after a summary: a new page carrying the summary's text."""
    m = _PUT_IT_ON_A_PAGE.match(low)
    if not m or ctx.last_value != "summary":
        return None
    where = m.group(1) or ("end" if re.search(r"\bend of\b", low) else "start")
    position = "end" if where in ("last", "final", "end") else "start"
    args = _with_output({"text": "$summary", "position": position}, c, ctx)
    return [Intent("add_page_with_text", args, words=_all_words(low))]


def add_page_with_text(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(
        low,
        r"\b(?:add|append|insert|prepend|create)\s+(?:a|an|one|another)\s+(?:(?:new|extra|additional|separate|"
        r"cover|title|final|last|first)\s+)*pages?\b.*\b(?:with|saying|containing|that says|reading)\b",
    ) or _has(low, r"\bblank\b|\bpage numbers?\b"):
        return None  # "add a comment on page 2 saying …" mentions a page; it does not add one
    quoted = _quoted(c, ctx)
    if not quoted:
        return None
    args: dict[str, Any] = {"text": quoted[0]}
    words: set[str] = set()
    if _has(low, r"\b(?:beginning|start|front|first page|prepend|cover)\b"):
        args["position"] = "start"
        words = {"cover page", "title page", "front page", "first page"}  # "add a cover page with …": a new page 1
    elif _has(low, r"\b(?:end|last page|append)\b"):
        args["position"] = "end"
    return [Intent("add_page_with_text", _with_output(args, c, ctx), words=words)]


def blank_pages(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(low, r"\b(?:blank|empty)\s+(?:pages?|sheets?)\b"):
        return None
    if _has(low, r"\b(?:remove|delete|drop|get rid of|strip)\b"):
        return [Intent("remove_blank_pages", _with_output({}, c, ctx))]
    if not _has(low, r"\b(?:add|insert|append|put|stick|slip\s+in|place)\b"):
        return None
    count = re.search(r"\b(\w+)\s+(?:blank|empty)\s+(?:pages?|sheets?)\b", low)
    args: dict[str, Any] = {"count": number_words(count.group(1)) or 1 if count else 1}
    after = _after_page(low, ctx.page_count)
    if after is None:
        return None
    args["after"] = after
    return [Intent("insert_blank_pages", _with_output(args, c, ctx), words={"slip", "stick", "sheet", "sheets", "in"})]


# "after pages 2 and 5": several places, each after its page
_AFTER_SEVERAL = re.compile(r"\bafter\s+pages?\s+(\d+(?:\s*(?:,|and|&)\s*(?:page\s+)?\d+)+)")
# "after page 3", "after the fourth page", "before the cover": where one new page goes
_AFTER_ONE = re.compile(r"\b(after|before|in\s+front\s+of)\s+((?:the\s+)?[\w-]+(?:\s+[\w-]+)?(?:\s+page)?)")


def _after_page(low: str, count: int | None) -> str | int | None:
    """Where blank pages go, as insert_blank_pages takes it: after a page ("3", "last", "all"), 0 for the start;
    "last" when no place is said; None when the place said is not one page."""
    between = re.search(r"\bbetween\s+pages?\s+(\d+)\s+and\s+(?:page\s+)?(\d+)\b", low)
    if between:  # "between pages 3 and 4": after 3, when the two pages are neighbours
        first, second = int(between.group(1)), int(between.group(2))
        return str(first) if second == first + 1 else None
    several = _AFTER_SEVERAL.search(low)
    if several:
        return ",".join(re.findall(r"\d+", several.group(1)))
    if re.search(r"\bafter\s+(?:every|each)\s+page\b", low):
        return "all"
    parity = re.search(r"\bafter\s+(?:every|each)\s+(odd|even)(?:-numbered)?\s+page\b", low)
    if parity:  # "after each odd-numbered page"
        return parity.group(1)
    m = _AFTER_ONE.search(low)
    if m:
        page = pages_in(m.group(2), count)
        if page is None or not re.fullmatch(r"\d+|last", page):
            return None
        if m.group(1) == "after":
            return page
        if page == "last":
            return str(count - 1) if count else None
        return 0 if page == "1" else str(int(page) - 1)
    if _has(low, r"\b(?:beginning|start|front)\b"):
        return 0
    return "last"


_KEEP = re.compile(r"\b(?:keep|keeping|retain|preserve|leave|leaving|hold on to)\b")
_DROP = re.compile(
    r"\b(?:delete|remove|drop|cut|get rid of|discard|take out|lose|trash|throw (?:away|out)|toss|strip|ditch|scrap)\b"
)
# Verbs that take pages out of a file (with a page reference): "throw away the cover page", "toss pages 3-4"
_DELETE = (
    r"\b(?:delete|remove|drop|cut|get rid of|discard|take out|throw (?:away|out)|toss|trash|ditch|scrap|"
    r"eliminate)\b"
)
_DELETE_WORDS = {"throw", "away", "out", "toss", "trash", "ditch", "scrap", "eliminate"}
_EXCEPT = re.compile(
    r"\b(?:except(?:\s+for)?|but|other\s+than|apart\s+from|save\s+for|besides|excluding)\s+"
    r"(?=(?:the\s+|for\s+)?(?:pages?\b|p\.|first\b|last\b|final\b|\d|odd\b|even\b|cover\b|title\b|front\b|"
    r"one\b|two\b|three\b|four\b|five\b))"
)
_DOWN = re.compile(r"\b(?:cut|trim|reduce|pare|slim|shrink|narrow|chop)\b(?:\s+[\w.]+){0,3}?\s+down\s+to\b")


def keep_or_drop(c: str, low: str, ctx: Context) -> list[Intent] | None:
    """Meanings that flip an operation: "cut it down to pages 1-4" and "delete all but page 2" keep those pages;
    "keep everything except page 2" deletes it."""
    down = _DOWN.search(low)
    if down:
        pages = pages_in(c[down.end() :], ctx.page_count)
        if not pages or pages == "all":
            return None
        words = {"down", "to", *down.group(0).split()}
        return [Intent("extract_pages", _with_output({"pages": pages}, c, ctx), words=words)]
    exc = _EXCEPT.search(low)
    keep, drop = _KEEP.search(low), _DROP.search(low)
    verbs = [m for m in (keep, drop) if m and m.start() < (exc.start() if exc else -1)]
    if not exc or not verbs:
        return None
    rest = re.sub(r"^(?:the\s+)?(first|last|final)\b(?!\s+\w*\s*pages?)", r"\1 page", c[exc.end() :])
    rest = re.sub(r"^(?=\d)", "pages ", rest)  # "all pages except 3 and 4": the numbers are pages
    pages = pages_in(rest, ctx.page_count)
    if not pages or pages == "all":
        return None
    words = {*exc.group(0).split(), "everything", "all", *_DELETE_WORDS}
    first = min(verbs, key=lambda m: m.start())
    task = "delete_pages" if first is keep else "extract_pages"
    return [Intent(task, _with_output({"pages": pages}, c, ctx), words=words)]


# "cut it into separate files at page 4": pages where a file is cut in parts, not pages cut out
_INTO_PARTS = re.compile(
    r"\binto\s+(?:\w+\s+)?(?:separate\s+|smaller\s+)?(?:files|parts|pieces|pdfs|documents|chunks|halves|sections)\b"
)


def delete_pages(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(low, _DELETE) or _INTO_PARTS.search(low) or lengths_in(low) or _KEEP.search(low):
        return None  # "cut 50 points from the right-hand edge on the odd pages" is a crop
    pages = pages_in(c, ctx.page_count)
    if not pages or not _has(low, rf"\bpages?\b|\b{COVER}|\bthe\s+back\s+cover\b"):  # "delete the cover"
        return None
    return [Intent("delete_pages", _with_output({"pages": pages}, c, ctx), words=_DELETE_WORDS)]


# "into their own file", "as a new PDF", "in a separate document": where pages taken out go
_OWN_FILE = re.compile(
    r"\b(?:into|in|as|to)\s+(?:an?|its|their|my|the)\s+(?:own|new|separate|standalone|different)\s+"
    r"(?:pdf|file|document|doc)s?\b"
)


# "make a new PDF from the last page", "create a file with just pages 2-3": a file of those pages
_NEW_FILE_FROM = re.compile(
    r"\b(?:make|create|build|produce)\s+(?:me\s+)?(?:a|an|one)\s+(?:new\s+|separate\s+|smaller\s+)?(?:pdf|file|document)\s+"
    r"(?:from|out\s+of|of|with|containing)\s+(?:just\s+|only\s+)?(?:the\s+)?(?:pages?\b|first\b|last\b|final\b|odd\b|even\b|"
    r"cover\b|\d)"
)


_DROP_THE_REST = re.compile(
    r"\b(?:and\s+)?(?:discard|delete|remove|drop|lose|ditch|bin|throw\s+away|get\s+rid\s+of)\s+(?:the\s+rest|"
    r"everything\s+else|the\s+others|all\s+the\s+others)\b"
)
_TOGETHER = re.compile(r"\btogether(?:\s+in\s+(?:a|one)\s+(?:new\s+)?(?:file|pdf|document))?\b")


def extract_pages(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if (
        not _has(
            low,
            r"\b(?:extract|pull|take|keep|retain|preserve|copy|save|split out|separate|get|grab|need|want|give me)\b"
            r".*\bpages?\b",
        )
        and not _NEW_FILE_FROM.search(low)
        or _INTO_PARTS.search(low)
    ):
        return None
    if _has(
        low,
        r"\b(?:rotat\w*|turn\w*|delet\w*|remov\w*|crop\w*|insert\w*|numbering|watermark\w*|stamp\w*|"
        r"redact\w*|highlight\w*|underlin\w*|sign\w*)\b",
    ):
        return None  # the pages belong to another action ("save it as x.pdf after rotating page 1")
    if _has(low, r"\btake\b.*\bout\b") and not _OWN_FILE.search(low):
        return None  # "take the last three pages out": out of the file (deleted) or out for me (kept)? not one reading
    if _has(
        low, r"\b(?:images|pictures|photos|figures|graphics|tables?|text|words|wording|attachments)\b"
    ) and not _has(low, r"\b(?:as|into|to)\s+(?:an?\s+)?(?:\w+\s+)?(?:images|pictures|text)\b"):
        return None  # "extract the images from page 2" takes what is on the pages, not the pages
    pages = pages_in(c, ctx.page_count)
    if not pages or pages == "all":
        return None
    fmt = format_in(re.sub(r"\bseparate (?:file|pdf|document)\b", "", low))
    if fmt and _has(low, rf"\b(?:as|to|into)\s+(?:an?\s+)?(?:\w+\s+)?{fmt[:3]}"):
        return [Intent(convert_task(fmt), _with_output({"pages": pages}, c, ctx), stage=2)]  # those pages, converted
    rest = _DROP_THE_REST.search(low)  # "keep only pages 5-8 and discard the rest": what keeping does anyway
    together = _TOGETHER.search(low)  # "… together in a new file"
    words = (set(rest.group(0).split()) if rest else set()) | (set(together.group(0).split()) if together else set())
    return [Intent("extract_pages", _with_output({"pages": pages}, c, ctx), words=words)]


# "rotate the lot 180": a quarter, half or three-quarter turn said as a bare number after "rotate"
_BARE_TURN = re.compile(
    r"\brotate\b.*?\b(90|180|270)\b(?!\s*(?:%|pages?|dpi|pt|points|mm|cm|px|st|nd|rd|th)\b)(?!\s*,?\s*\d)"
)


def rotate(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(
        low,
        r"\brotat(?:e|ed|ing)\b|\bturn\b.*\b(?:pages?|(?:counter|anti)-?clockwise|clockwise|degrees|upside|sideways|landscape|"
        r"portrait)\b|"
        r"\bupside[- ]down\b",
    ):
        return None
    if not _has(low, r"\brotat(?:e|ed|ing)\b") and _has(
        low,
        r"\bturn\b.*\binto\b|\bturn\b.*\bto\s+(?:an?\s+)?(?:images?|pictures?|"
        r"png|jpe?g|word|powerpoint|slides?|excel|text|markdown|tiff?)\b",
    ):
        return None  # "turn the last two pages into images" is a conversion
    if not _has(low, r"\brotat(?:e|ed|ing)\b") and _FLIPPED_ORDER.search(low):
        return None  # "turn the order of the pages around" reverses them
    if degrees_in(c) is None and _has(low, r"\b(?:a)?round\b") and not _BARE_TURN.search(low):
        return None  # "turn pages 2-3 around": a half turn or a quarter? not said
    bare = _BARE_TURN.search(low) if degrees_in(c) is None else None
    degrees = int(bare.group(1)) if bare else degrees_in(c) or 90
    if degrees % 90:
        raise NeedInfo(f"Pages can only be turned in steps of 90 degrees, not {degrees}.")
    turned = (
        set()
        if _has(low, r"\d+\s*(?:°|deg)|clockwise|\bleft\b|\bright\b|upside")  # said how far: "sideways" must agree
        else {"sideways", "landscape", "portrait"}
    )
    turn = re.search(r"\b(?:a\s+)?quarter[- ]turn\b|\bhalf\s+(?:a\s+)?turn\b", low)
    if turn:  # "a quarter turn to the right" is 90 degrees, "half a turn" 180 (degrees_in read them)
        turned |= set(re.split(r"[\s-]+", turn.group(0)))
    args = {"pages": _pages(c, ctx), "degrees": degrees}
    if degrees == 180 and _has(low, r"\bupside[- ]down\b"):  # "upside-down, flip them round": half a turn
        turned = turned | {"flip", "round", "around", "over"}
    if re.search(r"\bthe\s+(?:whole\s+)?lot\b", low):  # "rotate the lot": every page
        turned = turned | {"lot", "whole"}
    return [Intent("rotate_pages", _with_output(args, c, ctx), words=turned)]


# "flip the page order round", "turn the order of the pages around": the pages in reverse
_FLIPPED_ORDER = re.compile(
    r"\b(?:flip|turn|swap)\s+(?:the\s+)?(?:(?:page\s+)?order(?:\s+of\s+the\s+pages)?)\s+(?:a)?round\b"
)
# "so the back page is first and the front page is last": what a reversal does, said again
_ENDS_SWAPPED = re.compile(
    r"\b(?:so\s+(?:that\s+)?)?(the\s+(?:back|last|final)\s+page)\s+(?:is|comes|goes)\s+first\s+and\s+"
    r"(the\s+(?:front|first)\s+page)\s+(?:is|comes|goes)\s+last\b"
)


def reorder(c: str, low: str, ctx: Context) -> list[Intent] | None:
    flipped = _FLIPPED_ORDER.search(low)
    if flipped:
        ends = _ENDS_SWAPPED.search(low)
        words = {"flip", "turn", "swap", "round", "around"}
        if ends:
            words |= {ends.group(1), ends.group(2), "last", "first", "comes", "goes"}
        return [Intent("reorder_pages", _with_output({"order": "reverse"}, c, ctx), words=words)]
    if _has(low, r"\breverse\b|\bbackwards\b|\bopposite order\b|\blast page first\b"):
        return [Intent("reorder_pages", _with_output({"order": "reverse"}, c, ctx))]
    m = re.search(
        r"\b(?:reorder|rearrange|re-order|order|sort|put)\b.*?\b(?:as|to|in the order|like)?\s*"
        r"((?:\d+\s*(?:,|and|-)\s*)+\d+)",
        low,
    )
    if m and _has(low, r"\b(?:reorder|rearrange|re-order|order)\b"):
        return [Intent("reorder_pages", _with_output({"order": re.sub(r"\s*(?:and|,)\s*", ",", m.group(1))}, c, ctx))]
    order = _moved(low, ctx.page_count) if ctx.page_count else None
    if order is not None:
        stays = _REST_STAYS.search(low)  # "everything else stays in the same order": what a move keeps anyway
        words = _MOVE_WORDS | set(stays.group(0).split()) if stays else _MOVE_WORDS
        return [Intent("reorder_pages", _with_output({"order": order}, c, ctx), words=words)]
    return None


_PAGE_REF = r"(?:the\s+)?(?:(first|last)\s+page|page\s+(\d+))"
# "everything else stays in the same order", "the rest stays as it is": the pages a move leaves where they were
_REST_STAYS = re.compile(
    r"\b(?:everything\s+else|the\s+rest(?:\s+of\s+(?:the\s+)?(?:pages|it))?|(?:all\s+)?the\s+other\s+pages|the\s+others)\s+"
    r"(?:stays?|remains?|(?:can|should|will)\s+(?:stay|remain)|is\s+kept|are\s+kept)\s+"
    r"(?:in\s+the\s+same\s+order|as\s+(?:it\s+is|they\s+are|before)|where\s+(?:it\s+is|they\s+are)|unchanged|"
    r"the\s+same|in\s+order|put)\b"
)
_MOVE_WORDS = {"move", "swap", "switch", "exchange", "make", "come", "comes", "right", "after", "before", "with"}
_MOVE_WORDS |= {"to", "the", "end", "front", "beginning", "start", "back", "put", "last", "first", "in", "of"}


def _page_number(groups: tuple[str | None, str | None], total: int) -> int | None:
    word, digits = groups
    n = total if word == "last" else 1 if word == "first" else int(digits or 0)
    return n if 1 <= n <= total else None


_ENDS = {"first": 1, "last": -1}


def _swapped(low: str, total: int) -> tuple[int, int] | None:
    """ "swap pages 1 and 2", "switch the first and last pages": the two pages that trade places."""
    m = re.search(r"\b(?:swap|switch|exchange)\s+pages?\s+(\d+)\s+(?:and|with)\s+(?:page\s+)?(\d+)\b", low)
    if m:
        return int(m.group(1)), int(m.group(2))
    m = re.search(
        r"\b(?:swap|switch|exchange)\s+the\s+(first|last)\s+(?:page\s+)?(?:and|with)\s+(?:the\s+)?(first|last)\s+pages?\b",
        low,
    )
    if m and m.group(1) != m.group(2):
        return tuple(n if n > 0 else total for n in (_ENDS[m.group(1)], _ENDS[m.group(2)]))  # type: ignore[return-value]
    return None


def _moved(low: str, total: int) -> str | None:
    """ "move the last page to the front", "swap pages 1 and 2", "make page 8 come right after page 2":
    the whole new order (every page once), or None."""
    pages = list(range(1, total + 1))
    m = re.search(
        rf"\b(?:move|put)\s+{_PAGE_REF}\s+(?:to\s+the\s+|at\s+the\s+)?(?:very\s+)?(end|back|front|beginning|start)\b",
        low,
    )
    if m:
        n = _page_number((m.group(1), m.group(2)), total)
        if n is None:
            return None
        pages.remove(n)
        pages = pages + [n] if m.group(3) in ("end", "back") else [n, *pages]
        return ",".join(map(str, pages))
    swap = _swapped(low, total)
    if swap:
        a, b = swap
        if a == b or not (1 <= a <= total and 1 <= b <= total):
            return None
        pages[a - 1], pages[b - 1] = b, a
        return ",".join(map(str, pages))
    m = re.search(
        rf"\b(?:move|put|make)\s+{_PAGE_REF}\s+(?:come\s+)?(?:right\s+|just\s+)?(after|before|in\s+front\s+of)\s+{_PAGE_REF}",
        low,
    )
    if m:
        moving = _page_number((m.group(1), m.group(2)), total)
        anchor = _page_number((m.group(4), m.group(5)), total)
        if moving is None or anchor is None or moving == anchor:
            return None
        pages.remove(moving)
        at = pages.index(anchor) + (1 if m.group(3) == "after" else 0)
        pages.insert(at, moving)
        return ",".join(map(str, pages))
    return None


_PER_PAGE = re.compile(  # "one pdf per page", "make each page its own PDF": a split into single pages
    r"^(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?(?:(?:make|give\s+me|i\s+want)\s+)?(?:one|a|a\s+separate)\s+(?:pdf|file|document)\s+"
    r"(?:per|for\s+each|for\s+every)\s+page(?:\s+(?:pls|please))?$|"
    r"^(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?(?:make|turn|separate|split|break)\s+(?:each|every)\s+page\s+"
    r"(?:out\s+)?(?:into\s+|as\s+)?(?:its\s+own|a\s+separate)\s+(?:pdf|file|document)$"
)


# "at page 4 and at page 11", "starting at page 5 and page 11", "right after page 6": where new parts begin
_SPLIT_AT = re.compile(
    r"\b(at|before|after|on|from)\s+pages?\s+(\d+(?:\s*(?:,|and|&)\s*(?:(?:at|before|after|on|from)\s+)?(?:pages?\s+)?\d+)*)"
)


def _split_points(low: str, count: int | None) -> str | None:
    """The pages new parts begin at, in order ("after page 6" begins one at 7); None when none is said or the
    places said are not in order."""
    starts: list[int] = []
    for m in _SPLIT_AT.finditer(low):
        said = re.findall(r"(after|before|at|on|from)?\s*(?:pages?\s+)?(\d+)", m.group(0))
        word = m.group(1)
        for own, number in said:
            word = own or word
            starts.append(int(number) + (1 if word == "after" else 0))
    if not starts or starts != sorted(set(starts)) or starts[0] < 2 or count and starts[-1] > count:
        return None  # out of order, or a part that would start before page 2 or after the last page
    return ",".join(map(str, starts))


def split(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _PER_PAGE.match(low.strip(" .!?")):
        return [Intent("split_pdf", {"every": 1}, stage=2, words=set(low.split()))]
    if not _has(
        low,
        r"\bsplit\b|\bbreak (?:(?:it|this|the \w+) )?(?:up|apart|into)\b|\bcut\b.*\binto\s+(?:\w+\s+)?(?:separate\s+)?"
        r"(?:files|parts|pieces|pdfs|documents|halves)\b|\bseparate (?:files|pdfs)\b|"
        r"\bchop\b.*\b(?:into|in)\b",
    ):
        return None
    every = re.search(
        r"\bevery\s+(\w+)\s+pages?\b|\binto\s+(\w+)-page\b|\b(\w+) pages? (?:each|apiece|per (?:file|part|pdf))\b|"
        r"\b(?:chunks|groups|parts|pieces|sets|batches|sections|files|blocks|bundles|pdfs)\s+of\s+(\w+)(?:\s+pages?)?\b|"
        r"\b(\w+)[- ]page\s+(?:chunks|parts|pieces|files|sections|documents|pdfs|groups|blocks|sets)\b",
        low,
    )
    at = _split_points(low, ctx.page_count)
    args: dict[str, Any] = {}
    if every:
        n = number_words(next(g for g in every.groups() if g))
        if not n:
            return None
        args["every"] = n
    elif at:
        args["at"] = at
    elif _has(
        low, r"\b(?:single|individual|separate|one)[\s-](?:pages?|page per file|file per page)\b|\beach page\b"
    ):  # "into single pages", "into single-page PDFs"
        args["every"] = 1
    words = {
        "begin",
        "begins",
        "beginning",
        "start",
        "starts",
        "starting",
        "new",
        "chop",
        "right",
        "just",
        "single-page",
    }
    words |= {"immediately", "ones", "one"}
    parts = re.search(r"\binto\s+(\w+)\s+(?:files|parts|pieces|documents|pdfs|halves)\b", low)
    if parts and "at" in args and number_words(parts.group(1)) == args["at"].count(",") + 2:
        words |= {parts.group(1)}  # "into two files at page 6": one place, two parts
    named = re.search(  # "name them chapter", "call the parts 'section'": the parts' base name
        r"\b(?:name|call)\s+(?:them|the\s+(?:files|parts|pieces|chunks|pdfs|sections|documents))\s+(⟦\d+⟧|[\w-]+)(?:\.pdf)?"
        r"(?:\s*$|\s*[,.])",
        c,
        re.IGNORECASE,
    )
    if named:
        raw = named.group(1)
        args["output"] = ctx.quotes[int(raw[1:-1])] if raw.startswith("⟦") else raw
        words |= {"name", "call", "them"}
    return [Intent("split_pdf", args, stage=2, words=words)]


_EVERY_SIDE = re.compile(
    r"\b(?:all|each|every|both|four)\s+(?:four\s+)?(?:edges?|sides?|margins?)\b|\ball\s+(?:a)?round\b", re.IGNORECASE
)
_CROP_WORDS = {
    "off",
    "from",
    "edges",
    "edge",
    "margins",
    "side",
    "cut",
    "trim",
    "crop",
    "the",
    "right-hand",
    "left-hand",
}


# "crop the bottom", "trim the right": a side with no amount (the tail of "… from the top and the bottom")
_ONE_SIDE = re.compile(r"^\s*(?:crop|trim|cut)\s+(?:the\s+)?(?:top|bottom|left|right)(?:\s+(?:side|edge|margin))?\s*$")


def crop(c: str, low: str, ctx: Context) -> list[Intent] | None:
    """ "crop 20 mm from each side", "trim 2 inches off the bottom", "cut 1 cm off the left and right margins",
    "trim half an inch from the top and bottom"."""
    measures = lengths_in(low)
    every = _EVERY_SIDE.search(low)
    if not _has(low, r"\bcrop\b|\btrim (?:the )?margins?\b") and not (
        measures and _has(low, r"\b(?:trim|cut|crop)\b") and (_has(low, r"\b(?:off|from)\b") or every)
    ):
        return None
    if not measures and _ONE_SIDE.match(low):
        return None  # "crop the bottom" after "crop 10mm from the top and": a side joined on, not a new crop
    if not measures:
        raise NeedInfo('How much should be cropped? Give a margin, e.g. "crop 20 mm from each side".')
    if len(set(measures)) > 1:  # "2 cm from the left and 3 cm from the top": each amount right before its side
        return _crop_by_side(c, low, ctx, every)
    value, unit = measures[0]
    sides = [side for side in ("top", "bottom", "left", "right") if re.search(rf"\b{side}\b", low)]
    if sides and every:
        return None  # "all sides" and "the top": not one reading
    words = _CROP_WORDS | set(every.group(0).split() if every else ())
    args: dict[str, Any] = {"pages": _pages(c, ctx), "unit": unit}
    if sides:
        args.update({side: float(value) for side in sides})
    else:
        args["margin"] = float(value)
    return [Intent("crop_pages", _with_output(args, c, ctx), words=words)]


# "2 cm from the left", "3 cm off the top": an amount and the one side it is cut from
_SIDE_AMOUNT = re.compile(
    r"(\d+(?:\.\d+)?)\s*(pt|points?|mm|cm|in|inch(?:es)?)\s+(?:from|off)\s+(?:the\s+)?(top|bottom|left|right)(?:-hand)?\b"
    r"(?:\s+(?:side|edge|margin))?"
)


def _crop_by_side(c: str, low: str, ctx: Context, every: re.Match[str] | None) -> list[Intent] | None:
    """Different amounts for different sides, each said right before its own side, all in one unit; else None
    (an amount with no side of its own, or a side with no amount: the model reads which goes where)."""
    pairs = _SIDE_AMOUNT.findall(low)
    units = {unit_of(u) for _, u, _ in pairs}
    sides = [side for _, _, side in pairs]
    if every or len(pairs) != len(lengths_in(low)) or len(units) != 1 or len(set(sides)) != len(sides):
        return None
    if set(re.findall(r"\b(top|bottom|left|right)\b", low)) != set(sides):
        return None
    args: dict[str, Any] = {"pages": _pages(c, ctx), "unit": units.pop()}
    args.update({side: float(n) for n, _, side in pairs})
    return [Intent("crop_pages", _with_output(args, c, ctx), words=_CROP_WORDS)]


# "Append terms.pdf to the end of quote.pdf", "tack b.pdf onto the back of a.pdf": one file after another
_APPENDED = re.compile(
    r"^\s*(?:please\s+)?(?:append|tack|add|attach|stick)\s+([\w.-]+)\s+(?:on\s+)?(?:to|onto)\s+(?:the\s+)?"
    r"(?:(?:very\s+)?(?:end|back)\s+of\s+)?([\w.-]+)\s*[.!]?\s*$",
    re.IGNORECASE,
)
_APPEND_WORDS = {"append", "tack", "add", "attach", "stick", "on", "onto", "to", "end", "back", "very", "of"}


def _appended(c: str, ctx: Context) -> list[Intent] | None:
    m = _APPENDED.match(c)
    if not m:
        return None
    if not re.match(r"^\s*(?:please\s+)?(?:append|tack)\b", c, re.IGNORECASE) and not re.search(
        r"\b(?:end|back)\s+of\b", c, re.IGNORECASE
    ):
        return None  # "add b.pdf to a.pdf": where in it is not said
    pdfs = {p.lower(): p for p in ctx.pdfs} | {p.lower().rsplit(".", 1)[0]: p for p in ctx.pdfs}
    first, then = pdfs.get(m.group(2).lower()), pdfs.get(m.group(1).lower())
    if not first or not then or first == then:
        return None
    return [Intent("combine_files", {"files": [first, then]}, words=_APPEND_WORDS)]


def combine(c: str, low: str, ctx: Context) -> list[Intent] | None:
    appended = _appended(c, ctx)
    if appended:
        return appended
    if not _has(
        low,
        r"\b(?:combine|merge|join|concatenate|put together|stitch|bundle)\b|\binto (?:one|a single)\b|"
        r"\bin (?:one|a single) (?:pdf|file|document)\b",
    ):
        return None
    if ctx.images and not ctx.pdfs:
        return [
            Intent("images_to_pdf", _with_output(_page_size({"images": list(ctx.images)}, low), c, ctx), words=_SIZE)
        ]
    if len(ctx.pdfs) < 2:
        return None
    files = _merge_order(c, ctx.pdfs)
    if files is None:
        return None
    args = _with_output({"files": files}, c, ctx)
    into = _INTO_NAME.search(c)
    if "output" not in args and into and not into.group(0).strip().startswith("into ⟦"):
        name = into.group(0).split()[-1]
        if name not in ctx.pdfs:  # "merge a, b and c into full.pdf": the new file's name, not one of theirs
            args["output"] = name
    return [Intent("combine_files", args)]


# Between files named in order: "cover.pdf first, then body.pdf", "february first and then january"
_IN_ORDER = re.compile(
    r"(?:\s|,|:|;|-|\b(?:first|then|and|the|followed\s+by|next|finally|lastly|last|before|after\s+(?:it|that))\b)*",
    re.I,
)
_ORDER_WORDS = re.compile(r"\b(?:first|then|followed|next|finally|last|lastly|before|after|order|start|end)\b", re.I)


_AS_LISTED = re.compile(
    r"^\s*,?\s*(?:in\s+(?:exactly\s+)?(?:that|this)\s+order|in\s+the\s+(?:same\s+)?order\s+(?:given|listed|named|"
    r"written|shown|above|i\s+(?:listed|named|gave|wrote)(?:\s+them)?))\s*$",
    re.IGNORECASE,
)


# "… into full_paper.pdf": the merged file's name, said after the files
_INTO_NAME = re.compile(r"\s*\binto\s+(?:⟦\d+⟧|[\w.\-]+\.pdf)\b", re.IGNORECASE)
_INTO_ONE = re.compile(
    r"^\s*(?:into|in|as)\s+(?:just\s+)?(?:one|a\s+single|a\s+new|one\s+single)(?:\s+(?:pdf|file|document|doc))?\s*$",
    re.IGNORECASE,
)


def _merge_order(c: str, pdfs: list[str]) -> list[str] | None:
    """The files in the order the clause names them; upload order when it names none; None when it names an order
    that is not one simple sequence ("january after february", only some of the files)."""
    named = mentions(c, pdfs)
    sequence = list(dict.fromkeys(name for _, _, name in named))
    if not sequence or len(sequence) == 1 and not _ORDER_WORDS.search(c):
        return list(pdfs)
    if len(named) != len(sequence) or set(sequence) != set(pdfs):
        return None
    # "… and chapter1.pdf in that order (into full.pdf)": the order said is the order; the name is where they go
    tail = _AS_LISTED.sub("", _INTO_NAME.sub("", c[named[-1][1] :]))
    tail = _INTO_ONE.sub("", tail)  # "… and c.pdf into one", "into full.pdf": where they go, not an order
    if len(named) == 2 and re.fullmatch(r"\s*(?:after|behind|at\s+the\s+end\s+of)\s*", c[named[0][1] : named[1][0]]):
        if _IN_ORDER.fullmatch(tail) and not _ORDER_WORDS.search(c[: named[0][0]]):
            return [sequence[1], sequence[0]]  # "put appendix.pdf after main.pdf": main first
        return None
    gaps = [c[a[1] : b[0]] for a, b in zip(named, named[1:], strict=False)] + [tail]
    last = len(gaps) - 1
    for i, gap in enumerate(gaps):
        said = set(re.findall(r"[a-z]+", gap.lower()))
        if (
            not _IN_ORDER.fullmatch(gap)
            or "first" in said
            and i != 0
            or said & {"last", "lastly", "finally"}
            and i < last - 1
        ):
            return None  # "cover last, body first": the words disagree with the order the names come in
    if _ORDER_WORDS.search(c[: named[0][0]].replace("first", "")):
        return None  # "…, last feb and then jan"
    return sequence


def images_to_pdf(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if (
        ctx.images
        and not ctx.pdfs
        and _has(low, r"\b(?:pdf|convert|turn|make|create)\b")
        and not _has(low, r"\bsearchable\b|\bocr\b|\brecogni[sz]e\b")  # the OCR rule makes the PDF and reads it
    ):
        return [
            Intent("images_to_pdf", _with_output(_page_size({"images": list(ctx.images)}, low), c, ctx), words=_SIZE)
        ]
    return None


_SIZE = {"letter-size", "letter-sized", "lettersize", "size", "sized", "paper", "format", "a4-size", "a4-sized"}


def _page_size(args: dict[str, Any], low: str) -> dict[str, Any]:
    """'letter-size pages', 'on A4 paper': the page size of a PDF made from images."""
    m = re.search(r"\ba4\b|\b(?:us\s+)?letter(?:[- ]?sized?\b|\s+(?:paper|pages?|format|size)\b)", low)
    if m:
        args["page_size"] = "A4" if m.group(0) == "a4" else "letter"
    return args


# An image whose name says it is a signature: "sig.png", "my_signature.jpg", "jd-sig.png"
_SIGNATURE_FILE = re.compile(r"(?i)(?:^|[\W_])(?:sig|signature|signed)(?:[\W_]|$)")


def add_image(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not ctx.images or not _has(
        low,
        r"\b(?:add|insert|place|put|paste|include|stamp)\b.*\b(?:logo|image|picture|"
        r"photo|png|jpe?g|graphic)\b",
    ):
        return None
    named = [i for i in ctx.images if i.lower() in low]
    if any(_SIGNATURE_FILE.search(i) for i in named or ctx.images):
        return None  # "put sig.png on page 3": a signature (add_signature) or only a picture? not sure
    args: dict[str, Any] = {"image": (named or ctx.images)[0], "page": pages_in(c, ctx.page_count) or "1"}
    position = position_in(c, default_bottom="bottom-right", default_top="top-right")
    if position:
        args["position"] = position
    width = width_in(c)
    if width:
        args["width"] = width
    return [Intent("add_image", _with_output(args, c, ctx), words={"wide", "width"} if width else set())]


# Why a file must be smaller: "for email", "so it's small enough to email", "small enough to upload"
_FOR_SENDING = re.compile(
    r"\bfor\s+(?:e-?mail(?:ing)?|sending|upload(?:ing)?|the\s+web|sharing)\b|"
    r"\b(?:so\s+(?:that\s+)?it(?:'s|\s+is)\s+)?small\s+enough\s+(?:to|for)\s+(?:e-?mail(?:ing)?|send(?:ing)?|"
    r"upload(?:ing)?|attach(?:ing)?|share|sharing)\b"
)
# Compression as strong as it goes: "max", "as small as possible", "I don't care about image quality"
_HARD = re.compile(
    r"\b(?:maximum|max|highest|high(?!\s+quality)|as small as (?:possible|you can|it can (?:be|go))|"
    r"as much as (?:possible|you can)|strong(?:ly)?|aggressive(?:ly)?|heavily|a lot|"
    r"strongest(?:\s+(?:compression\s+)?setting)?(?:\s+you'?ve\s+got)?)\b|"
    r"\b(?:i\s+)?(?:don'?t|do\s+not)\s+care\s+(?:much\s+)?(?:about|for)\s+(?:the\s+)?(?:image\s+|picture\s+|photo\s+)?"
    r"quality\b"
)
_MEDIUM = re.compile(r"\b(?:medium|moderate|normal|standard)\b")
# Compression that keeps the pictures as they are: "lossless only", "a little", "I don't want the photos to get any
# worse", "without losing quality"
_GENTLE = re.compile(
    r"\b(?:lossless(?:\s+(?:compression\s+)?only)?|only\s+lossless|light(?:ly)?|gently|slightly|low|lowest|minimal|"
    r"a\s+(?:little|bit|little\s+bit)(?:\s+smaller)?|"
    r"without\s+(?:losing|hurting|reducing|affecting)\s+(?:any\s+)?(?:the\s+)?(?:image\s+|picture\s+|photo\s+)?quality|"
    r"(?:i\s+)?(?:don'?t|do\s+not)\s+want\s+(?:the\s+)?(?:photos|images|pictures|quality)\s+to\s+(?:get|look|be|become)\s+"
    r"(?:any\s+)?(?:worse|blurr(?:y|ier)|degraded)|"
    r"so\s+(?:that\s+)?(?:the\s+)?(?:photos|images|pictures)\s+(?:still\s+)?(?:look|looks|stay|stays)\s+(?:good|sharp|fine|nice|"
    r"the\s+same))\b"
)


def compress(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(
        low,
        r"\b(?:compress|shrink|optimi[sz]e|downsize)\b|\breduce (?:the )?(?:file )?size\b|\bsmaller\b|"
        r"\bsmaller file\b|\bcompression\b|\b(?:make|get)\b.*\bas small as (?:possible|you can|it can (?:be|go))\b",
    ):
        return None
    args: dict[str, Any] = {}
    words: set[str] = {"compression", "use", "with", "level"}
    too_big = re.search(  # "it's too big to email": why it must be smaller, not a step
        r"\btoo\s+(?:big|large|heavy|bulky)\b(?:\s+(?:to|for)\s+(?:e-?mail(?:ing)?|send(?:ing)?|upload(?:ing)?|"
        r"attach(?:ing)?|share|sharing)\b)?",
        low,
    )
    purpose = _FOR_SENDING.search(low)
    if purpose:  # "compress the pdf for email", "so it's small enough to email": why, not a step
        words |= set(purpose.group(0).split())
    if too_big:  # "the file is way too big, can you compress it": why, said as what is wrong
        words |= {*too_big.group(0).split(), "way", "far", "much", "bit", "really"}
    for level, pattern in (("high", _HARD), ("low", _GENTLE), ("medium", _MEDIUM)):
        said = [m.group(0) for m in pattern.finditer(low)]
        if said:  # the first level said wins; words of another level stay unread ("max, but lossless": not one)
            args["level"] = level
            words |= {w for phrase in said for w in phrase.split()}
            if re.search(rf"\bbut\s+(?:{re.escape(said[0])})", low):  # "reduce the size, but lossless only"
                words.add("but")
            break
    return [Intent("compress", _with_output(args, c, ctx), words=words)]
