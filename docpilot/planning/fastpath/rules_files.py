"""Rules for copies, metadata, forms, conversion, extraction and entity lists."""

from __future__ import annotations

import re
from typing import Any

from docpilot.planning.fastpath.extract import categories_in, format_in, output_name_in, pages_in
from docpilot.planning.fastpath.rules import Context, Intent, _has, _pages, _quoted, _with_output, convert_task

__all__: list[str] = []


def duplicate(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _has(low, r"\brename\b"):
        name = output_name_in(c.replace("rename", "rename it to", 1) if " to " not in low else c, ctx.quotes)
        quoted = _quoted(c, ctx)
        name = name or (quoted[0] if quoted else None)
        m = re.search(r"\b(?:to|as)\s+([\w.\- ]+\.pdf)\b", c)
        name = name or (m.group(1) if m else None)
        return [Intent("rename", {"new_name": name}, stage=2)] if name else None
    if not _has(low, r"\b(?:copy|duplicate|back ?up)\b") or _has(low, r"\bcopy (?:the )?text\b"):
        return None
    if _has(low, r"\bduplicated?\s+(?:pages?|entries|lines|rows|images|content|text)\b"):
        return None  # "delete the duplicate pages": which pages repeat others is not a copy of the file
    return [Intent("duplicate", _with_output({}, c, ctx), stage=2)]


_FIELDS = ("title", "author", "subject", "keywords")


def set_metadata(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(low, r"\b(?:set|change|update|make|put)\b.*\b(?:title|author|subject|keywords)\b"):
        return None
    args: dict[str, Any] = {}
    for name in _FIELDS:
        m = re.search(
            rf"\b{name}\b\s*(?:to|as|=|:|is)?\s*(⟦\d+⟧|[^,;]+?)(?:,|\s+and\s+(?:the\s+)?(?:{'|'.join(_FIELDS)})|$)",
            c,
            re.IGNORECASE,
        )
        if m:
            raw = m.group(1).strip()
            # "the title in the properties to Q3 Budget": the value is what follows "to" / "as" only
            where = re.match(r"^(?:in|of|for|on|inside|within)\b.*?\b(?:to|as)\s+(.+)$", raw, re.IGNORECASE)
            raw = where.group(1).strip() if where else raw
            raw = raw.strip("()[] ")
            args[name] = ctx.quotes[int(raw[1:-1])] if re.fullmatch(r"⟦\d+⟧", raw) else raw
    return [Intent("set_metadata", _with_output(args, c, ctx))] if args else None


def get_metadata(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _has(
        low,
        r"\b(?:what is|what's|what are|who is|who's|show|get|read|list|tell me)\b.*"
        r"\b(?:title|author|metadata|properties|creation date|created|producer)\b",
    ):
        return [Intent("get_metadata", {}, words={"listed", "given", "recorded", "stored"})]
    return None


# What sanitize takes out: said together ("the metadata, links, attachments") or as risky content ("scripts")
_HIDDEN = re.compile(
    r"\b(?:metadata|links?|attachments?|(?:hidden|embedded)\s+(?:stuff|data|content|info|information|files?|text|code)|"
    r"javascript|scripts?|macros?|active\s+content|anything\s+(?:risky|dangerous|malicious|hidden))\b"
)
_RISKY = re.compile(
    r"\b(?:javascript|scripts?|macros?|active\s+content|anything\s+(?:risky|dangerous|malicious)|hidden)\b"
)
_SANITIZE_WORDS = {"metadata", "links", "link", "attachments", "attachment", "hidden", "embedded", "stuff", "risky"}
_SANITIZE_WORDS |= {
    "dangerous",
    "malicious",
    "javascript",
    "scripts",
    "script",
    "macros",
    "active",
    "content",
    "like",
    "clean",
}


def sanitize(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _has(
        low,
        r"\bsanitize|\bsanitise|\bscrub (?:the )?(?:file|document|metadata)|\bremove (?:all )?(?:the )?"
        r"(?:hidden (?:data|content|text)|javascript|scripts|metadata)\b|\bclean (?:up )?(?:the )?metadata",
    ):
        return [Intent("sanitize", _with_output({}, c, ctx))]
    kinds = {m.group(0) for m in _HIDDEN.finditer(low)}
    if _has(low, r"\b(?:remove|strip|clean|scrub|get rid of|clear|take out|purge)\b") and (
        len(kinds) >= 2 or _RISKY.search(low)
    ):  # "strip out the metadata, links, attachments, all the hidden stuff", "clean it of embedded scripts"
        return [Intent("sanitize", _with_output({}, c, ctx), words=_SANITIZE_WORDS)]
    return None


def fill_form(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(low, r"\bfill\b|\bfield\b"):
        return None
    if _has(low, r"\bflatten\b"):
        return None
    values: dict[str, Any] = {}
    pattern = re.compile(
        r"(?:field\s+)?(⟦\d+⟧)(?:\s+field)?\s+(?:with|to|as|=|:)\s+(⟦\d+⟧|[^,;]+?)"
        r"(?=,|\s+and\s+(?:the\s+)?(?:field\s+)?⟦|$)",
        re.IGNORECASE,
    )
    for m in pattern.finditer(c):
        key = ctx.quotes[int(m.group(1)[1:-1])]
        raw = m.group(2).strip()
        values[key] = ctx.quotes[int(raw[1:-1])] if re.fullmatch(r"⟦\d+⟧", raw) else raw
    if not values:  # "put 'Acme Ltd' in the 'Company' field", "type 'Jane' into the Name field"
        for m in _VALUE_INTO_FIELD.finditer(c):
            for value, key in ((m.group(1), m.group(2)), (m.group(3), m.group(4))):
                if value and key:
                    values[ctx.quotes[int(key[1:-1])]] = ctx.quotes[int(value[1:-1])]
    if not values:
        return None
    return [Intent("fill_form", _with_output({"values": values}, c, ctx), words={"type", "enter", "write"})]


_VALUE_INTO_FIELD = re.compile(
    r"\b(?:put|enter|type|write|fill\s+in|insert|add)\s+(⟦\d+⟧)\s+(?:in|into|under|for)\s+(?:the\s+)?(⟦\d+⟧)\s+field\b"
    r"(?:\s*(?:,\s*)?(?:and\s+)?(⟦\d+⟧)\s+(?:in|into|under|for)\s+(?:the\s+)?(⟦\d+⟧)\s+field\b)?",
    re.IGNORECASE,
)


def form_tools(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _has(low, r"\bflatten"):  # "… so the fields can no longer be edited" says why, not what else
        purpose = {"no", "longer", "edited", "editable", "edit", "changed", "can't", "cannot", "not", "nobody"}
        purpose |= {"anymore", "anyone", "no-one", "noone", "answers", "entries", "values", "responses", "modified"}
        return [Intent("flatten_form", _with_output({}, c, ctx), words=purpose)]
    if _has(
        low,
        r"\b(?:read|list|show|what are|get|extract)\b.*\b(?:form fields?|fields|form values|form data|"
        r"form entries)\b|\b(?:what|which)\s+(?:form\s+)?fields\b",
    ):
        return [Intent("read_form", {}, words={"current", "existing", "entered", "filled", "filled-in"})]
    return None


def convert(c: str, low: str, ctx: Context) -> list[Intent] | None:
    fmt = format_in(low)
    if not fmt or not _has(
        low,
        r"\b(?:convert|turn|export|save|make|give|send|render|output|transform|change|"
        r"create|produce|generate|want|as|into|to)\b",
    ):
        return None
    if fmt == "png" and _has(low, r"\b(?:extract|pull out)\b.*\b(?:images|pictures|photos)\b"):
        return None
    if fmt == "xlsx" and not _has(low, r"\b(?:convert|export|save|turn|put|give|make|create|to|into|as)\b"):
        return None
    args: dict[str, Any] = {}
    pages = pages_in(c, ctx.page_count)
    if pages and pages != "all":
        args["pages"] = pages
    if fmt in ("png", "jpeg", "tiff"):
        m = re.search(r"(\d{2,4})\s*dpi\b", low)
        if m:
            args["dpi"] = int(m.group(1))
    if fmt == "jpeg":  # "quality 80", "at 90% quality", "a quality of 70"
        m = re.search(
            r"\bquality\s*(?:of\s+|=\s*|:\s*|at\s+|set\s+to\s+)?(\d{1,3})\b(?!\s*dpi)|\b(\d{1,3})\s*%?\s*quality\b", low
        )
        if m and 1 <= int(m.group(1) or m.group(2)) <= 100:
            args["quality"] = int(m.group(1) or m.group(2))
    return [Intent(convert_task(fmt), _with_output(args, c, ctx), stage=2)]


def extraction(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(low, r"\b(?:extract|pull out|get|save|list|show|export|give me|what are|find)\b|\bpull\b.*\bout\b"):
        return None
    pages = pages_in(c, ctx.page_count)
    page_args = {"pages": pages} if pages and pages != "all" else {}
    if _has(low, r"\battach(?:ments|ed files)\b|\bembedded files\b"):
        return [Intent("extract_attachments", {}, stage=2)]
    if _has(low, r"\b(?:as|into|to)\s+(?:an?\s+)?(?:\w+\s+)?(?:images|pictures|pngs?|jpe?gs?)\b"):
        return None  # "export them as PNG images" renders the pages (a conversion)
    if _has(low, r"\b(?:images|pictures|photos|figures|graphics)\b"):
        return [Intent("extract_images", dict(page_args), stage=2)]
    if _has(low, r"\btables?\b"):
        if format_in(low) in ("xlsx", "docx", "markdown", "text"):
            return None  # "export the tables to Excel" is a conversion
        return [Intent("extract_tables", dict(page_args))]
    if _has(low, r"\b(?:outline|bookmarks|table of contents|toc)\b"):
        return [Intent("get_outline", {})]
    if _has(low, r"\b(?:extract|pull out|get|save|export|give me)\b.*\btext\b|\bpull\b.*\btext\b.*\bout\b"):
        return [Intent("extract_text", _with_output(dict(page_args), c, ctx), stage=2)]
    return None


# "even the ones that already have a text layer", "redo the OCR", "force OCR": recognise pages that have text too
_FORCE = re.compile(
    r"\beven\s+(?:on\s+)?(?:the\s+)?(?:ones|pages?)\s+(?:that|which)\s+already\s+(?:have|has|contain)\s+"
    r"(?:a\s+|some\s+)?(?:text|selectable\s+text|searchable\s+text)(?:\s+layers?)?\b|"
    r"\b(?:force|forced|forcing)\s+(?:the\s+)?ocr\b|\bocr\b.{0,20}\bforced?\b|\bredo\s+(?:the\s+)?ocr\b|\bre-?ocr\b|"
    r"\b(?:replace|overwrite|redo)\s+(?:the\s+|any\s+)?existing\s+text(?:\s+layers?)?\b"
)


def ocr(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _has(
        low,
        r"\bocr\b|\bre-?ocr\b|\bsearchable\b|\brecogni[sz]e (?:the )?text\b|\btext recognition\b|"
        r"\b(?:make|turn|get)\b.*\b(?:text\s+)?(?:selectable|copyable|highlightable)\b",
    ):
        from pdftools._ocr import LANGUAGE_NAMES

        names = [w for w in re.findall(r"[a-z]+", low) if len(w) > 2 and w in LANGUAGE_NAMES]
        force = _FORCE.search(low)
        args: dict[str, Any] = {"pages": _pages(_FORCE.sub(" ", c) if force else c, ctx)}  # "even the ones" is no page
        if names:
            args["language"] = "+".join(dict.fromkeys(LANGUAGE_NAMES[n] for n in names))
        words: set[str] = set()
        if force:
            args["force"] = True
            words = set(re.findall(r"[\w'-]+", force.group(0)))
        return [Intent("ocr", _with_output(args, c, ctx), words=words | {"copyable", "highlightable"})]
    return None


def find_entities(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(low, r"\b(?:find|list|show|extract|get|what are|which|identify|pull out|detect)\b"):
        return None
    cats = categories_in(low)
    if not cats:
        return None
    from docpilot.planning.fastpath.targets import Target

    args: dict[str, Any] = {"categories": cats}
    pages = pages_in(c, ctx.page_count)
    if pages and pages != "all":
        args["pages"] = pages
    return [Intent("find_entities", args, target=Target(categories=list(cats)))]  # "… and redact them"


_HOW_OFTEN_WORDS = {"how", "many", "times", "often", "appear", "appears", "show", "shows", "up", "occur", "occurs"}
_HOW_OFTEN_WORDS |= {"come", "comes", "number", "anywhere", "used", "referenced", "present"}


def search(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(
        low,
        r"\bwhich pages?\b|\bwhere (?:is|are|does|do)\b|\bsearch\b|\bfind\b|\bhow (?:many times|often)\b|"
        r"\blook for\b|\blocate\b|\bon what pages?\b|"
        r"\b(?:does|do)\s+(?:it|(?:this|the)(?:\s+(?:document|doc|file|pdf|contract|report|paper))?)\s+(?:mention|contain)|"
        r"\b(?:is|are)\s+(?:the\s+(?:word|term|phrase|name)\s+)?⟦\d+⟧\s+(?:mentioned|used|referenced|present|"
        r"anywhere|in\s+(?:it|here|this|the\s+(?:file|document|pdf)))\b",
    ):
        return None
    from docpilot.planning.fastpath.targets import target_in

    verb = re.search(
        r"mention(?:s|ed)?|contain(?:s)?|search(?: for)?|find|look for|locate|appears?|shows?\s+up|occurs?|"
        r"comes?\s+up|include(?:s)?",
        low,
    )
    target = target_in(c, verb.group(0) if verb else "search", ctx.quotes)
    if target.empty or target.unsupported:
        return None
    args = {**target.args(), "pages": _pages(c, ctx)}
    return [Intent("search_text", args, target=target, words=_HOW_OFTEN_WORDS | target.words)]
