"""Which uploaded files a request means: by name or stem, by order, by kind, or all of them.

A request that names no file means the only PDF when there is one; with several PDFs and no
mention, the planner asks which (never silently all of them). A mention of a file name counts as
the full file name ("contract.pdf"), or its words after a determiner or preposition ("the contract",
"in the annual report", "these two invoices"), so a word that only happens to be a file's name
("add a DRAFT watermark" with draft.pdf uploaded) is not taken for one.

Some words of a name are enough when they fit one file only: "the 2025 handbook" (handbook_2023.pdf and
handbook_2025.pdf), "the week 6 notes" (lecture_notes_wk6.pdf: "wk" is "week"), "the scanned contract"
(contract_signed_scan.pdf), "the February minutes" (minutes_feb.pdf). Words two files fit equally ("the
handbook") ask which; words no file has ("the 2024 handbook") are no mention. A file said to be left alone
("not the rota", "leave the invoice alone") is left out, and those words are used up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from docpilot.files import FileInfo
from docpilot.planning.fastpath.text import VERBS

__all__ = ["Grounding", "ground_files", "names_a_file", "FILE_MENTIONS", "name_pattern", "mentions", "word_aliases"]

_LEAD = r"(?:the|this|that|these|those|both|each|every|all|my|our|your|in|to|of|from|for|on|into|with)"
_NUMBER = r"(?:two|three|four|five|six|\d+)"
_ALL = re.compile(
    r"\b(?:both(?:\s+(?:of\s+them|files|documents|pdfs)|(?!\s+[a-z]))|all\s+(?:of\s+)?(?:the\s+|these\s+|my\s+)?"
    r"(?:files|documents|pdfs|of\s+them|uploads)|each\s+(?:file|document|pdf|one)|every\s+(?:file|document|pdf)|"
    r"these\s+(?:" + _NUMBER + r"\s+)?(?:files|documents|pdfs)|them\s+all|all\s+" + _NUMBER + r"|"
    r"the\s+" + _NUMBER + r"\s+(?:files|documents|pdfs))\b",
    re.IGNORECASE,
)
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3}
_ORDER = re.compile(
    r"\bthe\s+(first|1st|second|2nd|third|3rd|fourth|4th|last|latest)\s+(?:one|file|document|pdf|upload)\b",
    re.IGNORECASE,
)

FILE_MENTIONS = (_ALL, _ORDER)  # phrases that say which files ("both files", "the second one"), for the span tagger


@dataclass(frozen=True)
class Grounding:
    """The PDFs a request means (upload order), and whether the request said so."""

    pdfs: list[str]
    mentioned: bool
    ambiguous: list[str] | None = None  # a mention that fits several files where one was meant
    # The request with each word-mention of the one file meant said as "it" ("watermark the Henderson quote" →
    # "watermark it"), or as the file's name where it has words the name lacks ("the week 6 notes" → "the
    # lecture_notes_wk6.pdf"), and each file left alone taken out ("…, not the rota"); None when nothing changed
    said: str | None = None


def name_pattern(name: str) -> re.Pattern[str]:
    """A file's name as people write it: "invoice_1002.pdf", "invoice 1002", "the Q3 budget"."""
    words = _words(name.rsplit(".", 1)[0])
    return re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)|\b{_phrase(words, True)}\b", re.IGNORECASE)


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")  # fmt: skip


def word_aliases(word: str) -> set[str]:
    """A file-name word and the ways people say it: "feb" is "february", "september" is "sep" or "sept"."""
    out = {word}
    for month in _MONTHS:
        short = {month[:3], month[:4]} if month == "september" else {month[:3]}
        if word == month or word in short:
            out |= {month, *short}
    return out


