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
    FLAT,
    categories_in,
    output_name_in,
    pages_in,
    password_in,
    password_pair_in,
    position_in,
    user_password_in,
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
    files: tuple[str, ...] = ()  # the uploaded PDFs its clause named it for ("page 2 of b.pdf"); () when not said


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
    name = output_name_in(c, ctx.quotes, (*ctx.pdfs, *ctx.images))
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


# "the password s3cret", "password: x", "passcode is y": a password said with the word (not "password-protect")
_NAMED_PASSWORD = re.compile(r"\bpass(?:word|code|phrase)\b(?![- ]?protect)", re.IGNORECASE)


def _cut_short(password: str, ctx: Context) -> bool:
    """'protect this with Bl4ckbird!': an unquoted password right before "!" or "?" may end with it (the clause
    lost the sign when the sentence was split): which one is meant is not sure, so the request is handed on."""
    if password in ctx.quotes or _NAMED_PASSWORD.search(ctx.request):
        return False  # "using the password s3cret!": a password named as one reads to the sign (as it always has)
    return re.search(rf"(?<![\w!?]){re.escape(password.lower())}[!?]", ctx.request) is not None


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
    if pw and _cut_short(pw, ctx):
        return None
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
    if _has(low, r"^\s*lock\s+(?:name|call|save|rename)\b"):
        return None  # "lock name it x.pdf": the tail of "lock the fields …, and name it x.pdf", no password asked
    pair = password_pair_in(c, ctx.quotes)
    if pair:  # "the open password X and the owner password Y"
        words = {"open", "opening", "user", "owner", "permissions", "permission", "master", "admin", "editing", "view"}
        return [Intent("add_password", {"password": pair[0], "owner_password": pair[1]}, stage=3, words=words)]
    pw = password_in(c, ctx.quotes) or user_password_in(c, ctx.quotes)  # "it should open with greenfield"
    if pw and _cut_short(pw, ctx):
        return None
    if not pw:
        raise NeedInfo(
            "Which password should protect the file? Say it in the request, e.g. "
            '"protect it with the password Budget2025".'
        )
    return [Intent("add_password", {"password": pw}, stage=3)]


