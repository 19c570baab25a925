"""Requests no tool can do — print it, email it, fax it, translate it — refused at once, with what the
product can do instead, and never handed to a model that might plan the rest and report it done.

Only the verb used as an action counts: "email it to Ann", "print pages 2-3", "translate the contract
into French"; "redact the email addresses" or "highlight the share price" are not refused. Quoted
text is not read ("stamp 'PRINTED COPY'").
"""

from __future__ import annotations

import re

__all__ = ["refusal"]

_PRONOUN = (
    r"(?:it|this|that|them|these|those|both|everything|all\s+of\s+them|[\w-]+\.(?:pdf|docx?|pptx?|xlsx?|png|jpe?g))\b"
)
_THING = r"(?:the|my|our|a|an|each|every)\s+[\w-]+"  # "the contract": an action only with an addressee after it
# (the verbs, the pattern of the verb as an action, what can be done instead)
_ACTIONS: tuple[tuple[str, str], ...] = (
    (
        rf"\bprint(?:\s+out)?\s+(?:{_PRONOUN}|{_THING}|pages?\b|\d+\s+cop(?:y|ies)\b)|\bprint(?:\s+(?:it|this))?\s*$",
        "I can get it ready for printing (extract the pages you want, rotate, crop or reorder them, add page "
        "numbers, flatten the forms), and you print the result from your PDF viewer.",
    ),
    (
        rf"\b(?:e-?mail|mail|fax|send)\s+(?:{_PRONOUN}|{_THING}[^,.;]*?\bto\b)",
        "I can get the file ready to send (compress it to fit an email, protect it with a password, redact "
        "personal data first), and you send the result yourself.",
    ),
    (
        rf"\bupload\s+(?:{_PRONOUN}|{_THING})|\b(?:share|post|publish|tweet)\s+{_PRONOUN}",
        "I can get the file ready to share (compress it, remove its hidden data with sanitize, redact what "
        "should stay private, protect it with a password), and you upload the result yourself.",
    ),
    (
        rf"\btranslat(?:e|ing)\s+(?:{_PRONOUN}|{_THING}|pages?\b)|\btranslat(?:e|ing)\b[^,.;]*\b(?:into|to)\s+[A-Z][a-z]+",
        "I can convert it to Word or Markdown for a translator, or OCR a scan so its text can be copied.",
    ),
    (
        rf"\b(?:proofread|spell-?check|rewrite|rephrase|paraphrase)\s+(?:{_PRONOUN}|{_THING})",
        "I can convert it to Word so you can edit the wording, or highlight, underline or strike out words you name.",
    ),
)
_PATTERNS = tuple((re.compile(pattern, re.IGNORECASE), instead) for pattern, instead in _ACTIONS)
# "… before I send it out", "so we can print it": why the person wants the file, not an action asked for.
_PURPOSE = re.compile(
    r"\b(?:i|we|they|he|she|someone|people|you)\s+(?:can|could|will|would|might|may|'ll|need\s+to|have\s+to)?\s*$",
    re.IGNORECASE,
)
_ASKING = re.compile(r"\b(?:can|could|would|will)\s+you\s+(?:please\s+)?$", re.IGNORECASE)  # "could you print it"


def _purpose(before: str) -> bool:
    return bool(_PURPOSE.search(before)) and not _ASKING.search(before)


_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|'[^']+'(?=\W|$)")
_CLAUSES = re.compile(r"\s*(?:[,;.]\s*(?:and\s+|then\s+)?|\s+and\s+(?:then\s+)?|\s+then\s+)", re.IGNORECASE)


def refusal(request: str) -> str | None:
    """Why the request cannot be done, and what can be done instead; None when it asks nothing of this kind."""
    text = _QUOTED.sub('""', request)
    for pattern, instead in _PATTERNS:
        found = next((m for m in pattern.finditer(text) if not _purpose(text[: m.start()])), None)
        if found is None:
            continue
        verb = found.group(0).split()[0].lower()
        clauses = _CLAUSES.split(text)
        rest = [c for c in clauses if c.strip() and found.group(0) not in c]
        message = f"I can't {verb} files: DocPilot changes your files and gives them back to you to download. {instead}"
        if rest and len(rest) < len(clauses):
            message += f' Ask for the rest without that part (e.g. "{rest[0].strip()}").'
        return message
    return None
