"""Argument extractors: pages, passwords, degrees, positions, names, categories, formats."""

from __future__ import annotations

import re

__all__ = [
    "pages_in",
    "password_in",
    "password_pair_in",
    "user_password_in",
    "degrees_in",
    "position_in",
    "output_name_in",
    "categories_in",
    "format_in",
    "number_words",
    "width_in",
    "lengths_in",
    "points",
    "unit_of",
    "all_but",
    "PII",
    "FLAT",
    "COVER",
    "BEYOND",
]

# "straight across", "not at an angle": text written flat (a watermark's rotation 0)
FLAT = (
    r"straight(?:\s+across)?|not\s+(?:at\s+an\s+angle|diagonal(?:ly)?|tilted|slanted|angled|rotated)|"
    r"(?:no\s+|without\s+(?:any\s+)?)(?:tilt|angle|rotation)(?:\s+at\s+all)?"
)

_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
    "5th": 5,
}
_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a": 1,
    "an": 1,
    "single": 1,
}
_RANGE_SEP = r"\s*(?:-|–|to|through|thru|until|till)\s*"
_NUM = r"\d+"
# "pages 7 to 9 and then page 2": the pages in the order said (a number with a unit is no page: "page 3, 100 pt")
_ITEM = rf"{_NUM}(?![\d.])(?:{_RANGE_SEP}(?:{_NUM}|the end|end|last))?"
_LIST_SEP = r"\s*(?:,\s*and(?:\s+then)?|and(?:\s+then)?|&|,\s*then|then|followed\s+by|,)\s*(?:pages?\s+)?"
_LIST = rf"{_ITEM}(?:{_LIST_SEP}{_ITEM})*"


def number_words(text: str) -> int | None:
    text = text.strip().lower()
    if text.isdigit():
        return int(text)
    return _NUMBERS.get(text)


def _clean_list(spec: str) -> str:
    spec = re.sub(_LIST_SEP, ",", spec)
    spec = re.sub(_RANGE_SEP, "-", spec)
    spec = re.sub(r"-(?:the end|end)", "-last", spec)
    return re.sub(r"\s+", "", spec)


# "the cover", "the front cover" (page 1); not "the cover letter", a document of its own
_COVER_WORD = (
    r"(?:front\s+)?cover\b(?!\s+(?:letters?|sheets?|notes?|emails?|images?|photos?|pictures?|art|designs?|pages?))"
)
COVER = rf"the\s+{_COVER_WORD}"
_EXCEPTION = r"(?:except(?:\s+for)?|but|other\s+than|apart\s+from|save\s+for|excluding|besides)"
# "every page except the first one", "all pages but 3 and 4", "everything except the cover", "all but the last two
# pages": every page less the ones named after the exception. Without the word "page" before the exception, the
# exception must name pages itself ("everything except the first one" may mean a first anything).
ALL_BUT = re.compile(
    rf"\b(?:(?:every|each|all(?:\s+(?:the|of\s+the))?)\s+pages?\s+{_EXCEPTION}\s+"
    r"(?=(?:the\s+)?(?:pages?\b|p\.|first\b|last\b|final\b|\d|title\b|front\b)|"
    r"(?:the\s+)?(?:front\s+)?cover\b(?!\s+(?:letters?|sheets?|notes?|emails?|images?|photos?|pictures?|art|designs?)))"
    rf"|(?:everything|all)\s+{_EXCEPTION}\s+(?=pages?\s+\d|{COVER}|(?:the\s+)?(?:first|last|final|title|front|back)\s+"
    r"(?:(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+)?pages?\b))"
)


def _excepted(rest: str, count: int | None) -> str | None:
    """The pages an exception names ("the first one", "the last two", "3 and 4", "page 2")."""
    rest = re.sub(
        r"^(?:the\s+)?(first|last|final)\s+(\w+)(?:\s+ones)?\b(?!\s+pages?\b)",
        lambda m: f"{m.group(1)} {m.group(2)} pages" if number_words(m.group(2)) else m.group(0),
        rest,
    )
    rest = re.sub(
        r"^(?:the\s+)?(?:front\s+)?(first|last|final|cover|title|front)(?:\s+one)?\b(?!\s+\w*\s*pages?\b)",
        r"\1 page",
        rest,
    )
    if re.match(r"\d", rest):
        rest = "pages " + rest
    return pages_in(rest, count)