def mentions(text: str, names: list[str]) -> list[tuple[int, int, str]]:
    """Where ``text`` names each of ``names``: by file name, by its stem's words, or by a word of its stem that no
    other name has ("cover" of cover.pdf, "february" of invoice_feb.pdf); (start, end, name) in text order."""
    found: list[tuple[int, int, str]] = []
    words_of = {name: {a for w in _words(name.rsplit(".", 1)[0]) for a in word_aliases(w)} for name in names}
    for name in names:
        others = set().union(*(w for n, w in words_of.items() if n != name))
        own = sorted(w for w in words_of[name] - others if len(w) > 2 or w.isdigit())
        patterns = [name_pattern(name)] + (
            [re.compile(rf"\b(?:{'|'.join(map(re.escape, own))})s?\b", re.I)] if own else []
        )
        for pattern in patterns:
            found += [(m.start(), m.end(), name) for m in pattern.finditer(text)]
    found.sort(key=lambda f: (f[0], -f[1]))
    out: list[tuple[int, int, str]] = []
    for start, end, name in found:  # the longest mention at each place; none inside another
        if not out or start >= out[-1][1]:
            out.append((start, end, name))
    return out


def _words(stem: str) -> list[str]:
    return [w for w in re.split(r"[\W_]+", stem.lower()) if w]


def _phrase(words: list[str], plural: bool) -> str:
    body = r"[\s_-]+".join(re.escape(w) for w in words)
    return body + (r"s?" if plural else "")


def ground_files(text: str, files: dict[str, FileInfo]) -> Grounding:
    """The PDFs ``text`` (the request, quoted strings already taken out) refers to."""
    pdfs = [name for name, info in files.items() if info.kind == "pdf"]
    if len(pdfs) <= 1:
        return Grounding(pdfs, mentioned=False)
    if _ALL.search(text):
        return Grounding(pdfs, mentioned=True)
    chosen: list[str] = []
    ambiguous: list[str] | None = None
    for name in pdfs:  # full file names
        if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", text, re.IGNORECASE):
            chosen.append(name)
    for match in _ORDER.finditer(text):
        word = match.group(1).lower()
        index = len(pdfs) - 1 if word in ("last", "latest") else _ORDINALS[word]
        if index < len(pdfs) and pdfs[index] not in chosen:
            chosen.append(pdfs[index])
    said = None
    if not chosen:
        chosen, ambiguous, said = _by_words(text, pdfs)
    ordered = [name for name in pdfs if name in chosen]
    return Grounding(ordered or pdfs, mentioned=bool(ordered), ambiguous=ambiguous, said=said)


def _by_words(text: str, pdfs: list[str]) -> tuple[list[str], list[str] | None, str | None]:
    """Files named by the words of their names ("the annual report", "the invoices", "invoice 1002", "the 2025
    handbook", "the week 6 notes"), less the files said to be left alone ("not the rota"); and the request
    retold with those mentions as file names."""
    words_of = {name: _words(name.rsplit(".", 1)[0]) for name in pdfs}
    phrases = _phrases(text, pdfs)
    left = [p for p in phrases if p.left_out]
    blank = text
    for p in left:  # "not the rota": no mention of the rota for the whole stems either
        blank = blank[: p.cut[0]] + " " * (p.cut[1] - p.cut[0]) + blank[p.cut[1] :]
    chosen: list[str] = []
    # A whole stem ("invoice 1002", "annual report") names one file.
    for name, words in words_of.items():
        lead = "" if len(words) > 1 else rf"{_LEAD}\s+(?:\w+\s+)?"  # one word needs "the …", "in …"
        if words and re.search(rf"\b{lead}{_phrase(words, False)}\b", blank, re.IGNORECASE):
            chosen.append(name)
    kept = [p for p in phrases if not p.left_out]
    chosen += [n for p in kept if len(p.names) == 1 or p.plural for n in p.names if n not in chosen]
    ties = [p.names for p in kept if len(p.names) > 1 and not p.plural and not set(p.names) & set(chosen)]
    if ties:  # "the handbook" with handbook_2023 and handbook_2025: which one is for the person to say
        return [], ties[0], None
    left_names = {p.names[0] for p in left}
    if left and (not chosen or left_names & set(chosen)):
        return [], None, None  # only a file to leave alone, or one both named and left alone: ask which
    if chosen:
        named = [p for p in phrases if p.left_out or len(p.names) == 1 and p.names[0] in chosen]
        return chosen, None, _retold(text, named, chosen)
    return _by_first_words(text, words_of)


