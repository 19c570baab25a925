"""``answer_question(files, question)`` → ``{answer, citations: [{file, page, quote}]}`` (PDFTriage, FlowMind).

The way through, cheapest first:
1. the document's own facts (its title, its author) when the question asks for them;
2. a workflow over records (a value looked up, a ratio, a total, which ones, how many) — code reads
   the values and computes; the workflow's summary is returned for the person to check; a rule's answer
   stands only when its reading accounts for every word and number of the question (:mod:`.accounting`)
   and it is a value of the kind asked (:mod:`.asked`); otherwise the question is handed on;
3. with a model, a question over table values: the model writes a short pandas program over the frames of
   the pages retrieval points at, code runs it, the deciding cells are cited (:mod:`.programs`);
4. retrieval (lexical + embeddings) of ≤800 model tokens of evidence, from which the model writes a short
   answer citing passage numbers; an answer whose numbers or names are not in the passages it cites is
   not trusted (:mod:`.support`);
5. without a model, or when it finds nothing: the closest passages, cited, with an honest sentence.
Every quote is checked to be text of its cited page (NFKC, whitespace collapsed) before it is returned.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from docpilot.errors import LLMError, Stopped
from docpilot.llm.tokens import model_tokens
from docpilot.understanding.accounting import Reading, own_names, unread
from docpilot.understanding.asked import (
    answer_fits,
    asked_kind,
    asks_rank,
    asks_several,
    count_unsaid,
    counts_other,
    missing_kinds,
    one_part,
    part_query,
    question_parts,
    states_rank,
)
from docpilot.understanding.defined_terms import defined_parties, other_party
from docpilot.understanding.document import Document, Unit
from docpilot.understanding.drafts import Listener, drafting
from docpilot.understanding.modeltime import FIRST_SECONDS, QuestionModel, out_of_time
from docpilot.understanding.parts import Parts, read_parts, the_number, total_text
from docpilot.understanding.records import records_of
from docpilot.understanding.retrieve import EmbedFn, Retriever
from docpilot.understanding.scales import asked_scale, other_scale
from docpilot.understanding.stated import computes, stated
from docpilot.understanding.support import unsupported_names
from docpilot.understanding.textnorm import alike, format_number, norm, numbers_in, parse_number, stems, words
from docpilot.understanding.whole_dates import whole_date
from docpilot.understanding.workflow import Finding, plan_workflow, revise_workflow, run_workflow

__all__ = ["Answer", "answer_question", "ask_files", "retrieved_evidence", "embed_texts", "NOT_SAID"]

NOT_SAID = "The document does not say."
# Evidence a compose reads, in model tokens: the embedded model reads ~40-80 tokens a second on two cores,
# so 800 tokens are 10-20 s; a part of a question (one value of a sum or a list) reads less.
MAX_EVIDENCE_TOKENS = 800
PART_EVIDENCE_TOKENS = 500
_PASSAGE_TOKENS = 12  # a passage's number, page and data tags
_SCHEMA = {
    "type": "object",
    "properties": {
        "answer": {"type": "string", "maxLength": 300},
        "evidence": {"type": "array", "items": {"type": "integer"}, "maxItems": 3},
    },
    "required": ["answer", "evidence"],
}


@dataclass
class Answer:
    answer: str
    citations: list[dict[str, Any]]
    workflow: list[str] = field(default_factory=list)  # the plain-language steps of a computed answer
    llm_calls: int = 0
    context_tokens: int = 0
    seconds: float = 0.0
    found: bool = True
    reading: Reading | None = None  # a rule's: what it read of the question (not shown)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"answer": self.answer, "answered": self.found, "citations": self.citations}
        if self.workflow:
            out["workflow"] = self.workflow
        out["stats"] = {
            "llm_calls": self.llm_calls,
            "context_tokens": self.context_tokens,
            "seconds": round(self.seconds, 2),
        }
        return out


def answer_question(
    documents: list[Document],
    question: str,
    llm: Any = None,
    embed: EmbedFn | None = None,
    feedback: str | None = None,
    on_draft: Listener | None = None,
) -> Answer:
    """Answer ``question`` over ``documents`` with page citations (``llm=None``: no model).

    ``on_draft``: told the answer as the model writes it (for showing only; the returned answer is checked).
    """
    started = time.perf_counter()
    model = llm if llm is None or isinstance(llm, QuestionModel) else QuestionModel(llm)
    try:
        result = _summary(documents, question, model, on_draft)
        if result is None:
            result = _before_passages(documents, question, model, embed, feedback)
        if result is None:
            result = _retrieved(documents, question, model, embed, on_draft)
        elif _not_computed(result) and model is not None:
            result = _said_instead(documents, question, model, embed, on_draft) or result
    except Stopped as exc:  # the question's model time is used up: said plainly, not "the document does not say"
        if model is None or not model.ran_out(exc):
            raise
        closest = _closest(documents, retrieved_evidence(documents, question, embed)[:3], question)
        result = Answer(out_of_time(model.total), closest, llm_calls=model.calls, found=False)  # where to read
    result.seconds = time.perf_counter() - started
    return result


def _not_computed(answer: Answer) -> bool:
    """A program over the tables was tried and failed (refused, an error, an empty result, twice)."""
    from docpilot.understanding.programs import COULD_NOT

    return not answer.found and answer.answer.startswith(COULD_NOT)


_THRESHOLD = re.compile(
    r"\b(?:above|below|over|under|more than|less than|at least|at most|greater than|fewer than|higher than|"
    r"lower than|exceed(?:s|ed|ing)?)\s+[$€£]?\d"
    r"|[$€£]?\d[\d,.]*\s*(?:%|percent\b)?\s+or\s+(?:more|higher|greater|above|over|less|fewer|lower|below|under)\b",
    re.I,
)
_AGGREGATE = re.compile(r"\b(?:total|sum|add(?:ed)? up|average|mean|median|difference|combined|altogether)\b", re.I)


def _threshold_unsaid(question: str, support: list[_Evidence]) -> bool:
    """Whether the question asks about rows past a threshold ("over 100,000") that no cited passage prints."""
    asked = _THRESHOLD.search(question)
    if asked is None:
        return False
    limit = numbers_in(question[asked.start() :])[:1]
    return not any(set(limit) & set(numbers_in(e.block)) for e in support)


def _said_instead(
    documents: list[Document], question: str, model: QuestionModel, embed: EmbedFn | None, on_draft: Listener | None
) -> Answer | None:
    """The passages' answer when no program over the tables computed one: what looked like a question over table
    values may be said in words ("approximately 798,000 employees", a definition beside a table). None when the
    passages do not say it either, or the model's time runs out (the tables' reason is then the reply).

    Not for a computation over rows — rows past a threshold, a total, an average, a difference, the first by a
    column: a model reading rows in passages and doing it is too often wrong (a confident wrong count of rows
    "above 10%"), and a sentence rarely states it."""
    if _THRESHOLD.search(question) or _AGGREGATE.search(question) or asks_rank(question):
        return None
    try:
        said = _retrieved(documents, question, model, embed, on_draft)
    except Stopped as exc:
        if not model.ran_out(exc):
            raise
        return None
    return said if said.found and _stated_in_words(said, documents) else None


_FIGURE_TOKEN = re.compile(r"^\(?[-+$€£]?\d[\d,.]*%?\)?[.,;:]?$|^[—–-]$")
_NEAR = 4  # the words either side of a number that say whether a sentence or a table's row prints it


def _stated_in_words(said: Answer, documents: list[Document]) -> bool:
    """Whether each number of a passage's answer is printed among words on a page it cites ("approximately 798,000
    employees"), not only among a table's figures ("Reported Growth % (6) (5) (6) — 4 1"): after a program over
    that table failed, a number the model picked from its cells is a guess."""
    wanted = numbers_in(said.answer)
    if not wanted:
        return True
    by_path = {d.path: d for d in documents}
    tokens = [
        token
        for c in said.citations
        if (doc := by_path.get(str(c.get("file")))) is not None
        for token in _flat(doc.page_text(int(c["page"]))).split()
    ]
    for value in wanted:
        places = [i for i, t in enumerate(tokens) if value in numbers_in(t)]
        if not any(_among_words(tokens, i) for i in places):
            return False
    return True


def _among_words(tokens: list[str], i: int) -> bool:
    """Whether at most one of the tokens either side of ``tokens[i]`` is a figure."""
    near = tokens[max(0, i - _NEAR) : i] + tokens[i + 1 : i + 1 + _NEAR]
    return sum(bool(_FIGURE_TOKEN.match(t)) for t in near) <= 1


def _before_passages(
    documents: list[Document], question: str, model: QuestionModel | None, embed: EmbedFn | None, feedback: str | None
) -> Answer | None:
    """The ways of answering before the passages, cheapest first; those that ask the model share
    ``FIRST_SECONDS`` of its time, so the passages keep the rest of the question's."""

    def first(ask: Callable[[Any], Answer | None]) -> Answer | None:
        if model is None:
            return ask(None)
        with model.within(FIRST_SECONDS):
            try:
                return ask(model)
            except Stopped as exc:
                if not model.ran_out(exc):
                    raise
                return None  # its share of the time is used: on to the next way

    # the rules answer only when they read every word, with a value of the kind asked: else handed on
    result = _rule(documents, question, _document_fact(documents, question))
    if result is None:  # who it is billed to, who sold it: the name under the page's label
        result = _rule(documents, question, _party(documents, question))
    parts = read_parts(question)
    if result is None and parts:  # "the total of Texas and Florida": one table's rows, added by a composed program
        result = _program(documents, question, None, embed, feedback)
    if result is None and parts:  # "the combined price of A and B": each asked alone, the sum done here
        result = first(lambda m: _rule(documents, question, _combined(documents, parts, m, embed)))
    if result is None and not parts:  # a row and a period: one cell (or two, for a change) of a table
        result = first(lambda m: _rule(documents, question, _cell_value(documents, question, m)))
    if result is None:
        result = _rule(documents, question, _computed(documents, question, feedback))
    if result is None and asks_several(question):  # "who is it, and what's the email?"
        result = first(lambda m: _by_parts(documents, question, m, embed))
    if result is None:  # a question over table values: a program composed by code, else one the model writes
        result = first(lambda m: _program(documents, question, m, embed, feedback))
    return result