def all_but(clause: str, count: int | None) -> tuple[str, str] | None:
    """'every page except the first one' → (the pages excepted, every other page), both in the selection syntax;
    None when the clause has no such exception or the page count is unknown (then no reading is safe)."""
    m = ALL_BUT.search(clause.lower())
    if not m or not count:
        return None
    inner = _excepted(clause.lower()[m.end() :], count)
    if not inner or inner == "all":
        return None
    from pdftools.errors import PdfToolError
    from pdftools.pages import parse_pages

    try:
        left = sorted(set(range(count)) - set(parse_pages(inner, count)))
    except PdfToolError:
        return None
    if not left:
        return None
    runs: list[list[int]] = []
    for index in left:
        if runs and runs[-1][1] == index - 1:
            runs[-1][1] = index
        else:
            runs.append([index, index])
    return inner, ",".join(str(a + 1) if a == b else f"{a + 1}-{b + 1}" for a, b in runs)


_ORD = r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d+(?:st|nd|rd|th)"


# One page named on its own: "page 4", "the cover", "the last page", "the fourth page", "the back page"
_ONE_PAGE = (
    rf"page\s+(\d+)(?![\d.])(?!\s*(?:-|–|to|through|thru|until|till)\s*\d)|(?:the\s+)?({_ORD})\s+page(?!s)|"
    rf"(?:the\s+)?(cover|title|front|back|closing|final)\s+page(?!s)|({COVER})|the\s+(back)\s+cover"
)
# Two or more of them joined: "the cover and the back page", "page 4 and the last page", "page 1 and page 10"
_JOINED = re.compile(rf"\b(?:{_ONE_PAGE})(?:\s*(?:,\s*(?:and\s+)?|and|&)\s*(?:{_ONE_PAGE}))+")
_ONE = re.compile(rf"\b(?:{_ONE_PAGE})")


def _joined_pages(c: str) -> str | None:
    """'the cover and the back page' → '1,last': single pages named one by one, in the order said."""
    m = _JOINED.search(c)
    if not m:
        return None
    picks = []
    for one in _ONE.finditer(m.group(0)):
        number, ordinal, named, cover, back = one.groups()
        if number:
            picks.append(number)
        elif ordinal:
            picks.append(
                "last" if ordinal == "last" else str(_ORDINALS.get(ordinal, int(re.sub(r"\D", "", ordinal) or 0)))
            )
        else:
            picks.append("1" if cover or named in ("cover", "title", "front") else "last")
    return ",".join(picks) if len(picks) > 1 and "0" not in picks else None


# "everything after page 9", "all the pages before page 3", "the rest after page 4": the pages on one side of one
BEYOND = (
    r"(?:everything|anything|all(?:\s+the)?\s+pages|the\s+pages|every\s+page|the\s+rest(?:\s+of\s+the\s+pages)?)\s+"
    r"(after|following|beyond|past|before)\s+page\s+(\d+)\b(?!\s*(?:-|–|to|through|and|,)\s*\d)"
)
_BEYOND = re.compile(rf"\b{BEYOND}")
_FROM_TO = re.compile(r"\bpages\s+from\s+(\d+)\s*(?:to|through|thru|until|till|-|–)\s*(?:page\s+)?(\d+)\b(?![.\d])")
_BETWEEN = re.compile(r"\bbetween\s+pages?\s+(\d+)\s+and\s+(?:page\s+)?(\d+)\b(?!\s*(?:-|–|to|through|,|and)\s*\d)")
# "from the sixth page onwards", "the 3rd page to the end": one page named by its ordinal and every page after it
_ORD_ONWARD = re.compile(
    r"\b(?:the\s+)?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))\s+page\s+"
    r"(?:onwards?|to\s+the\s+end|and\s+(?:after|beyond|following))\b"
)
_PLACE = re.compile(
    r"\b(?:after|before|behind|following|preceding)\s+(?:page\s+\d+\b(?!\s*(?:-|–|to|through|and|,)\s*\d)|"
    rf"(?:the\s+)?(?:(?:{_ORD})\s+page|(?:cover|title|front|back|closing)\s+page|{_COVER_WORD}|back\s+cover)\b)"
)  # "after page 3", "before the last page", "after the cover": a place (to insert, move, split), not those pages


