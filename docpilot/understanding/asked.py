"""What kind of value a question asks for, and whether an answer is a value of that kind (issue K item 3).

A rule that answers with a value of another kind than the question asks for — a table's caption for "the
largest value", a date for an amount, a bare count for "what percentage" — is wrong however its value was
found; such an answer is handed on (to a program over the tables, or to the passages), not given.

The kinds, read from the question's words the way Duckling reads a value's type:

- ``percent``: "what percentage / percent / share / proportion", "as a percentage", "in percent";
- ``date``: "what/which date, day, month, year", "in what year";
- ``count``: "how many …";
- ``amount``: "how much", a total, sum, aggregate, average, mean, median, difference, "what value";
- ``name``: "which …", "who …", "whose …", "name the …" (a thing, not a figure, and not a table's total row:
  "Total" is not one of the farms a "which farm" asks about).

A question the reader cannot place is of no kind, and any answer fits it — except that a "where" question is
answered with words (a place), never with a date or a bare figure alone.

Two more checks on what an answer must hold:

- a question that asks for a way to reach someone — "what's the email", "which phone number", "what is the
  website" — is answered with one (an address with "@", seven digits or more, a web address), never with
  the other contact on the page;
- a question that asks two things ("Who should investors contact, and what's the email?", "When is it due
  and how much is it?") is answered with both: each part is a question of its own kind ("when" a date or a
  time), and the answer must fit every part and say as many things as there are parts.
"""

from __future__ import annotations

import re
from typing import Any

from docpilot.fileparts import WORD_NUMBERS
from docpilot.understanding.language import looks_english
from docpilot.understanding.textnorm import numbers_in, stem, stems

__all__ = [
    "asked_kind",
    "answer_fits",
    "asks_rank",
    "states_rank",
    "asks_several",
    "missing_kinds",
    "one_part",
    "part_query",
    "restates",
    "question_parts",
    "KINDS",
]

