"""Request text: quoted strings set aside, chat spellings read as words, then split into clauses at verbs."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Request", "split_request", "clauses_of", "normalise", "VERBS", "ASKS_HOW"]

# A clause that asks how things are, not what to do ("are any pages sideways?", "which pages are rotated?"); a
# request put as a question ("can you rotate …?", "would you …") is no such clause
ASKS_HOW = re.compile(r"^\s*(?:which|what|whats|what's|is|are|was|were|does|do|did|has|have|how\s+many)\b", re.I)
# Verbs that start a new instruction. A clause boundary is a separator followed by one of these.
VERBS = (
    "add|redact|black ?out|blackout|blank ?out|remove|delete|drop|rotate|turn|highlight|underline|strike ?out|strikethrough|"  # noqa: E501 - one alternation reads best whole
    "cross out|comment|annotate|watermark|stamp|sign|number|insert|append|prepend|extract|split|merge|combine|join|"
    "concatenate|compress|shrink|reduce|optimi[sz]e|convert|export|save|make|create|give|send|put|reverse|reorder|"
    "rearrange|sort|move|swap|protect|encrypt|lock|password-protect|unlock|decrypt|fill|flatten|set|change|update|crop|"
    "ocr|search|find|count|list|show|tell|check|sanitize|clean|copy|duplicate|rename|place|include|keep|read|mark|"
    "password[- ]protect|scrub|strip|"
    "erase|censor|mask|hide|scrub|apply|paginate|get|pull|attach|render|output"
)
_VERB_START = rf"(?:please\s+)?(?:also\s+)?(?:then\s+)?(?:{VERBS})\b"
# A phrase before a colon that asks for words to write: what follows the colon is those words
_SAYS = r"\b(?:note|comment|sticky|annotation|header|footer|watermark|stamp|text|message|saying|says|reads|reading)\b"
_QUOTED = re.compile(r"\"([^\"]+)\"|(?<![\w])'([^']+?)'(?![\w])")
# "pp. 3-5", "p. 7": a page abbreviation (its dot ends no sentence), read as "pages 3-5", "page 7"
_PP = re.compile(r"(?<![\w.])(pp?)\.\s*(?=\d)", re.IGNORECASE)
_WORD_NUMBERS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14", "fifteen": "15",
    "sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20",
}  # fmt: skip
_NW = "|".join(_WORD_NUMBERS)
# "pages two to four", "page three": page numbers spelled out, read as digits
_SPELLED_PAGES = re.compile(
    rf"\b(pages?\s+)({_NW})\b((?:\s*(?:-|–|to|through|thru|and|&|,)\s*(?:{_NW})\b)*)(?!\s+(?:times|pages?|copies)\b)",
    re.IGNORECASE,
)

# Chat shorthand and frequent misspellings, read as the words meant. Only whole words are read: never a piece
# of a file name ("notes_pg3.pdf"), a hyphenated word or a quoted string (those are ⟦n⟧ markers by then).
_SHORTHAND = {
    "pls": "please", "plz": "please", "pleas": "please", "thx": "thanks", "u": "you", "ur": "your",
    "pw": "password", "pwd": "password", "passwd": "password", "pword": "password", "nums": "numbers",
    "pgs": "pages", "pg": "page", "b4": "before", "w/": "with", "w/o": "without",
    "teh": "the", "hte": "the", "adn": "and", "wiht": "with", "evry": "every", "evrey": "every",
    "everypage": "every page", "seperate": "separate", "seperately": "separately", "seperated": "separated",
    "compres": "compress", "compresss": "compress", "posible": "possible", "possibe": "possible",
    "whats": "what's", "thats": "that's", "doesnt": "doesn't", "isnt": "isn't", "wich": "which",
    "pasword": "password", "passowrd": "password", "paswword": "password", "hilight": "highlight",
    "higlight": "highlight", "hightlight": "highlight", "wattermark": "watermark", "watermak": "watermark",
    "adress": "address", "adresses": "addresses", "emial": "email", "emials": "emails", "untill": "until",
    "occurence": "occurrence", "occurences": "occurrences", "begining": "beginning", "pagenumbers": "page numbers",
    "seprate": "separate", "documnet": "document", "docuemnt": "document", "rotae": "rotate", "redcat": "redact",
    "asap": "quickly", "pic": "picture", "pics": "pictures", "img": "image", "imgs": "images", "cuz": "because",
    "coz": "because", "abt": "about", "ppl": "people", "num": "number",
}  # fmt: skip
# A shorthand word standing alone: not next to a dot-word, a hyphen, an apostrophe or an underscore
_SHORT_WORD = re.compile(
    r"(?<![\w.'’/-])(" + "|".join(sorted(map(re.escape, _SHORTHAND), key=len, reverse=True)) + r")(?![\w'’/-]|\.\w)",
    re.IGNORECASE,
)
# "p3", "p 3", "pg.3", "pgs 3-5": a page abbreviation glued to (or just before) its number
_PAGE_SHORT = re.compile(r"(?<![\w.'’/-])(pgs|pg|pp|p)\.?\s*(?=\d+\b(?!\.\w|[-_/]?[a-z]))", re.IGNORECASE)
# "its going by email", "its too big": "it's" typed without its apostrophe (never "its pages", "its entirety")
_ITS = re.compile(
    r"\bits(?=\s+(?:going|gone|too|a|an|just|only|for|not|fine|done|ok|okay|already|all|in|on|been|got|getting|"
    r"really|very|so|way|meant|supposed|because)\b)",
    re.IGNORECASE,
)
# "quick q - …", "quick question: …", "hi there, …": an opener that asks nothing itself
_OPENER = re.compile(
    r"^(?:(?:hi|hey|hello)(?:\s+there)?\s*[,!.-]?\s+)?(?:(?:a\s+)?quick\s+(?:q|qn|question|one)|question)\s*[-–:,]\s*",
    re.IGNORECASE,
)


# "compress what's left": what remains after the steps before, the result they pass on
_WHAT_IS_LEFT = re.compile(r"\bwhat(?:'s|\s+is)\s+left\b(?!\s+of\b)|\bwhat\s+remains\b(?!\s+of\b)", re.IGNORECASE)


# "every single page", "each and every page": every page, said with weight
_EVERY_SINGLE = re.compile(r"\b(every|each)\s+single\b|\beach\s+and\s+(every)\b", re.IGNORECASE)


# "pages with nothing on them", "pages that have nothing on them": blank pages
_NOTHING_ON = re.compile(
    r"\b(pages?)\s+(?:with|that\s+have|that\s+has|which\s+have|having)\s+(?:nothing|no\s+content)\s+(?:on|in)\s+"
    r"(?:it|them)\b",
    re.IGNORECASE,
)


# "slides 2 and 19", "slide 7": a deck's slides are the PDF's pages
_SLIDES = re.compile(r"\b(slides?)(?=\s+\d)", re.IGNORECASE)


def normalise(text: str) -> str:
    """Chat shorthand and common misspellings read as the words meant ("pg 3" → "page 3", "pls" → "please",
    "teh" → "the", "slides 2 and 19" → "pages 2 and 19"), so every rule reads one spelling; run on the request
    with its quoted strings masked."""
    text = _OPENER.sub("", text)
    text = _PAGE_SHORT.sub(lambda m: "pages " if m.group(1).lower() in ("pgs", "pp") else "page ", text)
    text = _SLIDES.sub(lambda m: "pages" if m.group(1).lower() == "slides" else "page", text)
    text = _SHORT_WORD.sub(_meant, text)
    text = _WHAT_IS_LEFT.sub("it", text)
    text = _EVERY_SINGLE.sub(lambda m: m.group(1) or m.group(2), text)
    text = _NOTHING_ON.sub(lambda m: f"blank {m.group(1)}", text)
    return _ITS.sub(lambda m: _cased(m.group(0), "it's"), text)


def _meant(m: re.Match[str]) -> str:
    """The word a shorthand stands for; a word in capitals ("ASAP", "PLS") is text to write and stays."""
    said = m.group(1)
    return said if len(said) > 1 and said.isupper() else _cased(said, _SHORTHAND[said.lower()])


def _cased(said: str, word: str) -> str:
    """The word meant, capitalised when the word said was (a sentence's first word stays one)."""
    return word[0].upper() + word[1:] if said[:1].isupper() and not said.isupper() else word


def _digits(text: str) -> str:
    """'pp. 3-5' → 'pages 3-5'; 'pages two to four' → 'pages 2 to 4'."""
    text = _PP.sub(lambda m: "pages " if m.group(1).lower() == "pp" else "page ", text)
    return _SPELLED_PAGES.sub(
        lambda m: (
            m.group(1)
            + re.sub(
                rf"\b(?:{_NW})\b", lambda w: _WORD_NUMBERS[w.group(0).lower()], m.group(2) + m.group(3), flags=re.I
            )
        ),
        text,
    )


_QUOTE_MAP = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "«": '"', "»": '"', "`": "'"})