# --- 0. summaries ----------------------------------------------------------------------------------
_SUMMARY = re.compile(
    r"^\s*(?:please\s+)?(?:summari[sz]e|sum up|give me (?:a|the) (?:summary|gist)|(?:a |the )?summary of|"
    r"what (?:is|are) (?:this|the) (?:document|file|paper|report|contract|book)s? about|"
    r"what are the (?:main|key) (?:points|takeaways))\b",
    re.IGNORECASE,
)
_MAX_SENTENCES = 1500


def _summary(documents: list[Document], question: str, llm: Any, on_draft: Listener | None) -> Answer | None:
    from docpilot.understanding.summarize import summarize_pages
    from pdftools.pages import parse_pages

    if not _SUMMARY.search(question) or len(documents) != 1:
        return None
    doc = documents[0]
    pages = doc.structure.pages
    wanted = re.search(r"\bpages?\s+([\d,\s-]+(?:and\s+\d+)?)", question, re.IGNORECASE)
    numbers = list(range(1, len(pages) + 1))
    if wanted:
        try:
            numbers = [i + 1 for i in sorted(parse_pages(wanted.group(1).replace("and", ","), len(pages)))]
        except Exception:  # noqa: BLE001 - pages that do not fit: summarise the whole document
            numbers = list(range(1, len(pages) + 1))
    if len(numbers) > 40:  # a book: the opening page of each section stands for it
        starts = sorted({s.page for s in doc.structure.sections if s.level == 1}) or numbers[:40]
        numbers = starts[:60]
    count = 5 if re.search(r"\bfive\b|\b5\b", question) else 3
    summary = summarize_pages([(n, pages[n - 1]) for n in numbers], count, llm, on_draft)
    if not summary.bullets:
        return Answer(NOT_SAID, [], found=False)
    citations = []
    for cite in summary.citations:
        quote = _quote_on(doc, cite["page"], [cite["quote"][:300]])
        if quote:
            citations.append(_cite(doc, cite["page"], quote))
    return Answer(summary.text(), citations, llm_calls=1 if summary.written else 0)