def pages_in(clause: str, count: int | None = None) -> str | None:
    """The page selection a clause names, in the selection syntax ("1-3,5", "last", "all"), or None."""
    if ALL_BUT.search(clause.lower()):  # every page less some: the rest, or nothing when it cannot be worked out
        both = all_but(clause, count)
        return both[1] if both else None
    c = re.sub(
        r"-?\d+(?:\.\d+)?\s*(?:°|degrees?\b|deg\b|dpi\b|%|percent\b|mm\b|cm\b|pt\b|points\b|inch(?:es)?\b)",
        " ",
        clause.lower(),
    )
    beyond = _BEYOND.search(c)
    if beyond:  # "everything after page 9": 10 to the end; "all the pages before page 3": 1-2
        n = int(beyond.group(2))
        return f"{n + 1}-last" if beyond.group(1) != "before" else (f"1-{n - 1}" if n > 1 else None)
    spanned = _FROM_TO.search(c)
    if spanned and int(spanned.group(1)) <= int(spanned.group(2)):  # "pages from 2 to 5"
        return f"{spanned.group(1)}-{spanned.group(2)}"
    between = _BETWEEN.search(c)
    if between and int(between.group(2)) > int(between.group(1)) + 1:  # "between pages 5 and 15": 5 to 15
        return f"{between.group(1)}-{between.group(2)}"
    onward = _ORD_ONWARD.search(c)
    if onward:  # "from the sixth page onwards": that page to the end
        ordinal = onward.group(1)
        return f"{_ORDINALS.get(ordinal, int(re.sub(r'[^0-9]', '', ordinal) or 0))}-last"
    c = _PLACE.sub(" ", c)
    joined = _joined_pages(c)
    if joined:
        return joined
    m = re.search(rf"\bstarting\s+(?:at|from|with)\s+page\s+({_NUM})\b(?!\s*(?:-|–|to|through|thru|until|till)\b)", c)
    if m:  # "starting from page 3" runs to the end ("from page 3" alone may be where something is taken from)
        return f"{m.group(1)}-last"
    m = re.search(rf"\bpages?\s+({_LIST})", c)
    if m:
        spec = _clean_list(m.group(1))
        tail = c[m.end() :]
        if re.match(r"\s*(?:onwards?|and (?:after|beyond|on)|to the end|and following)", tail):
            spec += "-last"
        return spec
    m = re.search(rf"\b(?:from|starting (?:at|from)|after)\s+page\s+({_NUM})\s*(?:on(?:wards?)?|to the end)?", c)
    if m and re.search(r"\b(?:from|starting)\b", m.group(0)):
        return f"{m.group(1)}-last"
    m = re.search(r"\b(first|last)\s+(\w+)\s+pages\b", c)
    if m and number_words(m.group(2)):
        n = number_words(m.group(2)) or 1
        if m.group(1) == "first":
            return f"1-{n}"
        if count:
            return f"{max(1, count - n + 1)}-{count}"
        return None
    m = re.search(
        rf"\b({_ORD})\s+page\s*(?:,|and|&)\s*(?:the\s+)?({_ORD})\s+page\b", c
    ) or re.search(  # "the first page and the last page", "the first and last pages", "the 1st, 3rd and 6th pages"
        rf"\b((?:{_ORD})(?:\s*(?:,\s*and|,|and|&)\s*(?:the\s+)?(?:{_ORD}))*)\s+pages?\b",
        c,
    )
    if m:
        picks = [g for g in m.groups() if g]
        if len(picks) == 1:  # one list of ordinals: each of them
            picks = re.findall(_ORD, picks[0])
        return ",".join("last" if p == "last" else str(_ORDINALS.get(p, int(re.sub(r"\D", "", p) or 0))) for p in picks)
    m = re.search(rf"\b(?:cover|title|front)\s+page\b|\b{COVER}", c)
    if m:
        return "1"
    # (no "signature page": where the signatures are needs reading; an annex may follow them)
    if re.search(r"\b(?:back|closing|final)\s+page\b|\bthe\s+back\s+cover\b", c):
        return "last"
    m = re.search(r"\b(odd|even)(?:-numbered)?\s+pages\b|\b(?:every|each)\s+(odd|even)(?:-numbered)?\s+page\b", c)
    if m:
        return m.group(1) or m.group(2)
    if re.search(r"\b(?:every|each|all(?: the)?|all of the|whole document|entire document)\s+pages?\b", c):
        return "all"
    m = re.search(rf"\bp\.?\s*({_NUM}(?:-{_NUM})?)\b", c)
    if m:
        return m.group(1)
    return None