# A statement after a comma or a dash ("…, it's just an advert", "the scanner doubled everything - drop …"):
# a new clause, so what it says is read (or set aside) on its own
_STATEMENT = (
    r"(?:it's|it\s+is|it\s+was|this\s+is|that's|they're|they\s+are|there's|there\s+(?:is|are|were)|"
    r"(?:I|we)\s+(?-i:[a-z]+ed)\s+(?!(?:to|that|it|them|this)\b)|"
    r"(?:before|because|since)\s+(?:it|this|they|these|I|we|the\s+\w+)\b)"
)
# "… before it goes on the website", "Before this goes to the landlord I need …": when it is needed, said as why
_BEFORE = re.compile(
    r"\s*\b(before\s+(?:(?:it|this|they|these|the\s+\w+|I|we)\s+(?:goes|go|gets|get|is|are|'s|'re)|"
    # "before we publish it", "before I send it to the client": what the user does with the result
    r"(?:I|we)\s+(?:publish|send|share|post|upload|print|email|e-mail|submit|circulate|distribute|forward|"
    r"hand|file|present)\s+(?:it|this|them|these)(?:\s+(?:out|in|over|on|off))?)\b[^,;⟦]*?)"
    r"(?:\s*,\s*|\s+(?=(?:I|we)\s+(?:need|want|would\s+like|'d\s+like)\b|(?:please\s+)?(?:can|could)\s+you\b|"
    rf"please\b|{_VERB_START})|\s*(?:please\s*)?$)",
    re.IGNORECASE,
)
_POLITE_END = re.compile(r"\s*(?:please|pls|thanks|thank\s+you)?\s*[.!]?\s*", re.IGNORECASE)
# "I need all the phone numbers blacked out": the thing, then what is to be done to it
_PARTICIPLES = {
    "blacked out": "black out", "redacted": "redact", "highlighted": "highlight", "underlined": "underline",
    "crossed out": "cross out", "struck out": "strike out", "removed": "remove", "deleted": "delete",
    "rotated": "rotate", "compressed": "compress", "watermarked": "watermark", "numbered": "number",
    "encrypted": "encrypt", "unlocked": "unlock", "merged": "merge", "combined": "combine", "flattened": "flatten",
    "sanitised": "sanitise", "sanitized": "sanitize", "ocr'd": "ocr", "stamped": "stamp", "extracted": "extract",
    "signed": "sign",
}  # fmt: skip
_DONE_TO = re.compile(
    r"^(?:please\s+)?(?:(?:I|we)\s+(?:need|want|would\s+like|'d\s+like)|(?:can|could)\s+(?:I|we)\s+(?:get|have))\s+"
    r"(?P<thing>(?:(?!\b(?:to|be|it|them|this|that)\b)[^,;:])+?"
    r"(?:,\s*(?-i:[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)*),)?)\s+"  # "my name, Olivia Grant,": a name said beside it
    rf"(?P<done>{'|'.join(map(re.escape, _PARTICIPLES))})(?P<rest>\s+(?!(?:so|because|as|if|when)\b).*)?$",
    re.IGNORECASE,
)