# --- 1. the document's own facts -------------------------------------------------------------------
def _document_fact(documents: list[Document], question: str) -> Answer | None:
    if len(documents) != 1:
        return None
    doc = documents[0]
    q = norm(question)
    s = doc.structure
    if re.search(r"\btitle\b", q) and re.search(r"\b(this|the) (paper|document|book|report|article|file)\b", q):
        for page in range(1, min(3, len(s.pages)) + 1):
            quote = _quote_on(doc, page, [s.title] + s.title.split("  "))
            if quote:
                return Answer(s.title, [_cite(doc, page, quote)], reading=Reading("title"))
    # "who wrote it", "the author of this paper" — not "which university is the author … affiliated with"
    if re.search(r"\b(who (wrote|authored|is the author)|author of)\b", q) and not re.search(r"\b(which|where)\b", q):
        for page in range(1, min(12, len(s.pages)) + 1) if s.author else ():
            quote = _quote_on(doc, page, [s.author, s.author.upper()])
            if quote:
                return Answer(s.author, [_cite(doc, page, quote)], reading=Reading("author"))
        byline = _byline(doc)
        if byline:
            cites = [_cite(doc, 1, name) for name in byline.split(", ")[:3]]
            return Answer(byline, cites, reading=Reading("author"))
    return None


def _byline(doc: Document) -> str | None:
    """The people named under the title on page 1 (the metadata's author is often junk), as the page
    writes them; None when the entity model finds nobody there."""
    from docpilot.understanding.entities import recognize
    from pdftools.errors import PdfToolError

    page = doc.page_text(1)
    lines = page.splitlines()
    title_words = set(words(doc.structure.title))
    start = 0
    for i, line in enumerate(lines[:20]):  # below the title's last line
        if title_words and set(words(line)) and set(words(line)) <= title_words:
            start = i + 1
    head = "\n".join(lines[start : start + 12])
    try:
        spans = recognize([head], ["person"])[0]
    except (PdfToolError, OSError):  # the entity model is not installed: no byline, no guess
        return None
    names: list[str] = []
    for span in spans:
        name = re.sub(r"[^\w.')]+$", "", span["text"]).strip()
        if len(name.split()) >= 2 and name not in names and _quote_on(doc, 1, [name]):
            names.append(name)
    return ", ".join(names[:6]) or None


def _party(documents: list[Document], question: str) -> Answer | None:
    from docpilot.understanding.parties import asked_role, find_party

    asked = asked_role(question) if len(documents) == 1 else None
    if asked is None:
        return None
    role, said = asked
    doc = documents[0]
    party = find_party(doc.structure.pages, role)
    quote = _quote_on(doc, party.page, [party.name]) if party else None
    if party is None or quote is None:
        return None
    steps = [f"Find the label '{party.label.rstrip(': ')}' on page {party.page}.", "Read the name given under it."]
    reading = Reading("party", (said, party.label))
    return Answer(party.name, [_cite(doc, party.page, quote)], workflow=steps, reading=reading)


def _rule(documents: list[Document], question: str, answer: Answer | None) -> Answer | None:
    """A rule's answer when its reading accounts for every word and number of the question and the answer is
    a value of the kind the question asks for; None (hand it on) otherwise. A rule that read part of a
    question answers another question ("A and B together" read as A), however right its arithmetic."""
    if answer is None or answer.reading is None or unread(question, answer.reading, documents):
        return None
    return answer if answer_fits(question, answer.answer) else None


# --- 2a. a program over the tables --------------------------------------------------------------------
def _program(
    documents: list[Document],
    question: str,
    llm: Any,
    embed: EmbedFn | None,
    feedback: str | None,
    part: str | None = None,
) -> Answer | None:
    from docpilot.understanding.programs import answer_by_program

    computed = answer_by_program(documents, question, llm, embed, feedback, part=part)
    if computed is None:
        return None
    by_name = {d.name: d for d in documents}
    citations = []
    for cell in computed.citations:  # each deciding cell, checked to be text of its page
        doc = by_name.get(cell["file"])
        quote = _quote_on(doc, cell["page"], [cell["quote"]]) if doc is not None else None
        if doc is not None and quote:
            citations.append({**_cite(doc, cell["page"], quote), "box": cell.get("box")})
    return Answer(computed.answer, citations, workflow=computed.workflow, found=computed.found)


# --- 2. workflows over records ---------------------------------------------------------------------
def _computed(documents: list[Document], question: str, feedback: str | None) -> Answer | None:
    records = records_of(documents)
    if not records:
        return None
    first_pages = {d.name: norm(" ".join(d.structure.pages[:1])) for d in documents}
    workflow = plan_workflow(question, records, first_pages)
    if workflow is None:
        return None
    reading = workflow.reading(records)
    if feedback:  # the question was read by the first plan; feedback may change its fields
        workflow = revise_workflow(workflow, feedback, records)
        reading = reading.joined(workflow.reading(records))
    finding = run_workflow(workflow, records)
    if finding is None:
        return None
    return _from_finding(documents, finding, reading)


def _from_finding(documents: list[Document], finding: Finding, reading: Reading) -> Answer | None:
    by_name = {d.name: d for d in documents}
    citations = []
    for file, page, quote in finding.citations:
        doc = by_name[file]
        joined = re.sub(r"\s*[|:]\s*", " ", quote)  # "Custodian: X" is drawn as "Custodian" beside "X"
        pieces = re.split(r"\s*[|:]\s*", quote)  # the answer's own cell first, when the row is not one phrase
        said = [p for p in pieces if p and p == finding.answer.strip()]
        text = _quote_on(doc, page, [quote, joined, *said, *pieces[::-1]])
        if text:
            citations.append(_cite(doc, page, text))
    if finding.citations and not citations:
        return None  # values that cannot be shown on their pages are not an answer
    steps = finding.steps if finding.workflow.op != "lookup" else []
    return Answer(finding.answer, citations, workflow=steps, reading=reading)


# --- 2b. a table cell by row and period --------------------------------------------------------------
_CHOICE = {
    "type": "object",
    "properties": {"choice": {"type": "integer", "minimum": 0, "maximum": 6}},
    "required": ["choice"],
}