KINDS = ("percent", "date", "count", "amount", "name")
_PERCENT = re.compile(
    r"\b(?:what|which)\s+(?:percentage|percent|share|proportion)\b|\b(?:as|in)\s+(?:a\s+)?(?:percentage|percent)\b"
    r"|\bhow many percent|\bpercentage (?:of|points?)\b|\bwhat\s+%"
    # "what was the gross margin percentage for the quarter?"
    r"|^\W*what(?:'s|\s+(?:is|was|were|are))?\b[^?]*\bpercentage\s*(?:for|in|of|at|on|\?|$)",
    re.I,
)
_DATE = re.compile(r"\b(?:what|which)\s+(?:date|day|month|year)s?\b|\bin what year\b|\bon what date\b", re.I)
# a clause before the question ("In the 2005 comparison, which …"), not a question itself
_LEAD = r"^\W*(?:(?!(?:what|who|which|whose|how|when|where|why|is|are|was|were|do|does|did)\b)[^,?]{1,80},\s*)?"
# "by how many $ million", "how many dollars": an amount asked in its unit, not a count of things
_IN_UNITS = r"how many\s*(?:[$€£]|(?:thousands?|millions?|billions?|dollars?|euros?|pounds?|rupees?|yen)\b)"
_COUNT = re.compile(
    _LEAD + r"(?:\w+\W+){0,2}?(?!" + _IN_UNITS + r")how many\b"
    # "what was the most stores opened in a quarter", "the largest number of employees": a figure, not the row
    r"|\bwhat(?:'s|\s+(?:is|was|are|were))\s+the\s+(?:(?:most|fewest|least)\s+(?!\w+(?:ous|ss)\b)\w+s\b"
    r"|(?:largest|highest|smallest|lowest|greatest|biggest|maximum|minimum)\s+number\s+of\b)",
    re.I,
)
_AMOUNT = re.compile(
    r"\bhow much\b|\b" + _IN_UNITS + r"|\b(?:total|sum|aggregate|average|mean|median|difference|combined)\b"
    r"|\bwhat (?:is|was|are|were) the (?:[\w-]+\s+){0,2}(?:value|amount|figure)s?\b|\bwhat (?:value|amount|figure)\b",
    re.I,
)
# "what top-20 retrieval accuracy did DPR get", "what was the unemployment rate in 2000": a measure asked by its noun
_MEASURE = re.compile(
    r"\bwhat(?:'s|\s+(?:is|was|are|were))?\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:accuracy|precision|recall|rate|price|cost|score|ratio|margin|salary|wage|fee|fare|balance|budget|weight|"
    r"height|length|speed|temperature|population|revenue|income|profit|earnings)s?"
    r"(?=\s+(?:of|for|in|on|at|did|does|do|was|were|is|are|has|had|per|from|to|when|with|under|after|before)\b"
    r"|\s*[?,.]|\s*$)",
    re.I,
)
_NAME = re.compile(_LEAD + r"(?:(?:in|for|of|from|at|among)\s+)?(?:which|who|whose|name)\b", re.I)
# words that say the question is about a rate, so a percent is an amount of the kind asked
_RATE_WORDS = re.compile(r"%|\b(?:percent\w*|rate|share|proportion|ratio|margin|return|growth|yield|fraction)\b", re.I)
_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_A_DATE = re.compile(
    rf"\b(?:19|20)\d\d\b|\b(?:{_MONTHS})\b|\b\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}\b|\bq[1-4]\b|\bfy\s?\d\d", re.I
)
_DATE_PART = (
    rf"(?:\d{{1,2}}(?:st|nd|rd|th)?|(?:{_MONTHS})\.?|(?:19|20)\d\d(?:-\d\d-\d\d)?"
    r"|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4})(?!\d|[,.]\d)"
)
_ONLY_A_DATE = re.compile(rf"^\W*{_DATE_PART}(?:[\s,.]+{_DATE_PART})*[\s.]*$", re.I)
_A_PERCENT = re.compile(r"%|\bper\s?cent\b|\bpercentage\b", re.I)
_LETTERS = re.compile(r"[^\W\d_]{2,}")
_WHERE = re.compile(r"^\W*(?:and\s+)?where\b", re.I)
# "what is the place of birth?", "which city …": a place asked by its noun ("14 March 1988" is no birthplace)
_PLACE = re.compile(
    r"^\W*(?:what|which)\b.*\b(?:place of birth|birthplace|place|location|city|town|country|address)\b", re.I
)
_MAILED = re.compile(r"\b(?:mail|mailed|post|posted|send|sent|ship|shipped)\b", re.I)  # "where should I mail it"
_ONLY_FIGURES = re.compile(r"[\d\s,.%$€£()-]+")
_TOTAL_ROW = re.compile(r"^\W*(?:grand\s+|sub-?)?totals?\b", re.I)
# a number that names a part, not a figure: "Table 2", "Note 14", "page 3"
_REFERENCE = re.compile(
    r"\b(?:table|figure|fig|exhibit|note|section|page|item|schedule|chapter|part)\.?\s+[\w.-]+", re.I
)


