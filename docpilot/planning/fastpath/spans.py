"""A clause read once into spans: what each word of it is.

Kinds: ``quote`` (a ⟦n⟧ marker), ``measure`` (a number with a unit: 45°, 50%, 300 dpi, 20 mm, 14 pt),
``pages`` (a page reference: "pages 1 through 4", "the last two pages", "odd pages"), ``number``,
``colour``, ``position``, ``format`` (Word, PowerPoint, PNG …), ``category`` (emails, phone numbers …),
``file`` (a word of an uploaded file's name), ``verb`` (a word that names one tool family), ``modifier``
(a word that changes what an operation means or how: "except", "twice", "diagonally", "Spanish"),
``filler`` (words that carry no instruction) and ``word`` (anything else: a term, a title, or a word
the fast path does not understand). :mod:`accounting` then checks every span against the plan the
rules made; a span nothing used sends the request to the model.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docpilot.errors import MissingPart
from docpilot.planning.fastpath.extract import BEYOND, COVER, FLAT, unit_of
from docpilot.planning.fastpath.grounding import FILE_MENTIONS, name_pattern, word_aliases
from docpilot.planning.fastpath.targets import CASE_SENSITIVE, WHOLE_WORDS

__all__ = ["Span", "tag", "deciding", "VERB_TASKS", "is_filler", "FORM_NAME"]


@dataclass(frozen=True)
class Span:
    kind: str
    text: str
    start: int
    end: int
    value: Any = None


_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "hundred": 100, "single": 1, "half": 0.5,
}  # fmt: skip
_UNIT = (
    r"%|percent\b|°|degrees?\b|deg\b|dpi\b|pts?\b|points?\b|mm\b|cm\b|inch(?:es)?\b|centimet(?:er|re)s?\b|millimet(?:er|re)s?\b|in\b(?=\s*(?:$|margins?|from|off|"
    r"on|each|all|of|around)\b)|px\b|pixels?\b|kb\b|mb\b|gb\b|pages?\b|bytes?\b"
)
_MEASURE = re.compile(rf"(?<![\w.])(-?\d+(?:\.\d+)?)\s*-?\s*({_UNIT})", re.IGNORECASE)
# "half an inch", "an inch", "a centimetre": a length said in words (the number and the unit in one span)
_WORD_MEASURE = re.compile(
    r"\b(half|a\s+quarter|an?)\s+(?:of\s+)?(?:an?\s+)?(inch|centimet(?:er|re)|millimet(?:er|re))\b", re.IGNORECASE
)
_WORD_AMOUNTS = {"half": 0.5, "a quarter": 0.25, "a": 1.0, "an": 1.0}
_ORDINAL = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final|\d+(?:st|nd|rd|th))"
_COUNT = r"(?:\d+|" + "|".join(_NUMBER_WORDS) + r")"
_NOT_MEASURE = r"(?![\d.])(?!\s*(?:%|°|degrees?\b|dpi\b|pts?\b|points?\b|mm\b|cm\b|inch|px\b|pixels?\b))"
_PAGE_LIST = (  # "pages 7 to 9 and then page 2"; "page 3, 100 points wide" is page 3 and a width
    rf"\d+{_NOT_MEASURE}(?:\s*(?:-|–|to|through|thru|until|till|and(?:\s+then)?|&|,(?:\s*(?:and\s+)?then)?|then|"
    rf"followed\s+by)\s*(?:pages?\s+)?(?:\d+{_NOT_MEASURE}|the end|end|last))*"
)
_PAGES = re.compile(
    r"\b(?:"
    r"between\s+pages?\s+\d+\s+and\s+(?:page\s+)?\d+|"  # "between pages 3 and 4": a place, after page 3
    r"pages\s+from\s+\d+\s*(?:to|through|thru|until|till|-|–)\s*(?:page\s+)?\d+(?![.\d])|"  # "pages from 2 to 5"
    rf"{BEYOND}|"  # "everything after page 9": the pages past it
    rf"(?:pages?|pp?\.)\s*{_PAGE_LIST}(?:\s+(?:onwards?|on|to the end|and (?:after|beyond|following)))?"
    rf"|(?:from|starting (?:at|from)|after|before)\s+page\s+\d+(?:\s+(?:on(?:wards?)?|to the end))?"
    rf"|(?:the\s+)?(?:first|last|final|next|remaining)\s+{_COUNT}\s+pages?"
    r"|(?:the\s+)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))\s+page\s+"
    r"(?:onwards?|to\s+the\s+end|and\s+(?:after|beyond|following))"  # "from the sixth page onwards"
    rf"|(?:the\s+)?{_ORDINAL}(?:\s*(?:,|and|&)\s*(?:the\s+)?{_ORDINAL})*(?:\s+two)?\s+pages?"
    r"|(?:the\s+)?(?:cover|title|front|back|signature|closing|opening)\s+pages?"
    rf"|{COVER}|the\s+back\s+cover"
    r"|(?:every\s+|each\s+|the\s+)?(?:odd|even)(?:-numbered)?\s+pages?"
    r"|(?:every|each|all(?:\s+the)?|all\s+of\s+the|the\s+whole|the\s+entire|whole|entire|both)\s+pages?"
    r"|(?:the\s+)?(?:rest|remainder)\s+of\s+the\s+pages|(?:the\s+)?remaining\s+pages?"
    r")\b",
    re.IGNORECASE,
)
_EXCEPTION = r"(?:except(?:\s+for)?|but|other\s+than|apart\s+from|save\s+for|excluding|besides)"
# "every page except the first one", "all pages but 3 and 4": one page reference, the pages left after the exception
# One page named after an exception and joined to it: "… and the back page", ", page 7", "and the last page"
_AND_NAMED = (
    rf"(?:\s*(?:,|and|&)\s*(?:the\s+)?(?:{_ORDINAL}\s+page|(?:cover|title|front|back|closing)\s+page|cover|"
    rf"back\s+cover|pages?\s+{_PAGE_LIST}))*"
)
_ALL_BUT = re.compile(
    r"\b(?:every|each|all(?:\s+(?:the|of\s+the))?)\s+pages?\s+(?:except(?:\s+for)?|but|other\s+than|apart\s+from|"
    rf"save\s+for|excluding|besides)\s+(?:the\s+)?(?:(?:first|last|final)(?:\s+{_COUNT})?(?:\s+(?:ones?|pages?))?|"
    rf"(?:front\s+)?(?:cover|title|front)(?:\s+page)?(?!\s+(?:letters?|sheets?|notes?|emails?))|(?:pages?\s+)?{_PAGE_LIST})"
    rf"{_AND_NAMED}\b"
    # "everything except the cover", "all but the last two pages": the exception names pages itself
    rf"|\b(?:everything|all)\s+{_EXCEPTION}\s+(?:(?:the\s+)?(?:first|last|final|title|front|back)(?:\s+{_COUNT})?\s+"
    rf"pages?|{COVER}|pages?\s+{_PAGE_LIST}){_AND_NAMED}\b",
    re.IGNORECASE,
)
_COLOURS = (
    "black|white|gray|grey|red|green|blue|navy|orange|yellow|purple|pink|brown|cyan|magenta|violet|teal|maroon|gold|"
    "silver|lime|turquoise|beige|crimson|olive|indigo"
)
_SHADES = (  # the shades the tools know by name ("light red" is not one: "light" stays a word to account for)
    r"light\s+(?:blue|green|yellow|pink|gr[ae]y|cyan)|dark\s+(?:blue|red|green|orange|gr[ae]y|cyan|violet|magenta)|"
    r"pale\s+green"
)
_COLOUR = re.compile(rf"\b(?:{_SHADES})\b|\b(?:{_COLOURS})\b|#[0-9a-f]{{6}}\b", re.IGNORECASE)
_SHADE = re.compile(rf"\b(?:{_SHADES})\b", re.IGNORECASE)
_POSITION = re.compile(
    r"(?<!the\s)\b(?:right|dead|smack|bang)\s+(?:in\s+)?(?:the\s+)?(?:centre|center|middle)\b|"  # "right in the centre"
    r"\b(?:top|bottom|upper|lower|left|right|left-hand|right-hand|center|centre|centered|centred|middle|corner|"
    r"corners|header|footer|margin|beginning|start|front|end)\b",
    re.IGNORECASE,
)
_FORMAT = re.compile(
    r"(?<!the )\b(?:ms\s+)?word(?:\s+(?:document|doc|file))?\b(?!\s*⟦)(?![\s-]+counts?\b)|"  # no "word count"
    r"\bdocx\b|(?<=\ba\s)doc\b|\bpower\s*point\b|\bpptx?\b|"
    r"\bslides?\b|"
    r"\bslide\s*deck\b|\bpresentation\b|\bexcel\b|\bxlsx\b|\bspreadsheets?\b|\bworkbook\b|\bpngs?\b|\bjpe?gs?\b|"
    r"\btiffs?\b|\btif\b|\bmarkdown\b|\bmd\b|\btxt\b|\bplain[- ]text\b|\btext\s+files?\b|\bimages?\b|\bpictures?\b|"
    r"\bphotos?\b|\bscreen-?shots?\b",
    re.IGNORECASE,
)
_CATEGORY = re.compile(
    r"\b(?:e-?mail(?:\s+address(?:es)?)?s?(?!\s+(?:it|them|this|that|to|me|him|her|us|the\s+\w+\s+to)\b)|(?:tele)?phone(?:\s+numbers?)?s?|mobile\s+numbers?|fax\s+numbers?|"
    r"contact\s+(?:numbers?|details|information|info)|social\s+security(?:\s+numbers?)?|ssns?|ss\s+numbers?|"
    r"(?:credit|debit)\s+cards?(?:\s+numbers?)?|card\s+numbers?|(?:bank\s+)?account\s+numbers?|ibans?|"
    r"routing\s+numbers?|dates?(?:\s+of\s+birth)?|birth\s*dates?|birthdays?|(?:monetary|dollar|money|currency)\s+"
    r"(?:amounts?|values?|figures?)|amounts?\s+of\s+money|prices?|money|urls?|web\s*(?:site)?\s*(?:addresses|links?)|"
    r"websites?|links?|pii|personally\s+identifiable\s+information|personal(?:ly)?\s+(?:identifying\s+)?"
    r"(?:information|info|data|details)|sensitive\s+(?:information|data|info|details)|private\s+(?:information|"
    r"data|details)|(?:people'?s?|persons'?|person|personal|individuals'?|employees'?|human)\s+names?|"
    r"names\s+of\s+(?:all\s+)?(?:the\s+)?(?:people|persons|individuals|employees)|people|persons|individuals|"
    r"(?:all|every|any)\s+names?|organi[sz]ations?(?:'s)?(?:\s+names?)?|compan(?:y|ies)(?:'s)?\s+names?|companies|"
    r"(?:postal\s+|street\s+|mailing\s+|physical\s+|home\s+)?addresses|(?:postal|street|mailing|physical|home)\s+"
    r"address|(?:section\s+)?headings?|section\s+titles?|(?:passport|id|identification|licen[sc]e)\s+numbers?)\b",
    re.IGNORECASE,
)
# Words that name one tool family: the plan must have a step of that family when the word is said.
VERB_TASKS: dict[str, tuple[str, ...]] = {
    r"redact\w*|black\s*out|blacked\s+out|blank\s+out|censor\w*|white\s*out": (
        "redact_text",
        "redact_pages",
    ),
    r"highlight\w*": ("highlight_text", "delete_annotations", "read_annotations"),
    r"underlin\w*|underscor\w*": ("underline_text", "delete_annotations", "read_annotations"),
    r"strike\s*out|strikethrough|strike\s+through|struck|cross(?:ed)?\s+out|"
    r"(?:draw|put)\s+an?\s+(?:\w+\s+)?line\s+through": (
        "strikeout_text",
        "delete_annotations",
        "read_annotations",
    ),
    r"rotat\w*": ("rotate_pages", "fix_orientation"),
    r"de-?skew\w*|straighten\w*": ("deskew",),
    r"orientations?": ("fix_orientation", "detect_orientation"),
    r"watermark\w*": ("add_watermark",),
    r"merg\w*|combin\w*|concatenat\w*|stitch\w*": ("combine_files", "images_to_pdf"),
    r"split\w*": ("split_pdf",),
    r"compress\w*|shrink\w*|downsiz\w*": ("compress",),
    r"encrypt\w*|password[- ]protect\w*": ("add_password", "check_password"),
    r"unlock\w*|decrypt\w*|unprotect\w*": ("remove_password",),
    r"crop\w*": ("crop_pages",),
    r"ocr|ocr'd": ("ocr",),
    r"reorder\w*|rearrang\w*|re-order\w*": ("reorder_pages",),
    r"flatten\w*": ("flatten_form",),
    r"sanitiz\w*|sanitis\w*": ("sanitize",),
    r"renam\w*": ("rename",),
    r"duplicat\w*": ("duplicate",),
    r"paginat\w*": ("add_page_numbers",),
    r"sign|signed|signing|signature": ("add_signature",),
    r"bookmarks?|outline": ("get_outline",),
    r"annotations?": ("read_annotations", "delete_annotations"),
    r"metadata|properties": ("get_metadata", "set_metadata", "sanitize"),
    r"attachments?": ("extract_attachments", "sanitize"),
    r"tables?": ("extract_tables", "convert_to_xlsx", "convert_to_docx", "convert_to_markdown"),
    r"comments?": ("add_comment", "read_annotations", "delete_annotations"),  # "page numbers and a comment"
    r"wipe|wiped": ("redact_text", "redact_pages", "delete_annotations"),  # wipe out words, pages or marks
    r"logos?": ("add_image", "add_watermark", "add_signature", "extract_images"),  # "page numbers and the logo"
    # a document property is said only by a step that reads or writes properties ("the page count and the author")
    r"title|author|subject|keywords": (
        "get_metadata",
        "set_metadata",
        "sanitize",
        "add_page_with_text",
        "fill_form",
        "read_form",
    ),
    r"summar\w*|sum\s+up": ("summarize",),
    # No tool does these: the model (or a refusal) answers them.
    r"print\w*|e-?mail(?:ed|ing)?|fax\w*|translat\w*|upload|uploads|uploading|share|sharing|shared|post|tweet\w*|"
    r"publish\w*|spell-?check\w*|proofread\w*|rewrite|rephrase|paraphras\w*|edit|fix|improve|beautify|"
    r"recolou?r\w*|resiz\w*|scale|scaling|enlarge|zoom": (),
}
_VERB = re.compile("|".join(rf"\b(?:{p})\b" for p in VERB_TASKS), re.IGNORECASE)
# Words that change what an operation means or how; accounting knows which plans use each.
_MODIFIER = re.compile(
    rf"\b(?:{WHOLE_WORDS}|{CASE_SENSITIVE}|{FLAT})\b|"
    r"\bvery\s+(?:beginning|start|front|end|back|top|bottom|left|right|middle|centre|center)\b|"
    # "in small letters", "with high quality": how the text or the pictures look, which no step here sets
    r"\b(?:small|smaller|tiny|large|larger|big|bigger|huge)\s+(?:letters|font|print|type|writing)\b|"
    r"\b(?:high|higher|highest|best|good|top|full|maximum|max)\s+quality\b|"
    r"\bcolou?r\b|"
    r"\bbut\s+only\b|"  # "…, but only on the cover page": a limit, no exception
    r"\b(?:\w+\s+times|once|down\s+to|except(?:\s+for)?|excluding|exclude|but|other\s+than|apart\s+from|save\s+for|besides|not|no|never|none|nothing|"
    r"without|don't|dont|do\s+not|twice|thrice|double|triple|again|every\s+other|alternate|alternating|only|"
    r"diagonal(?:ly)?|horizontal(?:ly)?|vertical(?:ly)?|bold|italics?|large|larger|big|bigger|huge|small|tiny|"
    r"smaller|faint|faintly|light|lightly|transparent|semi-transparent|see-through|opaque|solid|clockwise|"
    r"counter-?clockwise|anti-?clockwise|upside(?:[- ]down)?|sideways|landscape|portrait|reverse|reversed|"
    r"backwards?|opposite|"
    r"lossless|gently|strongly|aggressive(?:ly)?|heavily|maximum|max|minimum|lowest|highest|best|quality|"
    r"english|german|french|spanish|italian|dutch|portuguese|chinese|japanese|arabic|russian|"
    r"each\s+side|all\s+sides|sides|daily|weekly|later|tomorrow|random(?:ly)?|shuffle)\b",
    re.IGNORECASE,
)
_MEANING = {
    "except", "but", "not", "no", "nor", "never", "none", "nothing", "nobody", "noone", "without", "only", "twice",
    "again", "other", "others", "first", "last", "top", "bottom", "front", "back", "empty", "whole", "full", "less",
    "least", "more", "most", "few", "several", "many", "much", "some", "either", "neither", "else", "otherwise",
    "if", "unless", "thick", "thin", "side", "besides", "fire", "bill", "cry", "mill", "interest", "system",
    "whatever", "whichever",
    "detail", "serious", "sincere", "describe", "found", "name", "amount", "call", "part", "per", "once",
    "next", "same", "former", "latter", "un", "de", "con", "co", "inc", "ltd",
}  # fmt: skip
# Words that carry no instruction of their own here: the tool words the rules read, document nouns, politeness.
_KNOWN = {
    # asking and politeness
    "please", "pls", "plz", "kindly", "thanks", "thank", "cheers", "ok", "okay", "hey", "hi", "hello", "want",
    "wanna", "need", "needs", "like", "let", "lets", "let's", "u", "can", "could", "would", "i'd", "i'm", "you",
    "quickly", "just", "also", "then", "finally", "first", "now", "afterwards", "next", "make", "sure", "actually",
    "really",
    # document nouns
    "document", "documents", "doc", "file", "files", "pdf", "pdfs", "copy", "version", "result", "output", "it",
    "contract", "report", "paper", "invoice", "invoices", "letter", "form", "forms", "agreement", "statement",
    "thing", "one", "ones", "upload", "uploaded", "attached", "new", "resulting", "final",
    # generic verbs (their meaning comes from the nouns beside them)
    "add", "adding", "added", "put", "place", "insert", "inserting", "append", "prepend", "include", "apply", "set",
    "change", "update", "give", "get", "take", "turn", "convert", "converting", "export", "exporting", "save",
    "saving", "saved", "create", "generate", "produce", "render", "transform", "send", "return", "write",
    "remove", "removing", "delete", "deleting", "drop", "cut", "discard", "erase", "strip", "clear", "hide",
    "mask", "scrub", "obscure", "keep", "retain", "preserve", "leave", "extract", "pull", "separate", "find",
    "search", "look", "locate", "list", "show", "tell", "check", "count", "read", "see", "mark", "number",
    "numbered", "numbering", "stamp", "stamped", "stamping", "lock", "locked", "protect", "protected", "secure",
    "fill", "filled", "move", "sort", "sorted", "order", "ordered", "reduce", "reduced", "optimize", "optimise",
    "trim", "join", "bundle", "break", "stick", "slap", "splash", "print", "label", "tag", "appear", "appears", "grab",
    "mention", "mentions", "mentioned", "contain", "contains", "occur", "occurs", "say", "says", "saying", "reading",
    "called", "call", "named", "titled", "rid", "known", "go", "goes", "comment", "comments", "note", "notes",
    "sticky", "annotate", "recognise", "recognize", "searchable", "scanned", "run", "perform",
    # tool nouns
    "page", "pages", "numbers", "header", "headers", "footer", "footers", "password", "passcode", "passphrase",
    "encryption", "protection", "blank", "blanks", "margin", "margins", "title", "author", "subject", "keywords",
    "keyword", "creator", "producer", "field", "fields", "values", "value", "entries", "text", "texts", "words",
    "word", "phrase", "phrases", "term", "terms", "occurrence", "occurrences", "instances", "instance",
    "times", "often", "many", "how", "where", "which", "what", "whats", "what's", "size", "font",
    "logo", "image", "images", "picture", "pictures", "photo", "graphic", "watermark", "parts", "chunks",
    "chunk", "pieces", "piece", "sections", "section", "part", "each", "every", "all", "everything", "whole",
    "content", "contents", "data", "details", "information", "info", "hidden", "javascript", "scripts", "links",
    "format", "formatted", "case", "sensitive", "exact", "exactly", "matching", "wherever", "everywhere",
    "throughout", "across", "over", "on", "onto", "in", "into", "as", "to", "name", "sheet",
    "individual", "separately", "single", "per", "total", "there", "long", "big", "encrypted",
    "using", "use", "entirely", "completely", "fully", "deck", "multi-page", "multipage", "non-editable",
    "uneditable", "kinda", "sorta", "permanently", "empty", "scan", "anything", "any", "stuff",
    "does", "did", "doing", "has", "having", "is", "are", "was", "be", "been", "done", "open", "opens",
    "opening", "read-only", "readonly", "editable", "selectable", "nice", "nicely", "neat",
}  # fmt: skip


_POLITE = {"please", "pls", "plz", "kindly", "thanks", "thank", "cheers", "ok", "okay", "hey", "hi", "hello", "want",
           "wanna", "need", "needs", "like", "let", "lets", "let's", "u", "can", "could", "would", "i'd", "i'm",
           "you", "quickly", "just", "also", "then", "finally", "now", "make", "sure", "it", "file", "document",
           "doc", "pdf", "this", "one"}  # fmt: skip


@functools.cache
def _stop_words() -> frozenset[str]:
    """scikit-learn's English stop words (the Glasgow IR list), read from its module file: importing
    scikit-learn itself takes over a second, more than the whole fast path may."""
    spec = importlib.util.find_spec("sklearn")
    why = "scikit-learn is not installed"
    if spec is not None and spec.origin is not None:
        source = Path(spec.origin).parent / "feature_extraction" / "_stop_words.py"
        namespace: dict[str, Any] = {}
        try:
            exec(compile(source.read_text(), str(source), "exec"), namespace)  # noqa: S102 - a constant, no imports
            return frozenset(namespace["ENGLISH_STOP_WORDS"])
        except (OSError, SyntaxError, KeyError) as exc:
            why = f"{source} could not be read: {exc}"
    raise MissingPart(
        f"The request reader needs scikit-learn's English stop-word list ({why}). "
        "Install it with `pip install scikit-learn` (`make install` does)."
    )


def deciding(spans: list[Span]) -> list[str]:
    """The words that say what to do (quoted text as typed): what a plan step shows it was made from."""
    return [
        str(s.value) if s.kind == "quote" else s.text
        for s in spans
        if s.kind not in ("filler", "file")
        or s.kind == "filler"
        and s.text.lower() not in _stop_words()
        and s.text.lower() not in _POLITE
    ]


@functools.cache
def _fillers() -> frozenset[str]:
    return frozenset((set(_stop_words()) - _MEANING) | _KNOWN)


def is_filler(word: str) -> bool:
    """A word that carries no instruction of its own ("the", "document", "please")."""
    return word.lower() in _fillers()


# "these two invoices", "into one PDF", "both files": which files, not how many of anything.
FORM_NAME = re.compile(r"\d{1,2}-[a-z]s?")  # a filing form: 10-K, 10-Q, 8-K, 20-F (a document noun)
_FILE_REFERENCE = re.compile(
    r"\b(?:these|those|the|all|both|my|our)\s+(?:two|three|four|five|\d+)\s+(?!times\b)[a-z]+s\b|"
    r"\b(?:into|as|in|to)\s+(?:one|a\s+single|a\s+new|one\s+single)\s+(?:pdf|file|document|doc)\b|"
    r"\binto\s+(?:just\s+)?one\b(?!\s*[\w-])|"
    r"\b(?:these|those)\s+(?:two|three|four)\b(?!\s+(?:times|pages?|copies|words?))",  # "put these two together"
    re.IGNORECASE,
)
# "… I can paste into slides", "so we can print it": why the person wants it, not another instruction.
# "as small as you can" is how much, not why: "you" says a purpose only after "so" ("so you can review it").
_PURPOSE = re.compile(
    r"\b(?:so\s+(?:that\s+)?(?:I|we|you|they|he|she)|(?:I|we|they|he|she))\s+(?:can|could|may)\s+"
    r"(?!(?:in|on|at|with|and|to|for|by|as|but|or|then|too|also|only|not)\b)\w+.*$",
    re.IGNORECASE,
)


def _shouted(token: str) -> bool:
    """A word in capitals ("COPY", "FINAL") is text to write, never a filler."""
    return len(token) > 1 and token.isupper() and token not in ("PDF", "PDFS", "I", "OK")


def _whole_token(clause: str, m: re.Match[str]) -> bool:
    """Not a piece of a hyphenated word ("only" in "read-only", "page" in "multi-page")."""
    before = clause[m.start() - 1] if m.start() else " "
    after = clause[m.end()] if m.end() < len(clause) else " "
    named = after == "." and clause[m.end() + 1 : m.end() + 2].isalpha()  # "summary" in "summary.pdf": a file name
    return before != "-" and after != "-" and not named


# A word: letters and digits, joined by dots, dashes or the signs a password holds ("Tulip#2291", "Birch!884")
_TOKEN = re.compile(r"⟦\d+⟧|#?[\w'’]+(?:[.\-–#!@$%*+=][\w'’]+)*", re.UNICODE)


def tag(clause: str, quotes: list[str], file_names: tuple[str, ...] = ()) -> list[Span]:
    """Every word of ``clause`` in one span, longer phrases first (a page reference before its numbers)."""
    spans: list[Span] = []
    taken = [False] * len(clause)

    def claim(kind: str, m: re.Match[str], value: Any = None) -> None:
        if any(taken[m.start() : m.end()]):
            return
        spans.append(Span(kind, m.group(0), m.start(), m.end(), value))
        taken[m.start() : m.end()] = [True] * (m.end() - m.start())

    for m in re.finditer(r"⟦(\d+)⟧", clause):
        claim("quote", m, quotes[int(m.group(1))] if int(m.group(1)) < len(quotes) else "")
    for m in _CATEGORY.finditer(clause):
        claim("category", m)
    for m in _ALL_BUT.finditer(clause):
        claim("pages", m, "except")
    for m in _PAGES.finditer(clause):
        claim("pages", m)
    for m in _MEASURE.finditer(clause):
        claim("measure", m, (float(m.group(1)), m.group(2).lower()))
    for m in _WORD_MEASURE.finditer(clause):
        claim("measure", m, (_WORD_AMOUNTS[" ".join(m.group(1).lower().split())], unit_of(m.group(2))))
    file_words = {
        a for n in file_names for w in re.split(r"[\W_]+", n.rsplit(".", 1)[0].lower()) if w for a in word_aliases(w)
    }
    for pattern in (_FILE_REFERENCE, *FILE_MENTIONS, *(name_pattern(n) for n in file_names)):
        for m in pattern.finditer(clause):
            claim("file", m)
    for m in _PURPOSE.finditer(clause):
        claim("filler", m)
    for pattern, kind in (
        (_SHADE, "colour"),  # "light blue" is a colour before "light" is a modifier
        (_MODIFIER, "modifier"),
        (_VERB, "verb"),  # "black out" is a verb before "black" is a colour
        (_COLOUR, "colour"),
        (_FORMAT, "format"),
        (_POSITION, "position"),
    ):
        for m in pattern.finditer(clause):
            if _whole_token(clause, m):
                claim(kind, m)
    fillers = _fillers()
    for m in _TOKEN.finditer(clause):
        word = m.group(0).lower().replace("’", "'")
        if word.isdigit() or word in _NUMBER_WORDS:
            claim("number", m, float(word) if word.isdigit() else _NUMBER_WORDS[word])
        elif (
            word in file_words or word.rsplit(".", 1)[0] in file_words or word.endswith("s") and word[:-1] in file_words
        ):
            claim("file", m)
        elif (word in fillers or word.rstrip("s") in fillers or word.endswith("'s") and word[:-2] in fillers) and not (
            _shouted(m.group(0))
        ):  # "it's", "the file's": the word itself
            claim("filler", m)
        elif FORM_NAME.fullmatch(word):  # "this 10-K", "the 10-Qs": a document noun, like "report"
            claim("filler", m)
        else:
            claim("word", m)
    return sorted(spans, key=lambda s: s.start)