def _cell_value(documents: list[Document], question: str, llm: Any) -> Answer | None:
    from docpilot.understanding.cells import PERIOD_WORDS, find_cells, read_cell_question

    asked = read_cell_question(question)
    if asked is None:
        return None
    cells = find_cells(documents, question, asked)
    distinct: dict[tuple[str, ...], Any] = {}
    for cell in cells:
        distinct.setdefault(tuple(format_number(n) for n in cell.numbers()), cell)
    if not distinct:
        return None
    chosen = list(distinct.values())
    if len(chosen) > 1:
        picked = _most_repeated(cells)  # a headline figure repeated across the report, else the model picks
        if picked is None and llm is not None:
            picked = _choose(llm, question, chosen[:6])
        if picked is None:
            return None  # rows that disagree and nobody to choose: retrieval and the model read the passages
        chosen = [picked]
    cell = chosen[0]
    doc = next(d for d in documents if d.path == cell.file)
    quote = _quote_on(doc, cell.page, [f"{cell.label} {' '.join(cell.values)}", cell.label, *cell.values])
    if quote is None:
        return None
    citations = [_cite(doc, cell.page, quote)]
    for value in cell.values:  # the values themselves, where the label alone was quoted
        if value not in quote:
            shown = _quote_on(doc, cell.page, [value])
            if shown:
                citations.append(_cite(doc, cell.page, shown))
    pages = {cell.page}
    for other in cells:  # the same figures in another statement of the report: cited too (≤3 pages)
        if other.values == cell.values and other.page not in pages and other.file == cell.file and len(pages) < 3:
            again = _quote_on(doc, other.page, [f"{other.label} {' '.join(other.values)}", other.label])
            if again:
                pages.add(other.page)
                citations.append(_cite(doc, other.page, again))
    unit = f" ({cell.unit})" if cell.unit else ""
    where = f"'{cell.label}'" + (f" under '{cell.context}'" if cell.context else "") + f" on page {cell.page}"
    if len(pages) > 1:
        others = sorted(pages - {cell.page})
        where += f" (the same figures on page{'s' if len(others) > 1 else ''} {', '.join(map(str, others))})"
    if asked.op == "lookup":
        numbers = cell.numbers()
        text = f"{cell.values[0]}{unit}" + (_in_asked_unit(numbers[0], cell.unit, question) if numbers else "")
        steps = [f"Find the table row {where}.", f"Read its {asked.periods[0].describe()} column: {cell.values[0]}."]
    else:
        first, second = cell.numbers()
        change = second - first
        verb = "increased" if change > 0 else "decreased" if change < 0 else "did not change"
        text = (
            f"{format_number(abs(change))}{unit}{_in_asked_unit(abs(change), cell.unit, question)}: "
            f"{cell.label} {verb} from {cell.values[0]} "
            f"({asked.periods[0].describe()}) to {cell.values[1]} ({asked.periods[1].describe()})"
        )
        steps = [
            f"Find the table row {where}.",
            f"Read its {asked.periods[0].describe()} and {asked.periods[1].describe()} columns.",
            "Subtract the first value from the second.",
        ]
    # what it read: the row, the heading or caption it was told apart by, the periods, the change asked
    read = (cell.label, cell.unit, PERIOD_WORDS, *asked.said)
    reading = Reading("lookup" if asked.op == "lookup" else "change", read, (cell.context, cell.heading))
    return Answer(text, citations[:6], workflow=steps, reading=reading)


_SCALE = {"thousands": 1e3, "millions": 1e6, "billions": 1e9}


def _in_asked_unit(value: float, unit: str, question: str) -> str:
    """ " = 306.3 millions" when the question asks in millions and the table counts in thousands."""
    asked = re.search(r"\bin (thousands|millions|billions)\b", question, re.IGNORECASE)
    wanted = asked.group(1).lower() if asked else ""
    if not wanted or wanted == unit or unit not in _SCALE:
        return ""
    return f" = {value * _SCALE[unit] / _SCALE[wanted]:,.1f} {wanted}"


def _most_repeated(cells: list[Any]) -> Any:
    """Without a model: the values that more of the rows give than any others (a headline figure is
    repeated across a report), when at least two do; else None."""
    from collections import Counter

    counts = Counter(tuple(c.values) for c in cells).most_common(2)
    if counts[0][1] >= 2 and (len(counts) == 1 or counts[0][1] > counts[1][1]):
        return next(c for c in cells if tuple(c.values) == counts[0][0])
    return None


def _choose(llm: Any, question: str, cells: list[Any]) -> Any:
    """The model picks which of a few rows the question means (it reads labels, not whole pages)."""
    from docpilot.llm.untrusted import DATA_RULE, data_block

    lines = [
        f"[{n}] {c.context + ' › ' if c.context else ''}{c.label}: {', '.join(c.values)} (page {c.page})"
        for n, c in enumerate(cells, 1)
    ]
    messages = [
        {
            "role": "system",
            "content": "You pick which numbered table row answers a question. "
            + DATA_RULE
            + ' Reply with JSON {"choice": n}; 0 when none of them does.',
        },
        {"role": "user", "content": f"{data_block(chr(10).join(lines))}\nQuestion: {question}"},
    ]
    try:
        reply = llm.chat(messages, schema=_CHOICE, max_tokens=12)
        choice = int(json.loads(reply.text).get("choice", 0))
    except Stopped:
        raise
    except (LLMError, ValueError, TypeError):
        return None
    return cells[choice - 1] if 1 <= choice <= len(cells) else None


# --- 2c. two parts added up ---------------------------------------------------------------------------
def _combined(documents: list[Document], parts: Parts, llm: Any, embed: EmbedFn | None) -> Answer | None:
    found: list[Answer] = []
    values: list[float] = []
    for sub in parts.questions:  # each part read whole by a rule, or by the model from the passages
        part = _rule(documents, sub, _cell_value(documents, sub, llm))
        part = part or _rule(documents, sub, _computed(documents, sub, None))
        part = part or _retrieved(documents, sub, llm, embed, budget=PART_EVIDENCE_TOKENS)
        value = the_number(part.answer, sub) if part.found and part.citations else None
        if value is None:
            return None  # a part not found, or not one number: the whole question goes to retrieval
        found.append(part)
        values.append(value)
    shown = [f"{format_number(v)} ({name})" for v, name in zip(values, parts.names, strict=True)]
    citations: list[dict[str, Any]] = []
    for part in found:
        citations += [c for c in part.citations[:2] if c not in citations]
    return Answer(
        total_text(values, shown),
        citations,
        workflow=parts.steps([format_number(v) for v in values]),
        llm_calls=sum(p.llm_calls for p in found),
        context_tokens=sum(p.context_tokens for p in found),
        reading=Reading("total", parts.questions),  # each part's question was read whole; the rest is the sum's
    )