_PASSWORD = re.compile(
    # "off" is no "of"; "-protect" in "password-protect" is no password
    r"\bpassword(?:\s+(?:(?:is|of|to|as|set to)\b|=|:))?\s*(?:is\s+)?(?::\s*)?(⟦\d+⟧|(?!-)[^\s,;]+)",
    re.IGNORECASE,
)
_NOT_PASSWORD = {
    "from",
    "the",
    "a",
    "on",
    "protected",
    "protection",
    "and",
    "for",
    "it",
    "this",
    "that",
    "with",
    "if",
    "so",
    "then",
    "too",
    "please",
    "required",
    "set",
    "protect",
    "lock",
    "encrypt",
    "needed",
    "off",
    "removed",
    "now",
    "again",
    "first",
}


# "protect this with Tulip#2291", "unlock it with otter55": a bare word after "with" that holds a digit or a sign is
# a password ("protect it with care" is not)
_KEYED_WITH = re.compile(
    r"\b(?:protect\w*|encrypt\w*|lock|locked|secure|unlock|decrypt|open)\s+(?:(?:it|this|that|them|the\s+\w+)\s+)?"
    r"with\s+(?:the\s+(?:password|passcode)\s+)?((?=[^\s,;]*[\d#!@$%^&*+=?])[^\s,;]*[^\s,;.?!])",
    re.IGNORECASE,
)


_BRACKETED = re.compile(r"^\(([^()\s]+)\)$")


def password_in(clause: str, quotes: list[str]) -> str | None:
    """'with the password X', 'password: X', 'the password is X', 'the password (X)' → X (quoted or a bare word)."""
    for m in _PASSWORD.finditer(clause):
        raw = m.group(1).strip().rstrip(".")
        raw = _BRACKETED.sub(r"\1", raw)  # "the password (legal123)": the brackets set it apart, they are not it
        before = clause[: m.start(1)]
        if raw.endswith(")") and raw.count("(") < raw.count(")") and before.count("(") > before.count(")"):
            raw = raw[:-1].rstrip(".")  # "(the password is openpassword)": the aside's bracket closes after it
        if raw.startswith("⟦"):
            return quotes[int(raw[1:-1])]
        if raw.lower() not in _NOT_PASSWORD:
            return raw
    given = re.search(r"\b(?:protect|encrypt|lock)\w*\b.*?\bwith\s+(?:the\s+)?(⟦\d+⟧)", clause, re.IGNORECASE)
    if given:
        return quotes[int(given.group(1)[1:-1])]  # "password protect it with 'Heron-31'"
    keyed = _KEYED_WITH.search(clause)
    if keyed:  # "password protect this with Tulip#2291", "unlock it with otter55"
        return keyed.group(1).rstrip(".")
    told = re.search(
        r"\bpassword\b[^.;]*?(?:,|\s[-–:])\s*(?:it's|it\s+is|which\s+is|the\s+(?:current|old|existing)\s+(?:one|password)\s+is)\s+"
        r"(⟦\d+⟧|[^\s,;]+)",
        clause,
        re.IGNORECASE,
    )
    if told:  # "remove the password, it's oldpass123": a word that looks like a password, never "it's annoying"
        raw = told.group(1).rstrip(".")
        if raw.startswith("⟦"):
            return quotes[int(raw[1:-1])]
        if re.search(r"\d", raw) and re.search(r"[a-z]", raw, re.IGNORECASE):
            return raw
    colon = re.search(r"\bpassword\b[^:;.⟦]{0,20}:\s*(⟦\d+⟧|[^\s,;]+)\s*$", clause, re.IGNORECASE)
    if colon:  # "put a password on it: hunter22": the one word after the colon that ends the clause
        raw = colon.group(1)
        return quotes[int(raw[1:-1])] if raw.startswith("⟦") else raw
    return None