def _by_first_words(text: str, words_of: dict[str, list[str]]) -> tuple[list[str], list[str] | None, str | None]:
    """The words a stem starts with ("the invoice" of invoice_1001), which may fit several files."""
    chosen: list[str] = []
    ambiguous: list[str] | None = None
    for size in (2, 1):
        groups: dict[str, list[str]] = {}
        for name, words in words_of.items():
            alpha = [w for w in words if not w.isdigit()]
            keys = [" ".join(alpha[:size])] if size == 2 else [w for w in alpha if len(w) > 2 or w == alpha[0]]
            for key in keys if len(alpha) >= size else []:  # "the invoice", "the minutes" (board_minutes)
                groups.setdefault(key, []).append(name)
        for key, names in groups.items():
            lead = rf"\b{_LEAD}\s+(?:{_NUMBER}\s+)?"
            plural = re.search(lead + _phrase(key.split(), False) + r"s\b", text, re.IGNORECASE)
            single = re.search(lead + _phrase(key.split(), False) + r"\b", text, re.IGNORECASE)
            if plural:
                chosen += names
            elif single:
                if len(names) == 1:
                    chosen += names
                else:
                    ambiguous = names
        if chosen:
            return chosen, None, None
    return [], ambiguous, None


# Ways people shorten a file-name word: "wk6" is "week 6", "Q4" is "quarter 4", "v2" is "version 2"
_SHORT = {"wk": "week", "wks": "week", "yr": "year", "yrs": "year", "v": "version", "ver": "version",
          "vol": "volume", "ch": "chapter", "chap": "chapter", "pt": "part", "sec": "section", "q": "quarter",
          "dept": "department", "mtg": "meeting", "rpt": "report", "min": "minute", "mins": "minute",
          "agmt": "agreement", "cert": "certificate", "doc": "document"}  # fmt: skip
# Words that only say it is a file ("the exhibits file", "the Henderson one")
_GLUE = {"file", "files", "document", "documents", "doc", "docs", "pdf", "pdfs", "one", "ones", "version", "copy"}
# Words that end a mention: what comes after "the week 6 notes" in "… notes, highlight …" or "… notes for …"
_END = frozenset(
    "a an the and or but not nor only in on at to for from with by of into onto as so then please is are was were be "
    "been has have had should must can could would will i we you it they them its it's this that these those my our "
    "your where which who what when if than too also just now all every each both except apart before "
    "after up out off alone stays stay instead there here do does did don't leave".split()
)
_WORD = re.compile(r"[A-Za-z0-9]+(?:'[a-z]+)?")  # one word of the request ("Henderson", "wk6", "2025", "don't")
# The words just before a mention that say the file is to be left alone: "not the rota", "- not the inventory -"
_NOT_BEFORE = re.compile(
    r"(?:[,(–-]\s*)?(?:\b(?:but|and)\s+)?\b(?:not|rather\s+than|instead\s+of)\s+(?:the|my|our|this|that)\s+$",
    re.IGNORECASE,
)
_LEAVE_BEFORE = re.compile(
    r"(?:[,(–-]\s*)?(?:\b(?:but|and|please)\s+)?\b(?:leave|don't\s+touch|do\s+not\s+touch|don't\s+change|"
    r"do\s+not\s+change)\s+(?:the|my|our|that)\s+$",
    re.IGNORECASE,
)
_ALONE_AFTER = re.compile(r"^\s+(?:alone|as\s+it\s+is|as\s+is|untouched|unchanged)\b\s*[)–-]?", re.IGNORECASE)
_NOT_AFTER = re.compile(r"^\s*[)–-]", re.IGNORECASE)
_DETERMINER = re.compile(
    r"\b(?:the|this|that|these|those|my|our|your|both)\s+(?:(?:two|three|2|3)\s+)?$", re.IGNORECASE
)