# "any pages with nothing on them should go", "page 3 has to be removed": the thing, then what should happen to it
_SHOULD_BE = re.compile(
    r"^(?P<thing>(?!(?:I|we|you|it|they|this|that|there)\b)(?:(?!\b(?:to|be|should|must|can|need|needs|has|have)\b)"
    r"[^,;:?])+?)\s+(?:should|must|can|needs?\s+to|has\s+to|have\s+to)\s+"
    rf"(?:(?P<go>go)|be\s+(?P<done>{'|'.join(map(re.escape, _PARTICIPLES))}))"
    r"(?P<rest>\s+(?!(?:so|because|as|if|when)\b).*)?$",
    re.IGNORECASE,
)


# "I need a TIFF of the whole document", "I'd like a Word version of it": a file of a format, asked as a want
_WANT_A = re.compile(
    r"^(?:please\s+)?(?:I|we)(?:\s+(?:need|want|would\s+like)|'d\s+like)\s+(?=an?\s+(?:tiff?|png|jpe?g|word|docx|excel|"
    r"xlsx|powerpoint|pptx|markdown|txt|plain[- ]text)\b)",
    re.IGNORECASE,
)


def _reframed(clause: str) -> str:
    """'I need the phone numbers blacked out on page 2' → 'black out the phone numbers on page 2': the same
    instruction said the way the rules read it."""
    want = _WANT_A.match(clause)
    if want:  # "I need a TIFF of the whole document" → "give me a TIFF of the whole document"
        return f"give me {clause[want.end() :]}"
    should = _SHOULD_BE.match(clause)
    if should and not (should.group("go") and should.group("rest")):  # "the blank pages should go": remove them
        # ("the logo should go on page 2" says where it goes, never that it goes)
        verb = "remove" if should.group("go") else _PARTICIPLES[should.group("done").lower()]
        return f"{verb} {should.group('thing')}{should.group('rest') or ''}"
    m = _DONE_TO.match(clause)
    if not m:
        return clause
    return f"{_PARTICIPLES[m.group('done').lower()]} {m.group('thing')}{m.group('rest') or ''}"