_OWNER = re.compile(
    r"\b(?:owner|permissions?|master|admin(?:istrator)?|editing)\s+password\s*(?:is\s+|of\s+|=\s*|:\s*|to\s+)?"
    r"(⟦\d+⟧|[^\s,;]+)",
    re.IGNORECASE,
)
_USER = re.compile(
    r"\b(?:(?:open(?:ing)?|user|document[- ]open|viewing|view)\s+password\s*(?:is\s+|of\s+|=\s*|:\s*|to\s+)?|"
    r"(?:should|will|must|can|to)\s+open\s+with\s+(?:the\s+password\s+)?|"  # "it should open with greenfield"
    r"(?:needs|requires|takes)\s+(?=[^\s,;]+\s+to\s+open\b))"  # "so it needs orchid-77 to open"
    r"(⟦\d+⟧|[^\s,;]+)",
    re.IGNORECASE,
)


def user_password_in(clause: str, quotes: list[str]) -> str | None:
    """'the open password X', 'it should open with X': the password that opens the file, said on its own."""
    m = _USER.search(clause)
    if not m:
        return None
    raw = m.group(1).rstrip(".")
    if raw.startswith("⟦"):
        return quotes[int(raw[1:-1])]
    return raw if raw.lower() not in _NOT_PASSWORD and raw.lower() not in ("an", "my", "your", "its") else None


def password_pair_in(clause: str, quotes: list[str]) -> tuple[str, str] | None:
    """'the open password X and the owner password Y' → (X, Y): who may open it, who may change it."""
    user, owner = _USER.search(clause), _OWNER.search(clause)
    if not user or not owner:
        return None
    values = []
    for m in (user, owner):
        raw = m.group(1).rstrip(".")
        values.append(quotes[int(raw[1:-1])] if raw.startswith("⟦") else raw)
    return (values[0], values[1]) if values[0] != values[1] else None


def degrees_in(clause: str) -> int | None:
    c = clause.lower()
    m = re.search(r"(-?\d+)\s*(?:°|(?:degrees?|deg)\b)", c)
    value = int(m.group(1)) if m else None
    if value is None:
        if re.search(r"upside[- ]down|half a turn|half turn", c):
            value = 180
        elif re.search(r"\b(?:quarter turn|sideways|left|right|(?:counter[- ]?|anti[- ]?)?clockwise)\b", c):
            value = 90
    if value is not None and re.search(r"counter[- ]?clockwise|anti[- ]?clockwise|\bleft\b", c):
        value = -abs(value)
    return value


_POSITIONS = ("top-left", "top-right", "top-center", "bottom-left", "bottom-right", "bottom-center", "center")


_RIGHT_IN = re.compile(r"(?<!the\s)\b(?:right|dead|smack|bang)\s+(?:in\s+)?(?:the\s+)?(?=center\b)")


def position_in(clause: str, default_bottom: str = "bottom-center", default_top: str = "top-center") -> str | None:
    c = clause.lower().replace("centre", "center").replace("middle", "center")
    c = _RIGHT_IN.sub("", c)  # "right in the centre": the centre, no right-hand side
    vertical = (
        "top"
        if re.search(r"\b(?:top|header|upper)\b", c)
        else "bottom"
        if re.search(r"\b(?:bottom|footer|lower|foot)\b", c)
        else None
    )
    horizontal = (
        "left"
        if re.search(r"\bleft\b", c)
        else "right"
        if re.search(r"\bright\b", c)
        else ("center" if re.search(r"\bcenter(?:ed)?\b", c) else None)
    )
    if vertical and horizontal:
        return f"{vertical}-{horizontal}"
    if vertical:
        return default_top if vertical == "top" else default_bottom
    if horizontal == "center":
        return "center"
    return None


_NAME = re.compile(
    r"\b(?:called|named|name it|save (?:it )?as|saved as|as a file called|file name|filename|rename (?:it )?to|"
    r"(?:call|name)\s+(?:it|the\s+(?:new\s+)?(?:file|result|output|pdf|document)))\s+"
    r"(⟦\d+⟧|[\w.\- ]+?\.(?:pdf|docx|pptx|xlsx|png|jpe?g|tiff?|txt|md))\b",
    re.IGNORECASE,
)


# "extract pages 1-3 as summary.pdf", "save the odd pages separately as fronts.pdf": a new file's name after "as"
# (a name with its extension, never "as well as b.pdf")
_AS_NAME = re.compile(
    r"(?<!\bwell\s)\bas\s+([\w\-]+(?:\.[\w\-]+)*\.(?:pdf|docx|pptx|xlsx|png|jpe?g|tiff?|txt|md))\b(?!\s+well\b)",
    re.IGNORECASE,
)