# --- 2d. several questions in one -------------------------------------------------------------------
def _by_parts(documents: list[Document], question: str, llm: Any, embed: EmbedFn | None) -> Answer | None:
    """Each of the questions ``question`` joins answered on its own — by a program over the tables, else from
    the passages — with the whole question as its context (one value cannot answer two questions, and a model
    asked both at once often answers one), then the answers joined; a part the documents do not answer makes
    the whole unanswered, with what was found shown. With no model, only when a composed program answers every
    part (None otherwise)."""
    answers = []
    for part in question_parts(question):  # a value of the tables computed by a program, else from the passages
        computed = _program(documents, question, llm, embed, None, part)
        if (computed is None or not computed.found) and llm is None:
            return None
        if computed is None or not computed.found:
            computed = _retrieved(documents, question, llm, embed, part=part, budget=PART_EVIDENCE_TOKENS)
        answers.append((part, computed))
    citations: list[dict[str, Any]] = []
    for _, answer in [a for a in answers if a[1].found] or answers[:1]:  # the closest passages when none is found
        citations += [c for c in answer.citations[:2] if c not in citations]
    found = [answer.answer.rstrip(". ") for _, answer in answers if answer.found]
    open_parts = [part.strip(" ,;?") for part, answer in answers if not answer.found]
    text = "; ".join(found)
    if open_parts:
        said = "; ".join(f'"{p}?"' for p in open_parts)
        text = f"{text}. The documents do not answer {said}" if found else NOT_SAID
    complete = not open_parts and not missing_kinds(question, text)
    return Answer(
        text,
        citations,
        workflow=[step for _, answer in answers if answer.found for step in answer.workflow],
        llm_calls=sum(a.llm_calls for _, a in answers),
        context_tokens=sum(a.context_tokens for _, a in answers),
        found=complete,
    )


# --- 3. retrieval and the model ----------------------------------------------------------------------
@dataclass
class _Evidence:
    unit: Unit
    block: str

    @property
    def file(self) -> str:
        return self.unit.file

    @property
    def page(self) -> int:
        return self.unit.page


def retrieved_evidence(
    documents: list[Document], question: str, embed: EmbedFn | None, budget: int = MAX_EVIDENCE_TOKENS
) -> list[_Evidence]:
    """The passages, pairs and table rows a model would read for ``question``, best first, within ``budget``
    model tokens."""
    ranked = Retriever(documents, embed).rank(question, k=24, extra=_table_units(documents))
    return _evidence(ranked, budget)


def _retrieved(
    documents: list[Document],
    question: str,
    llm: Any,
    embed: EmbedFn | None,
    on_draft: Listener | None = None,
    part: str | None = None,
    budget: int = MAX_EVIDENCE_TOKENS,
) -> Answer:
    """The model's answer from the passages retrieval finds for ``question``; with ``part`` (one of the
    questions ``question`` joins), the answer to that part alone; from passages of at most ``budget`` model
    tokens (a part of a question reads fewer)."""
    evidence = retrieved_evidence(documents, part_query(question, part), embed, budget)
    tokens = sum(model_tokens(e.block) for e in evidence)
    if llm is not None and evidence:
        try:
            answer = _compose(llm, question, evidence, documents, on_draft, part, embed)
            if answer is None or not answer.found:  # not in the first evidence: the model may fetch one part
                answer = _fetched(llm, question, documents, evidence, on_draft, part) or answer
        except Stopped:
            raise  # cancelled or out of model time: not "the document does not say"
        except LLMError:
            answer = None
        if answer is not None:
            answer.context_tokens = answer.context_tokens or tokens
            return answer
    closest = _closest(documents, evidence[:3], question)
    calls = 1 if llm is not None and evidence else 0
    if llm is None and closest:
        lead = "I could not compose an answer without a language model; the closest passage"
        text = f'{lead} (p. {closest[0]["page"]}): "{closest[0]["quote"]}"'
        return Answer(text, closest, llm_calls=0, context_tokens=0, found=False)
    return Answer(NOT_SAID, closest, llm_calls=calls, context_tokens=tokens, found=False)


def _fetched(
    llm: Any,
    question: str,
    documents: list[Document],
    evidence: list[_Evidence],
    on_draft: Listener | None,
    part: str | None = None,
) -> Answer | None:
    """One bounded fetch (PDFTriage): the model picks a section, table or figure from a short outline of the
    parts the first evidence did not show; code fetches it; the model answers from that alone."""
    from docpilot.llm.untrusted import DATA_RULE, data_block
    from docpilot.understanding.fetch import fetch_target, targets

    offered = targets(documents, question, {(e.file, e.page) for e in evidence})
    if not offered:
        return None
    lines = [f"[{n}] {t.line()}" for n, t in enumerate(offered, 1)]
    messages = [
        {
            "role": "system",
            "content": "The passages read so far did not answer the question. You pick which numbered part of the "
            "documents to read next. " + DATA_RULE + ' Reply with JSON {"choice": n}; 0 when none is likely to.',
        },
        {"role": "user", "content": f"{data_block(chr(10).join(lines))}\nQuestion: {one_part(question, part)}"},
    ]
    schema = {**_CHOICE, "properties": {"choice": {"type": "integer", "minimum": 0, "maximum": len(offered)}}}
    try:
        choice = int(json.loads(llm.chat(messages, schema=schema, max_tokens=12).text).get("choice", 0))
    except Stopped:
        raise  # cancelled or out of time: not "the document does not say"
    except (LLMError, ValueError, TypeError):
        return None
    if not 1 <= choice <= len(offered):
        return None
    target = offered[choice - 1]
    fetched = [_Evidence(unit, unit.text) for unit in fetch_target(documents, target)]
    answer = _compose(llm, question, fetched, documents, on_draft, part, fetched=True) if fetched else None
    if answer is None or not answer.found:
        return None
    answer.workflow = [f"Not in the first passages; read the {target.line()}."]
    answer.context_tokens = sum(model_tokens(e.block) for e in evidence + fetched)
    return answer


def _table_units(documents: list[Document]) -> list[Unit]:
    units = []
    for doc in documents:
        for table in doc.tables():
            head = " | ".join(table.header)
            units += [
                Unit(doc.name, table.page, f"{table.caption} {head}: {table.row_text(i)}".strip(), "row")
                for i in range(len(table.rows))
            ]
    return units


def _evidence(ranked: list[tuple[Unit, float]], budget: int) -> list[_Evidence]:
    chosen: list[_Evidence] = []
    used = 0
    seen: set[str] = set()
    for unit, _ in ranked:
        key = norm(unit.text)
        if key in seen or any(key in norm(e.unit.text) for e in chosen):
            continue
        cost = model_tokens(unit.text) + _PASSAGE_TOKENS
        if used + cost > budget:
            continue
        seen.add(key)
        chosen.append(_Evidence(unit, unit.text))
        used += cost
        if len(chosen) >= 8:
            break
    return chosen


