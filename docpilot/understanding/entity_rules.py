"""What the small NER model cannot see on its own, written as rules over a page's text.

- names in forms: the value after a name label on its line ("Surname OKONKWO", "Given names Chidi
  Emmanuel") and the name under a letter's closing ("Best Regards, / Mallori");
- companies by their legal suffix ("Globex Inc", "VoltGuard Electric LLC");
- which NER spans to believe: a person has two or more name-like words and no job title or street
  word (a span the model calls an organisation is a person when the words around it say so:
  "represented by ...", "..., Managing Partner", "... (name@..."); an organisation has a legal
  suffix, an acronym or inner capital ("CMS", "VoltGuard"), or ends in a word organisations end in
  ("... Services", "... Administration"); in capitals only that last word counts;
- defined parties: a quoted, capitalised term in parentheses right after a person or organisation
  (``VoltGuard Electric LLC, 1200 Harbor Drive, ... ("Client")``), or a role word such as "Client".
Each rule gives (start, end) character offsets into the text it was handed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = [
    "form_names",
    "companies",
    "believable_person",
    "believable_org",
    "clean_span",
    "is_heading",
    "person_context",
    "definitions",
    "ROLE_WORDS",
]

_WORD = r"[A-Z][A-Za-z'’.-]*"
_VALUE = rf"(?P<value>{_WORD}(?:[ \t]+{_WORD}){{0,3}})[ \t]*$"
_FORM_LABEL = re.compile(
    r"(?im)^[ \t]*(?:surname|last[ \t]+name|family[ \t]+name|given[ \t]+names?|first[ \t]+names?|"
    r"middle[ \t]+names?|full[ \t]+name|applicant(?:'s)?[ \t]+name|name)[ \t]*:?[ \t]+(?-i:" + _VALUE + ")"
)
_CLOSING = re.compile(
    r"(?im)^[ \t]*(?:(?:best|kind|warm|warmest)[ \t]+regards|regards|sincerely(?:[ \t]+yours)?|"
    r"yours[ \t]+(?:sincerely|faithfully|truly)|best[ \t]+wishes|many[ \t]+thanks|thank[ \t]+you|cheers|"
    r"respectfully)[ \t]*,?[ \t]*\n?[ \t]*(?-i:" + _VALUE + ")"
)
_SUFFIXES = (
    r"LLC|L\.L\.C\.|LLP|L\.P\.|Inc\.?|Incorporated|Ltd\.?|Limited|Corp\.?|Corporation|Co\.|GmbH|"
    r"S\.A\.|PLC|plc|N\.V\.|B\.V\.|Pty[ \t]+Ltd\.?|Group|Holdings"
)
_SUFFIX_END = re.compile(rf"(?:,?[ \t]*)(?:{_SUFFIXES})$")
_COMPANY = re.compile(
    rf"(?<![\w&])(?P<name>[A-Z][\w&'’.-]*(?:[ \t]+(?:(?:of|and|&)[ \t]+)?[A-Z][\w&'’.-]*){{0,4}})"
    rf",?[ \t]*(?P<suffix>{_SUFFIXES})(?![\w])"
)
_SENTENCE_WORDS = {"The", "This", "That", "These", "Our", "Your", "Each", "Between", "And", "Signed", "Bill", "To"}
_ORG_HEADS = {
    "services", "service", "administration", "department", "agency", "association", "university",
    "institute", "bank", "council", "committee", "foundation", "authority", "commission", "bureau",
    "ministry", "office", "center", "centers", "centre", "centres", "solutions", "systems", "group",
    "partners", "consulting", "technologies", "technology", "hospital", "school", "college",
    "corporation", "company", "industries", "laboratories", "labs", "trust", "board", "court",
    "society", "union", "organization", "organisation", "federation", "network", "airlines",
    "insurance", "healthcare", "press", "media", "motors", "pharmaceuticals", "bancorp", "capital",
    "securities", "exchange", "police", "army", "navy", "government", "parliament", "congress",
    "senate", "museum", "library", "electric", "energy",
}  # fmt: skip
_TITLE_WORDS = {
    "partner", "officer", "manager", "director", "president", "chief", "secretary", "treasurer",
    "counsel", "engineer", "chair", "chairman", "chairwoman", "ceo", "cfo", "coo", "cto", "vp", "head",
    "executive", "assistant", "associate", "analyst", "consultant", "client", "attorney", "agent",
    "representative", "member", "employee", "patient", "applicant", "witness", "signature", "name",
    "date", "request", "dear", "deliverables",
}  # fmt: skip
_PLACE_WORDS = {
    "suite", "street", "st", "avenue", "ave", "road", "rd", "box", "p.o.", "po", "floor", "room", "apt",
    "unit", "drive", "boulevard", "blvd", "lane", "parkway", "highway", "way", "court", "plaza",
}  # fmt: skip
_STATES = set(
    "AL AK AZ AR CA CO CT DE DC FL GA GU HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM "
    "NY NC ND MP OH OK OR PA PR RI SC SD TN TX UT VT VA VI WA WV WI WY".split()
)
_CURRENCIES = set("USD EUR GBP JPY CHF CAD AUD NZD CNY INR HKD SGD SEK NOK DKK ZAR BRL MXN".split())
ROLE_WORDS = {
    "Client", "Consultant", "Contractor", "Subcontractor", "Customer", "Supplier", "Vendor", "Buyer",
    "Seller", "Purchaser", "Licensor", "Licensee", "Lessor", "Lessee", "Landlord", "Tenant", "Lender",
    "Borrower", "Employer", "Employee", "Company", "Provider", "Recipient", "Discloser", "Guarantor",
    "Agent", "Distributor", "Partner", "Investor", "Owner", "Developer", "Publisher", "Author",
}  # fmt: skip
_DEFINITION = re.compile(
    r"\(\s*(?:the\s+|each\s+a\s+|hereinafter\s+(?:the\s+)?|referred\s+to\s+as\s+(?:the\s+)?)?"
    r"[\"“'‘](?P<term>[A-Z][\w&'’-]*(?:\s+[A-Z][\w&'’-]*){0,3})[\"”'’]\s*\)"
)
_DEFINITION_REACH = 200  # characters between the named party's end and its definition


def _values(pattern: re.Pattern[str], text: str) -> Iterator[tuple[int, int]]:
    for m in pattern.finditer(text):
        yield m.start("value"), m.end("value")


def form_names(text: str) -> list[tuple[int, int]]:
    """Names given as a form's values ("Surname OKONKWO") and under a closing ("Regards, / Mallori")."""
    spans = [s for s in _values(_FORM_LABEL, text) if believable_person(text[s[0] : s[1]], single=True)]
    return spans + [s for s in _values(_CLOSING, text) if believable_person(text[s[0] : s[1]], single=True)]