def output_name_in(clause: str, quotes: list[str], uploaded: tuple[str, ...] = ()) -> str | None:
    """The name a clause gives its result; ``uploaded`` names are never one ("as report.pdf" names the file read)."""
    m = _NAME.search(clause)
    if not m:
        bare = _AS_NAME.search(clause)
        return bare.group(1) if bare and bare.group(1).lower() not in {u.lower() for u in uploaded} else None
    raw = m.group(1)
    return quotes[int(raw[1:-1])] if raw.startswith("⟦") else raw.strip()


_PEOPLE = (
    r"(?:people'?s?|persons'?|person|personal|individuals'?|employees'?|human)\s+names?|names\s+of\s+(?:all\s+)?"
    r"(?:the\s+)?(?:people|persons|individuals|employees)|people|persons|individuals|(?:all|every|any)\s+names?|"
    r"(?:the\s+)?names\s+(?:in|on|from|of)\s+(?:it|this|the\s+(?:document|file|form|pdf|page|contract|letter))"
)
_CATEGORY_WORDS = [
    (r"e-?mail(?:\s+address(?:es)?)?s?(?!\s+(?:it|them|this|that|to|me|him|her|us|the\s+\w+\s+to)\b)", "email"),
    (r"(?:tele)?phone(?:\s+numbers?)?s?|mobile numbers?|fax numbers?|contact numbers?", "phone"),
    (r"social security(?:\s+numbers?)?|ssns?\b|ss numbers?", "ssn"),
    (r"(?:credit|debit)?\s*card(?:\s+numbers?)?s?", "card"),
    (r"(?:bank\s+)?account(?:\s+numbers?)|iban(?:s)?|routing numbers?", "account"),
    (r"dates?(?:\s+of\s+birth)?|birthdays?|birth dates?", "date"),
    (
        r"(?:monetary|dollar|money)\s+(?:amounts?|values?|figures?)|amounts?\s+of\s+money|prices?|money|"
        r"currency amounts?|dollar figures?",
        "money",
    ),
    (r"urls?|links?|web ?(?:site)?\s*addresses|websites?|web links?", "url"),
    (_PEOPLE, "person"),
    (r"organi[sz]ations?(?:'s)?(?:\s+names?)?|compan(?:y|ies)(?:'s)?\s+names?|companies", "organization"),
    (
        r"(?:postal\s+|street\s+|mailing\s+|physical\s+|home\s+)?(?<!e-mail )(?<!email )(?<!web )(?<!site )addresses",
        "address",
    ),
    (r"(?:postal|street|mailing|physical|home)\s+address", "address"),
    (r"(?:section\s+)?headings?|section\s+titles?", "heading"),
    (r"(?:passport|id|identification|identity\s+card|licen[sc]e)\s+numbers?|passport\s+nos?\.?", "id"),
]
PII = ["email", "phone", "ssn", "card", "account", "date", "person", "address", "id"]
_PII_WORDS = (
    r"\b(?:pii|personally identifiable information|personal(?:ly)? (?:identifying )?(?:information|info|data|"
    r"details)|sensitive (?:information|data|info|details)|private (?:information|data|details)|"
    r"contact (?:details|information|info))\b"
)


def categories_in(clause: str) -> list[str]:
    """Pattern categories a clause names ("email addresses and phone numbers" → email, phone)."""
    c = clause.lower()
    found: list[str] = []
    if re.search(_PII_WORDS, c):
        found.extend(["email", "phone"] if "contact" in c and "pii" not in c and "personal" not in c else PII)
    for pattern, category in _CATEGORY_WORDS:
        if re.search(rf"\b(?:{pattern})\b", c) and category not in found:
            if category == "date" and re.search(r"\bdate:\s|update", c) and not re.search(r"\bdates\b", c):
                continue
            if category == "card" and not re.search(r"\b(?:credit|debit)\b|card numbers?", c):
                continue
            if category == "url" and re.search(r"\blinks?\b", c) and re.search(r"remove (?:all )?(?:the )?links", c):
                continue
            found.append(category)
    return found