def _compose(
    llm: Any,
    question: str,
    evidence: list[_Evidence],
    documents: list[Document],
    on_draft: Listener | None = None,
    part: str | None = None,
    embed: EmbedFn | None = None,
    fetched: bool = False,
) -> Answer | None:
    """The model's answer from ``evidence``, checked against it (None: no answer it supports). ``fetched``: the
    evidence is a part the model chose to read after the first passages did not answer; a name it gives there
    must stand by the question's words wherever it was found."""
    from docpilot.llm.prompting import render
    from docpilot.llm.untrusted import DATA_RULE, data_block

    several = len({e.file for e in evidence}) > 1  # one file's name is not worth its tokens on every passage
    items = [{"file": e.file if several else "", "page": e.page, "block": data_block(e.block)} for e in evidence]
    messages = [
        {"role": "system", "content": render("qa_system.j2", data_rule=DATA_RULE)},
        {"role": "user", "content": render("qa_user.j2", evidence=items, question=one_part(question, part))},
    ]
    calls = 0
    listen = drafting(on_draft, "answer")
    for _ in range(2):
        reply = llm.chat(messages, schema=_SCHEMA, max_tokens=120, **({"on_text": listen} if listen else {}))
        calls += 1
        try:
            data = json.loads(reply.text)
        except ValueError:
            continue
        text = str(data.get("answer", "")).strip()
        cited = [n for n in data.get("evidence", []) if isinstance(n, int) and 1 <= n <= len(evidence)]
        if not text or text.upper().startswith("NOT FOUND"):
            closest = _closest(documents, evidence[:3], question)
            return Answer(NOT_SAID, closest, llm_calls=calls, found=False)
        support = [evidence[n - 1] for n in cited] or _supporting(text, evidence)
        if not _grounded(text, support):
            support = _supporting(text, evidence)
            if not _grounded(text, support):
                _send_back(
                    messages,
                    reply.text,
                    "That answer is not in the passages. Answer only from them, copying the words, or reply NOT FOUND.",
                )
                continue
            relation = _relation_unsaid(part or question, text, support) if cited else []
            if relation:  # "who signed the report" answered from "Administrator: Northern Trust Company"
                problem = (
                    f"The passage you cite does not hold {text!r}, and the one that does says nothing of "
                    f"{', '.join(relation)}."
                )
                _send_back(messages, reply.text, f"{problem} Answer from a passage that says it, or reply NOT FOUND.")
                continue
        elif fetched and (relation := _relation_unsaid(part or question, text, support)):
            # "who is Free Culture dedicated to?" answered "Middlemarch" from a part read second, which says
            # nothing of a dedication near it
            problem = f"The passage says nothing of {', '.join(relation)} near {text!r}."
            _send_back(messages, reply.text, f"{problem} Answer from a passage that says it, or reply NOT FOUND.")
            continue
        unsaid = _names_unsaid(part or question, support, documents)
        if unsaid:  # "what share of net sales came from Flexibles?" answered from a sentence about shares bought
            problem = f"The passages you cite do not mention {', '.join(unsaid)}, which the question is about."
            _send_back(messages, reply.text, f"{problem} Answer from a passage about it, or reply NOT FOUND.")
            continue
        party = _other_party(part or question, text, support, documents)
        if party:  # "the contact person for Brightline" answered from "The Client is represented by Maria Gonzalez"
            problem = f"The sentence you cite is about the {party[0]}, but the question asks about the {party[1]}."
            _send_back(
                messages, reply.text, f"{problem} Answer from a sentence about the {party[1]}, or reply NOT FOUND."
            )
            continue
        combined = _total_unsaid(part or question, text, support)
        if combined:  # "the combined assets of all the funds" answered with one fund's
            problem = (
                f"The question asks for the {combined} of several values, "
                f"but the passage you cite gives one value, not their {combined}."
            )
            told = f"{problem} Answer with a {combined} a passage states, or reply NOT FOUND."
            _send_back(messages, reply.text, told)
            continue
        rate = _rate_for_amount(part or question, text, support)
        if rate:  # "by how many $ million did EBITDA decline" answered 100 from "approximately 100 basis points"
            problem = f"The passages you cite give {rate}, a rate, not the amount of money the question asks for."
            _send_back(messages, reply.text, f"{problem} Answer with an amount a passage states, or reply NOT FOUND.")
            continue
        scaled = other_scale(part or question, text, [e.block for e in support])
        if scaled:  # "net sales in millions" answered 3.2 from "Net Sales of $3.2 Billion"
            scale = f"{asked_scale(part or question)}s"
            problem = f"The passages you cite print {scaled}, but the question asks in {scale}."
            told = f"{problem} Answer with the figure a passage prints in {scale}, or reply NOT FOUND."
            _send_back(messages, reply.text, told)
            continue
        if _threshold_unsaid(part or question, support):
            # rows past a threshold are counted by code over the table; a model counting rows in passages is too
            # often wrong (a confident wrong "4" for seven states over 100,000 checks): only a passage that says
            # the threshold is taken
            return Answer(NOT_SAID, _closest(documents, evidence[:3], question), llm_calls=calls, found=False)
        if asks_rank(part or question) and not any(
            states_rank(text, e.block, part or question) for e in support + evidence
        ):
            # which of many ranks first is a comparison code makes over the table; a model reading rows and
            # picking one is too often wrong: only a sentence that says it is taken
            return Answer(NOT_SAID, _closest(documents, evidence[:3], question), llm_calls=calls, found=False)
        missing = missing_kinds(part or question, text)
        if missing:  # an email asked, a phone number answered; two things asked, one answered
            problem = f"That answer does not give {' and '.join(missing)}, which the question asks for."
            _send_back(
                messages,
                reply.text,
                f"{problem} Answer every part of the question from the passages, or reply NOT FOUND.",
            )
            continue
        other = counts_other(part or question, text)
        unsaid_thing = count_unsaid(part or question, [e.block for e in support], text, embed)
        if unsaid_thing:  # "how many employees" answered from passages that never mention employees
            problem = f"The passages you cite do not mention {unsaid_thing}, which the question asks to count."
            _send_back(messages, reply.text, f"{problem} Answer from a passage about it, or reply NOT FOUND.")
            continue
        if other:  # "how many employees" answered with a count of members
            asked = one_part(question, part)
            problem = f"That answer counts {other}, which is not what the question asks to count: {asked}"
            _send_back(messages, reply.text, f"{problem} Answer with that count from the passages, or reply NOT FOUND.")
            continue
        # "2024" answered from "the fiscal year ended December 31, 2024": the whole date
        text = whole_date(part or question, text, [e.block for e in support]) or text
        citations = []
        for rank, item in enumerate(support[:3]):
            doc = next(d for d in documents if d.name == item.file)
            quote = _best_sentence(doc, item, text, question)
            if quote and (rank == 0 or _backs(quote, text)):
                citations.append(_cite(doc, item.page, quote))
        asked = part or question
        if citations and computes(asked) and not stated(asked, text, [c["quote"] for c in citations]):
            # a figure the question asks to compute, copied from a sentence that does not state it (an operand,
            # another thing's change): not an answer
            return Answer(NOT_SAID, citations, llm_calls=calls, found=False)
        if citations:
            return Answer(text, citations, llm_calls=calls)
    return None