# "Footer text: © 2025 Northwind Traders." — a label and a colon starting a sentence, then the words to write, to
# the sentence's end: read as quoted. Only words that could be nothing but the text (no page, place, size,
# colour, comma or instruction verb: "Footer: page numbers, bottom right" is not a footer that says so)
_LABELLED = re.compile(
    r"(?:^|(?<=[.;!?]\s))((?:header|footer|(?:header|footer|watermark|stamp)\s+text)\s*:\s+)"
    r"([^\s\"'‘’“”⟦][^\"'‘’“”⟦;!?]*?)(?=\.?\s*$|[.;!?]\s)",
    re.IGNORECASE,
)
_NOT_THE_TEXT = re.compile(
    rf",|\b(?:pages?|numbers?|numbering|left|right|top|bottom|cent(?:re|er)(?:ed|d)?|middle|corner|on|at|in|every|each|"
    rf"all|font|size|pt|colou?r|bold|italic|opacity|aligned|align|first|last|odd|even|please|{VERBS})\b",
    re.IGNORECASE,
)


def _labelled(m: re.Match[str]) -> str:
    said = m.group(2)
    return m.group(0) if _NOT_THE_TEXT.search(said) else f'{m.group(1)}"{said}"'


@dataclass
class Request:
    """The request with quoted strings replaced by ⟦n⟧ markers, and its clauses."""

    original: str
    text: str
    quotes: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)

    def retold(self, text: str) -> Request:
        """The same request with its text said another way (file mentions written as the file's name)."""
        return Request(self.original, text, self.quotes, clauses_of(text))


def split_request(request: str) -> Request:
    """Normalize quotes, protect quoted strings, read shorthand, split into instruction clauses."""
    text = " ".join(request.translate(_QUOTE_MAP).split())
    quotes: list[str] = []

    def protect(match: re.Match[str]) -> str:
        quotes.append(match.group(1) or match.group(2))
        return f"⟦{len(quotes) - 1}⟧"

    masked = _digits(normalise(_QUOTED.sub(protect, _LABELLED.sub(_labelled, text))))
    return Request(request, masked, quotes, clauses_of(masked))


def clauses_of(masked: str) -> list[str]:
    """The instruction clauses of a masked request: sentences, then the parts that start with a verb."""
    parts = re.split(r"(?<=[.;!?])\s+|;\s*", masked)
    clauses: list[str] = []
    for part in parts:
        part = part.strip().rstrip(".!;")
        if not part:
            continue
        intro = re.match(rf"^([^:⟦]{{3,80}}):\s+(?={_VERB_START})", part, flags=re.IGNORECASE)
        if intro and re.search(_SAYS, intro.group(1), flags=re.IGNORECASE):
            intro = None  # "leave a note on page 1: Please sign and return": what the note says, not an instruction
        if intro:  # "Tidy up the contract for the board: number the pages …" — the list after the colon says what
            clauses.append(intro.group(1).strip() + ":")
            part = part[intro.end() :]
        for piece in _purposes(part):
            pieces = re.split(
                rf"(?:,\s*(?:and\s+|so\s+)?|\s+and\s+|\s+then\s+|,\s*then\s+|\s+[-–]\s+)(?={_VERB_START})|"
                rf"\s*,\s*(?={_STATEMENT})(?!(?:it's|it\s+is)\s+[^\s,]+\s*$)",  # "…, it's hunter22" stays whole
                piece,
                flags=re.IGNORECASE,
            )
            clauses.extend(_reframed(p.strip(" ,-–")) for p in pieces if p and p.strip(" ,-–"))
    return clauses


def _purposes(part: str) -> list[str]:
    """'sanitise this before it goes on the website' → the instruction, and when it is wanted as a clause of its
    own (read as an aside, or not at all)."""
    m = _BEFORE.search(part)
    if not m or not (m.start() == 0 or _POLITE_END.fullmatch(part[m.end() :])):
        return [part]
    return [p for p in (part[: m.start()], m.group(1), part[m.end() :]) if p.strip(" ,")]
