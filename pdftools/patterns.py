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
        rf"{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:\s?,)?\s+\d{{4}}"  # January 13, 2025 / August 3 , 2014
        rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTHS}\s+\d{{4}}"  # 13 March 1988
        r"|\d{4}-\d{2}-\d{2}"  # 2025-02-01
        r"|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}"  # 01/13/2025
        rf"|{_MONTHS}\s+\d{{4}}"  # March 2025
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


def category_pattern(name: str) -> tuple[re.Pattern[str], Callable[[str], bool] | None]:
    """The compiled regex of a category and an optional validity check for a match.

    When the regex has named groups, the first one that matched is the value (the
    label around it, such as "account number", is context, not the match).
    """
    key = normalize_category(name)
    return re.compile(_PATTERNS[key]), _CHECKS.get(key)