def _send_back(messages: list[dict[str, str]], reply: str, problem: str) -> None:
    """The model's reply and what is wrong with it, for its next try."""
    messages.append({"role": "assistant", "content": reply})
    messages.append({"role": "user", "content": problem})


_NAMED = re.compile(r"(?<=[\w,;:)] )[A-Z][\w&.-]*[\w&](?:'s)?")  # a capitalised word after the question's first


def _names_unsaid(question: str, support: list[_Evidence], documents: list[Document]) -> list[str]:
    """The names the question is about ("Flexibles", "Toyota") that the documents write but the cited passages do
    not: an answer from those passages is about something else. The documents' own names are left out, and so is
    a name on most of their pages (of three or more): what they are all about ("this 737 MAX directive")."""
    own = set(stems(" ".join(own_names(d) for d in documents)))
    cited = set(stems(" ".join(e.block for e in support)))
    unsaid: list[str] = []
    pages: list[str] = []
    for match in _NAMED.finditer(question):
        word = re.sub(r"'s$", "", match.group(0))
        key = stems(word)
        if not key or key[0] in own or key[0] in cited or len(key[0]) < 3:
            continue
        if any(_said_just_before(word, item, documents) for item in support):
            continue
        if re.search(rf"\b(?:this\s+(?:[\w.-]+\s+){{0,3}}|according\s+to\s+){re.escape(word)}\b", question, re.I):
            continue  # "this proposed 737 MAX AD", "according to Lessig": the document asked, not a thing in it
        pages = pages or [p.lower() for d in documents for p in d.structure.pages]
        on = sum(bool(re.search(rf"\b{re.escape(word.lower())}\b", p)) for p in pages)
        if on and not (len(pages) >= 3 and on * 2 >= len(pages)):  # on most pages: what they are all about
            unsaid.append(word)
    return unsaid


def _other_party(
    question: str, answer: str, support: list[_Evidence], documents: list[Document]
) -> tuple[str, str] | None:
    """The term of another party than the one the question names, when the sentence holding the answer is about
    it (:func:`~docpilot.understanding.defined_terms.other_party`), with the asked party's term; None otherwise."""
    for doc in {e.file for e in support}:
        document = next((d for d in documents if d.name == doc), None)
        if document is None:
            continue
        parties = defined_parties("\n".join(document.structure.pages[:3]))
        found = other_party(question, answer, [e.block for e in support if e.file == doc], parties) if parties else None
        if found:
            return found
    return None


_LEAD = 800  # characters before a passage on its page that may name what it is about


def _said_just_before(word: str, item: _Evidence, documents: list[Document]) -> bool:
    """Whether ``word`` is said on the passage's page shortly before it: the subject a resolution, a notice or a
    paragraph opens with ("Demande de démolition pour le 1069, boulevard de Sainte-Adèle" over "ATTENDU QUE le
    projet … permettant l'ajout de 43 logements"), which the passage itself need not repeat."""
    doc = next((d for d in documents if d.name == item.file), None)
    if doc is None or not 1 <= item.page <= len(doc.structure.pages):
        return False
    page = _flat(doc.structure.pages[item.page - 1])
    at = page.find(_flat(item.block)[:40])
    return at > 0 and re.search(rf"\b{re.escape(word)}\b", page[max(0, at - _LEAD) : at], re.I) is not None


# several values made one: added up, or averaged — and the words a line uses to state such a figure
_COMBINING = {
    "total": (
        re.compile(r"\b(?:combined|together|altogether|add(?:ed)? up|sum of|in total|total of all)\b", re.I),
        re.compile(r"\b(?:total|totals|combined|aggregate|sum|overall|altogether|together|in all)\b", re.I),
    ),
    "average": (
        re.compile(r"\b(?:average|mean)\b", re.I),
        re.compile(r"\b(?:average|averages|averaged|mean|avg|per|typical|median)\b", re.I),
    ),
}


def _total_unsaid(question: str, answer: str, support: list[_Evidence]) -> str | None:
    """What a question asks of several values ("total", "average") when it is answered with a number that the
    passages print only on lines that state no such figure (one fund's assets for "the combined assets of all
    the funds", one pizza's price for "the average price of the pizzas"); None otherwise."""
    wanted = numbers_in(answer)
    if not wanted:
        return None
    lines = [line for e in support for line in e.block.splitlines() if set(numbers_in(line)) & set(wanted)]
    for kind, (asks, states) in _COMBINING.items():
        if asks.search(question) and lines and not any(states.search(line) for line in lines):
            return kind
    return None


_WHO = frozenset(stems("who whom whose which what name named person people company firm"))


def _relation_unsaid(question: str, answer: str, support: list[_Evidence]) -> list[str]:
    """The words of a "who"/"which" question that say how the answer stands to what it names ("signed … on behalf
    of the registrant", "audits"), when the passage the answer was found in — not the one the model cited — says
    none of them near it ("Administrator: Northern Trust Company"); [] when it does, or the question is of
    another kind."""
    if asked_kind(question) != "name" or re.search(r"\d", answer):
        return []
    named = set(stems(" ".join(re.findall(r"\b[A-Z][\w&.-]*", question))))
    relation = [w for w in dict.fromkeys(stems(question)) if w not in named and w not in _WHO and len(w) > 2]
    if not relation:
        return []
    key = _flat(answer).lower()
    for item in support:
        block = _flat(item.block)
        at = block.lower().find(key)
        if at < 0:
            return []  # not copied: where it stands cannot be told
        near = set(stems(block[max(0, at - _AROUND) : at + len(key) + _AROUND]))
        if any(alike(w, n, 5) for w in relation for n in near):
            return []
    said = [w for w in re.findall(r"[\w'-]+", question) if set(stems(w)[:1]) & set(relation)]
    return list(dict.fromkeys(said)) or relation  # as the question writes them ("dedicated", not "dedicat")


_AROUND = 80  # characters either side of an answer that say what it is (a label, a clause)