@dataclass(frozen=True)
class _Phrase:
    """Words after "the", "my" … that name a file by words of its name: where, which files they fit."""

    start: int
    end: int
    names: list[str]
    plural: bool = False
    left_out: bool = False
    cut: tuple[int, int] = (0, 0)  # what to take out of the request when the file is left alone
    said_as: int = -1  # where "the …" starts, when the mention may be said as "it" (one file, a singular determiner)


def _parts(word: str) -> list[str]:
    """A word as the pieces a file name is compared by: "wk6" → week, 6; "Scanned" → scan; "Feb" → february."""
    out = []
    for piece in re.findall(r"[a-z]+|\d+", word.lower().replace("'s", "")):
        if piece.isdigit():
            out.append(str(int(piece)))
            continue
        piece = _SHORT.get(piece, piece)
        piece = next((m for m in _MONTHS if piece in word_aliases(m) - {"may"} or piece == m), piece)
        out.append(_stem(piece))
    return out


def _stem(word: str) -> str:
    """A rough stem, the same for a word and its plural or past: "notes" ~ "note", "scanned" ~ "scan"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    for suffix in ("ed", "ing", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)]
            return word[:-1] if suffix != "s" and len(word) > 3 and word[-1] == word[-2] else word
    return word


def _phrases(text: str, pdfs: list[str]) -> list[_Phrase]:
    """Each run of words after a determiner that only words of file names make up ("the 2025 handbook", "the
    scanned contract", "the exhibits file"), with the files whose names have every one of those words."""
    owned = {name: {p for w in _words(name.rsplit(".", 1)[0]) for p in _parts(w)} for name in pdfs}
    raw = {w for name in pdfs for w in _words(name.rsplit(".", 1)[0])}
    words = list(_WORD.finditer(text))
    out: list[_Phrase] = []
    i = 0
    while i < len(words):
        lead = _DETERMINER.search(text[: words[i].start()])
        if not lead or words[i].group(0).lower() in _END:
            i += 1
            continue
        j = i
        while j < len(words) and j - i < 5 and not _ends(text, words[j]):
            if j > i and text[words[j - 1].end() : words[j].start()].strip():
                break  # punctuation between two words ends the mention
            j += 1
        run = words[i:j]
        parts = [p for w in run if w.group(0).lower() not in _GLUE for p in _parts(w.group(0))]
        names = [n for n in pdfs if parts and set(parts) <= owned[n]]
        if names:
            head = next((w.group(0).lower() for w in reversed(run) if w.group(0).lower() not in _GLUE), "")
            plural = head.endswith("s") and head not in raw and _stem(head) != head
            phrase = _phrase_of(text, run[0].start(), run[-1].end(), names, plural)
            single = re.fullmatch(r"(?:the|this|that|my|our|your)\s+", lead.group(0), re.IGNORECASE)
            out.append(replace(phrase, said_as=lead.start()) if single and not plural else phrase)
        i = max(j, i + 1)
    return out


_VERB = re.compile(rf"(?:{VERBS})", re.IGNORECASE)  # a word that starts an instruction ("highlight", "redact")
# What follows a verb that starts an instruction: "highlight the …", "redact all …", "stamp ⟦0⟧ …"
_OBJECT = re.compile(r"\s+(?:the|a|an|all|every|each|it|them|this|these|those|my|our|any|pages?|⟦)", re.IGNORECASE)


# A number that is an amount, not part of a name: "the 2024 report 90 degrees", "the budget 3 times"
_AMOUNT = re.compile(
    r"\s*(?:°|%|degrees?\b|deg\b|percent\b|pts?\b|points?\b|mm\b|cm\b|in\b|inch(?:es)?\b|dpi\b|px\b|times\b|"
    r"copies\b|pages?\b)",
    re.IGNORECASE,
)


def _ends(text: str, word: re.Match[str]) -> bool:
    """A word a mention cannot run into: a small word, a verb that starts the next instruction, an amount."""
    said = word.group(0)
    return said.lower() in _END or _verb(text, word) or said.isdigit() and _AMOUNT.match(text, word.end()) is not None


def _verb(text: str, word: re.Match[str]) -> bool:
    """A verb that starts the next instruction ("In the lease highlight the word …"), not a noun that is also
    a verb ("the invoice number in …")."""
    return _VERB.fullmatch(word.group(0)) is not None and _OBJECT.match(text, word.end()) is not None


def _phrase_of(text: str, start: int, end: int, names: list[str], plural: bool) -> _Phrase:
    """The mention, and whether the words around it leave the file alone ("not the rota", "leave the X alone")."""
    before = text[:start]
    after = text[end:]
    if len(names) == 1 and (m := _NOT_BEFORE.search(before)):
        close = _NOT_AFTER.match(after)
        return _Phrase(start, end, names, plural, True, (m.start(), end + (close.end() if close else 0)))
    if len(names) == 1 and (m := _LEAVE_BEFORE.search(before)) and (alone := _ALONE_AFTER.match(after)):
        return _Phrase(start, end, names, plural, True, (m.start(), end + alone.end()))
    return _Phrase(start, end, names, plural)


def _unsaid(mention: str, name: str) -> bool:
    """A mention with words the file's name does not have as such ("week 6" of wk6, "scanned" of scan, "2025"):
    written as the file's name, so those words are accounted for."""
    own = {a for w in _words(name.rsplit(".", 1)[0]) for a in word_aliases(w)}
    said = [w.lower() for w in _WORD.findall(mention) if w.lower() not in _GLUE]
    return any(w not in own and w.removesuffix("s") not in own or w.isdigit() for w in said)


def names_a_file(clause: str, pdfs: list[str]) -> bool:
    """'In the exhibits file', 'For the supplement', 'on lease.pdf': a clause that only says which file."""
    body = re.sub(
        r"^(?:(?:and|but|so|ok|okay|now|please)\s+)*(?:(?:in|for|on|from|with|to|using|inside|within|regarding|"
        r"about)\s+)?",
        "",
        clause.strip(" ,:"),
        flags=re.IGNORECASE,
    )
    body = re.sub(r"\s+only$", "", body, flags=re.IGNORECASE)
    if any(re.fullmatch(rf"(?:(?:the|my|our|this|that)\s+)?{re.escape(n)}", body, re.IGNORECASE) for n in pdfs):
        return True
    lead = re.match(r"(?:the|my|our|this|that)\s+", body, re.IGNORECASE)
    phrases = _phrases(body, pdfs)
    return (
        lead is not None
        and len(phrases) == 1
        and len(phrases[0].names) == 1
        and (phrases[0].start, phrases[0].end) == (lead.end(), len(body))
        and not phrases[0].left_out
    )


# Words the tools work on: a file named "blank_pages.pdf" is not "it" in "delete the blank pages"
_TOOL_NOUNS = frozenset(
    "page pages blank empty text image images picture pictures form forms field fields comment comments note notes "
    "header footer watermark signature password table tables metadata annotation annotations bookmark bookmarks "
    "title author cover".split()
)
# Putting files together: "it" would not say which of them a mention is
_MERGING = re.compile(r"\b(?:merg|combin|join|concatenat|stitch|append|attach|together)", re.IGNORECASE)


def _retold(text: str, phrases: list[_Phrase], chosen: list[str]) -> str | None:
    """The request with each mention written as its file's name and each file left alone taken out: the
    words a grounding used are then accounted for like a file name typed in full."""
    edits: list[tuple[int, int, str]] = []
    for p in phrases:
        if p.left_out:
            edits.append((*p.cut, ", "))
            continue
        only = re.match(r"\s+only\b", text[p.end :]) if chosen == p.names else None
        end = p.end + (only.end() if only else 0)
        plain = not _TOOL_NOUNS & {w.lower() for w in _WORD.findall(text[p.start : p.end])}
        if chosen == p.names and p.said_as >= 0 and plain and not _MERGING.search(text):  # "watermark it with COPY"
            edits.append((p.said_as, end, "it"))
        elif only or _unsaid(text[p.start : p.end], p.names[0]):  # "the 2025 handbook" → "the handbook_2025.pdf"
            edits.append((p.start, end, p.names[0]))
    if not edits:
        return None
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text
