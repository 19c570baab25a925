"""Rules for copies, metadata, forms, conversion, extraction and entity lists."""

from __future__ import annotations

import re
from typing import Any

from docpilot.planning.fastpath.extract import categories_in, format_in, output_name_in, pages_in
from docpilot.planning.fastpath.rules import Context, Intent, _has, _pages, _quoted, _with_output, convert_task
from docpilot.planning.fastpath.text import VERBS

__all__: list[str] = []


def duplicate(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _has(low, r"\brename\b"):
        # "rename the file x.pdf": the file named is the one renamed, its new name is what follows
        c = re.sub(r"\brename\s+(?:(?:the|this)\s+(?:file|document|pdf)|it)\s+(?!to\b|as\b)", "rename ", c)
        name = output_name_in(c.replace("rename", "rename it to", 1) if " to " not in low else c, ctx.quotes)
        quoted = _quoted(c, ctx)
        name = name or (quoted[0] if quoted else None)
        m = re.search(r"\b(?:to|as)\s+([\w.\- ]+\.pdf)\b", c)
        name = name or (m.group(1) if m else None)
        return [Intent("rename", {"new_name": name}, stage=2)] if name else None
    if not _has(low, r"\b(?:copy|duplicate|back ?up)\b") or _has(low, r"\bcopy\b.*\b(?:text|words|wording|writing)\b"):
        return None  # "copy out all the text": the text taken out, no copy of the file
    if _has(low, r"\bduplicated?\s+(?:pages?|entries|lines|rows|images|content|text)\b"):
        return None  # "delete the duplicate pages": which pages repeat others is not a copy of the file
    return [Intent("duplicate", _with_output({}, c, ctx), stage=2)]


_FIELDS = ("title", "author", "subject", "keywords")


# "the keywords to: solar, rooftop, grants": a list of keywords that ends the clause (no other field after it)
_KEYWORD_LIST = re.compile(
    r"\bkeywords\b[^:⟦]*?\b(?:to|as)\s*:?\s+((?:[\w'-]+(?:\s+[\w'-]+)?\s*,\s*)+(?:and\s+)?[\w'-]+(?:\s+[\w'-]+)?)\s*$",
    re.IGNORECASE,
)


# "Author should be Chen Wei, title Site Survey", "Title: Q3 Budget": a property named first, then its new value
_PROPERTY_FIRST = re.compile(
    r"^\s*(?:the\s+)?(?:title|author|subject)\s*(?:should\s+be|must\s+be|needs\s+to\s+be|:|=)\s*"
)


def set_metadata(c: str, low: str, ctx: Context) -> list[Intent] | None:
    named_first = _PROPERTY_FIRST.match(low) is not None
    if not named_first and not _has(low, r"\b(?:set|change|update|make|put)\b.*\b(?:title|author|subject|keywords)\b"):
        return None
    args: dict[str, Any] = {}
    listed = _KEYWORD_LIST.search(c)
    if listed:  # "set the keywords to: solar, rooftop, grants": the whole list, commas and all
        args["keywords"] = listed.group(1).strip()
    for name in _FIELDS:
        if name in args:
            continue
        m = re.search(
            rf"\b{name}\b\s*(?:to|as|=|:|is|should\s+be|must\s+be|needs\s+to\s+be)?\s*(⟦\d+⟧|[^,;]+?)"
            rf"(?:,|\s+and\s+(?:the\s+)?(?:{'|'.join(_FIELDS)})|$)",
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
    if named_first and not all(re.match(r"[A-Z0-9]", str(v)) for v in args.values()):
        return None  # "Author should be changed to …": a value said some other way
    return [Intent("set_metadata", _with_output(args, c, ctx))] if args else None


# "when was it created?", "when was this file last modified?": a date the properties hold
_WHEN_MADE = re.compile(
    r"\bwhen\s+(?:was|were|did)\s+(?:it|this|that|the\s+(?:file|document|pdf|doc))\s+(?:(?:first|last)\s+)?"
    r"(?:created|made|produced|modified|changed|edited|get\s+(?:created|made))\b"
)


def get_metadata(c: str, low: str, ctx: Context) -> list[Intent] | None:
    words = {"listed", "given", "recorded", "stored", "creation", "date", "creation date"}  # "the creation date"
    when = _WHEN_MADE.search(low)
    if when:
        words |= set(when.group(0).split())
    wrote = re.search(r"^\s*who\s+(?:wrote|authored|created|made)\s+(?:it|this|the)\b", low)  # "who wrote this?"
    if wrote:
        words |= set(wrote.group(0).split())
    if (
        when
        or wrote
        or _has(
            low,
            r"\b(?:what is|what's|what are|who is|who's|show|get|read|list|tell me)\b.*"
            r"\b(?:title|author|metadata|properties|creation date|created|producer)\b",
        )
    ):
        return [Intent("get_metadata", {}, words=words)]
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


# "tick the 'Agree' checkbox", "untick the 'Newsletter' box": a checkbox set on (true) or off (false)
_TICK = re.compile(
    r"\b(tick|check|select|untick|uncheck|deselect)\s+(?:the\s+)?(⟦\d+⟧)\s+(?:check\s*-?box|tick\s*-?box|box)\b",
    re.IGNORECASE,
)
_TICK_VERB = r"\b(?:tick|check|select|untick|uncheck|deselect)\b"
_TICK_WORDS = {"tick", "check", "select", "untick", "uncheck", "deselect", "checkbox", "tickbox", "box"}
# "put London in the City field": a capitalised value and a capitalised field name, no quotes
_PLAIN_INTO_FIELD = re.compile(
    r"\b(?i:put|enter|type|write)\s+([A-Z0-9][\w.&'/@-]*(?:\s+[A-Z0-9][\w.&'/@-]*){0,3})\s+(?i:in|into)\s+"
    r"(?i:the\s+)?([A-Z][\w]*(?:\s+[A-Z][\w]*){0,2})\s+(?i:field)\b"
)


def fill_form(c: str, low: str, ctx: Context) -> list[Intent] | None:
    ticks = {
        ctx.quotes[int(m.group(2)[1:-1])]: not m.group(1).lower().startswith(("un", "de")) for m in _TICK.finditer(c)
    }
    if ticks and not _has(low, r"\bfill\b|\bfield\b"):  # "tick the 'Agree' checkbox"
        if _has(ctx.request, r"\bfill|\bfields?\b") or len(re.findall(_TICK_VERB, ctx.request)) != len(ticks):
            return None  # other values in other clauses: one form filled once, not step by step
        return [Intent("fill_form", _with_output({"values": ticks}, c, ctx), words=_TICK_WORDS)]
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
    if not values:  # "Name = Grace Liu, Date of Birth = 14/02/1989", "fill Company with Brightwater Ltd"
        values = _unquoted_values(c, ctx.quotes)
    if not values:  # "put 'Acme Ltd' in the 'Company' field", "type 'Jane' into the Name field"
        for m in _VALUE_INTO_FIELD.finditer(c):
            for value, key in ((m.group(1), m.group(2)), (m.group(3), m.group(4))):
                if value and key:
                    values[ctx.quotes[int(key[1:-1])]] = ctx.quotes[int(value[1:-1])]
    if not values and len(re.findall(r"\bfields?\b", ctx.request)) == 1 and not re.search(_TICK_VERB, ctx.request):
        values = {m.group(2): m.group(1) for m in _PLAIN_INTO_FIELD.finditer(c)}  # "put London in the City field"
    if not values:
        return None
    return [Intent("fill_form", _with_output({"values": values}, c, ctx), words={"type", "enter", "write"})]


# "Name = Grace Liu, Date of Birth = 14/02/1989": a field's name (capitalised words, "of" between) and its value up to
# the next pair or the end of the clause
_FIELD_NAME = r"[A-Z][\w]*(?:\s+(?:of\s+)?[A-Z][\w]*){0,3}"
# Where the list of values starts: "fill in the form: …", "fill in the form with …"
_FILL_LIST = re.compile(r"\b(?i:fill)\b[^=⟦:]*?(?:\b(?i:with)\b|:)\s+|\b(?i:fill\s+in)\s+(?=[A-Z][\w ]{0,30}=)")
# "Name = " or "Date of Birth: " at the start of each pair
_KEY = re.compile(rf"(?:^|\s*,\s*(?:and\s+)?|\s+and\s+)({_FIELD_NAME})\s*[=:]\s*")
# "fill the form: Name 'Jane', Email 'jane@x.com'": field names before quoted values, the whole list to the end
_QUOTED_PAIRS = re.compile(
    rf"\b(?i:fill)\b[^:⟦=]*?(?:\b(?i:with)|:)\s+((?:{_FIELD_NAME})\s*[=:]?\s*⟦\d+⟧(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)(?:{_FIELD_NAME})\s*[=:]?\s*⟦\d+⟧)*)"
    r"\s*$"
)
_QUOTED_PAIR = re.compile(rf"({_FIELD_NAME})\s*[=:]?\s*(⟦\d+⟧)")
# "fill Company with Brightwater Ltd": a capitalised field name and a capitalised value that ends the clause
_FILL_WITH = re.compile(
    r"\b(?i:fill)\s+(?:in\s+)?(?:the\s+)?(?!(?i:form|it|this|the)\b)([A-Z][\w]*(?:\s+[A-Z][\w]*){0,2})\s+(?:field\s+)?"
    r"with\s+(⟦\d+⟧|[A-Z0-9][\w.&'/-]*(?:\s+[A-Z0-9][\w.&'/-]*)*)\s*$"
)


_DESCRIBED = re.compile(r"(?i)(?:the|a|an|my|your|our|their|his|her|its|this|that)\b")


def _pairs(c: str) -> dict[str, Any]:
    """ "Name = Grace Liu, Date: 12/05/2025 and City = Oslo" to the end of the clause; empty when the list does not
    start right after "fill … with" / "fill …:", or a value holds a page reference ("Name = Bo on page 2")."""
    start = _FILL_LIST.search(c)
    if not start:
        return {}
    rest = c[start.end() :]
    keys = list(_KEY.finditer(rest))
    if not keys or keys[0].start() != 0:
        return {}
    values: dict[str, Any] = {}
    for key, following in zip(keys, [*keys[1:], None], strict=True):
        value = rest[key.end() : following.start() if following else len(rest)].strip()
        if not value or "⟦" in value or "=" in value or pages_in(value) is not None or _DESCRIBED.match(value):
            return {}  # "Name = the client" describes a value, it does not give one
        if re.search(rf"\band\s+(?:then\s+)?(?:(?:{VERBS})\b|{_TICK_VERB})", value, re.IGNORECASE):
            return {}  # "Nationality = German and tick the gdpr box": another action, not the value's words
        values[key.group(1)] = value
    return values


def _unquoted_values(c: str, quotes: list[str]) -> dict[str, Any]:
    """Field values written without quotes: "fill in the form: Name = Grace Liu, Date = 12/05/2025" (every pair
    to the end of the clause) or "fill Company with Brightwater Ltd" (one field, a capitalised value)."""
    pairs = _pairs(c)
    if pairs:
        return pairs
    m = _QUOTED_PAIRS.search(c)
    if m:
        return {k.strip(): quotes[int(v[1:-1])] for k, v in _QUOTED_PAIR.findall(m.group(1))}
    m = _FILL_WITH.search(c)
    if m:
        value = m.group(2)
        return {m.group(1): quotes[int(value[1:-1])] if value.startswith("⟦") else value}
    return {}


_VALUE_INTO_FIELD = re.compile(
    r"\b(?:put|enter|type|write|fill\s+in|insert|add)\s+(⟦\d+⟧)\s+(?:in|into|under|for)\s+(?:the\s+)?(⟦\d+⟧)\s+field\b"
    r"(?:\s*(?:,\s*)?(?:and\s+)?(⟦\d+⟧)\s+(?:in|into|under|for)\s+(?:the\s+)?(⟦\d+⟧)\s+field\b)?",
    re.IGNORECASE,
)


def form_tools(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _has(low, r"\bflatten|\block\s+(?:the\s+|all\s+(?:the\s+)?)?(?:form\s+)?fields\b"):  # "lock the form fields"
        purpose = {"no", "longer", "edited", "editable", "edit", "changed", "can't", "cannot", "not", "nobody"}
        purpose |= {"anymore", "anyone", "no-one", "noone", "answers", "entries", "values", "responses", "modified"}
        return [Intent("flatten_form", _with_output({}, c, ctx), words=purpose)]
    if _has(
        low,
        r"\b(?:read|list|show|what are|get|extract)\b.*\b(?:form fields?|fields|form values|form data|"
        r"form entries)\b|\b(?:what|which)\s+(?:form\s+)?fields\b|"
        r"\b(?:what|which|show|list|read)\b.*\bvalues?\s+(?:in|of|on)\s+(?:the\s+)?form\b",  # "the values in the form"
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
    if _has(
        low, r"\b(?:images?|pictures?|photos?|pngs?|jpe?gs?|scans?)\s+(?:in)?to\s+(?:a\s+|one\s+|a\s+single\s+)?pdf\b"
    ):
        return None  # "turn these images into a PDF": the images are what is turned, a PDF is what comes out
    if fmt == "xlsx" and not _has(low, r"\b(?:convert|export|save|turn|put|give|make|create|to|into|as)\b"):
        return None
    args: dict[str, Any] = {}
    pages = pages_in(c, ctx.page_count)
    if pages and pages != "all":
        args["pages"] = pages
    words: set[str] = set()
    if fmt in ("png", "jpeg", "tiff"):
        m = re.search(r"(\d{2,4})\s*dpi\b", low)
        if m:
            args["dpi"] = int(m.group(1))
            words = {"high-res", "hi-res", "high-resolution", "resolution"}  # "high-res PNGs, 600 dpi"
    if fmt == "jpeg":  # "quality 80", "at 90% quality", "a quality of 70"
        m = re.search(
            r"\bquality\s*(?:of\s+|=\s*|:\s*|at\s+|set\s+to\s+)?(\d{1,3})\b(?!\s*dpi)|\b(\d{1,3})\s*%?\s*quality\b", low
        )
        if m and 1 <= int(m.group(1) or m.group(2)) <= 100:
            args["quality"] = int(m.group(1) or m.group(2))
    return [Intent(convert_task(fmt), _with_output(args, c, ctx), stage=2, words=words)]


def extraction(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(
        low,
        r"\b(?:extract|pull out|get|save|list|show|export|give me|what are|find|dump)\b|\bpull\b.*\bout\b|"
        r"\bwhat(?:'s|\s+is)\s+(?:in\s+)?the\s+(?:table\s+of\s+contents|outline)\b|"
        r"\b(?:copy|grab)\b.*\b(?:text|words)\b",
    ):
        return None
    pages = pages_in(c, ctx.page_count)
    page_args = {"pages": pages} if pages and pages != "all" else {}
    if _has(low, r"\battach(?:ments|ed files)\b|\bembedded files\b"):
        return [Intent("extract_attachments", {}, stage=2)]
    if _has(low, r"\b(?:as|into|to)\s+(?:an?\s+)?(?:\w+\s+)?(?:images|pictures|pngs?|jpe?gs?)\b"):
        return None  # "export them as PNG images" renders the pages (a conversion)
    if _has(low, r"\b(?:images|pictures|photos|figures|graphics)\b"):  # "the pictures embedded in it"
        return [Intent("extract_images", dict(page_args), stage=2, words={"embedded", "inside", "separate"})]
    if _has(low, r"\b(?:outline|bookmarks|table of contents|toc)\b"):  # before tables: a "table of contents" is none
        contents = _has(low, r"\btable of contents\b") and not _has(low, r"\btables?\b(?!\s+of\s+contents)")
        return [Intent("get_outline", {}, words={"table", "contents"} if contents else set())]
    if _has(low, r"\btables?\b"):
        if format_in(low) in ("xlsx", "docx", "markdown", "text"):
            return None  # "export the tables to Excel" is a conversion
        return [Intent("extract_tables", dict(page_args))]
    if _has(
        low,
        r"\b(?:extract|pull out|get|save|export|give me|copy|grab|dump)\b.*\b(?:text|words)\b|"
        r"\bpull\b.*\btext\b.*\bout\b",
    ):  # "copy the text off pages 2-4", "grab the words off every even-numbered page"
        return [Intent("extract_text", _with_output(dict(page_args), c, ctx), stage=2, words={"off", "out", "dump"})]
    return None


# "even the ones that already have a text layer", "redo the OCR", "force OCR": recognise pages that have text too
_FORCE = re.compile(
    r"\beven\s+(?:on\s+)?(?:the\s+)?(?:ones|pages?)\s+(?:that|which)\s+already\s+(?:have|has|contain)\s+"
    r"(?:a\s+|some\s+)?(?:text|selectable\s+text|searchable\s+text)(?:\s+layers?)?\b|"
    # "(again) even though they already have text"
    r"(?:\bagain\s+)?\beven\s+(?:though|if)\s+(?:they|it|the\s+pages?|these\s+pages|those\s+pages)\s+already\s+"
    r"(?:have|has|contain|contains)\s+(?:a\s+|some\s+)?(?:text|selectable\s+text|searchable\s+text)(?:\s+layers?)?\b|"
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
        words |= {"copyable", "highlightable", "recognition"}  # "run text recognition": OCR said in words
        if len(set(args.get("language", "").split("+"))) > 1:  # "half English, half German", "a mix of …"
            words |= {"half", "mix", "mixed", "both"}
        found = [Intent("ocr", _with_output(args, c, ctx), words=words)]
        if ctx.images and not ctx.pdfs:  # photos made searchable: a PDF of them first (one, however often said)
            found.append(Intent("images_to_pdf", {"images": list(ctx.images)}))  # (steps that merge come first)
        return found
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


# Yes-or-no questions a search answers: "are there any email addresses anywhere in this document?",
# "does 'indemnify' show up anywhere in here?"
_ASKED = re.compile(
    r"^\s*(?:are|is)\s+there\s+(any|some)\b|"
    r"^\s*(?:does|do|is|are)\s+(?:the\s+(?:word|term|phrase|name)\s+)?⟦\d+⟧\s+(?:show\s+up|appear|occur|come\s+up)\b"
)


# "does the contract mention arbitration?": one word that ends the question is the word to look for
_MENTIONS_WORD = re.compile(
    r"^\s*(?:does|do|did)\s+(?:it|this|the\s+\w+)\s+(?:mention|contain|include|use)\s+([a-z][\w'-]*)\s*\??\s*$",
    re.IGNORECASE,
)


# "Search for lien as a standalone word": one word right after "search for" / "look for", then nothing or how to match
_SEARCHED_WORD = re.compile(
    r"^\s*(?:please\s+)?(?:search|look)\s+for\s+([a-z][\w'-]*)\s*(?=$|,|\bas\s+an?\s+(?:whole|separate|standalone)\b|"
    r"\b(?:whole\s+words?|case[- ]sensitive)\b)",
    re.IGNORECASE,
)


def _one_word_asked(c: str, target: Any) -> None:
    from docpilot.planning.fastpath.spans import is_filler

    m = _MENTIONS_WORD.match(c) or _SEARCHED_WORD.match(c)
    if m and not is_filler(m.group(1)):
        target.terms = [m.group(1)]


def search(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(
        low,
        r"\bwhich pages?\b|\bwhere (?:is|are|does|do)\b|\bsearch\b|\bfind\b|\bhow (?:many times|often)\b|"
        r"\blook for\b|\blocate\b|\bon what pages?\b|"
        r"\b(?:does|do)\s+(?:it|(?:this|the)(?:\s+(?:document|doc|file|pdf|contract|report|paper))?)\s+(?:mention|contain)|"
        r"\b(?:is|are)\s+(?:the\s+(?:word|term|phrase|name)\s+)?⟦\d+⟧\s+(?:mentioned|used|referenced|present|"
        r"anywhere|in\s+(?:it|here|this|the\s+(?:file|document|pdf)))\b",
    ) and not _ASKED.search(low):
        return None
    from docpilot.planning.fastpath.targets import target_in

    asked = _ASKED.search(low)
    verb = re.search(
        r"mention(?:s|ed)?|contain(?:s)?|search(?: for)?|find|look for|locate|appears?|shows?\s+up|occurs?|"
        r"comes?\s+up|include(?:s)?",
        low,
    )
    if asked and asked.group(1):  # "are there any email addresses …": what follows "any" is what to look for
        verb = asked
    target = target_in(c, verb.group(0) if verb else "search", ctx.quotes)
    if target.empty and not target.unsupported:
        _one_word_asked(c, target)
    if target.empty or target.unsupported:
        return None
    args = {**target.args(), "pages": _pages(c, ctx)}
    return [Intent("search_text", args, target=target, words=_HOW_OFTEN_WORDS | target.words)]