_MONEY = re.compile(r"[$€£]|\b(?:dollars?|euros?|pounds?|rupees?|thousands?|millions?|billions?)\b", re.I)
_RATE_UNIT = re.compile(r"\s*(?:%|per\s?cent\b|percentage points?\b|basis points?\b|bps\b)", re.I)
_PRINTED = re.compile(r"(?<![\d.])\d[\d,]*(?:\.\d+)?")


def _rate_for_amount(question: str, answer: str, support: list[_Evidence]) -> str | None:
    """The answer's number as the cited passages print it ("100 basis points") when the question asks an amount
    of money and every place they print that number gives it as a rate; None otherwise."""
    if asked_kind(question) != "amount" or not _MONEY.search(question) or _RATE_UNIT.search(answer):
        return None
    for value in numbers_in(answer):
        printed = [
            (match.group(0), rate.group(0) if rate else "")
            for e in support
            for match in _PRINTED.finditer(e.block)
            if parse_number(match.group(0)) == value
            for rate in [_RATE_UNIT.match(e.block, match.end())]
        ]
        if printed and all(rate for _, rate in printed):
            number, unit = printed[0]
            return f"{number}{unit}" if unit.strip() == "%" else f"{number} {unit.strip()}"
    return None


_REFERENCE = re.compile(
    r"\b(?:lines?|pages?|items?|part|box|section|schedule|form|step|question|chapter|article|clause|notes?|table|"
    r"figure|exhibit|appendix|no\.)\s+\d+[a-z]?\b",
    re.I,
)


# an answer that is one code: digits joined by a dash or slash, a leading zero, or five digits or more
_IDENTIFIER = re.compile(r"(?:no\.?\s*|#\s*)?(?=[\w-]*\d)(?:\d+[-/]\d[\d/-]*|0\d+|\d{5,}|[a-z]+-?\d[\w-]*)", re.I)


def _grounded(answer: str, support: list[_Evidence]) -> bool:
    """The answer's numbers and most of its words are in the passages it cites."""
    if not support:
        return False
    text = norm(" ".join(e.block for e in support))
    # "Amount from line 37": 37 names a line, it is no value; unless the answer is a code of its own, which "No."
    # names ("No. 07-1315": the docket number asked; q10 asked again, tuning)
    have = set(numbers_in(text if _IDENTIFIER.fullmatch(answer.strip()) else _REFERENCE.sub(" ", text)))
    if any(n not in have for n in numbers_in(_REFERENCE.sub(" ", answer))):
        return False
    want = [w for w in stems(answer)]
    if not want:
        return True
    letters = [c for c in text if c.isalpha()]
    if numbers_in(answer) and sum(c.isascii() for c in letters) < 0.5 * len(letters):
        return True  # a Korean passage, an English answer: its numbers are the passage's, its words cannot be
    present = set(stems(text))
    if unsupported_names(answer, [e.block for e in support]):
        return False  # a name the cited passages do not write
    return sum(w in present for w in want) >= 0.6 * len(want)


def _backs(quote: str, answer: str) -> bool:
    """A further citation is shown only when its quote says some of the answer (not a stray word)."""
    said = set(stems(quote)) | {str(n) for n in numbers_in(quote)}
    want = set(stems(answer)) | {str(n) for n in numbers_in(answer)}
    return len(quote.split()) >= 3 and len(said & want) >= min(2, len(want))


def _supporting(answer: str, evidence: list[_Evidence]) -> list[_Evidence]:
    want = set(stems(answer)) | {str(n) for n in numbers_in(answer)}
    scored = sorted(evidence, key=lambda e: -len(want & (set(stems(e.block)) | {str(n) for n in numbers_in(e.block)})))
    return [e for e in scored[:1] if want & (set(stems(e.block)) | {str(n) for n in numbers_in(e.block)})]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?;])\s+", text) if s.strip()]


def _best_sentence(doc: Document, item: _Evidence, answer: str, question: str) -> str | None:
    want_a = set(stems(answer)) | set(words(answer))
    want_q = set(stems(question))
    candidates = sorted(
        _sentences(item.block),
        key=lambda s: -(3 * len(want_a & (set(stems(s)) | set(words(s)))) + len(want_q & set(stems(s)))),
    )
    # a table row is drawn cell by cell: its longest pieces stand for it when the whole row is not one phrase
    pieces = sorted((p for p in re.split(r"\s*[|:]\s*", item.block) if len(p) >= 4), key=len, reverse=True)
    return _quote_on(doc, item.page, [c[:300] for c in candidates[:4]] + [item.block[:200]] + pieces[:6])


def _closest(documents: list[Document], evidence: list[_Evidence], question: str) -> list[dict[str, Any]]:
    out = []
    for item in evidence:
        doc = next(d for d in documents if d.name == item.file)
        quote = _best_sentence(doc, item, "", question)
        if quote:
            out.append(_cite(doc, item.page, quote))
    return out


# --- citations ----------------------------------------------------------------------------------------
def _quote_on(doc: Document, page: int, candidates: list[str]) -> str | None:
    """The first candidate that is text of ``page`` (normalised), as the page writes it."""
    page_text = _flat(doc.page_text(page))
    for candidate in candidates:
        flat = _flat(candidate).strip(" .,;:")
        if len(flat) >= 2 and flat.lower() in page_text.lower():
            start = page_text.lower().index(flat.lower())
            return page_text[start : start + len(flat)]
    return None


def _flat(text: str) -> str:
    import unicodedata

    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


def _cite(doc: Document, page: int, quote: str) -> dict[str, Any]:
    return {"file": doc.path, "page": page, "quote": quote}


def ask_files(
    question: str,
    files: dict[str, str],
    llm: Any = None,
    cache_root: Any = None,
    password: str | None = None,
    feedback: str | None = None,
    on_draft: Listener | None = None,
) -> Answer:
    """Answer ``question`` over ``{name: path}``; the structure is cached under ``cache_root`` (None: not kept)."""
    from pathlib import Path

    from docpilot.understanding.cache import StructureCache
    from docpilot.understanding.document import open_documents

    cache = StructureCache(Path(cache_root) if cache_root is not None else None)
    documents = open_documents(files, cache, password)
    counted = QuestionModel(llm) if llm is not None else None
    answer = answer_question(documents, question, counted, embed_texts, feedback, on_draft)
    answer.llm_calls = counted.calls if counted is not None else 0
    return answer


def embed_texts(texts: Any) -> Any:
    """MiniLM vectors of ``texts`` (the process's one embedder)."""
    from docpilot.planning.retrieval import get_embedder

    return get_embedder().embed(texts)
