"""Whether a rule read every word of a question (issue K item 3): a rule's answer stands only then.

A rule reads a question by matching some of its words against the documents (a row label, a column heading,
a period, a record's name) and some against its operation ("total", "largest", "increase"). A word it did not
read may change the question completely: "Transport and Police together" read as the Police row, "the
difference between A and B" read as A, "funds with returns above 7%" read as all funds. So every rule's answer
comes with a :class:`Reading` — its operation and the texts it matched — and the answer stands only when each
content word and each number of the question is accounted for by that reading; otherwise the rule hands the
question on (to a program the model writes, or to the passages), and without a model the honest reply is no
answer, never a partly read one.

What accounts for a word (stemmed, NFKC, numbers as numbers, "one-year" as 1 and "year"):
- the texts the reading matched (labels, row names, periods, the value it keeps, the names it chose files by);
- the operation's own words (:data:`OPERATION_WORDS`);
- what the matched things stand under (a table's caption, the heading of its section or page, what its rows
  are): "the kick-off payment" is the "Kick-off" row under "Fees and Payment" — but not a word that names
  another column the rule did not read ("the budget and actual spending of Police" read as the budget alone
  leaves "actual spending" unread, though the caption says it);
- the declared words: stop words, question and request words, words naming the document itself, quantity
  fillers, units (:data:`DECLARED_WORDS`), a small list, never a question's phrasing;
- with one document only, its own names: the words of its file name, its title and the lines heading its first
  page, and the words on most of its pages ("Amazon" in Amazon's 10-K). Across several files a name chooses the
  file, so the rule must read it — unless every file has it ("the N-CEN filings"), and the files' own count said
  of them ("across all six filings") is read too. Any other number must be one the rule matched or used.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from docpilot.understanding.document import Document
from docpilot.understanding.textnorm import STOPWORDS, format_number, norm, stem, words

__all__ = ["Reading", "unread", "OPERATION_WORDS", "DECLARED_WORDS"]

# the words each operation reads itself ("total" is the total's, not a lookup's)
OPERATION_WORDS: dict[str, str] = {
    "lookup": "",
    "total": "total sum summed combined altogether together add added adds up aggregate overall",
    "average": "average mean",
    "max": "largest biggest greatest highest most maximum top larger bigger greater higher",
    "min": "smallest lowest least fewest minimum smaller lower lesser",
    "count": "how many count number total overall altogether",
    "which": "",
    "ratio": "ratio between to",
    "difference": "difference between much more less larger bigger greater higher smaller lower fewer than",
    "change": "change changed increase increased decrease decreased grow grew growth rise rose fall fell decline "
    "declined drop dropped much from between to",
    "fell": "fell fall decline declined decrease decreased drop dropped lower compared before previous prior",
    "rose": "rose rise increase increased grew grow higher compared before previous prior",
    "title": "title called named",
    "author": "wrote written write author authors authored",
    "party": "name person business",
}

# declared words: questions and requests, the document itself, quantity fillers, the verbs of a document
# saying something, units; each says nothing about which value is meant
DECLARED_WORDS = frozenset(
    "please tell give show find know need want like look looking would could can let i'm we us our be being get "
    "document file pdf page table paper article book report invoice filing form "
    "company firm organisation organization applicant holder "
    "value figure amount number "
    "say says said state stated shows shown list listed given reported describe described "
    "mention mentioned record recorded include included use uses used "
    "under over across among during within if every each single individual "
    "million millions billion billions thousand thousands usd eur gbp dollar dollars percent percentage".split()
)
_NUMBER_WORDS = {
    w: str(n) for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
}


@dataclass(frozen=True)
class Reading:
    """What a rule read of a question: its operation; the texts it matched (as the documents or the question
    write them); what those stand under (caption, heading, row noun); what it could have matched and did not
    (the other columns); numbers it used that no text writes (how many rows it added up)."""

    op: str
    matched: tuple[str, ...] = ()
    context: tuple[str, ...] = ()
    others: tuple[str, ...] = ()
    numbers: tuple[float, ...] = ()

    def joined(self, other: Reading) -> Reading:
        """This reading and ``other`` together (a plan revised by feedback read both)."""
        return Reading(
            self.op,
            self.matched + other.matched,
            self.context + other.context,
            self.others + other.others,
            self.numbers + other.numbers,
        )


def unread(question: str, reading: Reading, documents: Sequence[Document] = ()) -> list[str]:
    """The question's words (stems) and numbers that ``reading`` does not account for, in order; [] when it
    read them all."""
    read = _token_set(reading.matched) | _token_set([OPERATION_WORDS.get(reading.op, "")])
    read |= {_number(n) for n in reading.numbers}
    declared = _declared()
    around = _token_set(reading.context) | declared
    elsewhere = _token_set(reading.others) - read - _stops()  # another column's word is not read by this one
    left = [
        token
        for word, token in _tokens(question)
        if token not in read and (token in elsewhere or (word not in around and token not in around))
    ]
    if left and len(documents) == 1:
        own = _own_words(documents[0], {t for t in left if not t.isdigit() and t not in elsewhere})
        left = [t for t in left if t not in own]
    elif left and len(documents) > 1:  # "across all six N-CEN filings": what every file is, and how many there are
        shared = set.intersection(*(_own_words(d, {t for t in left if not t.isdigit()}) for d in documents))
        left = [t for t in left if t not in shared and not _counts_files(question, t, len(documents))]
    return list(dict.fromkeys(left))


_FILE_NOUNS = frozenset(stem(w) for w in "files documents pdfs filings reports forms statements invoices".split())


def _counts_files(question: str, token: str, count: int) -> bool:
    """Whether ``token`` is the number of uploaded files, said of them ("the six N-CEN annual reports")."""
    if token != str(count):
        return False
    tokens = [t for _, t in _tokens(question)]
    return any(
        t == token and any(after in _FILE_NOUNS for after in tokens[i + 1 : i + 5]) for i, t in enumerate(tokens)
    )


def _tokens(text: str) -> list[tuple[str, str]]:
    """(word, token) pairs: a number as its digits ("1,600" is 1 and 600 on either side alike, "three" is 3),
    any other word as its stem; hyphenated words in their parts ("one-year" → 1, year)."""
    out = []
    for word in words(text.replace("’", "'")):
        for part in word.split("-"):
            if not part:
                continue
            if part.isdigit():
                out.append((part, str(int(part))))
            elif part in _NUMBER_WORDS:
                out.append((part, _NUMBER_WORDS[part]))
            else:
                out.append((part, stem(part)))
    return out


def _token_set(texts: Sequence[str]) -> set[str]:
    return {token for text in texts for _, token in _tokens(text)}


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else format_number(value)


@cache
def _stops() -> frozenset[str]:
    """The stop words, as written and as stems."""
    return frozenset(STOPWORDS | {stem(w) for w in STOPWORDS})


@cache
def _declared() -> frozenset[str]:
    """The stop words and declared words, as written and as stems (worked out once, on first use)."""
    raw = STOPWORDS | DECLARED_WORDS
    return frozenset(raw | {stem(w) for w in raw})


def own_names(doc: Document) -> str:
    """What a document calls itself: its file name ("BestBuy_2024Q2" as words), its title and the (short) lines
    heading its first page."""
    name = re.sub(r"([a-z])([A-Z])", r"\1 \2", Path(doc.name).stem).replace("_", " ")
    pages = doc.structure.pages
    head = [line for line in (pages[0] if pages else "").splitlines() if line.strip()][:2]
    return " ".join([name, doc.structure.title, *(h for h in head if len(h) <= 80)])


def _own_words(doc: Document, tokens: set[str]) -> set[str]:
    """Those of ``tokens`` that are the document's own names: in its file name, its title or the lines that head
    its first page ("Form N-CEN Annual Report / Silver Birch Series Trust") or their initials ("AWS" of "Amazon
    Web Services"), or on most of its pages (at least two, and two fifths of them)."""
    pages = doc.structure.pages
    named = [word for word, _ in _tokens(own_names(doc))]
    initials = {"".join(w[0] for w in named[i:j]) for i in range(len(named)) for j in range(i + 2, i + 6)}
    own = tokens & ({stem(w) for w in named} | initials)
    if len(pages) < 2 or not tokens - own:
        return own
    texts = [norm(text) for text in pages]
    for token in tokens - own:
        pattern = re.compile(rf"(?<!\w){re.escape(token)}")
        if sum(bool(pattern.search(text)) for text in texts) >= max(2, 0.4 * len(texts)):
            own.add(token)
    return own
