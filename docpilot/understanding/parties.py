"""Who an invoice, order or letter is for, and who it is from: read under the label the page gives them.

"Which company is this invoice billed to?" is answered by the block under "Bill to Address:" or "Billing
Address", not by the biggest name on the page (the seller's, which a small model tends to pick). Labels in
the languages of the documents people send (English, Dutch, French, German); nothing here knows a seller.
A question whose role has no label on the page is left to retrieval: no guessing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Party", "read_role", "asked_role", "find_party"]

_BUYER_ASKED = re.compile(
    r"\b(billed to|bill to|invoiced to|addressed to|sold to|shipped to|ship to|customer|client|buyer|purchaser|"
    r"recipient|addressed)\b",
    re.IGNORECASE,
)
_SELLER_ASKED = re.compile(r"\b(sold by|seller|vendor|supplier|issued by|who issued|service provider)\b", re.IGNORECASE)
_BUYER_LABELS = (
    "bill to address", "bill to", "billed to", "billing address", "invoice to", "invoiced to", "sold to",
    "customer name", "customer", "client", "buyer", "ship to", "shipping address", "deliver to", "delivery address",
    "factuuradres", "klant", "facturé à", "adresse de facturation", "client final", "rechnungsadresse",
    "rechnungsempfänger", "kunde",
)  # fmt: skip
_SELLER_LABELS = (
    "sold by", "seller", "vendor", "supplier", "service provider", "issued by", "verkoper", "leverancier",
    "vendeur", "fournisseur", "verkäufer", "lieferant",
)  # fmt: skip
_PREFIX = re.compile(r"^(?:attn|attention|c/o|to|name)\s*[:.]?\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Party:
    name: str  # as the page writes it
    label: str  # the line it was read under
    page: int


def read_role(question: str) -> str | None:
    """ "buyer" or "seller" when the question asks who a document is for or from; else None."""
    asked = asked_role(question)
    return asked[0] if asked else None


def asked_role(question: str) -> tuple[str, str] | None:
    """The role asked for with the question's words that say it (("buyer", "billed to")); else None."""
    if not re.search(r"\b(who|whom|which|what|name)\b", question, re.IGNORECASE):
        return None
    for role, pattern in (("seller", _SELLER_ASKED), ("buyer", _BUYER_ASKED)):
        found = pattern.search(question)
        if found:
            return role, found.group(0)
    return None


def find_party(pages: list[str], role: str) -> Party | None:
    """The name under the first label of ``role`` (labels in order of preference), on the first pages."""
    labels = _BUYER_LABELS if role == "buyer" else _SELLER_LABELS
    for wanted in labels:
        for number, text in enumerate(pages[:3], start=1):
            lines = [line.strip() for line in text.splitlines()]
            for i, line in enumerate(lines):
                found = _value_under(lines, i, wanted)
                if found:
                    return Party(found, line, number)
    return None


def _value_under(lines: list[str], index: int, label: str) -> str | None:
    line = lines[index]
    # the label alone on its line ("Billing Address") or followed by a colon ("Customer: Pino Bluebird");
    # "Customer Care" or "Client ID 42" is another label
    match = re.match(rf"^{re.escape(label)}\s*(?::\s*(.*))?$", line, re.IGNORECASE)
    if match is None:
        return None
    rest = (match.group(1) or "").strip()
    if rest and not re.match(r"^[A-Za-zÀ-ÿ]", rest):
        return None  # "Customer Care : 1800 …", "Client ID 42": not a party's name
    candidates = [rest] if rest else [nxt for nxt in lines[index + 1 : index + 3] if nxt][:1]
    for candidate in candidates:
        name = _PREFIX.sub("", candidate).strip(" ,;")
        words = name.split()
        if name.endswith(":") or not 1 <= len(words) <= 8 or not re.match(r"^[^\W\d_]", name):
            continue
        return name
    return None