def count_pages(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _has(low, r"\bwords?\b|\bcharacters?\b|\blines\b"):
        return None  # "count the pages and the words": no tool counts words
    if _has(low, r"\bhow many pages\b|\bnumber of pages\b|\bpage count\b|\bcount (?:the )?pages\b|\bhow long is\b"):
        return [Intent("count_pages", {}, words={"know", "total"})]
    return None


_MARK_COLOURS = "yellow|green|red|blue|orange|pink|purple|gray|grey"
# "put a blue line through every email address": a strike-out in a colour
_LINE_THROUGH = rf"(?:draw|put)\s+an?\s+(?:(?:{_MARK_COLOURS})\s+)?line\s+through"


def _markup(task: str, verb: str) -> Rule:
    if task == "strikeout_text":
        verb = f"{verb}|{_LINE_THROUGH}"

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
        color = re.search(rf"\bin ({_MARK_COLOURS})\b|\ban?\s+({_MARK_COLOURS})\s+line\s+through\b", low)
        if color and task != "redact_text":
            args["color"] = color.group(1) or color.group(2)
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
    passive = _DONE_TO.search(low) if not m else None
    if passive:  # "any credit card numbers in here need to be blacked out": what comes before the verb
        return _redacted_before(c, passive, ctx)
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
    if verb in ("remove", "delete", "strip", "erase") and _has(
        rest, r"^\s*(?:the\s+|all\s+(?:the\s+)?|any\s+)?pages?\b"
    ):
        return None  # "delete the pages with personal info on them": the pages go, not the words on them
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
            if _has(low, r"\bin\s+(?:its|their)\s+entirety\b"):  # "redact page 6 in its entirety"
                words = words | {"entirety"}
            if _has(low, r"\bnothing\s+left\s+on\s+(?:it|them)\b"):  # "blank out pages 4-6, nothing left on them"
                words = words | {"nothing", "left"}
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
    return [Intent("redact_text", _with_output(args, c, ctx), target=target, words=set(target.words) | _boxes(low))]


_BOX_COLOURS = "black|white|gr[ae]y|red|blue|green|yellow"
# "with white boxes instead of black", "with grey bars": the colour of the boxes drawn over the words (the other
# colour is the default set aside, never used); white or black boxes only with that contrast said
_BOXES = re.compile(
    rf"\b(?:with|in|using|as)\s+({_BOX_COLOURS})\s+(?:boxes|bars|blocks|rectangles)\b"
    rf"(?:\s*,?\s*(?:instead\s+of|rather\s+than|not)\s+({_BOX_COLOURS})(?:\s+(?:ones|boxes))?\b)?"
)


def _boxes(low: str) -> set[str]:
    m = _BOXES.search(low)
    if not m or m.group(2) == m.group(1) or not m.group(2) and m.group(1) in ("white", "black"):
        return set()  # "with white boxes" alone may be a cover-up of its own (paper-coloured boxes): said how, not why
    words = {"boxes", "bars", "blocks", "rectangles"}
    if m.group(2):
        words |= {"instead", "rather", "than", "not", "ones", m.group(2)}
    return words


# "… blacked out", "… need to be redacted": a redaction said after what it is done to (the clause ends with it)
_DONE_TO = re.compile(r"\b(?:blacked\s+out|blanked\s+out|redacted|censored)\s*$")


def _redacted_before(c: str, passive: re.Match[str], ctx: Context) -> list[Intent] | None:
    """Categories named before a redaction verb that ends the clause ("I need all the phone numbers blacked out");
    only categories (never a term: "Smith blacked out" may say what happened, not what to do)."""
    before = c[: passive.start()]
    if re.search(r"(?i)\b(?:personal|pii|sensitive|private|identifiable)\b", before):
        return None  # "all personal info": kinds read from a description, said as such to the tool ("pii") by the model
    target = target_in(f"redact {before}", "redact", ctx.quotes)
    if not target.categories or target.terms or target.unsupported:
        return None
    args = {**target.args(), "pages": _pages(c, ctx)}
    words = {"need", "needs", "to", "be", "want", "blacked", "blanked", "redacted", "censored", "out"}
    return [Intent("redact_text", _with_output(args, c, ctx), target=target, words=words)]


_WHOLE_PAGE = {"text", "images", "image", "pictures", "graphics", "everything", "all", "whole", "entire", "content"}


# "next to 'Date'", "beside the word indemnification": the words a note is put beside (one unquoted word only)
_NEAR = re.compile(
    r"\b(?:next\s+to|near|beside|by)\s+(?:the\s+(?:word|phrase|term)\s+)?(⟦\d+⟧)|"
    r"\b(?:next\s+to|near|beside)\s+the\s+(?:word|term)\s+([\w'-]+)",
    re.IGNORECASE,
)
# "next to it", "beside his name": beside the text the step before marked
_NEAR_IT = re.compile(
    r"\b(?:next\s+to|near|beside|by)\s+(?:it|that|this|(?:his|her|their|its|the)\s+(?:name|number|figure|amount))\b",
    re.IGNORECASE,
)
# What a note says, unquoted: "that says: does this cover subcontractors?", "that reads Approved - MK"
_NOTE_TEXT = re.compile(
    r"\b(?:saying|that says|which says|that reads|which reads|reading|with the text|with text|:)\s*:?\s+(.+?)"
    r"(?:\s+on page\b|$)",
    re.IGNORECASE,
)


def comment(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if not _has(low, r"\b(?:comment|sticky note|note|annotation)\b") or _has(
        low,
        r"\b(?:remove|delete|clear|list|"
        r"show|read)\b",
    ):
        return None
    near = _NEAR.search(c)
    near_quote = near.group(1) if near and near.group(1) else None
    near_it = _NEAR_IT.search(c) if near is None else None
    if near_it:  # "strike out 'Tom Baker' and add a comment beside his name": the one text the step before marks
        terms = ctx.last_target.terms if ctx.last_target is not None and not ctx.last_target.categories else []
        if len(terms) != 1:
            return None
    said: set[str] = set()
    rest = [ctx.quotes[int(q[1:-1])] for q in re.findall(r"⟦\d+⟧", c) if q != near_quote]
    if len(rest) > 1:
        return None
    text = rest[0] if rest else None
    if not text and not rest:
        m = _NOTE_TEXT.search(c[near.end() :] if near else c[near_it.start() :] if near_it else c)
        text = m.group(1).strip() if m else None
        said = set(re.findall(r"[\w'-]+", text.lower())) if text else said  # the note's own words are its text
    if not text:
        return None
    bare = c if rest else c.replace(text, " ")  # where the note goes, read without what it says
    page = pages_in(bare, ctx.page_count) or "1"
    args = _with_output({"text": text, "page": page.split(",")[0].split("-")[0]}, c, ctx)
    if near:
        args["near"] = ctx.quotes[int(near_quote[1:-1])] if near_quote else near.group(2)
        said |= {"next", "near", "beside", "by", "word", "term", "phrase", args["near"].lower()}
    elif near_it:
        args["near"] = terms[0]
        said |= set(re.findall(r"[\w'-]+", near_it.group(0).lower()))
    position = position_in(bare) if "near" not in args else None
    if position in ("top-left", "top-right", "bottom-left", "bottom-right", "center"):
        args["position"] = position  # a corner or the middle: the places a note may go ("the bottom" is none)
        said |= {"corner"}
    return [Intent("add_comment", args, words=said)]


def annotation_tools(c: str, low: str, ctx: Context) -> list[Intent] | None:
    if _has(
        low,
        r"\b(?:remove|delete|clear|strip|wipe)\b.*\b(?:annotations?|comments?|highlights?|markups?|notes|underlines|"
        r"strikeouts|strike-?throughs)\b",
    ):
        args: dict[str, Any] = {"pages": _pages(c, ctx)}
        kinds = re.findall(r"\b(comment|note|highlight|underline|strikeout|strike-?through)s?\b", low)
        if kinds and not _has(low, r"\b(?:annotations?|markups?|all\s+(?:the\s+)?(?:marks|markings))\b"):
            # "remove the highlights" removes highlights only, never the comments too
            args["types"] = list(dict.fromkeys("comment" if k == "note" else k.replace("-", "") for k in kinds))
        return [Intent("delete_annotations", _with_output(args, c, ctx), words=_MARKUP_WORDS | _KIND_WORDS)]
    if _has(
        low,
        r"\b(?:list|show|read|what are|get)\b.*\b(?:annotations?|comments?|highlights?|markups?)\b|"
        r"\b(?:what|which|any|are there)\s+(?:\w+\s+)?(?:annotations?|comments?|notes|highlights?|markups?)\b.*"
        r"\b(?:left|added|made|put|there|in|on)\b|"
        # "which pages have markup on them?", "which pages carry comments?"
        r"\bwhich\s+pages?\b.*\b(?:have|has|contain|carry|carries)\s+(?:any\s+)?(?:annotations?|comments?|notes|"
        r"markups?|mark-ups?)\b",
    ) and not _has(low, r"\b(?:add|put|insert|write|place)\s+(?:an?\s+)?(?:comment|note|annotation)"):
        return [Intent("read_annotations", {"pages": _pages(c, ctx)}, words=_MARKUP_WORDS | {"left", "people", "made"})]
    return None


_MARKUP_WORDS = {"markup", "markups", "mark-up", "mark-ups", "markings", "marks"}
# The kinds of marks said in the plural ("remove all the strikeouts"): read into ``types`` by the rule
_KIND_WORDS = {"strikeouts", "strikethroughs", "strike-throughs", "underlines", "highlights", "comments", "notes"}


# Words that also say an argument (a colour, a place, a number): capitalised words holding one are no sure text
_ARGUMENT_WORD = re.compile(
    r"(?i)\b(?:top|bottom|left|right|center|centre|middle|upper|lower|corner|header|footer|\d+|one|two|three|"
    r"black|white|gr[ae]y|red|green|blue|navy|orange|yellow|purple|pink|brown|gold|silver|light|dark)\b"
)


# Words in capitals ("CONFIDENTIAL", "DO NOT COPY"): the text a stamp writes
_CAPS = r"(?:[A-Z][A-Z0-9'’-]+\s+)*[A-Z][A-Z0-9'’-]+"
# "put CONFIDENTIAL across each page", "stamp DRAFT on every page": words in capitals written over the pages
_ACROSS = re.compile(
    rf"\b(?:put|write|print|place|splash|add|slap|stick|stamp)\s+(⟦\d+⟧|{_CAPS})\s+"
    r"(?:(?:diagonally\s+)?(?:across|over)|diagonally\s+on|on\s+(?:every|each|all(?:\s+the)?|all\s+of\s+the)\s+pages?)\b"
)
# "the word SAMPLE as a watermark", "SAMPLE as the watermark": the words named as the watermark's text
_NAMED_TEXT = re.compile(
    rf"\bthe\s+(?i:words?|text)\s+({_CAPS})\b(?=\s+(?i:as\s+(?:a|the)\s+(?:watermark|stamp))\b)|"
    rf"\b({_CAPS})\s+(?i:as\s+(?:a|the)\s+(?:watermark|stamp))\b"
)
# "45 degrees", "tilted 30°": the only angle a watermark takes is its rotation
_ANGLE = re.compile(
    r"\b(?:(?:rotated|tilted|turned|angled|slanted|at\s+an\s+angle\s+of|at)\s+(?:by\s+)?)?(-?\d+)\s*(?:°|degrees?\b)"
)
_FLAT = re.compile(rf"\b(?:{FLAT})\b")
# "at 20% opacity", "half opacity", "50% transparent": how opaque (transparency is what is left of it)
_OPACITY = re.compile(
    r"(\d+)\s*%\s*(opacity|opaque|transparent|transparency)?|\b(half)\s+(?:opacity|opaque|transparent|transparency)\b|"
    r"(?<![\d.])(0?\.\d+)\s+(opacity)\b"  # "at 0.25 opacity"
)


def watermark(c: str, low: str, ctx: Context) -> list[Intent] | None:
    across = _ACROSS.search(c)
    if not _has(low, r"\bwatermark|\bstamp(?:ed|ing)?\b") and not across:
        return None
    text = _watermark_text(c, ctx, across)
    args: dict[str, Any] = {"pages": _pages(c, ctx)}
    if text:
        args["text"] = text
    elif ctx.images and _has(low, r"\b(?:logo|image|picture|png|jpe?g)\b") and _has(low, r"\bwatermark"):
        args["image"] = ctx.images[0]
    else:
        return None
    words = _watermark_look(low, args)
    if words is None:
        return None
    position = position_in(c.replace(text, " ") if text else c)  # "saying Top Secret" is no place
    if position:
        corner = _has(low, r"\b(?:left|right)\b") and not position.endswith("center")
        args["position"] = position.split("-")[0] if position.startswith(("top", "bottom")) and not corner else position
    return [Intent("add_watermark", _with_output(args, c, ctx), words=words)]


def _watermark_text(c: str, ctx: Context, across: re.Match[str] | None) -> str | None:
    """The words a watermark writes: quoted, in capitals beside the verb or the word "watermark", or after
    "saying"; None when the clause names none (an image watermark, or a question to ask)."""
    quoted = _quoted(c, ctx)
    if quoted:
        return quoted[0]
    if across and not across.group(1).startswith("⟦"):
        return across.group(1)
    named = _NAMED_TEXT.search(c)
    if named:
        return named.group(1) or named.group(2)
    m = re.search(rf"\b({_CAPS})\s+(?i:watermark|stamp)", c) or re.search(
        r"(?i:watermark|stamp(?:ed|ing)?)\s*:?\s+(?:(?:it|them|the pages|each page|every page|all pages|"
        r"pages?\s+\d+(?:\s*(?:-|–|,|and|to|through|thru)\s*\d+)*|[a-z]+(?:\s+[a-z]+){0,2})\s+(?:as\s+|with\s+)?)?"
        rf"(?:saying\s+|that says\s+|reading\s+|of\s+|with\s+(?:the\s+)?(?:text|word)\s+)?({_CAPS})\b",
        c,
    )
    if m and m.group(1) not in ("I", "PDF"):
        return m.group(1)
    m = re.search(  # "a watermark saying Do Not Copy": capitalised words after "saying" are the words to write
        r"(?i:\bwatermark\b[^⟦]*?\b(?:saying|that says|reading|with the (?:text|words?)))\s+"
        r"((?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*)(?=\s+(?-i:[a-z])|\s*[,.]|$)",
        c,
    )
    return m.group(1) if m and m.group(1) not in ("I", "PDF") and not _ARGUMENT_WORD.search(m.group(1)) else None


def _watermark_look(low: str, args: dict[str, Any]) -> set[str] | None:
    """Opacity and rotation said in the clause, set on ``args``; the words that said them (None: two angles, or an
    angle and "straight", which disagree)."""
    words: set[str] = set()
    m = _OPACITY.search(low)
    if m and m.group(3):  # "half opacity": the word after "half" is said
        args["opacity"], words = 0.5, set(m.group(0).split()[1:])
    elif m and m.group(4):
        args["opacity"], words = float(m.group(4)), {"opacity"}
    elif m:
        share = int(m.group(1)) / 100
        transparent = (m.group(2) or "").startswith("transparen")  # "80% transparent" lets 20% show
        args["opacity"] = round(1 - share if transparent else share, 2)
        words = {m.group(2)} if m.group(2) else set()
    elif _has(low, r"(?<![\w-])(?:(?:fully|completely|totally)\s+)?opaque\b"):  # "fully opaque black"
        args["opacity"] = 1.0
    angles = {int(a.group(1)) for a in _ANGLE.finditer(low)}
    flat = _FLAT.search(low)
    if len(angles) > 1 or angles and flat:
        return None
    if angles:
        args["rotation"] = angles.pop()
        words |= {"rotated", "tilted", "turned", "angled", "slanted", "angle", "degrees", "at", "an", "of", "by"}
    elif flat or _has(low, r"\bhorizontal(?:ly)?\b"):
        args["rotation"] = 0
    elif _has(low, r"\bdiagonal(?:ly)?\b"):
        args["rotation"] = 45
    return words


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
            r"\b(?:(?i:sign(?:ed)?) (?:it |this (?:document |file |pdf |contract |form |letter )?|the \w+ (?:\w+ )?)?"
            r"(?:(?:on )?(?:the \w+ page|page \d+) )?"
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
        or re.search(r"(?i:\ba\s+typed\s+signature\s+(?:for|of))\s+([A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)+)\s*$", c)
        or re.search(r"\b(?i:as|by)\s+(⟦\d+⟧)\s*$", c)  # "sign page 3 of the report as 'Lena Ruiz'"
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
        r"\b(?:page\s+)?numbering\b|\bpages\s+numbered\b(?!\s+(?:\d|one|two|three|four|five))",  # "the pages numbered"
    ) and not _shown_numbers(c, ctx):
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
    shown_bare = _SLASH_STYLE.search(low)
    if shown_bare and "format" not in args and int(shown_bare.group(1)) <= int(shown_bare.group(2)):
        # "paginate it as 3/12 style (page slash total)": a page number over the total, shown by example
        args["format"] = "{n}/{total}"
        said = said | {shown_bare.group(1), shown_bare.group(2), "style", "format", "slash", "over", "like"}
    pages = pages_in(c.replace("page numbers", "").replace("page number", ""), ctx.page_count)
    bare = _UNNUMBERED.search(low)
    if bare and ctx.page_count and ctx.page_count > 1:  # "but leave the cover unnumbered": every page but the first
        pages, said = (
            "2-last",
            said | {"but", "leave", "unnumbered", "without", "numbers", "number", "alone"} | _FIRST_NAMES,
        )
    elif bare:
        return None
    if pages:
        args["pages"] = pages
    # "starting at 5", "beginning with number 3": the first number shown ("starting at page 5" says pages)
    first = re.search(
        r"\b(?:start(?:ing)?|begin(?:ning)?|count(?:ing)?)\s+(?:at|from|with)\s+(?:the\s+)?(?:number\s+)?(\d+)\b(?![.\d])|"
        r"\bwith\s+(?:the\s+)?number\s+(\d+)\b(?![.\d])",  # "starting at page 3 with the number 1"
        low,
    )
    if first:
        args["start"] = int(first.group(1) or first.group(2))
        said |= {"start", "starting", "begin", "beginning", "count", "counting", "at", "from", "with"}
        on = re.match(r"\s+on\s+(page\s+(\d+))\b(?![.\d])", low[first.end() :])
        first_page = str(args.get("pages", "1")).split(",")[0].split("-")[0]
        if on and on.group(2) == first_page:  # "starting at 1 on page 3": the first page numbered, said again
            said |= {"on", on.group(1)}
    return [Intent("add_page_numbers", _with_output(args, c, ctx), words=said)]


# "as 3/12 style", "like 4/20", "in 1/10 format": a page number and the total shown with a slash, no quotes
_SLASH_STYLE = re.compile(
    r"\b(?:as|like|in)\s+(?:a\s+|the\s+)?(\d+)\s*/\s*(\d+)(?:\s+(?:style|format))?(?:\s*\(\s*page\s+(?:slash|over)\s+"
    r"total\s*\))?(?![\w/])"
)


def _shown_numbers(c: str, ctx: Context) -> bool:
    """ "add 'Page X of Y' at the top centre": a page number shown by example is page numbers, said without the
    words (only a format that names the page or the total: "add '3'" is no page number)."""
    m = re.match(r"^\s*(?:please\s+)?(?:add|put|insert|include|show|stamp)\s+(⟦\d+⟧)", c, re.IGNORECASE)
    if not m:
        return False
    shown = _number_format(ctx.quotes[int(m.group(1)[1:-1])])
    return shown is not None and ("{total}" in shown or re.search(r"(?i)\b(?:page|pg|p)\b", shown) is not None)


# "but leave the cover unnumbered", "leave the first page without a number"
_UNNUMBERED = re.compile(
    r"\b(?:but\s+)?leave\s+(?:the\s+)?(?:cover(?:\s+page)?|first\s+page|title\s+page)\s+"
    r"(?:unnumbered|without\s+(?:a\s+)?(?:page\s+)?numbers?|alone)\b"
)
_FIRST_NAMES = {
    "the cover",
    "the cover page",
    "cover page",
    "the first page",
    "first page",
    "the title page",
    "title page",
}
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


# "a header that says Privileged & Confidential": capitalised words after "says" are the text (lower-case words end it)
_EDGE_SAYS = re.compile(
    r"(?i:\b(?:header|footer)s?\s+(?:that\s+says|saying|reading|which\s+says|with\s+the\s+(?:text|words?)))\s+"
    r"([A-Z][\w'’.-]*(?:\s+(?:&|[A-Z][\w'’.-]*|of|and|for|the|to|a|an|in))*?)(?=\s+(?-i:[a-z])|\s*[,.;]|$)"
)


def header_footer(c: str, low: str, ctx: Context) -> list[Intent] | None:
    m = re.search(r"\b(header|footer)s?\b", low)
    edge = _EDGE_TEXT.search(c) if not m and not _has(low, r"\b(?:left|right|corner|centre|center|middle)\b") else None
    if not m and not edge:
        return None
    quoted = _quoted(c, ctx)
    if not quoted and m:
        told = _EDGE_SAYS.search(c)  # "a header that says Privileged & Confidential on every page"
        quoted = [told.group(1)] if told and not _ARGUMENT_WORD.search(told.group(1)) else []
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
        words = {align.group(0), "aligned", "justified", "side", "hand"}
    for edge_name in ("header", "footer"):
        shown = args.get(edge_name)
        if isinstance(shown, str) and _numbered_edge(shown) != shown:  # "page n of N": the quote read as numbered
            args[edge_name] = _numbered_edge(shown)
            words |= set(re.findall(r"⟦\d+⟧", c))
    return [Intent("add_header_footer", _with_output(args, c, ctx), words=words)]


# "… - page n of N", "Page X of Y": a page number shown by example inside a header's or footer's text
_PAGE_EXAMPLE = re.compile(r"(?i)\b(page|pg\.?|p\.)\s+(?-i:[nNxX#])(?:\s+(of|/)\s+(?-i:[nNyYT#]|total))?(?![\w{])")


def _numbered_edge(text: str) -> str:
    """``text`` with a page number shown by example ("page n of N") written as the tool's {n} and {total}."""
    return _PAGE_EXAMPLE.sub(lambda m: f"{m.group(1)} {{n}}" + (f" {m.group(2)} {{total}}" if m.group(2) else ""), text)
