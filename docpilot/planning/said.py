"""Whether a plan the model wrote says what the request says: no more, and nothing of it left out.

The model rewrites a request the rules could not read into command sentences; the reader then checks each
sentence's form, but form is not meaning. A small model fills gaps: pages the request never named (the
whole afterword for "the 'Shorter Terms' proposal in the afterword"), a threshold of 0, a chapter title
used as a file name, or it drops what the request did say (a section's pages, a quoted phrase). Such a
plan runs and is confidently wrong, the worst outcome. So the values of the model's plan are checked
against the request, by the kind of each argument (its slot, from the registry), both ways:

- every value the plan sets (other than a default) is said in the request: a text is in it, a number is
  one of its numbers (digits, number words, ordinals, a percentage as a fraction), a page selection is
  one the request names (or only pages it names), a colour is named in its words (a kind of personal
  data or a level is the model's reading of meaning: "salary amounts" are money);
- what the request says is used: each quoted text is a value of the plan (or an uploaded file's name),
  each page selection it names is covered by the plan's page values, and each of its numbers is a value
  of the plan (counts of files and "one" aside): "after page 2 and another after page 4" needs both;
- each of its clauses that says an action is done by a step: a clause with a verb the registry's tools
  are named by ("remove the appendix", "OCR it") needs a step of one of those tools, or of a tool its
  other words name ("strip the metadata" is the sanitizer's), so a dropped step is not a plan; and no step
  is the same step again (a small model's loop: "Delete the first page." four times).

A plan that fails is shown to the model once with the problem; after that the person is asked (a
question, with the reading), never handed a plan that does something else than what they said.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from docpilot.fileparts import WORD_NUMBERS
from docpilot.files import FileInfo
from docpilot.planning.language.slots import Slot, slots_of
from docpilot.plans.plan import Plan, Step
from docpilot.understanding.textnorm import norm, stem, words
from pdftools import PdfToolError, Tool
from pdftools.pages import parse_pages
from pdftools.words import spaced

__all__ = ["unsaid", "with_defaults", "named_part", "QUOTED"]

# a quoted span: its quote marks stand apart from words ("don't … it's" holds none); group 2 is the text
QUOTED = re.compile(r"(?<!\w)(['\"“‘])([^'\"“”‘’\n]{1,200}?)(['\"”’])(?!\w)")
_MARK = re.compile(r"⟦\d+⟧")  # a quoted text set aside in a clause
# a number a form's name holds ("the 10-K", "a 1099-MISC") is no value the request gives
_NUMBER = re.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w]|-(?:[A-Za-z]|[A-Z]{2,4})\b)|(?<![\w.])\d+(?=st|nd|rd|th\b)|"
    r"(?<![\w.])\d+(?:[.,]\d+)?(?=(?:dpi|pt|px|mm|cm|pc|x)\b)"  # a unit written on: "300dpi", "12pt"
)
# words that say a number of degrees ("upside down" is a half turn)
_TURNS = {"upside down": 180.0, "half turn": 180.0, "quarter turn": 90.0, "on its side": 90.0, "sideways": 90.0}
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "half": 50, "double": 2, "twice": 2,
}  # fmt: skip
_PAGE_KINDS = ("pages", "spec")
_HIDDEN = re.compile(r"\bPASSWORD_\d+\b")  # a typed password, as the model sees it
_NO_CHANGE = re.compile(
    r"\b(?:don'?t|do\s+not|without)\s+(?:chang|modif|touch|edit|alter)\w*\s+(?:anything|it|the)", re.I
)
# Verbs of the registry's tools that are also English light verbs or everyday nouns ("put it on", "make it",
# "a note", "the page number", "a copy", "the list"): alone they say no action; with their object, the
# lexicon reads them (a fact of the language, not of a tool).
_LIGHT = frozenset({
    "add", "break", "call", "change", "check", "clean", "complete", "copy", "cut", "divide", "enter", "find",
    "fix", "get", "identify", "insert", "keep", "list", "lock", "look for", "make", "mark", "move", "note",
    "number", "place", "protect", "put", "read", "reduce", "right", "save", "search", "secure", "separate",
    "set", "show", "sort", "take", "trim", "turn", "update",
})  # fmt: skip
_MAX_PAGES_LISTED = 8
# A part of a document named by what it is ("the desserts page", "the appendix", "the balance sheet table", "the
# summary at the very end"): it says which pages, so a plan that restricts none leaves it out. A bare "the pages"
# or "the section" names none; an ordinal or a number is a page selection, read as one elsewhere.
_PART_HEAD = (
    r"table\s+of\s+contents|pages?|slides?|sections?|chapters?|parts?|tables?|summary|cover|statements|notes|"
    r"appendix|appendices|annexe?s?|exhibits?|index|contents|preface|introduction|conclusions?|foreword|afterword|"
    r"glossary|bibliography|references|abstract|acknowledgements?"
)
_PART_PHRASE = re.compile(
    rf"\b(?:the|this|that|its|their|our|my|your)\s+(?P<mod>(?:[\w&'’.-]+\s+){{0,4}}?)(?P<head>{_PART_HEAD})\b"
    r"(?!\s+(?:numbers?|size|sizes|count|order|orientation|break|layout|margins?|rotation)\b)"
    r"(?P<where>\s+at\s+the\s+(?:very\s+)?(?:back|end|front|start|beginning))?",
    re.IGNORECASE,
)
_NAMED_ALONE = re.compile(
    r"table\s+of\s+contents|appendix|appendices|annexe?s?|exhibits|index|contents|preface|introduction|conclusions?|foreword|afterword|"
    r"glossary|bibliography|abstract|acknowledgements?",
    re.IGNORECASE,
)
_NOT_A_PART = re.compile(  # words that say which pages some other way, or say no part at all
    r"\b(?:\d+\w*|first|last|second|third|next|previous|other|same|whole|entire|each|every|all|any|both|odd|even|"
    r"blank|empty|rotated|scanned|remaining|following|new|extra|few|individual|single|separate|original|current|"
    r"a|an|one|two|three|four|five|these|those|such|more|many|most|some|its|it|his|her|our|my|their|form)\b",
    re.IGNORECASE,
)
_PAGE_ARGS = ("after",)  # a number slot that holds a page
_PAGE_SAID = re.compile(r"\bpages?\s+(\d+(?:\s*(?:-|–|to|through)\s*\d+)?)\b(?!\s*(?:%|percent|dpi|pt)\b)", re.I)
# a script written without spaces between its words and a Latin word ("转换成Excel"): split there
_SCRIPT_EDGE = re.compile(
    r"(?<=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"
)


def unsaid(
    plan: Plan, request: str, tools: dict[str, Tool], files: dict[str, FileInfo], *, left_out: bool = True
) -> list[str]:
    """What in ``plan`` the request does not say, and (with ``left_out``) what the request says that the
    plan leaves out: one sentence each (for the model's retry and the person's question); empty when the
    plan keeps to it. A revision is checked one way only, against the request and the critique together
    ("not page 5, page 6" says a page that must not be used)."""
    said = _Said(request, _page_count(files), files)
    problems: list[str] = []
    used_pages: set[int] = set()
    used_texts: list[str] = []
    used_values: list[Any] = []
    for step, slot, _arg, value in _values(plan, tools):
        if slot.kind in ("file", "files"):
            continue
        used_texts += _texts(value)  # a default the request says uses its words too ("30% opacity")
        used_values += value if isinstance(value, list) else [value]
        if _is_default(slot, value):
            continue  # (all pages, the default, uses no page the request names)
        if slot.kind in _PAGE_KINDS or (slot.kind in ("number", "numbers") and said.count):
            used_pages |= said.pages_of(value)
        problem = _check(slot, value, said)
        if problem:
            problems.append(f"{step.task}'s {slot.label} {problem}")
    problems += _steps_unasked(plan, request, tools) + _changes_asked_about(plan, request, tools)
    if not left_out:
        return list(dict.fromkeys(problems))
    for text in said.quotes:
        if (
            not any(_same_text(text, t) for t in used_texts)
            and not _names_file(text, files)
            and not _names_part(text, files)
        ):
            problems.append(f"the request's '{text}' is used by no step")
    for hidden in dict.fromkeys(_HIDDEN.findall(request)):  # a password typed (hidden from the model) is a value too
        if not any(hidden in t for t in used_texts):
            problems.append(f"the request's {hidden} is used by no step")
    for selection in said.selections:
        left = said.pages_of(selection) - used_pages
        if left:
            problems.append(f"the request names {_listed(left)}, which no step uses")
    used_numbers = {float(n) for v in used_texts + used_values for n in re.findall(r"\d+(?:\.\d+)?", str(v))}
    counted = said.counts | {float(len(files))}  # "all six filings", "into one file": counts, not values
    counted |= {float(i.pages) for i in files.values() if i.pages}  # "this 400 page manual": its length
    for number in sorted(said.numbers - counted - used_numbers - {float(p) for p in used_pages}):
        if not any(_number_said(v, {number}) for v in used_values):
            problems.append(f"the request's {number:g} is used by no step")
    problems += _actions_left_out(plan, said.clauses, tools) + _repeated(plan)
    problems += _part_left_out(plan, said.plain, tools, files) + _format_left_out(plan, said.plain, tools)
    return list(dict.fromkeys(problems))


def with_defaults(plan: Plan, request: str, tools: dict[str, Tool], files: dict[str, FileInfo]) -> Plan | None:
    """``plan`` with each value the request does not say, of an option it never mentions, left to the tool's
    default ("Strike out '60 days' with color red." for "strike through '60 days'": no colour was asked, the
    tool's own is used), or None when there is none such. A page value, a text the person would write (a header,
    a name, a password) or an option the request names ("in a bigger font") is never dropped: those are what the
    request says or a question."""
    said = _Said(request, _page_count(files), files)
    steps = []
    dropped = False
    for step in plan.steps:
        tool = tools.get(step.task)
        slots = slots_of(tool) if tool is not None else {}
        args = dict(step.args)
        for arg, value in step.args.items():
            slot = slots.get(arg)
            if slot is None or slot.required or _is_default(slot, value) or arg in _PAGE_ARGS:
                continue
            if slot.kind == "choice":  # a choice is the model's reading of words ("top left corner"): said or not
                if _words_said(str(value), said):
                    continue
            elif not (slot.kind in ("number", "name") or (slot.kind == "quote" and slot.default is not None)):
                continue
            elif _check(slot, value, said) is None:
                continue
            if any(stem(w) in said.stems for w in words(slot.label.replace("color", "color colour"))):
                continue
            if slot.kind == "name" and any(_words_said(choice, said) for choice in slot.choices):
                continue  # "in blue": a value of its own is said, a wrong one is not dropped to the default
            del args[arg]
            dropped = True
        steps.append(step.model_copy(update={"args": args}))
    return plan.model_copy(update={"steps": steps}) if dropped else None


def named_part(request: str) -> str | None:
    """The first part of a document the request names by what it is ("the desserts page", "the appendix", "the
    English summary at the very end"), or None."""
    for m in _PART_PHRASE.finditer(request):
        modifier, head = m.group("mod").strip(), m.group("head")
        if _NOT_A_PART.search(modifier):
            continue
        if modifier or m.group("where") or _NAMED_ALONE.fullmatch(head):
            return m.group(0).strip()
    return None


def _part_left_out(plan: Plan, request: str, tools: dict[str, Tool], files: dict[str, FileInfo]) -> list[str]:
    """A sentence when the request names a part of a document and no step restricts its pages: the model's plan
    ran over the whole file ("the Arrow tool page as a png" converted every page), or did something else with
    the part ("send me the appendix" saving the attachments)."""
    part = named_part(request)
    if part is None or all(i.pages == 1 for i in files.values() if i.kind == "pdf"):
        return []  # (a file of one page: "the handbook page" is the file)
    for _step, slot, arg, value in _values(plan, tools):
        if not _is_default(slot, value) and (slot.kind in _PAGE_KINDS or arg in _PAGE_ARGS):
            return []
    return [f"the request names '{part}', and no step says its pages"]


# Format nouns that also name what a request works on ("the images on page 3", "slides 2-4", "the deck"): alone they
# ask for no conversion; "word" asks for one only as a format ("as a word doc", "into Word")
_NOT_ONLY_FORMAT = frozenset({"image", "images", "picture", "pictures", "photo", "photos", "slides", "deck", "word"})
_AS_WORD = re.compile(
    r"\b(?:to|into|in|as|for)\s+(?:a\s+|an\s+)?(?:ms\s+)?word\b|\bword\s+(?:docs?|documents?|files?|format)\b", re.I
)


def _format_left_out(plan: Plan, request: str, tools: dict[str, Tool]) -> list[str]:
    """A sentence when the request names a format a converter makes (its registry nouns: "as a plain .txt file",
    "a word doc for the analysts") and no step is a tool that makes it: the model took the pages and dropped the
    conversion."""
    tasks = {step.task for step in plan.steps}
    text = spaced(_JOINED.sub(" ", request))  # MD&A: no "md"
    makers: dict[str, set[str]] = {}
    for name, tool in tools.items():
        if tool.converts_to is None:
            continue
        for noun in tool.words.nouns:
            if noun not in _NOT_ONLY_FORMAT:
                makers.setdefault(noun, set()).add(name)
        if "word" in tool.words.nouns and _AS_WORD.search(request):
            makers.setdefault("word", set()).add(name)
    made = {word for t in tasks if t in tools for word in tools[t].words.makes}
    for noun, names in makers.items():
        if (noun == "word" or f" {noun} " in text) and not names & tasks:
            if made & {n for name in names for n in tools[name].words.nouns}:
                continue  # another tool makes it too ("into a txt file": the text extraction makes a text file)
            return [f"the request asks for {noun}, and no step makes it"]
    return []


def _values(plan: Plan, tools: dict[str, Tool]) -> Iterator[tuple[Step, Slot, str, Any]]:
    """Each value a plan's steps set, with its step, its slot and its argument; a step's result ("$…") and a
    value of no known slot aside."""
    for step in plan.steps:
        tool = tools.get(step.task)
        slots = slots_of(tool) if tool is not None else {}
        for arg, value in step.args.items():
            slot = slots.get(arg)
            if slot is None or value is None or (isinstance(value, str) and value.startswith("$")):
                continue
            yield step, slot, arg, value


def _changes_asked_about(plan: Plan, request: str, tools: dict[str, Tool]) -> list[str]:
    """A sentence when the request asks how the file is ("which of these pages are rotated?", "is it
    encrypted?") and says no change ("don't change anything") or opens with its question, while a step changes
    the file (a tool of kind "pdf"): a question is answered by the tools that report, never by a change."""
    changes = [s for s in plan.steps if (tool := tools.get(s.task)) is not None and tool.kind == "pdf"]
    if not changes:
        return []
    first = re.split(r"(?<=[?.!;])\s", request.strip(), maxsplit=1)[0]
    from docpilot.planning.fastpath.text import ASKS_HOW

    if _NO_CHANGE.search(request) or (first.endswith("?") and ASKS_HOW.match(first)):
        return [f"the request asks, and step {changes[0].id} changes the file"]
    return []


def _actions_left_out(plan: Plan, clauses: list[str], tools: dict[str, Tool]) -> list[str]:
    """A sentence for each clause that says an action (a verb some tools are named by) no step does: no step
    is of a tool the verb names. Another word of the clause names the step only when the clause's verbs name
    no other tool ("make this scan searchable"), and only a step no other clause's verb already names: "then
    black out their names" is not done by finding the names, "delete slides 2 and 19, then convert the deck"
    not by the conversion the second clause asks for."""
    tasks = {step.task for step in plan.steps}
    verbs, others = _words_of(tools)
    texts = [spaced(clause) for clause in clauses]
    claimed = [
        {task for verb, names in verbs.items() if f" {verb} " in text for task in names & tasks} for text in texts
    ]
    problems = []
    for index, (clause, text) in enumerate(zip(clauses, texts, strict=True)):
        elsewhere = set().union(*(c for i, c in enumerate(claimed) if i != index))
        named = set().union(*(names - elsewhere for phrase, names in others.items() if f" {phrase} " in text))
        acts = [names for verb, names in verbs.items() if f" {verb} " in text]
        if named & tasks and all(names <= named for names in acts):
            continue
        for verb, names in verbs.items():
            if f" {verb} " in text and not names & tasks:
                shown = _MARK.sub("…", clause).strip()
                problems.append(f"the request says '{shown}', which no step does ({verb})")
                break
    return problems


# A step a request asks for without naming it: the pages a part names, taken ("just sections 5 and 6", "I only
# need Part C")
_IMPLIED = frozenset({"extract_pages"})


# Tools a plan of one step must be named for: they take content away, or pick one reading of several (a table's
# rows, a format): "Part I of the 10-K only" is no deletion, "MD&A to word" no Markdown, "section 7 only" no tables
_NAMED_ONLY = frozenset({
    "delete_pages", "redact_text", "redact_pages", "delete_annotations", "remove_password", "remove_blank_pages",
    "sanitize", "flatten_form", "extract_tables",
})  # fmt: skip
_SMALL = frozenset({"it", "the", "a", "to", "on", "of", "with", "and", "as", "into", "in", "every", "all", "them"})
_GENERIC = frozenset(stem(w) for w in ("page", "pages", "file", "files"))  # nouns every page tool is named by
_JOINED = re.compile(r"\w+&\w+")  # "MD&A", "R&D", "P&L": a name, not the words "md" and "a"


def _steps_unasked(plan: Plan, request: str, tools: dict[str, Tool]) -> list[str]:
    """A sentence for each step, of a plan of several, of a tool no word of the request names (its verbs, nouns,
    what it makes, the words of its command sentence) while another step's tool is named: "strip all comments
    and sanitize before we publish" asks for no removal of blank pages. A plan of one step may do what the
    request says in other words ("pages 2 and 7 should be the other way up" is a rotation), unless it takes
    content away or converts (:data:`_NAMED_ONLY`, a tool that converts to a format): those are named."""
    from docpilot.planning.fastpath.text import normalise

    said = {stem(w) for w in words(_SCRIPT_EDGE.sub(" ", _JOINED.sub(" ", normalise(request))))}
    unnamed = []
    for step in plan.steps:
        tool = tools.get(step.task)
        if tool is None or step.task in _IMPLIED:
            continue
        named = " ".join((*tool.words.all(), re.sub(r"\{[^}]*\}|\[[^\]]*\]", " ", tool.say)))
        must = step.task in _NAMED_ONLY or tool.converts_to is not None
        own = {stem(w) for w in words(named)} - _SMALL - (_GENERIC if must else set())
        if not own & said:  # (a word of its own names it: "delete", "tables", "markdown"; not "pages")
            unnamed.append((must, f"no word of the request asks for step {step.id} ({tool.say.split('{')[0].strip()})"))
    if 0 < len(unnamed) < len(plan.steps):
        return [text for _, text in unnamed]
    return [text for must, text in unnamed if must]


def _words_of(tools: dict[str, Tool]) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The registry's words: each verb (light verbs aside) → the tools it names; each other word (nouns, the
    results made, light verbs) → the tools it names."""
    verbs: dict[str, set[str]] = {}
    others: dict[str, set[str]] = {}
    for name, tool in tools.items():
        for verb in tool.words.verbs:
            (others if verb in _LIGHT else verbs).setdefault(verb, set()).add(name)
        for word in (*tool.words.nouns, *tool.words.makes):
            others.setdefault(word, set()).add(name)
    return verbs, others


def _repeated(plan: Plan) -> list[str]:
    """A sentence for the first step that does what an earlier step did (the same tool with the same values)."""
    seen: dict[str, int] = {}
    for number, step in enumerate(plan.steps, 1):
        values = {k: v for k, v in step.args.items() if k not in ("file", "files") and not str(v).startswith("$")}
        key = f"{step.task} {sorted(values.items(), key=str)}"
        if key in seen:
            return [f"step {number} does again what step {seen[key]} did"]
        seen[key] = number
    return []


class _Said:
    """What a request says, read once: its words, numbers, quoted texts and page selections."""

    def __init__(self, request: str, count: int | None, files: dict[str, FileInfo]) -> None:
        from docpilot.planning.fastpath.extract import pages_in
        from docpilot.planning.fastpath.text import split_request

        self.count = count
        self.text = norm(request)
        self.quotes = [m.group(2) for m in QUOTED.finditer(request) if m.group(2).strip()]
        plain = QUOTED.sub(" ", request)  # quoted texts are values, not words or pages of the request
        for name in files:
            plain = plain.replace(name, " ")
        self.plain = plain
        said_words = words(plain)
        self.stems = {stem(w) for w in said_words}
        self.numbers = _numbers(plain)
        # numbers said in words of their own ("upside down"): a value may be one, none has to be used
        self.meant = self.numbers | {turn for phrase, turn in _TURNS.items() if phrase in plain.lower()}
        self.counts = {1.0} if "one" in said_words else set()  # "into one file", "another one"
        self.selections: list[str] = []
        self.clauses = split_request(plain).clauses
        for clause in self.clauses:
            selection = pages_in(clause, count)
            if selection and selection != "all" and selection not in self.selections:
                self.selections.append(selection)
            for m in _PAGE_SAID.finditer(clause):  # each page a clause names ("page 2 … and page 4 …")
                one = re.sub(r"\s*(?:-|–|to|through)\s*", "-", m.group(1))
                if not any(self.pages_of(one) <= self.pages_of(s) for s in self.selections):
                    self.selections.append(one)
        self.named_pages: set[int] = set().union(*(self.pages_of(s) for s in self.selections))

    def pages_of(self, value: Any) -> set[int]:
        """The pages (1-based) a page value selects; empty when it cannot be read here."""
        if self.count is None:
            return {int(n) for n in re.findall(r"\d+", str(value))}
        try:
            return {i + 1 for i in parse_pages(value, self.count)}
        except (PdfToolError, ValueError, TypeError):
            return set()

    def pages_said(self, value: Any) -> bool:
        pages = self.pages_of(value)
        if not pages:
            return str(value).strip().lower() in ("", "all")
        return pages <= self.named_pages or pages <= {int(n) for n in self.numbers if float(n).is_integer()}


def _check(slot: Slot, value: Any, said: _Said) -> str | None:
    kind = slot.kind
    if kind in ("quote", "quotes"):
        missing = [t for t in _texts(value) if t.strip() and not _text_said(t, said.text)]
        return f"'{missing[0]}' is not in the request" if missing else None
    if kind in ("number", "numbers"):
        values = value if isinstance(value, list) else [value]
        missing = [v for v in values if not _number_said(v, said.meant)]
        return f"{missing[0]} is not a number the request says" if missing else None
    if kind == "spec" and str(value).lower() in slot.choices:  # a page word the tool takes ("reverse")
        return None if _words_said(str(value), said) else f"'{value}' is not said in the request"
    if kind in _PAGE_KINDS:
        return None if said.pages_said(value) else f"{value} are not pages the request names"
    if kind == "name":  # a colour, a single name: the request's words (a kind's or a level's meaning is
        # the model's to read: "salary amounts" are money, "as small as possible" is the high level)
        values = value if isinstance(value, list) else [value]
        missing = [v for v in values if not _words_said(str(v), said)]
        return f"'{missing[0]}' is not said in the request" if missing else None
    if kind == "mapping" and isinstance(value, dict):
        missing = [v for v in value.values() if isinstance(v, str) and v.strip() and norm(v) not in said.text]
        return f"'{missing[0]}' is not in the request" if missing else None
    return None  # yes/no: a switch the tool's words name


def _is_default(slot: Slot, value: Any) -> bool:
    if value is None or value == slot.default:
        return True
    return isinstance(value, list) and not value


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    if isinstance(value, dict):
        return [str(v) for v in value.values()]
    return []


def _numbers(text: str) -> set[float]:
    found = {float(n.replace(",", ".")) for n in _NUMBER.findall(text)}
    for word in words(text):
        if word in WORD_NUMBERS:
            found.add(float(WORD_NUMBERS[word]))
        elif word in _ORDINALS:
            found.add(float(_ORDINALS[word]))
    return found


def _number_said(value: Any, numbers: set[float]) -> bool:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return False
    return any(abs(number - n) < 1e-9 or abs(number * 100 - n) < 1e-6 for n in numbers)


def _words_said(value: str, said: _Said) -> bool:
    if norm(value) in said.text:
        return True
    parts = [w for w in re.split(r"[\s_-]+", value.lower()) if w]
    return bool(parts) and all(stem(w) in said.stems for w in parts)


def _same_text(quoted: str, value: str) -> bool:
    a, b = norm(quoted), norm(value)
    return bool(a) and bool(b) and (a in b or b in a or _placeheld(b).fullmatch(a) is not None)


def _placeheld(text: str) -> re.Pattern[str]:
    """A text with placeholders (a page number format, "Page {n} of {total}") as a pattern where each stands for
    one word: the request writes it "Page x of y", "page N of M", "p. 1 of 10"."""
    parts = re.split(r"\{\w+\}", text)
    return re.compile(r"[\w#]+".join(re.escape(p) for p in parts))


def _text_said(value: str, said_text: str) -> bool:
    """Whether the request says ``value`` as whole words ("4 Stichpunkte" is not said by "in 4 Stichpunkten")."""
    low = norm(value)
    whole = (
        re.search(rf"(?<!\w){re.escape(low)}(?!\w)", said_text) is not None if low[-1:].isalnum() else low in said_text
    )
    return whole or ("{" in value and _placeheld(low).search(said_text) is not None)


def _names_file(text: str, files: dict[str, FileInfo]) -> bool:
    low = norm(text)
    return any(low == norm(n) or low == norm(n.rsplit(".", 1)[0]) for n in files)


def _names_part(text: str, files: dict[str, FileInfo]) -> bool:
    """A quoted title of a part of a file ("convert section 2 'Education policy: objectives and priorities'"): it
    says which pages, and the page check holds the plan to them."""
    from docpilot.fileparts import bare_title

    low = norm(text)
    return any(
        low in (norm(part.title), norm(bare_title(part.title))) for info in files.values() for part in info.parts
    )


def _page_count(files: dict[str, FileInfo]) -> int | None:
    counts = [i.pages for i in files.values() if i.kind == "pdf" and i.pages]
    return counts[0] if len(counts) == 1 else None


def _listed(pages: set[int]) -> str:
    ordered = sorted(pages)
    shown = ", ".join(str(p) for p in ordered[:_MAX_PAGES_LISTED])
    more = "…" if len(ordered) > _MAX_PAGES_LISTED else ""
    return f"page {shown}" if len(ordered) == 1 else f"pages {shown}{more}"