def companies(text: str) -> list[tuple[int, int]]:
    """Names ending in a legal suffix, without a sentence's first word ("Signed for", "Bill to")."""
    spans = []
    for m in _COMPANY.finditer(text):
        start, words = m.start("name"), m.group("name").split()
        while words and words[0] in _SENTENCE_WORDS:
            start = text.index(words[1], start + len(words[0])) if len(words) > 1 else m.start("suffix")
            words = words[1:]
        if words:
            spans.append((start, m.end("suffix")))
    return spans


def _words(text: str) -> list[str]:
    return [w.strip(".,;:'’\"()") for w in text.split()]


def believable_person(text: str, single: bool = False) -> bool:
    """Two or more name-like words (one when ``single``), no digits, no job title or street word."""
    words = [w for w in _words(text) if w]
    if not words or (len(words) < 2 and not single) or any(c.isdigit() for c in text):
        return False
    lower = {w.lower() for w in words}
    if lower & (_TITLE_WORDS | _PLACE_WORDS) or _SUFFIX_END.search(text):
        return False
    return all(w[0].isupper() for w in words if len(w) > 1)


def believable_org(text: str) -> bool:
    """A legal suffix, an acronym or inner capital, or an organisation's last word."""
    words = [w for w in _words(text) if w]
    if not words or not words[0][:1].isalpha():
        return False
    if _SUFFIX_END.search(text):
        return True
    if len(words) == 1 and (words[0] in _STATES or words[0] in _CURRENCIES):
        return False
    if len(words) > 1 and text.upper() == text:  # in capitals, case says nothing: only the last word does
        return words[-1].lower() in _ORG_HEADS
    if any(2 <= len(w) <= 5 and w.isupper() and w.isalpha() and w not in _STATES for w in words):
        return True
    if any(any(c.isupper() for c in w[1:]) and not w.isupper() for w in words):
        return True
    return len(words) >= 2 and words[-1].lower() in _ORG_HEADS


_SECTION_NUMBER = re.compile(r"\s*(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.)\s*")


def is_heading(line: str, start: int, end: int) -> bool:
    """Whether ``line[start:end]`` is a numbered heading's whole title ("2. Scope of Services")."""
    return _SECTION_NUMBER.fullmatch(line[:start]) is not None and not line[end:].strip()


_PERSON_BEFORE = re.compile(
    r"(?i)(?:represented\s+by|signed\s+by|prepared\s+by|approved\s+by|attention|attn|contact|dear|"
    r"mr|mrs|ms|dr|prof)\.?:?\s*$"
)
_PERSON_AFTER = re.compile(
    r"^\s*(?:,\s*(?:the\s+)?(?:[A-Z][a-z]+\s+){0,3}(?:Partner|Officer|Manager|Director|President|Secretary|"
    r"Counsel|Chair\w*|CEO|CFO|COO|CTO)\b|\(\s*[\w.+-]+@)"
)


def person_context(line: str, start: int, end: int) -> bool:
    """Whether words around ``line[start:end]`` say it is a person ("represented by …", "…, Managing
    Partner", "… (name@…"): the small model calls some people's names organisations."""
    return bool(_PERSON_BEFORE.search(line[:start]) or _PERSON_AFTER.match(line[end:]))


def clean_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Trim an NER span: spaces, outer punctuation, a leading "the", a trailing "'s"."""
    while start < end and (text[start].isspace() or text[start] in "\"“'‘(•-–,;:"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in "\"”'’),;:-–"):
        end -= 1
    lead = re.match(r"(?i)the\s+", text[start:end])
    if lead and end - start > lead.end():
        start += lead.end()
    if text[start:end].endswith(("'s", "’s")):
        end -= 2
    return start, end


def definitions(text: str, named: list[tuple[int, int]]) -> list[tuple[str, tuple[int, int] | None]]:
    """Each defined party term with the span of the person or organisation it defines (or None).

    A definition counts when a named span ends at most 200 characters before it with no other
    definition between, or when its term is a role word ("Client", "Licensee"). "(the "Agreement")"
    after no name is a defined term, not a party.
    """
    found: list[tuple[str, tuple[int, int] | None]] = []
    previous = 0
    for m in _DEFINITION.finditer(text):
        before = [s for s in named if previous <= s[0] and s[1] <= m.start() and m.start() - s[1] <= _DEFINITION_REACH]
        owner = max(before, key=lambda s: s[1]) if before else None
        if owner is not None or m.group("term") in ROLE_WORDS:
            found.append((m.group("term"), owner))
        previous = m.end()
    return found
