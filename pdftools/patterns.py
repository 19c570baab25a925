"""Regular expressions for the pattern entity kinds (email, phone, SSN, …).

They run on page text as a reader sees it (see :mod:`pdftools.textmatch`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .errors import ToolArgumentError

__all__ = ["CATEGORIES", "category_pattern", "normalize_category", "luhn_ok"]

_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)

_PATTERNS: dict[str, str] = {
    "email": r"(?<![\w.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])",
    "phone": (
        r"(?<![\w+])(?:"
        r"\+\d{1,3}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]?\d{2,4}){1,4}"  # international
        r"|(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}"  # North American
        r"|0\d{1,4}[\s/-]\d{3,4}[\s-]?\d{3,4}"  # national trunk prefix
        r")(?![\w-])"
    ),
    "ssn": r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])",
    "card": r"(?<![\w-])(?:\d[ -]?){12,18}\d(?![\w-])",
    "account": (
        r"(?<!\w)(?P<iban>[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?)(?!\w)"
        r"|(?i:\b(?:account|acct|a/c|routing|sort code)(?:\s*(?:number|no\.?|#|num\.?))?\s*[:#.]?\s*)"
        r"(?P<number>[A-Z0-9](?:[A-Z0-9]|-(?=[A-Z0-9])){5,30})(?!\w)"
    ),
    "date": (
        r"(?<!\w)(?:"
        rf"{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:\s*(?:-|–|to)\s*\d{{1,2}}(?:st|nd|rd|th)?)?(?:\s?,)?\s+\d{{4}}"
        # January 13, 2025 / August 3 , 2014 / June 9-12, 2025
        rf"|\d{{1,2}}(?:st|nd|rd|th)?(?:\s*(?:-|–|to)\s*\d{{1,2}}(?:st|nd|rd|th)?)?\s+(?:of\s+)?{_MONTHS},?\s+\d{{4}}"
        # 14 March 1988 / 9 to 12 June 2025 / 14th of March, 1988
        r"|\d{4}-\d{2}-\d{2}|\d{4}/\d{2}/\d{2}"  # 2025-02-01, 2025/02/01
        r"|\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2}(?![.\d]))"  # 01/13/2025, 13.01.25, 03-14-1988
        rf"|{_MONTHS}\s+\d{{4}}"  # March 2025
        r"|(?:0[1-9]|1[0-2])/(?:19|20)\d{2}"  # 03/2025
        r")(?!\w)"
    ),
    "money": (
        r"(?<!\w)(?:"
        r"(?:US)?[$€£¥₹]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|thousand|[MBK]|bn|mn)\b)?"
        r"|\d[\d,]*(?:\.\d+)?\s?(?:USD|EUR|GBP|JPY|CHF|dollars|euros|pounds)\b"
        r")"
    ),
    "url": (
        r"(?<![\w@])(?:https?://|www\.)[^\s<>\"')\]]+[^\s<>\"')\].,;:!?]"
        # bare domains with a common top-level domain: aws.amazon.com/contact-us/
        r"|(?<![\w@.\-/])(?:[A-Za-z0-9-]+\.)+(?:com|org|net|gov|edu|io|co|uk|de|fr|info|biz)"
        r"(?![\w@-])(?:/[^\s<>\"')\]]*[^\s<>\"')\].,;:!?])?/?"
    ),
}

# Identity documents: a number after its label ("Passport number A07734519", "ID No: 55-2231"),
# or alone in the shape passports take (one or two letters and 7-8 digits).
_PATTERNS["id"] = (
    r"(?i:\b(?:passport|identity|identification|id|national\s+id|driver'?s?\s+licen[cs]e|licen[cs]e|"
    r"tax\s+id|tin|ein|medicare|medicaid|member|policy|document|visa)\s*(?:card\s*)?"
    r"(?:number|no\.?|num\.?|#)\s*[:#.]?\s*)"
    r"(?P<labelled>[A-Z0-9](?:[A-Z0-9]|-(?=[A-Z0-9])){4,20})(?![\w-])"
    r"|(?<![\w-])(?P<passport>[A-Z]{1,2}\d{7,8})(?![\w-])"
)

# Postal addresses: a street line (number, capitalised name, street type) or a P.O. box, optional
# unit ("Suite 400"), optional "Attn: ..." line, then "City, ST 94607" / "City, Maryland 21244-1850"
# or a UK postcode; a "City, ST ZIP" line alone is an address too.
_STREET_TYPES = (
    "Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Drive|Dr|Lane|Ln|Way|Court|Ct|Place|Pl|Parkway|Pkwy|"
    "Highway|Hwy|Terrace|Circle|Cir|Square|Sq|Plaza|Trail|Turnpike|Expressway|Freeway"
)
_STATES = (
    "A[LKZR]|C[AOT]|D[EC]|F[LM]|G[AU]|HI|I[DLNA]|K[SY]|LA|M[EDAINSOTP]|N[EVHJMYCD]|MP|O[HKR]|P[AR]|RI|"
    "S[CD]|T[NX]|UT|V[TAI]|W[AVIY]|"
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|"
    "Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|"
    r"Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New\s+Hampshire|New\s+Jersey|New\s+Mexico|"
    r"New\s+York|North\s+Carolina|North\s+Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode\s+Island|"
    r"South\s+Carolina|South\s+Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|West\s+Virginia|"
    r"Wisconsin|Wyoming|District\s+of\s+Columbia|Puerto\s+Rico"
)
_NAME = r"[A-Z0-9][A-Za-z0-9'.-]*"
_STREET = (
    rf"\d{{1,6}}[A-Z]?(?:-\d{{1,4}})?\s+(?:[NSEW]\.?\s+)?(?:{_NAME}\s+){{0,3}}[A-Z][A-Za-z'-]*\s+"
    rf"(?:{_STREET_TYPES})\b\.?(?:\s+[NS][EW]?\b\.?)?"
)
_POBOX = r"(?:P\.?\s?O\.?\s*Box|Post\s+Office\s+Box)\s+\d{1,8}"
_UNIT = r"(?:Suite|Ste\.?|Apt\.?|Apartment|Unit|Floor|Fl\.|Room|Rm\.|Building|Bldg\.)\s*#?\s*[A-Z0-9][\w-]*|#\s?\d+"
_CITY = r"[A-Z][A-Za-z.'-]*(?:\s+[A-Z][A-Za-z.'-]*){0,3}"
_PLACE = (
    rf"{_CITY}\s*,\s*(?:{_STATES})\.?,?\s+\d{{5}}(?:-\d{{3,4}})?"  # Oakland, CA 94607 / Baltimore, Maryland 21244-1850
    rf"|{_CITY},?\s+[A-Z]{{1,2}}\d[A-Z\d]?\s\d[A-Z]{{2}}"  # London SW1A 2AA
)
_SEP = r"\s*,?\s*"
_PATTERNS["address"] = (
    r"(?<![\w-])(?:"
    rf"(?:Mail\s+Code:\s*[\w-]+{_SEP})?(?:{_STREET}|{_POBOX})(?:{_SEP}(?:{_UNIT}))*"
    rf"(?:{_SEP}(?:Attn|Attention)\b:?[^,\n]{{1,60}},)?(?:{_SEP}(?:{_PLACE}))?"
    rf"|{_PLACE}"
    r")(?![\w-])"
)

_CHECKS: dict[str, Callable[[str], bool]] = {}

CATEGORIES: tuple[str, ...] = tuple(_PATTERNS)

_ALIASES = {
    "emails": "email",
    "email address": "email",
    "email addresses": "email",
    "e-mail": "email",
    "e-mails": "email",
    "mail": "email",
    "phones": "phone",
    "phone number": "phone",
    "phone numbers": "phone",
    "telephone": "phone",
    "telephone numbers": "phone",
    "telephone number": "phone",
    "mobile": "phone",
    "fax": "phone",
    "social security number": "ssn",
    "social security numbers": "ssn",
    "ssns": "ssn",
    "social security": "ssn",
    "credit card": "card",
    "credit cards": "card",
    "credit card number": "card",
    "credit card numbers": "card",
    "card number": "card",
    "card numbers": "card",
    "cards": "card",
    "account number": "account",
    "account numbers": "account",
    "accounts": "account",
    "bank account": "account",
    "bank account numbers": "account",
    "iban": "account",
    "dates": "date",
    "money": "money",
    "amounts": "money",
    "amount": "money",
    "monetary amounts": "money",
    "dollar amounts": "money",
    "prices": "money",
    "currency": "money",
    "urls": "url",
    "links": "url",
    "link": "url",
    "web addresses": "url",
    "websites": "url",
    "addresses": "address",
    "street address": "address",
    "street addresses": "address",
    "postal address": "address",
    "postal addresses": "address",
    "mailing address": "address",
    "mailing addresses": "address",
    "physical address": "address",
    "ids": "id",
    "id number": "id",
    "id numbers": "id",
    "identification number": "id",
    "identification numbers": "id",
    "identity number": "id",
    "passport": "id",
    "passports": "id",
    "passport number": "id",
    "passport numbers": "id",
    "national id": "id",
    "document number": "id",
    "document numbers": "id",
    "driver's license number": "id",
}


def normalize_category(name: str) -> str:
    """Map "email addresses", "SSNs", "Phone" … to a category name."""
    key = name.strip().lower().replace("_", " ")
    key = _ALIASES.get(key, key)
    if key not in _PATTERNS:
        raise ToolArgumentError(f"'{name}' is not a pattern category. Choose from: {', '.join(CATEGORIES)}.")
    return key


def luhn_ok(number: str) -> bool:
    digits = [int(d) for d in number if d.isdigit()]
    if not 13 <= len(digits) <= 19:
        return False
    total = 0
    for i, digit in enumerate(reversed(digits)):
        if i % 2:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


_CHECKS["card"] = luhn_ok
_CHECKS["id"] = lambda value: any(c.isdigit() for c in value)


def category_pattern(name: str) -> tuple[re.Pattern[str], Callable[[str], bool] | None]:
    """The compiled regex of a category and an optional validity check for a match.

    When the regex has named groups, the first one that matched is the value (the
    label around it, such as "account number", is context, not the match).
    """
    key = normalize_category(name)
    return re.compile(_PATTERNS[key]), _CHECKS.get(key)