# "…, and what's the email?": a second question joined to the first
_PARTS = re.compile(
    r",?\s+(?:and|&)\s+(?=(?:what|what's|whats|when|who|whom|whose|which|where|how|at what|in what|on what|"
    r"for what|by how)\b)",
    re.I,
)
_WHAT = re.compile(r"^\W*(?:and\s+)?(?:what|what's|whats|which|where)\b", re.I)
_CONTACTS = {  # what a way to reach someone is asked by, and what it looks like
    "an email address": (re.compile(r"\be-?mail\b", re.I), re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    "a phone number": (
        re.compile(r"\b(?:phone|telephone|fax|mobile)\b", re.I),
        re.compile(r"(?:\d[\s().-]*){7,}"),
    ),
    "a web address": (
        re.compile(r"\b(?:website|web\s*site|web address|url)\b", re.I),
        re.compile(r"\b(?:https?://|www\.)\S+|\b[\w-]+\.(?:com|org|net|gov|edu|io|co|uk|de|fr|in|eu)\b", re.I),
    ),
}
_WHEN = re.compile(r"^\W*(?:and\s+)?when\b", re.I)
_A_TIME = re.compile(
    r"\b\d+\s*(?:days?|weeks?|months?|years?|hours?)\b|\b(?:upon|after|before|within|following)\b", re.I
)
_SEGMENTS = re.compile(r",\s*(?=[^\d\s])|[;\n]|\s(?:and|&|/)\s|\.\s")  # not "2,410", not "May 1, 2025"
_DESCRIBED = {"percent": "a percentage", "date": "a date", "count": "a count", "amount": "an amount", "name": "a name"}


def asked_kind(question: str, measures: bool = True) -> str | None:
    """The kind of value ``question`` asks for (one of :data:`KINDS`), or None when its words do not say.

    ``measures=False``: a measure asked by its noun alone ("what … accuracy", "what was the rate") is of no kind;
    it says what an answer must be, not that a table holds it."""
    percent, name = _PERCENT.search(question), _NAME.search(question)
    # "which country has the largest percentage of adults …": the country is asked, its percentage ranks them
    if percent and not (name and name.end() <= percent.start() and not _DATE.search(question)):
        return "percent"
    if _DATE.search(question):
        return "date"
    if name:
        return "name"
    if _COUNT.search(question):
        return "count"
    if _AMOUNT.search(question) or (measures and _MEASURE.search(question)):
        return "amount"
    return None


def answer_fits(question: str, answer: str) -> bool:
    """Whether ``answer`` is a value of the kind ``question`` asks for (True when the kind is not known), and
    of each kind when the question asks two things."""
    return not missing_kinds(question, answer)


def untimed(question: str, answer: str) -> bool:
    """Whether ``question`` asks when and ``answer`` says no date or time ("when was Lena Fischer hired?" answered
    with her position from a table that holds no date; q12, after its measurement)."""
    return bool(_WHEN.match(question) and not (_A_DATE.search(answer) or _A_TIME.search(answer)))


def asks_several(question: str) -> bool:
    """Whether ``question`` asks two things or more ("When is it due and how much is it?")."""
    return len(question_parts(question)) > 1


def question_parts(question: str) -> list[str]:
    """The questions ``question`` joins ("…, and what's the email?"); itself alone when it asks one thing."""
    return [p for p in _PARTS.split(question) if p.strip()]


def one_part(question: str, part: str | None) -> str:
    """The question as a model is asked it: ``part`` of ``question`` alone, with the whole for its context."""
    if not part:
        return question
    return f'{part.strip(" ,;?")}? (This is one part of the question "{question.strip()}": answer this part only.)'


def part_query(question: str, part: str | None) -> str:
    """What retrieval looks for to answer ``part`` of ``question``: the part's words first, then the whole's."""
    return f"{part} {question}" if part else question


def missing_kinds(question: str, answer: str) -> list[str]:
    """What ``answer`` lacks of what ``question`` asks for ("an email address", "a date"); empty when it fits."""
    parts = question_parts(question)
    missing = []
    for part in parts:
        contact = next((what for what, (asks, _) in _CONTACTS.items() if asks.search(part)), None)
        if contact and _WHAT.match(part):
            if not _CONTACTS[contact][1].search(answer):
                missing.append(contact)
        elif len(parts) > 1 and _WHEN.match(part):
            if not (_A_DATE.search(answer) or _A_TIME.search(answer)):
                missing.append("a date or a time")
        elif _WHERE.match(part) and _MAILED.search(part) and not re.search(r"\d", answer):
            missing.append("a postal address (its street number, box or postcode)")  # not only who receives it
        elif not _fits(part, answer, question):
            place = _WHERE.match(part) or _PLACE.search(part)
            missing.append("a place" if place else _DESCRIBED[str(asked_kind(part))])
    if restates(question, answer):  # "Who acquired Amcor's business?" — "Amcor"
        missing.append("something the question does not already say")
    elif _WHO_ASKED.match(question) and _names_only_asked(question, answer):
        missing.append("a name the question does not already say")  # "Free Culture is dedicated to …"
    if len(parts) > len([s for s in _SEGMENTS.split(answer) if s.strip()]):
        missing.append(f"an answer to each of its {len(parts)} parts")  # one value cannot answer two questions
    return list(dict.fromkeys(missing))


_ASKS_WHICH = re.compile(r"^\W*(?:who|whom|whose|which|what)\b", re.I)
_CHOICE = re.compile(r"\b(?:or|vs|versus)\b", re.I)  # "Which is larger, A or B?": the answer is one of its words
_TITLE = re.compile(r"\b(?:title|titled|called|named|name)\b", re.I)  # "What is the report's title?" may say it again


# a superlative: "most", "least", "top", and the -est words (in lower case: "Best Buy" is a name)
_RANK = re.compile(
    r"\b(?:most|least|fewest|top|maximum|minimum|[a-z]{2,}est)\b"
    r"|\bthe (?:larger|bigger|greater|higher|smaller|lower|lesser)\b"  # "which … the larger": of two, the first
)
_NOT_RANK = frozenset(
    "interest interests test request suggest honest modest invest harvest forest contest protest "
    "manifest digest arrest west rest nest guest chest quest latest".split()
)


def asks_rank(question: str) -> bool:
    """Whether ``question`` asks which thing ranks first or last ("Which state ran the most checks?", "the highest
    revenue"): a comparison over many values, code's job, not a model's reading."""
    return any(m.group(0) not in _NOT_RANK for m in _RANK.finditer(question))


def states_rank(answer: str, text: str, question: str = "") -> bool:
    """Whether a sentence of ``text`` says ``answer`` ranks so: it holds the answer's words and a superlative —
    with ``question``, one of the same sense ("the highest share" is not said by "the lowest ratio")."""
    said = set(stems(answer))
    asked = _rank_senses(question)
    for sentence in re.split(r"(?<=[.!?;])\s+|\n", text):
        senses = _rank_senses(sentence)  # none: no superlative (asks_rank of the sentence in lower case)
        if said and said <= set(stems(sentence)) and senses and (not asked or asked & senses):
            return True
    return False


_HIGH = frozenset("most top maximum highest largest biggest greatest larger bigger greater higher".split())
_LOW = frozenset("least fewest minimum lowest smallest smaller lower lesser".split())


def _rank_senses(text: str) -> set[str]:
    """The senses of ``text``'s superlatives: "high" (most, largest, the higher …), "low", or the word itself
    ("cheapest", "longest")."""
    senses = set()
    for match in _RANK.finditer(text.lower()):
        word = match.group(0).split()[-1]
        if word in _NOT_RANK:
            continue
        senses.add("high" if word in _HIGH else "low" if word in _LOW else word)
    return senses


_WHO_ASKED = re.compile(r"^\W*(?:who|whom|to whom)\b", re.I)
_CAPITALISED = re.compile(r"\b[A-Z][\w&'.-]*")


def _names_only_asked(question: str, answer: str) -> bool:
    """Whether the names an answer to "who …" writes are all names the question writes ("Who is Free Culture
    dedicated to?" — "Free Culture is dedicated to leaving a great deal open …"): a sentence about it, no one."""
    said = {w.casefold() for w in _CAPITALISED.findall(answer)}
    asked = {w.casefold() for w in _CAPITALISED.findall(question)}
    return bool(said) and said <= asked


def restates(question: str, answer: str) -> bool:
    """Whether ``answer`` only says again what a who/which/what ``question`` already names — its words are all
    the question's ("Amcor" for "Who acquired Amcor's business in Russia?") or their initials are an acronym of it
    ("Amazon Web Services" for "Which AWS service …?") — so it answers nothing."""
    if not _ASKS_WHICH.match(question) or _CHOICE.search(question) or _TITLE.search(question):
        return False
    said = stems(answer)
    if not said:
        return False
    asked = set(stems(question))
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z][\w'-]*", answer) if stem(w) in said).upper()
    return set(said) <= asked or (len(initials) > 1 and initials in re.findall(r"\b[A-Z]{2,6}\b", question))


def _fits(question: str, answer: str, whole: str) -> bool:
    kind = asked_kind(question)
    text = answer.strip()
    only_date = bool(_ONLY_A_DATE.match(text) and _A_DATE.search(text))
    if _WHERE.match(question) or _PLACE.search(question):  # a place: words, not a date or a bare figure
        return bool(_LETTERS.search(_ONLY_FIGURES.sub("", text))) and not only_date
    if kind is None:
        return True
    plain = _REFERENCE.sub(" ", text)  # "five years": a number written as a word is one too
    has_number = bool(numbers_in(plain)) or any(w in WORD_NUMBERS for w in re.findall(r"[a-z]+", plain.lower()))
    if kind == "percent":
        return bool(_A_PERCENT.search(text))
    if kind == "date":
        return bool(_A_DATE.search(text))
    if kind == "name":  # a thing named, not a figure, a date or a table's total row ("Total (5,645)")
        return bool(_LETTERS.search(text)) and not only_date and not _TOTAL_ROW.match(text)
    head = re.sub(r"\s[(=].*$", "", text)  # "18 (Cedar, …)", "194,750 = 45,000 + …": the value before its workings
    if kind == "count":
        return has_number and not only_date and not _A_PERCENT.search(head)
    # an amount: a figure, not a date, and a percent only where the question is about a rate
    if not has_number or only_date:
        return False
    return not (_A_PERCENT.search(head) and not _RATE_WORDS.search(whole))


_HOW_MANY = re.compile(r"\bhow many\s+((?:[A-Za-z][\w-]*\s+){0,3}[A-Za-z][\w-]*)", re.I)
_COUNTED = re.compile(
    r"\d[\d,.]*\s*(?:(?:thousand|million|billion|hundred|k|m|bn)\b\s*)?((?:[A-Za-z][\w-]*\s*){1,3})", re.I
)
# words after a number that say when or how, not which things ("5 in 2022", "3 of them", "12 as of May")
_NOT_THINGS = frozenset("in of as at on by for from to and or per each total times percent x the a an out".split())


def counts_other(question: str, answer: str) -> str | None:
    """The thing ``answer`` counts when it is not what "how many X" asks about ("40 million Ultamate Rewards
    members" for "how many employees"): none of the words after its number is one of the few after "how many";
    None when it counts X, or says no thing after its number."""
    counted = _COUNTED.search(answer)
    if counted is None:
        return None
    got = _thing(counted.group(1))
    want = {w[:4] for w in _asked_thing(question)}
    if not got or not want:
        return None
    if any(w[:4] in want for w in got):
        return None
    return " ".join(got)


SAID_BESIDE = 0.4  # MiniLM cosine of the thing counted and the words beside the answer's number in a passage


def count_unsaid(question: str, passages: list[str], answer: str = "", embed: Any = None) -> str | None:
    """What "how many X" asks to count when none of ``passages`` (an answer's support) says X in any form
    ("how many employees" answered from a balance sheet); None when one does, or nothing is counted.

    Said in other words counts too: with ``embed``, the words beside the answer's number in a passage close in
    meaning to X (:data:`SAID_BESIDE`: "people died" and "resulting in 157 fatalities" 0.53; "employees" and
    "1,200 members" 0.27). Passages in another language than the question cannot be compared word for word,
    and are not held against it."""
    thing = _asked_thing(question)
    want = {w[:4] for w in thing if len(w) > 2}
    if not want:
        return None
    said = {w[:4] for text in passages for w in re.findall(r"[a-z][\w-]*", text.lower())}
    if want & said or (looks_english(question) and not looks_english(" ".join(passages))):
        return None
    beside = _beside_number(answer, passages)
    if embed is not None and beside:
        vectors = embed([" ".join(thing), *beside])
        if float(max(vectors[1:] @ vectors[0])) >= SAID_BESIDE:
            return None
    return " ".join(thing)


def _beside_number(answer: str, passages: list[str]) -> list[str]:
    """The few words around each place a passage prints one of the answer's numbers."""
    wanted = set(numbers_in(answer))
    found = []
    for text in passages:
        tokens = text.split()
        for i, token in enumerate(tokens):
            if wanted & set(numbers_in(token)):
                found.append(" ".join(tokens[max(0, i - 3) : i + 5]))
    return found


def _asked_thing(question: str) -> list[str]:
    """The words after "how many" that name what is counted ("employees"); none when nothing is counted."""
    asked = _HOW_MANY.search(question)
    return _thing(asked.group(1)) if asked else []


def _thing(text: str) -> list[str]:
    """The words naming a thing at the start of ``text``, up to a word that joins or a verb's helper."""
    found = []
    for word in text.lower().split():
        if word in _NOT_THINGS or word in _HELPERS:
            break
        found.append(word)
    return found


_HELPERS = frozenset("did does do is are was were have has had will can could would should with".split())
