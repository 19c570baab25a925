"""Clause → tool calls. Each rule knows one tool family's vocabulary and argument patterns.

A rule returns the intents it understood, or None when the clause is not its kind.
When the clause is its kind but an argument is missing, it raises ``NeedInfo`` (for
example a password to protect with) so the user is asked instead of guessed for.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from docpilot.planning.fastpath.extract import (
    categories_in,
    output_name_in,
    pages_in,
    password_in,
    password_pair_in,
    position_in,
    width_in,
)
from docpilot.planning.fastpath.targets import Target, target_in

__all__ = ["Intent", "Context", "NeedInfo", "convert_task"]


@functools.cache
def _conversions() -> dict[str, str]:
    from pdftools import all_tools

    return {t.converts_to: t.name for t in all_tools().values() if t.converts_to}


def convert_task(fmt: str) -> str:
    """The tool that converts a PDF to ``fmt`` ("docx", "png" …), as the tools declare (``converts_to``)."""
    return _conversions()[fmt]


class NeedInfo(Exception):
    """The request is understood but lacks something only the user can give: a clarifying question.

    ``choices`` are the answers to offer (file names for "which file?"), empty when the answer is free text.
    """

    def __init__(self, question: str, choices: list[str] | None = None) -> None:
        super().__init__(question)
        self.choices = list(choices or [])


@dataclass
class Intent:
    task: str
    args: dict[str, Any] = field(default_factory=dict)
    stage: int = 1  # 0 unlock · 1 edit (request order) · 2 convert/export · 3 lock
    target: Target | None = None
    words: set[str] = field(default_factory=set)  # modifier words the rule used ("except", "down")
    decided: list[str] = field(default_factory=list)  # the words of the request this step was made from


@dataclass
class Context:
    quotes: list[str]
    pdfs: list[str]
    images: list[str]
    page_count: int | None
    last_target: Target | None = None
    request: str = ""  # the whole request, lower case (a clause may need to know what the others ask)
    last_value: str | None = None  # the return name of the latest step that makes a value ("summary")


Rule = Callable[[str, str, Context], "list[Intent] | None"]


def _has(c: str, pattern: str) -> bool:
    return re.search(pattern, c, re.IGNORECASE) is not None


def _pages(c: str, ctx: Context, default: str | None = "all") -> str | None:
    return pages_in(c, ctx.page_count) or default


def _quoted(c: str, ctx: Context) -> list[str]:
    return [ctx.quotes[int(n)] for n in re.findall(r"⟦(\d+)⟧", c)]


def _with_output(args: dict[str, Any], c: str, ctx: Context) -> dict[str, Any]:
    name = output_name_in(c, ctx.quotes)
    if name:
        args["output"] = name
    return args


def _password_suffix(c: str, ctx: Context) -> list[Intent]:
    """'… with password X' inside another instruction means: lock the result."""
    if _has(c, r"\bwith (?:a |the )?password\b|\bpassword[- ]protect|\bprotected with\b|\bencrypt"):
        pw = password_in(c, ctx.quotes)
        if not pw:
            raise NeedInfo(
                "Which password should protect the file? Say it in the request, e.g. "
                '"protect it with the password Budget2025".'
            )
        return [Intent("add_password", {"password": pw}, stage=3)]
    return []


def check_password(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _has(low, r"\b(?:is|are|does|do|has|have)\b.*\b(?:password|encrypted|protected|locked)\b") and not _has(
        low, r"\b(?:remove|add|set|protect with)\b"
    ):
        tried = re.search(  # "does the password 'letmein' open this file?", "is 'abc1' the right password?"
            r"\bpassword\s+(⟦\d+⟧)\s+(?:open|opens|work|works|unlock|unlocks)\b|"
            r"\b(?:is|does)\s+(⟦\d+⟧)\s+(?:the\s+)?(?:right|correct|valid)\s+password\b",
            c,
            re.IGNORECASE,
        )
        if tried:
            raw = tried.group(1) or tried.group(2)
            args = {"password": ctx.quotes[int(raw[1:-1])]}
            return [Intent("check_password", args, stage=1, words={"right", "correct", "valid", "work", "works"})]
        return [Intent("check_password", {}, stage=1)]
    return None


def remove_password(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(
        low,
        r"\b(?:remove|strip|delete|take off|drop|clear|disable)\b.*\b(?:password|encryption|protection)\b"
        r"|\btake\s+(?:the\s+)?(?:password|encryption|protection)\s+off\b|\bunlock\b|\bdecrypt\b|\bunprotect\b",
    ):
        return None
    pw = password_in(c, ctx.quotes)
    args = {"password": pw} if pw else {}
    words = {"take", "off", "current", "old", "existing"}
    if pw and re.search(r"\b(?:current|old|existing)\s+one\s+is\b", low):  # "…, the current one is X": the password
        words.add("one")
    return [Intent("remove_password", args, stage=0, words=words)]


def add_password(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(
        low,
        r"\b(?:protect|encrypt|lock|secure|password[- ]protect)\b|\b(?:add|set|put|apply)\s+(?:a\s+|the\s+)?"
        r"password\b|\bread[- ]only\b.*\bpassword\b|\bpassword\b.*\bread[- ]only\b",
    ):
        return None
    pair = password_pair_in(c, ctx.quotes)
    if pair:  # "the open password X and the owner password Y"
        words = {"open", "opening", "user", "owner", "permissions", "permission", "master", "admin", "editing", "view"}
        return [Intent("add_password", {"password": pair[0], "owner_password": pair[1]}, stage=3, words=words)]
    pw = password_in(c, ctx.quotes)
    if not pw:
        raise NeedInfo(
            "Which password should protect the file? Say it in the request, e.g. "
            '"protect it with the password Budget2025".'
        )
    return [Intent("add_password", {"password": pw}, stage=3)]


def count_pages(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _has(low, r"\bhow many pages\b|\bnumber of pages\b|\bpage count\b|\bcount (?:the )?pages\b|\bhow long is\b"):
        return [Intent("count_pages", {})]
    return None


def _markup(task: str, verb: str) -> Rule:
    def rule(c: str, low: str, ctx: Context) -> list[Intent] | None:
        if not _has(low, rf"\b(?:{verb})\b"):
            return None
        said = re.search(rf"\b(?:{verb})\b", low, re.I)  # found: _has matched the same pattern
        target = target_in(c, said.group(0) if said else verb.split("|")[0], ctx.quotes)
        if target.pronoun and ctx.last_target is not None:
            target = ctx.last_target
        _refuse_unsupported(target, verb.split("|")[0])
        if target.unsupported or target.empty:
            return None
        args: dict[str, Any] = {**target.args(), "pages": _pages(c, ctx)}
        color = re.search(r"\bin (yellow|green|red|blue|orange|pink|purple|gray|grey)\b", low)
        if color and task != "redact_text":
            args["color"] = color.group(1)
        return [Intent(task, _with_output(args, c, ctx), target=target, words=set(target.words))]

    return rule


def _refuse_unsupported(target: Any, verb: str) -> None:
    """One party's or one role's name ("the client name", "the name of the consultant"): the tools find
    people, organisations and both parties, not which one a role means. Ask for the words instead of guessing."""
    if target.unsupported and target.empty:
        what = target.unsupported.strip().lower()
        what = "that name" if what.startswith("name") else what
        raise NeedInfo(
            f"I cannot tell on my own which words are {what}: I find people's names, organisations, addresses, "
            "headings, emails, phone numbers, IDs, SSNs, card and account numbers, dates, money amounts and URLs. "
            f"Say one of those kinds, or put the exact words in quotes, e.g. {verb} 'Maria Gonzalez'."
        )


def redact(c: str, low: str, ctx: Context) -> list[Intent] | None:
    m = re.search(
        r"\b(?:redact|black ?out|blackout|blank ?out|white ?out|censor|mask|obscure|hide|erase|scrub|remove|delete|strip)\b",  # noqa: E501 - one alternation reads best whole
        low,
    )
    if not m:
        return None
    verb = m.group(0)
    rest = low[m.end() :]
    if verb in ("remove", "delete", "strip", "erase") and (
        _has(
            rest,
            r"\b(?:pages?|password|annotations?|comments?|highlights?|blank|metadata|javascript|"
            r"attachments?|watermark|bookmarks?|form)\b",
        )
        and not categories_in(rest)
    ):
        return None
    if _has(
        rest,
        r"^\s*(?:the\s+)?(?:(?:whole|entire|full|complete)(?:\s+of)?)?\s*(?:the\s+)?"
        r"(?:first |last |\d+(?:st|nd|rd|th) )?pages?\b|^\s*(?:everything|all content|all text)\s+on\b",
    ) and not _quoted(c, ctx):
        pages = _pages(c, ctx, None)
        if pages:  # "the whole of page 5, text, images, everything": all that is on it
            listed = _has(
                low, r"\b(?:text|images?|pictures|graphics)\s*(?:,|and)\s*(?:text|images?|pictures|graphics|everything)"
            )
            words = _WHOLE_PAGE if listed else {"whole", "entire", "all", "everything", "content"}
            return [Intent("redact_pages", _with_output({"pages": pages}, c, ctx), words=words)]
    target = target_in(c, verb, ctx.quotes)
    if target.pronoun and ctx.last_target is not None:
        target = ctx.last_target
    _refuse_unsupported(target, "redact")
    if target.unsupported or target.empty:
        return None
    if verb in ("remove", "delete", "strip", "erase") and not (target.categories or _quoted(c, ctx)):
        return None
    args = {**target.args(), "pages": _pages(c, ctx)}
    return [Intent("redact_text", _with_output(args, c, ctx), target=target, words=set(target.words))]


_WHOLE_PAGE = {"text", "images", "image", "pictures", "graphics", "everything", "all", "whole", "entire", "content"}


def comment(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(low, r"\b(?:comment|sticky note|note|annotation)\b") or _has(
        low,
        r"\b(?:remove|delete|clear|list|"
        r"show|read)\b",
    ):
        return None
    quoted = _quoted(c, ctx)
    text = quoted[0] if quoted else None
    if not text:
        m = re.search(
            r"\b(?:saying|that says|which says|reading|with the text|with text|:)\s+(.+?)(?:\s+on page\b|$)",
            c,
            re.IGNORECASE,
        )
        text = m.group(1).strip() if m else None
    if not text:
        return None
    page = pages_in(c, ctx.page_count) or "1"
    args = _with_output({"text": text, "page": page.split(",")[0].split("-")[0]}, c, ctx)
    said = set() if quoted else set(re.findall(r"[\w'-]+", text.lower()))  # the note's own words are its text
    near = re.search(r"\b(?:next to|near|beside|by)\s+(?:the\s+(?:word|phrase)\s+)?(⟦\d+⟧)", c, re.IGNORECASE)
    if near and len(quoted) == 2 and near.group(1) != "⟦0⟧" and quoted[0] == text:  # "'Please sign' next to 'Date'"
        args["near"] = ctx.quotes[int(near.group(1)[1:-1])]
        said |= {"next", "near", "beside", "by"}
    elif len(quoted) > 1:
        return None
    position = position_in(c if quoted else c.replace(text, " ")) if "near" not in args else None
    if position in ("top-left", "top-right", "bottom-left", "bottom-right", "center"):
        args["position"] = position  # a corner or the middle: the places a note may go ("the bottom" is none)
        said |= {"corner"}
    return [Intent("add_comment", args, words=said)]


def annotation_tools(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _has(
        low,
        r"\b(?:remove|delete|clear|strip)\b.*\b(?:annotations?|comments?|highlights?|markups?|notes|underlines|"
        r"strikeouts|strike-?throughs)\b",
    ):
        args: dict[str, Any] = {"pages": _pages(c, ctx)}
        kinds = re.findall(r"\b(comment|note|highlight|underline|strikeout|strike-?through)s?\b", low)
        if kinds and not _has(low, r"\b(?:annotations?|markups?|all\s+(?:the\s+)?(?:marks|markings))\b"):
            # "remove the highlights" removes highlights only, never the comments too
            args["types"] = list(dict.fromkeys("comment" if k == "note" else k.replace("-", "") for k in kinds))
        return [Intent("delete_annotations", _with_output(args, c, ctx), words=_MARKUP_WORDS)]
    if _has(
        low,
        r"\b(?:list|show|read|what are|get)\b.*\b(?:annotations?|comments?|highlights?|markups?)\b|"
        r"\b(?:what|which|any|are there)\s+(?:\w+\s+)?(?:annotations?|comments?|notes|highlights?|markups?)\b.*"
        r"\b(?:left|added|made|put|there|in|on)\b",
    ) and not _has(low, r"\b(?:add|put|insert|write|place)\s+(?:an?\s+)?(?:comment|note|annotation)"):
        return [Intent("read_annotations", {"pages": _pages(c, ctx)}, words=_MARKUP_WORDS | {"left", "people", "made"})]
    return None


_MARKUP_WORDS = {"markup", "markups", "mark-up", "mark-ups", "markings", "marks"}


# Words that also say an argument (a colour, a place, a number): capitalised words holding one are no sure text
_ARGUMENT_WORD = re.compile(
    r"(?i)\b(?:top|bottom|left|right|center|centre|middle|upper|lower|corner|header|footer|\d+|one|two|three|"
    r"black|white|gr[ae]y|red|green|blue|navy|orange|yellow|purple|pink|brown|gold|silver|light|dark)\b"
)


def watermark(c: str, low: str, ctx: Context) -> list[Intent] | None:
    across = re.search(
        r"\b(?:put|write|print|place|splash|add|slap|stick|stamp)\s+(⟦\d+⟧|(?:[A-Z][A-Z0-9'’-]+\s+)*[A-Z][A-Z0-9'’-]+)\s+"
        r"(?:(?:diagonally\s+)?(?:across|over)|diagonally\s+on)\b",
        c,
    )
    if not _has(low, r"\bwatermark|\bstamp(?:ed|ing)?\b") and not across:
        return None
    quoted = _quoted(c, ctx)
    text = quoted[0] if quoted else None
    if not text and across and not across.group(1).startswith("⟦"):
        text = across.group(1)
    if not text:
        m = re.search(r"\b((?:[A-Z][A-Z0-9'’-]+\s+)*[A-Z][A-Z0-9'’-]+)\s+(?i:watermark|stamp)", c) or re.search(
            r"(?i:watermark|stamp(?:ed|ing)?)\s*:?\s+(?:(?:it|them|the pages|each page|every page|all pages|"
            r"pages?\s+\d+(?:\s*(?:-|–|,|and|to|through|thru)\s*\d+)*|[a-z]+(?:\s+[a-z]+){0,2})\s+(?:as\s+|with\s+)?)?"
            r"(?:saying\s+|that says\s+|reading\s+|of\s+|with\s+(?:the\s+)?(?:text|word)\s+)?"
            r"((?:[A-Z][A-Z0-9'’-]+\s+)*[A-Z][A-Z0-9'’-]+)\b",
            c,
        )
        text = m.group(1) if m and m.group(1) not in ("I", "PDF") else None
    if not text:  # "a watermark saying Do Not Copy": capitalised words after "saying" are the words to write
        m = re.search(
            r"(?i:\bwatermark\b[^⟦]*?\b(?:saying|that says|reading|with the (?:text|words?)))\s+"
            r"((?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*)(?=\s+(?-i:[a-z])|\s*[,.]|$)",
            c,
        )
        text = m.group(1) if m and m.group(1) not in ("I", "PDF") and not _ARGUMENT_WORD.search(m.group(1)) else None
    args: dict[str, Any] = {"pages": _pages(c, ctx)}
    if text:
        args["text"] = text
    elif ctx.images and _has(low, r"\b(?:logo|image|picture|png|jpe?g)\b") and _has(low, r"\bwatermark"):
        args["image"] = ctx.images[0]
    else:
        return None
    m = re.search(r"(\d+)\s*%\s*(?:opacity|opaque|transparent|transparency)?", low)
    if m:
        args["opacity"] = round(int(m.group(1)) / 100, 2)
    elif _has(low, r"(?<![\w-])(?:(?:fully|completely|totally)\s+)?opaque\b"):  # "fully opaque black"
        args["opacity"] = 1.0
    words: set[str] = set()
    angle = re.search(r"\b(?:rotated|tilted|turned|angled|at an angle of|at)\s+(?:by\s+)?(-?\d+)\s*(?:°|degrees?)", low)
    if angle:
        args["rotation"], words = int(angle.group(1)), {"rotated", "tilted", "turned", "angled", "angle", "degrees"}
    elif _has(low, r"\bhorizontal(?:ly)?\b"):
        args["rotation"] = 0
    elif _has(low, r"\bdiagonal(?:ly)?\b"):
        args["rotation"] = 45
    position = position_in(c.replace(text, " ") if text else c)  # "saying Top Secret" is no place
    if position:
        corner = _has(low, r"\b(?:left|right)\b") and not position.endswith("center")
        args["position"] = position.split("-")[0] if position.startswith(("top", "bottom")) and not corner else position
    return [Intent("add_watermark", _with_output(args, c, ctx), words=words)]


# What a note, comment or page says: its text, never an instruction ("a note on page 1: Please sign and return")
_SAID = re.compile(
    r"\b(?:comment|note|sticky note|annotation|page|footer|header)\b[^:⟦]*?(?::|\bsaying\b|\bthat says\b)\s"
)


def signature(c: str, low: str, ctx: Context) -> list[Intent] | None:
    said = _SAID.search(low)
    if not _has(low[: said.end()] if said else low, r"\bsign\b|\bsignature\b"):
        return None
    if _has(low, r"\bsignature (?:page|block|line|section)s?\b") and not _has(low, r"\bsign\b|\badd\b.*\bsignature\b"):
        return None  # "the signature page as a picture" names a page, not an action
    args: dict[str, Any] = {"page": pages_in(c, ctx.page_count) or "last"}
    named = (
        re.search(
            r"\b(?:sign(?:ed)? (?:it |this |the \w+ (?:\w+ )?)?(?:(?:on )?(?:the \w+ page|page \d+) )?"
            r"(?:as|by|with the name)|name)\s+"
            r"(⟦\d+⟧|[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)*)",
            c,
        )
        or re.search(  # "add my signature, Robert Chen, to …", "e-sign this for me: Laura Bennett"
            r"\b(?:my\s+(?:signature|name)\s*,|(?:sign|signature)\b[^:]*:)\s*"
            r"(⟦\d+⟧|[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)+)\s*(?:,|$)",
            c,
        )
        or re.search(r"\b(?:my|a|the)\s+(?:typed\s+)?signature\s+(⟦\d+⟧)", c, re.IGNORECASE)
    )  # "my signature 'Jo Li'"
    if ctx.images:
        args["image"] = ctx.images[0]
    elif named:
        raw = named.group(1)
        args["name"] = ctx.quotes[int(raw[1:-1])] if raw.startswith("⟦") else raw
    else:
        raise NeedInfo(
            'Upload the signature image (PNG or JPEG), or give the name to sign with, e.g. "sign it as Jane Doe".'
        )
    position = position_in(c, default_bottom="bottom-right", default_top="top-right")
    if position and position != "center":
        args["position"] = position
    words = {"e-sign", "esign", "signature"}
    if "name" in args and re.search(r"\btype[sd]?\b", low):  # "type my name as a signature": a typed signature
        words |= {"type", "typed", "types"}
    width = width_in(c)
    if width:
        args["width"], words = width, words | {"wide", "width"}
    return [Intent("add_signature", _with_output(args, c, ctx), words=words)]


def page_numbers(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(
        low,
        r"\bpage numbers?\b|\bnumber\s+(?:the\s+|all\s+(?:the\s+)?|every\s+|each\s+)?pages?\b|\bpaginat|"
        r"\b(?:page\s+)?numbering\b",
    ):
        return None
    if _has(low, r"\b(?:remove|delete)\b"):
        return None
    args: dict[str, Any] = {}
    position = position_in(c)
    if position:
        args["position"] = position
    said: set[str] = set()
    if _has(low, r"page \w+ of \w+|\bof (?:the )?total\b|\bx of y\b|\bn of m\b"):
        args["format"] = "Page {n} of {total}"
    for marker, text in ((m, ctx.quotes[int(m[1:-1])]) for m in re.findall(r"⟦\d+⟧", c)):
        shown = _number_format(text)
        if shown:  # 'Page X of Y', '- 4 -', 'p. 3/12': the format shown by an example
            args["format"], said = shown, {marker, "looks", "look", "like", "format", "formatted", "style"}
    pages = pages_in(c.replace("page numbers", "").replace("page number", ""), ctx.page_count)
    if pages:
        args["pages"] = pages
    # "starting at 5", "beginning with number 3": the first number shown ("starting at page 5" says pages)
    first = re.search(
        r"\b(?:start(?:ing)?|begin(?:ning)?|count(?:ing)?)\s+(?:at|from|with)\s+(?:the\s+)?(?:number\s+)?(\d+)\b(?![.\d])",
        low,
    )
    if first:
        args["start"] = int(first.group(1))
        said |= {"start", "starting", "begin", "beginning", "count", "counting", "at", "from", "with"}
    return [Intent("add_page_numbers", _with_output(args, c, ctx), words=said)]


_SLOT = re.compile(r"(?<![A-Za-z0-9])(?:\d+|[XxNnYyMmTt#])(?![A-Za-z0-9])")


def _number_format(text: str) -> str | None:
    """A page number shown by example: '- 4 -' → '- {n} -', 'Page X of Y' → 'Page {n} of {total}'; else None."""
    slots = list(_SLOT.finditer(text))
    rest = _SLOT.sub(" ", text)
    if not 1 <= len(slots) <= 2 or len(text) > 30 or not re.fullmatch(r"(?i)[\W_]*(?:(?:page|pg|p|of)\b[\W_]*)*", rest):
        return None
    if len(slots) == 2 and not re.fullmatch(r"(?i)\s*(?:of|/)\s*", text[slots[0].end() : slots[1].start()]):
        return None
    out, end = "", 0
    for slot, value in zip(slots, ("{n}", "{total}"), strict=False):
        out, end = out + text[end : slot.start()] + value, slot.end()
    return out + text[end:]


# "stick 'ACME | Internal' at the top of each page": text at the top or bottom of every page is a header or footer
_EDGE_TEXT = re.compile(
    r"\b(?:put|add|stick|write|print|place|insert|show|type)\s+⟦\d+⟧\s+(?:at|along|across|on|in)\s+the\s+(top|bottom)\s+"
    r"(?:edge\s+|margin\s+)?of\s+(?:each|every|all(?:\s+the)?|the)\s+pages?\b",
    re.IGNORECASE,
)


def header_footer(c: str, low: str, ctx: Context) -> list[Intent] | None:
    m = re.search(r"\b(header|footer)s?\b", low)
    edge = _EDGE_TEXT.search(c) if not m and not _has(low, r"\b(?:left|right|corner|centre|center|middle)\b") else None
    if not m and not edge:
        return None
    quoted = _quoted(c, ctx)
    if not quoted:
        return None
    place = m.group(1) if m else "header" if edge and edge.group(1).lower() == "top" else "footer"
    args: dict[str, Any] = {place: quoted[0], "pages": _pages(c, ctx)}
    if len(quoted) > 1 and _has(low, r"\bheader\b") and _has(low, r"\bfooter\b"):
        first, second = ("header", "footer") if low.find("header") < low.find("footer") else ("footer", "header")
        args = {first: quoted[0], second: quoted[1], "pages": args["pages"]}
    words: set[str] = set()
    align = re.search(r"\b(left|right|centred|centered|center|centre)(?:[- ]aligned|[- ]justified)?\b", low)
    if align and not re.search(r"\b(?:top|bottom)\s+(?:left|right)\b", low):  # corners are not alignments
        args["align"] = {"centred": "center", "centered": "center", "centre": "center"}.get(
            align.group(1), align.group(1)
        )
        words = {align.group(0), "aligned", "justified"}
    return [Intent("add_header_footer", _with_output(args, c, ctx), words=words)]