_FORMATS = [
    (  # no "word count"; "a doc" is a Word file, "the doc" the document
        r"\b(?:word(?![\s-]+counts?\b)|docx|ms word|\.docx|doc file|editable document|(?<=\ba\s)doc|^doc$)\b",
        "docx",
    ),
    (r"\b(?:powerpoint|power point|pptx|slides?|slide deck|deck|presentation)\b", "pptx"),
    (r"\b(?:excel|xlsx|spreadsheets?|workbook|csv)\b", "xlsx"),
    (r"\b(?:png)\b", "png"),
    (r"\b(?:jpe?gs?|jpgs?)\b", "jpeg"),
    (r"\b(?:tiffs?|tifs?)\b", "tiff"),
    (r"\b(?:markdown|md)\b", "markdown"),
    (r"\b(?:plain text|text file|txt|\.txt)\b", "text"),
    (r"\b(?:images?|pictures?|pngs)\b", "png"),
]


def format_in(clause: str) -> str | None:
    """The target format a clause names; the one named first wins ("images I can paste into slides": images)."""
    c = clause.lower()
    found = [(m.start(), rank, fmt) for rank, (pattern, fmt) in enumerate(_FORMATS) if (m := re.search(pattern, c))]
    return min(found)[2] if found else None


# A length: "20 mm", "2 inches", "1.5cm", "14 pt"; "half an inch", "an inch", "a centimetre"
_UNITS = r"pts?|points?|mm|cm|in|inch(?:es)?|centimet(?:er|re)s?|millimet(?:er|re)s?"
_LENGTH = re.compile(
    rf"(?<![\w.])(\d+(?:\.\d+)?)\s*({_UNITS})\b(?!-)"
    r"|\b(half|a\s+quarter|an?)\s+(?:of\s+)?(?:an?\s+)?(inch|centimet(?:er|re)|millimet(?:er|re)|cm|mm)\b",
    re.IGNORECASE,
)
_FRACTIONS = {"half": 0.5, "a quarter": 0.25, "a": 1.0, "an": 1.0}
POINTS_PER = {"pt": 1.0, "in": 72.0, "cm": 72 / 2.54, "mm": 72 / 25.4}


def unit_of(word: str) -> str:
    """'inches' → 'in', 'centimetres' → 'cm', 'points' → 'pt': the unit names the tools take."""
    w = word.lower()
    return "in" if w.startswith("in") else "cm" if w.startswith(("cm", "cent")) else "mm" if w.startswith("m") else "pt"


def lengths_in(clause: str) -> list[tuple[float, str]]:
    """Every length a clause says, in the order said, as (number, unit) with unit pt, in, cm or mm."""
    out = []
    for m in _LENGTH.finditer(clause):
        if m.group(1):
            out.append((float(m.group(1)), unit_of(m.group(2))))
        else:
            out.append((_FRACTIONS[" ".join(m.group(3).lower().split())], unit_of(m.group(4))))
    return out


def points(number: float, unit: str) -> float:
    """A length in points (1/72 inch), the unit widths are given in; rounded to 0.1 pt."""
    return round(number * POINTS_PER[unit], 1)


# "100 points wide", "about 2 inches wide", "half an inch across", "width 150", "a width of 3 cm"
_WIDTH = re.compile(
    r"\b(?:(\d+(?:\.\d+)?)\s*(?:(pts?|points?|in|inch(?:es)?|cm|mm)\s*)?|(half\s+an|an|a)\s+(inch)\s+)"
    r"(?:wide|across|in\s+width)\b"
    r"|\bwidth\s*(?:of\s+|=\s*|:\s*|to\s+)?(\d+(?:\.\d+)?)\s*(pts?|points?|inch(?:es)?|cm|mm)?"
    r"(?!\s*(?:px|pixels?|%))\b",
    re.IGNORECASE,
)


def width_in(clause: str) -> float | None:
    """A width in points ("100 points wide", "2 inches wide" = 144, "half an inch across" = 36); None for
    other units (pixels, percent: the model decides what they mean on a page)."""
    m = _WIDTH.search(clause)
    if not m:
        return None
    if m.group(3):
        return points(0.5 if m.group(3).lower().startswith("half") else 1.0, "in")
    number = float(m.group(1) or m.group(5))
    unit = m.group(2) or m.group(6)
    return points(number, unit_of(unit) if unit else "pt")
