"""Questions over a document's tables, answered by a program the model writes and code runs (issue K item 2).

How a question is routed here (after the rules, before the passages; only with a model):

1. retrieval — the same hybrid ranking the passages use — points at pages that hold tables: the best-ranked
   pages among the structure's likely table pages, at most :data:`MAX_PAGES`;
2. the frames read there (lazily, each page once, cached with the structure: :class:`frames.FrameStore`) that
   share words with the question (caption, heading, column names, row labels), best first, at most
   :data:`MAX_FRAMES`;
3. the question asks for a value of them: it names a row or a column of one, or its words ask for a kind of
   value (an amount, a count, a percent, a date, a name: :func:`asked.asked_kind`);
4. no sentence of the best passages that states a figure (prose, not a table's cells) shares more of the
   question's words than the frames do: "by how many percent did module prices fall?" is said in a sentence,
   while a table on the page only has a row "Modules".

The model then gets the job's static prompt (the rules of the allow-list and a small fixed set of question →
program examples from ``fewshot/table_programs.jsonl``, all in the cached prefix) and the frames' schema (≤ 500
tokens), and writes one short pandas program; :func:`frames.answer_with_program` checks and runs it in the
sandbox. A refusal, a failure, an empty result, an answer naming a text that is not a cell it read, or a share
of a whole outside 0-100 % goes back once with the message (:func:`docpilot.llm.jobs.run_job`); then "I could not
compute this from the tables: …" (``answered: false``). ``NOT IN TABLES`` hands the question on to the passages.

Total rows at a table's foot (labelled so, or holding the sums of the rows above) are left out of the frames
a program sees (:func:`without_totals`). The answer is the program's value as a person reads it; its citations
are the cells that decided it; its workflow is the program's reading, the rows left out, and the program.
"""

from __future__ import annotations

import ast
import functools
import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from docpilot.errors import LLMError, ProgramFailed, ProgramRefused, Stopped
from docpilot.llm.jobs import Job, JobFailed, JobProblem, run_job
from docpilot.llm.prompting import render
from docpilot.llm.untrusted import DATA_RULE, data_block
from docpilot.understanding.accounting import own_names
from docpilot.understanding.asked import (
    SAID_BESIDE,
    asked_kind,
    asks_rank,
    asks_several,
    count_unsaid,
    missing_kinds,
    one_part,
    part_query,
    question_parts,
)
from docpilot.understanding.document import Document, Unit
from docpilot.understanding.frames import (
    Frame,
    FrameStore,
    ProgramResult,
    RawTable,
    answer_column,
    answer_with_program,
    candidate_frames,
    compose_program,
    frame_of,
    name_frames,
    named_in,
    schema_text,
)
from docpilot.understanding.frames.checking import BUILTINS, METHODS
from docpilot.understanding.frames.composing import WHO, years_spanned
from docpilot.understanding.frames.model import SECTION, is_total, section_name
from docpilot.understanding.frames.running import MAX_CITATIONS
from docpilot.understanding.retrieve import EmbedFn, Retriever
from docpilot.understanding.support import unsupported_numbers
from docpilot.understanding.textnorm import STOPWORDS, format_number, norm, numbers_in, stem, stems

__all__ = [
    "Computed",
    "answer_by_program",
    "data_frames",
    "without_totals",
    "program_job",
    "program_of",
    "examples",
    "example_frames",
    "shown",
    "CANNOT",
    "COULD_NOT",
]

MAX_PAGES = 3  # table pages read for one question
MAX_FRAMES = 3  # frames shown to the model
SHORT_FILE = 4  # a file of this many pages or fewer: each page may hold a table
RANKED = 12  # retrieval's best units whose pages may be read
PROSE_UNITS = 3  # retrieval's best units whose sentences may say the answer in the question's words
CANNOT = "NOT IN TABLES"
UNRELATED = 0.15  # a question and a column name closer in meaning than this (MiniLM cosine) may name it
SYNONYM = 0.5  # a word of the question this close to a column name (MiniLM cosine) names it
# a table's only column of figures is read for any amount asked: the question must be this close to name it
# ("what is Grace Liu's pay" and "Annual salary" 0.24; "the performance bonus paid to Grace Liu" 0.15)
ALONE = 0.2
_PLAIN_FIGURES = frozenset(stem(w) for w in "column amount value total sum number figure price cost usd eur".split())
COULD_NOT = "I could not compute this from the tables"
# a part of a whole: "of the total", "what percentage of 2023 revenue" (0-100 %, unlike a growth rate)
_WHOLE = re.compile(
    r"\b(?:total|all|whole|overall|combined|share|proportion|fraction)\b|\b(?:percent(?:age)?|portion)\s+of\b", re.I
)
_FIGURE = re.compile(r"\(?-?\$?\d[\d,.]*%?\)?")
_FENCE = re.compile(r"```(?:python|py)?\s*\n?(.*?)(?:```|$)", re.S)


@dataclass
class Computed:
    """A program's answer (or why there is none) as the question's reply needs it."""

    answer: str
    citations: list[dict[str, Any]]  # {"file": the file's name, "page", "quote", "box"}: the deciding cells
    workflow: list[str] = field(default_factory=list)
    found: bool = True
    retries: int = 0
    program: str = ""


# --- the job ------------------------------------------------------------------------------------------
@functools.cache
def examples() -> list[dict[str, Any]]:
    """The question → program examples (``fewshot/table_programs.jsonl``): a table each, with its questions."""
    text = resources.files("fewshot").joinpath("table_programs.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def example_frames(example: dict[str, Any]) -> list[Frame]:
    """An example's table as the frames a program over it sees (named ``t1``)."""
    cells: list[list[tuple[str, Any] | None]] = [[(c, None) if c else None for c in row] for row in example["rows"]]
    header_rows = int(example.get("header_rows", 1))
    frame = frame_of(RawTable(example["file"], int(example["page"]), 1, cells, header_rows, example.get("caption", "")))
    if frame is None:
        raise ValueError(f"the example table of {example['file']} holds no data")
    return name_frames([without_totals(frame)[0]])


@functools.cache
def program_job() -> Job:
    """The "program" job: its static prompt (rules, allowed methods, the examples) is the same for every question."""
    shown = [
        {
            "schema": data_block(schema_text(example_frames(example))),
            "pairs": [{"question": q["question"], "program": q["program"]} for q in example["questions"]],
        }
        for example in examples()
    ]
    system = render(
        "program_system.j2",
        data_rule=DATA_RULE,
        methods=", ".join(sorted(METHODS)),
        builtins=", ".join(sorted(BUILTINS)),
        cannot=CANNOT,
        examples=shown,
    )
    return Job("program", system, max_tokens=160, retry=_retry)


def _retry(user: str, problem: str) -> str:
    """The program job's retry: the tables and the question again (a retry that does not show them gets
    NOT IN TABLES), the problem said before the program is asked for."""
    head = user.rstrip().removesuffix("Program:").rstrip()
    return (
        f"{head}\nA first program could not be used: {problem}\nWrite the program again (only the program).\nProgram:"
    )


# --- routing --------------------------------------------------------------------------------------------
def likely_table_pages(doc: Document) -> set[int]:
    """The pages of ``doc`` whose tables a program may read: those the structure marks as likely to hold one, and
    every page of a short file (an invoice's lines laid out in blocks, a landscape page of rotated text: the cheap
    mark misses them, and a few pages cost little to read)."""
    pages = len(doc.structure.pages)
    return set(range(1, pages + 1)) if pages <= SHORT_FILE else set(doc.structure.table_pages)


def table_pages(ranked: list[Unit], documents: list[Document]) -> dict[str, list[int]]:
    """The likely table pages among retrieval's ``ranked`` units: {file name: pages}, ≤ MAX_PAGES in all."""
    likely = {d.name: likely_table_pages(d) for d in documents}
    chosen: dict[str, list[int]] = {}
    count = 0
    for unit in ranked:
        pages = chosen.setdefault(unit.file, [])
        if unit.page in likely.get(unit.file, ()) and unit.page not in pages:
            pages.append(unit.page)
            count += 1
            if count == MAX_PAGES:
                break
    return {name: pages for name, pages in chosen.items() if pages}


def data_frames(documents: list[Document], question: str, embed: EmbedFn | None) -> tuple[list[Frame], dict[str, str]]:
    """The frames a program may answer ``question`` from, best first and named ``t1`` …, without their total
    rows, and a note per frame whose total rows were left out; no frames when the question is not one over
    table values (see the module's routing)."""
    if not any(likely_table_pages(d) for d in documents):
        return [], {}
    ranked = [unit for unit, _ in Retriever(documents, embed).rank(question, k=RANKED)]
    pages = table_pages(ranked, documents)
    if not pages:
        return [], {}
    files = {d.name: d.path for d in documents if d.name in pages}
    # frames of several files with the same columns come as one, with a ``file`` column (the same form's records)
    found = candidate_frames(FrameStore(documents[0].cache), pages, files, documents[0].password)
    found = [frame for frame in found if len(frame.data)]  # a heading with no row under it holds nothing
    said = stems(question)
    asked, pairs = set(said), frozenset(_pairs(said))
    scored = [(_named(frame, asked, pairs), frame) for frame in found]
    kept = [(score, frame) for score, frame in scored if score[1] > 0]
    if not kept:
        return [], {}
    named = any(score[0] for score, _ in kept)
    # neither a row or column named nor a value asked for ("the cheapest pizza" ranks rows): for the passages
    if not named and asked_kind(question, measures=False) is None and not asks_rank(question):
        return [], {}
    # the documents' own names ("Northwind Solar" in every sentence) say nothing of where the answer is said
    own = {w for d in documents for w in stems(own_names(d)) if not w.isdigit()}
    if _said_in_prose(asked - own, ranked[:PROSE_UNITS], [f for _, f in kept]) > max(s[1] for s, _ in kept):
        return [], {}  # a sentence of the best passages says it in the question's words: the passages answer
    kept.sort(key=lambda item: item[0], reverse=True)
    frames: list[Frame] = []
    notes: dict[str, str] = {}
    for frame in name_frames([frame for _, frame in kept[:MAX_FRAMES]]):
        body, totals = without_totals(frame)
        frames.append(body)
        if totals:
            rows = " and ".join(repr(t) for t in totals[:3]) + (
                f" and {len(totals) - 3} more" if len(totals) > 3 else ""
            )
            notes[frame.name] = f"The {rows} row{'s' if len(totals) > 1 else ''} of {frame.describe()} left out."
    return frames, notes


def _said_in_prose(asked: set[str], units: list[Unit], frames: list[Frame]) -> int:
    """How many of the question's words the best sentence of ``units`` that states a figure shares with it —
    a sentence of prose, not a table's cells printed in a row ("Module prices fell by 18 percent")."""
    cells = {
        norm(f) for frame in frames for row in frame.cells for c in row if c for f in [c.text, *_FIGURE.findall(c.text)]
    }
    best = 0
    for unit in units:
        for sentence in re.split(r"(?<=[.!?;])\s+", unit.text):
            figures = _FIGURE.findall(sentence)
            if not figures or sum(norm(f) in cells for f in figures) * 2 >= len(figures):
                continue  # no figure, or mostly the tables' own cells
            best = max(best, len(asked & set(stems(sentence))))
    return best


def without_totals(frame: Frame) -> tuple[Frame, list[str]]:
    """The frame without the total rows at its foot, and their labels: a row labelled "Total" ("Grand total",
    "Subtotal"), or one whose amounts are the sums of the rows above it ("All offices": 3,454 = 273 + … + 227).

    They add up the rows above, and a program that ranks, counts, averages or adds up rows must not take
    them in (a small model forgets to leave them out); a total asked for is the sum of the rows kept."""
    labels = frame.row_labels()
    end = len(labels)
    while end > 2 and (is_total(labels[end - 1]) or _sums_above(frame, end - 1)):
        end -= 1
    heads = _subtotal_heads(frame, end)
    if end == len(labels) and not heads:
        return frame, []
    kept = [i for i in range(end) if i not in heads]
    body = frame.data.iloc[kept].reset_index(drop=True)
    cells = [frame.cells[i] for i in kept]
    left = [labels[i] for i in sorted(heads)] + labels[end:]
    return replace(frame, data=body, cells=cells, totals=tuple(labels[end:])), left


def _subtotal_heads(frame: Frame, end: int) -> set[int]:
    """The heading rows above ``end`` whose figures add up the rows of their section ("MINISTRY OF AGRICULTURE"
    over its three departments, "MINISTRY OF CIVIL AVIATION" over its one): a subtotal, not one of the rows a
    program ranks or adds up (the rows keep their section, so a section's total is the sum of its rows)."""
    if SECTION not in frame.columns:
        return set()
    sections = frame.data[SECTION].tolist()
    heads = set()
    for i, label in enumerate(frame.row_labels()[:end]):
        name = section_name(label)
        members = [j for j, s in enumerate(sections[:end]) if s == name]
        if name and members and _sums_of(frame, i, members, least=1):  # one demand under it: the same figures
            heads.add(i)
    return heads


def _sums_of(frame: Frame, row: int, members: list[int], least: int = 2) -> bool:
    """Whether every amount column (not a % column) that row ``row`` fills holds the sum of rows ``members``
    (to the rounding of printed figures; columns where fewer than ``least`` of them are filled are passed over),
    and there is at least one such column."""
    import math

    checked = 0
    for column in frame.columns:
        if frame.kinds.get(column, "text") in ("text", "percent"):
            continue
        value = frame.data[column].iloc[row]
        parts = [v for v in frame.data[column].iloc[members].tolist() if not math.isnan(v)]
        if math.isnan(value) or len(parts) < least:
            continue
        if abs(sum(parts) - value) > max(0.001 * abs(value), 0.06 * len(parts) ** 0.5):
            return False
        checked += 1
    return checked > 0


def _sums_above(frame: Frame, row: int) -> bool:
    """Whether row ``row`` adds up the rows above it (see :func:`_sums_of`)."""
    return _sums_of(frame, row, list(range(row)))


def _named(frame: Frame, asked: set[str], pairs: frozenset[tuple[str, str]] = frozenset()) -> tuple[int, int]:
    """(rows and columns the question names, words it shares with the frame's description). ``pairs``: the
    question's words two by two, as it says them (a text cell saying two of them together names rows)."""
    rows = sum(1 for label in frame.row_labels() if (have := set(stems(label))) and have <= asked)
    values = {v for c in frame.columns if c != frame.label and frame.kinds.get(c) == "text" for v in frame.data[c]}
    said = [v for v in values if isinstance(v, str) and (have := set(stems(v))) and have <= asked and _worded(have)]
    rows += len(said)  # "the Toyota Motor North America closure": a row by its value in a column of names
    within = [v for v in values if isinstance(v, str) and v not in said and pairs & set(_pairs(stems(v)))]
    rows += bool(within)  # "senator's transportation": rows by two words their cells say together
    columns = 0
    for column in frame.columns:
        have = {w for w in stems(column) if len(w) > 1 and not w.isdigit()}
        if have and len(have & asked) * 2 >= len(have):
            columns += 1
    described = " ".join([frame.caption, frame.heading, *frame.columns, *frame.row_labels(), *said, *within])
    return rows + columns, len(asked & set(stems(described)))


def _pairs(words: list[str]) -> list[tuple[str, str]]:
    return list(zip(words, words[1:], strict=False))


def _worded(stemmed: set[str]) -> bool:
    """Whether a cell's words name something (a word of letters that is not a function word), not only a date, a
    figure or "Yes"."""
    return any(w.isalpha() and len(w) > 2 and w not in STOPWORDS for w in stemmed)


# --- the answer -----------------------------------------------------------------------------------------
def answer_by_program(
    documents: list[Document],
    question: str,
    llm: Any,
    embed: EmbedFn | None,
    feedback: str | None = None,
    sandbox: Any = None,
    part: str | None = None,
) -> Computed | None:
    """The question answered by a program over the tables retrieval points at; None when it is not a question
    over table values, or the model says the tables do not hold it (the passages are read next).

    The program is composed by code when every word of the question is read against one frame's schema
    (:func:`compose_program`; no model call), else written by the model (``llm``; with ``llm=None``, None).

    Raises:
        Stopped: the model's time ran out or the person cancelled.
    """
    if asks_several(question) and part is None:
        return _with_its_value(documents, question, embed, sandbox)  # else asked part by part
    frames, notes = data_frames(documents, part_query(question, part), embed)
    if not frames:
        return None
    checked = part or question  # with a part, its kind is what the answer must be
    asked = one_part(question, part)
    kind = asked_kind(checked)
    share = kind == "percent" and bool(_WHOLE.search(checked))
    counted = kind == "count"

    def check(reply: str, written_by_model: bool = True, again: bool = False) -> ProgramResult | None:
        program = program_of(reply)
        if program is None:
            return None
        try:
            result = answer_with_program(program, frames, sandbox=sandbox)
        except (ProgramRefused, ProgramFailed) as exc:
            raise JobProblem(str(exc)) from exc
        result = _one_figure(result, kind)
        if share and _number(result.value) and not 0 <= float(result.value) <= 100:
            raise JobProblem(
                f"The question asks for a share of a whole, which lies between 0 and 100 percent, but the program "
                f"gave {format_number(float(result.value))}. Divide the part by the whole, then multiply by 100."
            )
        # (a number computed for "what percentage" is the percentage, and one for "how much more" the amount —
        # points, when the column holds percents: the kind is the number's, not its sign's)
        lacking = [
            m
            for m in missing_kinds(checked, shown(result))
            if not (m in ("a percentage", "an amount") and _number(result.value))
            and not (m == "a count" and counted and _labels(result.value))  # the rows named: counted below
        ]
        if lacking:
            raise JobProblem(
                f"The question asks for {' and '.join(lacking)}, but the program's answer is {shown(result)!r}."
            )
        other = _reads_other(checked, result, frames) or _other_group(checked, result, frames)
        other = other or _wrong_type(checked, result)
        other = other or _not_whom(checked, result, frames) or _not_counted(checked, result, frames)
        other = other or _invented(checked, result, frames) or _sums_totals(result, frames) or _tied(result, frames)
        other = other or _percent_as_fraction(checked, result, frames) or _mask_counted(result)
        if written_by_model:  # a composed program reads only what the question names
            other = other or _unnamed(checked, result, frames, embed) or _unnamed_row(checked, result, frames)
            other = other or _absent_value(result, frames) or _passed_over(checked, result, frames)
            other = other or _looser(checked, result, frames)
            other = other or (_uncounted(checked, result, frames, embed) if counted else "")
        if other and written_by_model and not again and (swapped := _regrouped(checked, result, frames)):
            try:  # the same program over the group of columns the question names: checked again, once
                return check(swapped, again=True)
            except JobProblem:
                pass
        if other:
            raise JobProblem(other)
        missing = _not_cited(result, frames)
        if missing:
            listed = ", ".join(repr(m) for m in missing[:3])
            raise JobProblem(
                f"The answer names {listed}, which is not a cell the program read. Select the answer from the "
                'table\'s cells (e.g. t1.loc[..., "Name"]); do not write it into the program.'
            )
        return result

    names = " ".join(own_names(d) for d in documents)
    composed = None if feedback else compose_program(checked, frames, names)  # a part is read alone
    if composed is not None:  # every word read against a table's own schema: the program without a model
        try:
            result = check(composed, written_by_model=False)
        except JobProblem:
            result = None
        if result is not None:
            return _computed(result, notes, share, counted)
    if llm is None:
        return None
    schema = schema_text(frames, question=question)
    user = render("program_user.j2", schema=data_block(schema), question=asked, feedback=feedback or "")
    try:
        done = run_job(llm, program_job(), user, check)
    except Stopped:
        raise
    except JobFailed as exc:
        reason = re.sub(r"\s+", " ", exc.problems[-1]).strip()
        reason = reason if len(reason) <= 240 else reason[:239].rstrip() + "…"
        tried = program_of(exc.replies[-1]) or exc.replies[-1]
        return Computed(f"{COULD_NOT}: {reason}", [], [f"The last program tried: {tried.strip()}"], found=False)
    except LLMError:
        return None  # the model failed: the passages may still answer
    return None if done.value is None else replace(_computed(done.value, notes, share, counted), retries=done.retries)


# "…, and what was it?", "…, and how many?": the second part asks the value the first part's row was chosen by
_ITS_VALUE = re.compile(
    r"^\W*(?:and\s+)?(?:what\s+(?:was|is|were|are)\s+(?:it|that|they|the\s+(?:value|amount|figure|number))|"
    r"how\s+(?:many|much)(?:\s+(?:was|were|is|are|did\s+it|did\s+they))?|by\s+how\s+much)\W*$",
    re.I,
)


def _with_its_value(documents: list[Document], question: str, embed: EmbedFn | None, sandbox: Any) -> Computed | None:
    """A question that asks which row is at an extreme and then its value ("In which quarter did it open the
    most stores, and how many?"), composed by code as one program that selects the row and reads both its label
    and its value; None for any other question of several parts (they are asked part by part)."""
    parts = question_parts(question)
    if len(parts) != 2 or not _ITS_VALUE.match(parts[1]):
        return None
    frames, notes = data_frames(documents, question, embed)
    names = " ".join(own_names(d) for d in documents)
    program = compose_program(parts[0], frames, names, with_value=True) if frames else None
    if program is None:
        return None
    try:
        result = answer_with_program(program, frames, sandbox=sandbox)
    except (ProgramRefused, ProgramFailed):
        return None
    if _tied(result, frames) or _sums_totals(result, frames) or _not_cited(result, frames):
        return None
    return _computed(result, notes, share=False)


def _computed(result: ProgramResult, notes: dict[str, str], share: bool, count: bool = False) -> Computed:
    """The answer as the reply shows it; a share of a whole computed as a number is said as a percent
    ("15.06%", not "15.0584"); with ``count`` (the question asks how many), a list of row names as their number
    with the names ("3 (a, b, c)")."""
    left_out = [notes[name] for name in result.frames if name in notes]
    answer = shown(result)
    if share and _number(result.value) and "%" not in answer:
        answer = f"{format_number(round(float(result.value), 2))}%"
    if count and _labels(result.value):  # "how many benchmarks …" answered with the rows' names: they are counted
        answer = f"{len(result.value)} ({answer})"
    return Computed(
        answer,
        result.citations,
        [result.reading, *left_out, f"The program: {result.program.strip()}"],
        program=result.program,
    )


def program_of(reply: str) -> str | None:
    """The program in a model's reply (code fences and a "Program:" label taken off); None for NOT IN TABLES."""
    text = reply.strip()
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1).strip()
    text = re.sub(r"^\s*program\s*:\s*", "", text, flags=re.I)
    if CANNOT.lower() in text.lower():
        return None
    return text


def _reads_other(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """What the program reads in place of a row or a column the question names by all its words ("Corporate
    Bond's 1-year return" answered from the 3-year column); "" when it reads them, or names none of the kind."""
    said = _literals(result.program)
    for frame in frames:
        if frame.name not in result.frames:
            continue
        rows, columns = named_in(question, frame)
        for named, kind, among in ((columns, "column", frame.columns), (rows, "row", frame.row_labels())):
            read = [x for x in among if x in said]
            if named and read and not set(named) & set(read):
                return (
                    f"The question names the {kind} {' / '.join(repr(n) for n in named)} of {frame.name}, but the "
                    f"program reads {', '.join(repr(r) for r in read[:3])}. Read the {kind} the question names."
                )
    return ""


def _other_group(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """Columns of another group than the one the question names, where a frame's columns come in groups under a
    heading printed over them ("Finland Female … Finland 15-24", "EU-25 Female … EU-25 15-24"): "the rate for
    under-25s in Finland" answered from "EU-25 15-24" (q8, after its measurement). Judged only when the question
    names one group and no other; "" else."""
    said = _literals(result.program)
    asked = {w.lower() for w in re.findall(r"[\w][\w.-]*\w|\w", question)}
    for frame in frames:
        if frame.name not in result.frames:
            continue
        groups = _column_groups(frame.columns)
        named = [g for g in groups if g.lower() in asked]
        if len(named) != 1:
            continue
        read = [c for group, members in groups.items() if group != named[0] for c in members if c in said]
        if read:
            return (
                f"The question names {named[0]!r}, whose columns in {frame.name} are "
                f"{', '.join(repr(c) for c in groups[named[0]][:4])}, but the program reads "
                f"{', '.join(repr(c) for c in read[:3])}. Read {named[0]!r}'s columns."
            )
    return ""


def _passed_over(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A column of figures that names more of the question's words than each one the program reads: "how many
    stores were open at the end of Q2" answered from "Stores Opened" beside "Total Stores at End of Second
    Quarter" (q8, after its measurement). Words that name an operation ("total", "average") do not count; a
    column only as well named is not judged (which one is meant, the words do not tell); "" else."""
    found = _better_named(question, result, frames)
    if found is None:
        return ""
    frame, better, read = found
    return (
        f"The question names the column {better[0]!r} of {frame.name} better than the program's "
        f"{', '.join(repr(c) for c in read[:3])}. Read the column the question names."
    )


def _better_named(
    question: str, result: ProgramResult, frames: list[Frame]
) -> tuple[Frame, list[str], list[str]] | None:
    """(frame, the columns better named than any the program reads, those it reads) for :func:`_passed_over`."""
    said = _literals(result.program)
    asked = {w for w in _named_words(question) if len(w) > 2 and w not in _OPERATION_WORDS}
    for frame in frames:
        figures = frame.figure_columns()
        read = [c for c in figures if c in said]
        if frame.name not in result.frames or not read:
            continue
        named = {c: _words_named(c, asked) for c in figures}
        best = max(len(named[c]) for c in read)
        better = [c for c in figures if c not in said and len(named[c]) > best]
        if better:
            return frame, better, read
    return None


def _regrouped(question: str, result: ProgramResult, frames: list[Frame]) -> str | None:
    """The program reading the group of columns the question names in place of the one it reads, where the two
    groups hold the same columns under another heading: "Three Months Ended June 30 Flexibles" and "… Total"
    read for "FY2023" become "Twelve Months Ended June 30 Flexibles" and "… Total". None when no such swap is
    whole (a column of the group it reads has no twin in the other)."""
    found = _better_named(question, result, frames)
    if found is None:
        return None
    frame, better, read = found
    for target in better:
        for source in read:
            a, b = source.split(), target.split()
            same = next((k for k in range(min(len(a), len(b)), 0, -1) if a[-k:] == b[-k:]), 0)
            if not same or same == len(a) or same == len(b):
                continue
            old, new = " ".join(a[:-same]) + " ", " ".join(b[:-same]) + " "
            swaps = {c: new + c[len(old) :] for c in read if c.startswith(old)}
            if not all(twin in frame.columns for twin in swaps.values()):
                continue
            program = result.program
            for column, twin in swaps.items():
                for quote in ('"', "'"):
                    program = program.replace(f"{quote}{column}{quote}", f"{quote}{twin}{quote}")
            return program if program != result.program else None
    return None


def _words_named(column: str, asked: set[str]) -> set[str]:
    """The question's words (stems) that ``column`` has."""
    return {a for a in asked if any(_alike(a, w) for w in _named_words(column))}


def _named_words(text: str) -> list[str]:
    """The stems of ``text`` with a quarter or half written short also written out ("Q2": second quarter), and a
    fiscal year said as the twelve months it is ("FY2023": the "Twelve Months Ended" column, not "Three Months")."""
    spelled = _SHORT_PERIOD.sub(
        lambda m: f"{m.group(0)} {_ORDINALS[int(m.group(2)) - 1]} {_PERIODS[m.group(1).lower()]}", text
    )
    return stems(_FISCAL_YEAR.sub(lambda m: f"{m.group(0)} twelve months year", spelled))


_SHORT_PERIOD = re.compile(r"\b([QqHh])([1-4])\b")
_FISCAL_YEAR = re.compile(r"\bFY\s?'?\d{2,4}\b|\b(?:fiscal|full)[\s-]year\b", re.I)
_ORDINALS = ("first", "second", "third", "fourth")
_PERIODS = {"q": "quarter", "h": "half"}
_OPERATION_WORDS = frozenset(
    stem(w)
    for w in "total totals sum average mean median overall combined difference change percent percentage share "
    "ratio count number highest lowest largest smallest most least more less greater fewer maximum minimum".split()
)


def _column_groups(columns: list[str]) -> dict[str, list[str]]:
    """The columns grouped by their first word when two or more groups of two or more columns share one: the
    heading printed over each group ("Finland", "EU-15"); empty else."""
    groups: dict[str, list[str]] = {}
    for column in columns:
        words = column.split()
        if len(words) > 1 and len(words[0]) > 1:
            groups.setdefault(words[0], []).append(column)
    groups = {g: members for g, members in groups.items() if len(members) > 1}
    return groups if len(groups) > 1 else {}


def _one_figure(result: ProgramResult, kind: str | None) -> ProgramResult:
    """A figure asked for and computed as a column of one row (``t1.loc[t1["label"] == "2005", "Male"] - …``,
    {"2005": 3.8}): the figure itself; else the result as it is."""
    value = result.value
    if kind not in ("amount", "percent", "count") or not isinstance(value, dict) or len(value) != 1:
        return result
    (figure,) = value.values()
    if not _number(figure):
        return result
    return replace(result, value=figure, text=format_number(float(figure)))


def _wrong_type(question: str, result: ProgramResult) -> str:
    """A text (a row's label) computed for a question that asks for a figure ("what was the most stores opened
    in a quarter?" answered "4th Quarter"), or a figure for one that asks which thing; "" when it fits."""
    kind = asked_kind(question)
    texts, numbers = bool(_texts(result.value)), bool(_numbers(result.value))
    if kind == "count" and _labels(result.value):
        return ""  # the rows' names: counted for the answer
    if kind in ("amount", "count", "percent") and texts and not numbers:
        return f"The question asks for {'a count' if kind == 'count' else 'a figure'}, but the program gives a text."
    if kind == "name" and numbers and not texts:
        return "The question asks which one, but the program gives a figure: select the row's label."
    return ""


def _invented(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A number the program computes with that neither the question nor the tables print (a "15 %" bonus rate the
    model assumed: "salary * 0.15"); small whole numbers (an average of two) and powers of ten (a scale) pass."""
    try:
        tree = ast.parse(result.program)
    except SyntaxError:
        return ""
    operands = [
        side.value
        for node in ast.walk(tree)
        if isinstance(node, ast.BinOp)
        for side in (node.left, node.right)
        if isinstance(side, ast.Constant) and isinstance(side.value, (int, float)) and not isinstance(side.value, bool)
    ]
    printed = " ".join([question] + [f"{f.caption} {f.heading}" for f in frames])
    printed += " " + " ".join(c.text for f in frames for row in f.cells for c in row if c)
    numbers = numbers_in(printed)
    known = set(numbers) | {n / 100 for n in numbers}
    for value in operands:
        whole = float(value).is_integer()
        if (whole and abs(value) <= 12) or (whole and value > 0 and math.log10(value).is_integer()):
            continue
        if not any(math.isclose(float(value), k, rel_tol=1e-9) for k in known):
            return (
                f"The program computes with {value}, which neither the question nor the tables give. Compute only "
                f"from the tables' values; if they do not hold what is asked, reply {CANNOT}."
            )
    return ""


def _sums_totals(result: ProgramResult, frames: list[Frame]) -> str:
    """A whole column added up although it holds total rows among its parts ("Total revenue" above the product
    categories): the sum counts them twice; "" otherwise."""
    for _, frame, _ in _column_calls(result.program, frames, {"sum"}):
        totals = [label for label in frame.row_labels() if is_total(label)]
        if totals:
            return (
                f"The column holds total rows ({', '.join(repr(t) for t in totals[:2])}): adding up the whole "
                f"column counts them twice. Read the total row itself, or add up only the rows of the parts."
            )
    return ""


def _column_calls(program: str, frames: list[Frame], methods: set[str]) -> list[tuple[str, Frame, ast.Subscript]]:
    """(method, frame, ``t1[...]``) for each call of one of ``methods`` on a subscript of a frame in ``program``
    (``t1["Sales"].sum()``); none when the program does not parse."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return []
    by_name = {frame.name: frame for frame in frames}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in methods:
            column = node.func.value
            if isinstance(column, ast.Subscript) and isinstance(column.value, ast.Name) and column.value.id in by_name:
                found.append((node.func.attr, by_name[column.value.id], column))
    return found


_COUNTS = re.compile(r"(?<!\bby )\bhow many\b(?!\s+(?:more|fewer|less|times)\b)|\bthe number of\b", re.I)
_COUNTING = re.compile(r"\blen\(|\.(?:count|nunique|shape)\b")


def _not_counted(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """ "How many categories had higher revenue …" answered with an amount: a program that counts nothing and reads
    only columns of money or percents gives no count of things; "" otherwise."""
    if not _COUNTS.search(question) or _COUNTING.search(result.program) or not _numbers(result.value):
        return ""
    said = _literals(result.program)
    read = [
        frame.kinds.get(column, "")
        for frame in frames
        if frame.name in result.frames
        for column in frame.figure_columns()
        if column in said
    ]
    if read and all(kind.startswith("money") or kind == "percent" for kind in read):
        return "The question asks how many (a count of rows), but the program gives an amount: count with len(...)."
    return ""


def _uncounted(question: str, result: ProgramResult, frames: list[Frame], embed: EmbedFn | None) -> str:
    """What "how many X" counts when no table the program reads names X, in a word of its caption, heading, columns
    or cells, or (with ``embed``) close in meaning to one of them ("how many municipalities does Finland have"
    answered 3 by counting a table's years; q9, after its measurement); "" else."""
    if not _COUNTING.search(result.program):  # a figure read or computed ("headcount grew by …"), not rows counted
        return ""
    used = [f for f in frames if f.name in result.frames]
    texts = [t for f in used for t in [f.caption, f.heading, *f.columns, *_texts_of(f)] if t]
    thing = count_unsaid(question, texts)
    if not thing or not texts:
        return ""
    if embed is not None:  # "items" names a column "Units" (MiniLM cosine 0.42), "municipalities" a "label" not (0.23)
        vectors = embed([thing, *[t for f in used for t in [f.caption, f.heading, *f.columns] if t]])
        if float(max(vectors[1:] @ vectors[0])) >= SAID_BESIDE:
            return ""
    return (
        f"No table the program reads names {thing}, which the question counts. Reply {CANNOT} when no table holds them."
    )


def _texts_of(frame: Frame) -> list[str]:
    """The texts of a frame's text columns (row labels, names, categories)."""
    return [str(v) for c in frame.columns if frame.kinds.get(c) == "text" for v in frame.data[c].tolist() if v]


def _percent_as_fraction(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A column of percents (held as printed: 34 for "34%", most of its values 1 or more) compared with the
    question's percent as a fraction
    ("at least 30%" written ``>= 0.3``: every row passes; q9, after its measurement); "" else."""
    try:
        tree = ast.parse(result.program)
    except SyntaxError:
        return ""
    asked = set(numbers_in(question))
    by_name = {f.name: f for f in frames}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare) or len(node.comparators) != 1:
            continue
        column, value = _column_of(node.left), node.comparators[0]
        if column is None or not isinstance(value, ast.Constant):
            continue
        frame = by_name.get(column[0])
        if frame is None or column[1] not in frame.figure_columns():
            continue
        number, held = value.value, frame.data[column[1]].dropna().abs()
        if not isinstance(number, (int, float)) or not 0 < abs(number) < 1 or round(number * 100, 6) not in asked:
            continue
        if len(held) and (held >= 1).mean() > 0.5:  # figures printed as percents, not as fractions
            return (
                f"The column {column[1]!r} holds percents as printed (34 for 34%): compare it with "
                f"{format_number(number * 100)}, not {number}."
            )
    return ""


def _mask_counted(result: ProgramResult) -> str:
    """``.count()`` of a condition (``(t1["X"] > 5).count()``), which counts every row, true or false; "" else."""
    try:
        tree = ast.parse(result.program)
    except SyntaxError:
        return ""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "count"
            and isinstance(node.func.value, ast.Compare)
        ):
            return "count() of a condition counts every row, true or false: count the rows it keeps with len(t1[...])."
    return ""


def _not_whom(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A "who" question answered with texts of another column than the one that names people ("Product Manager"
    from "Position" where the table has an "Employee" column); "" when it fits or no one column names people."""
    texts = _texts(result.value)
    if not texts or not WHO.search(question):
        return ""
    for frame in frames:
        if frame.name not in result.frames:
            continue
        people = answer_column(question, frame)
        if people is None:  # several text columns, none named for people: not judged
            continue
        if not all(t in set(frame.data[people].astype(str)) for t in texts):
            return f'The question asks who: answer with the names in the "{people}" column.'
    return ""


def _unnamed(question: str, result: ProgramResult, frames: list[Frame], embed: EmbedFn | None = None) -> str:
    """A column of figures the program reads that the question does not name: no word shared ("how many
    employees" answered from "Total gross square feet") and, with the embedding model, no closeness of meaning
    either (below :data:`UNRELATED`: "output" does name "Production", 0.33); "" when every column it reads is
    named. Initials ("IGST") are not judged."""
    said = _literals(result.program)
    asked = {w for w in stems(question) if len(w) > 2}
    for frame in frames:
        if frame.name not in result.frames:
            continue
        figures = frame.figure_columns()
        whole = _TOTAL_WORDS if _WHOLE.search(question) else frozenset()  # "what share of …": the Total column
        named = [c for c in figures if c in said and any(_alike(w, a) for w in _column_words(c) for a in asked)]
        for column in figures:
            # the heading it shares with a column the question names ("Three Months Ended June 30") is named too
            shared = set().union(*(_column_words(other) for other in named if other != column))
            words = _column_words(column) - whole - shared
            if column not in said or not words or re.fullmatch(r"[A-Z0-9&/ .-]{2,6}", column):
                continue
            alone = len(figures) == 1  # the model reads it whatever is asked: judged only by a measure it names
            if alone and (embed is None or words <= _PLAIN_FIGURES):
                continue
            if any(_alike(w, a) for w in words for a in asked):
                continue
            if embed is not None and _close_in_meaning(question, column, embed, ALONE if alone else UNRELATED):
                continue
            if _whole_count(words, asked, frame, figures):
                continue
            return (
                f"The program reads the column {column!r}, which the question does not name. Read the column "
                f"the question asks about, or reply {CANNOT} when no table holds it."
            )
    return ""


_TOTAL_WORDS = frozenset({"total", "grand", "overall"})  # a column of the whole: "Totals", "Grand total"


def _column_words(column: str) -> set[str]:
    return {w for w in stems(column) if len(w) > 2 and not w.isdigit()}


def _whole_count(words: set[str], asked: set[str], frame: Frame, figures: list[str]) -> bool:
    """A "Total(s)" column is what a question over the table's own subject asks when it names no other column:
    "the most firearm background checks" of the table "NICS Firearm Background Checks" is its Totals column."""
    if not words <= _TOTAL_WORDS:
        return False
    subject = {w for w in stems(f"{frame.caption} {frame.name}") if len(w) > 2 and not w.isdigit()}
    if not any(_alike(w, a) for w in subject for a in asked):
        return False
    others = [c for c in figures if not {w for w in stems(c) if len(w) > 2} <= _TOTAL_WORDS]
    return not any(_alike(w, a) for c in others for w in stems(c) if len(w) > 2 for a in asked)


def _close_in_meaning(question: str, column: str, embed: EmbedFn, bar: float) -> bool:
    """Whether the question as a whole, or one of its words, is close in meaning to ``column`` (MiniLM cosine at
    least ``bar`` for the question, :data:`SYNONYM` for a word: "headcount" names "Employees")."""
    asked = [w for w in re.findall(r"[A-Za-z][\w-]{3,}", question) if w.lower() not in _QUESTION_WORDS]
    vectors = embed([column, question, *asked])
    closeness = vectors[1:] @ vectors[0]
    return float(closeness[0]) >= bar or any(float(c) >= SYNONYM for c in closeness[1:])


_QUESTION_WORDS = frozenset("what which when where does have were many much that this there their with from".split())


def _unnamed_row(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A row the program picks by its label that no word of the question names (the 'Modules' row's share
    multiplied into "by how many people did headcount grow"); "" when each label it reads shares a word with the
    question. Rows kept by a comparison or a column's order are not picked by label and are not judged."""
    picked = _picked(result.program)
    asked = {w for w in stems(question) if len(w) > 1} | years_spanned(question)
    for frame in frames:
        if frame.name not in result.frames:
            continue
        for label in frame.row_labels():
            words = {w for w in stems(label) if len(w) > 1}
            if (frame.name, label) not in picked or not words:
                continue
            if not any(_alike(w, a) for w in words for a in asked):
                return (
                    f"The program reads the row {label!r} of {frame.name}, which the question does not name. Read "
                    f"only the rows the question asks about, or reply {CANNOT} when no table holds them."
                )
    return ""


def _tied(result: ProgramResult, frames: list[Frame]) -> str:
    """A row taken as the largest or smallest of a whole column (``t1["Price"].idxmax()``) when other rows print the
    same value: which one is meant the table does not say ("the most expensive pizza", three at 15$); "" else.
    Rows whose label the frame repeats do not tie with the first of them when its label is the frame's only once:
    a line item's "Charges" under "Amazon Glacier", the same 2.22, is a part of that row, not another answer."""
    for method, frame, subscript in _column_calls(result.program, frames, {"idxmax", "idxmin"}):
        column = _column_of(subscript)
        if column is None or column[1] not in frame.columns:
            continue
        values = frame.data[column[1]].dropna()
        best = values.max() if method == "idxmax" else values.min()
        tied = [i for i, v in values.items() if v == best]
        if len(tied) > 1 and not _parts_of_first(frame, tied):
            end = "largest" if method == "idxmax" else "smallest"
            return f"Several rows of {frame.name} tie at the {end} {column[1]!r}: no one row is it."
    return ""


def _parts_of_first(frame: Frame, tied: list[Any]) -> bool:
    """Whether, of the tied rows (index labels, in order), only the first has a label printed once in the frame's
    label column: the others are rows like "Charges" that the frame repeats under each of its items."""
    if frame.label is None:
        return False
    counts = Counter(str(v) for v in frame.data[frame.label].tolist())
    once = [i for i in tied if counts[str(frame.data.loc[i, frame.label])] == 1]
    return once == tied[:1]


def _picked(program: str) -> set[tuple[str, str]]:
    """(frame, text) for each text ``program`` compares a column of that frame with: the rows it picks by label."""
    return {(frame, text) for (frame, _), texts in _comparisons(program) for text in texts}


def _absent_value(result: ProgramResult, frames: list[Frame]) -> str:
    """A text the program compares a column with (``t1["Type"] == "X"``, ``.isin(["X", "Y"])``) that no cell of
    that column holds: rows kept by a value the table does not print (a count of none, "0", from a value the
    model made up or a column it mistook); "" when each compared text is a cell of its column."""
    by_name = {frame.name: frame for frame in frames}
    for (name, column), texts in _comparisons(result.program):
        frame = by_name.get(name)
        if frame is None or column not in frame.columns:
            continue
        held = {norm(str(v)) for v in frame.data[column].tolist() if v != ""}
        missing = [t for t in texts if norm(t) not in held]
        if "" in missing:
            return (
                f"A blank cell of {name} is a missing value, not '': test blank cells with .isna(), filled ones "
                f"with .notna(), and count filled cells with .count()."
            )
        if missing:
            return (
                f"No row of {name} holds {missing[0]!r} in the column {column!r}. Compare with a value the column "
                f"holds, or reply {CANNOT} when no table holds it."
            )
    return ""


def _looser(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A text condition that keeps rows the question's words leave out: ``.str.contains("TRANSPORTATION")`` for
    "senator's transportation" where some kept cells say "SENATOR'S TRANSPORTATION" and others "STAFF
    TRANSPORTATION". Told by two words the question says together, one of them the condition's: when some kept
    cells say both together and others do not, the question names the narrower rows; "" otherwise."""
    pairs = set(_pairs(stems(question)))
    by_name = {frame.name: frame for frame in frames}
    for (name, column), term, whole in _text_conditions(result.program):
        frame = by_name.get(name)
        if frame is None or column not in frame.columns or frame.kinds.get(column) != "text":
            continue
        key = norm(term)
        texts = [v for v in frame.data[column] if isinstance(v, str)]
        kept = [v for v in texts if (key == norm(v) if whole else key in norm(v))]
        have = set(stems(term))
        for pair in pairs:
            if not have & set(pair) or set(pair) <= have:
                continue
            saying = [v for v in kept if pair in set(_pairs(stems(v)))]
            if saying and len(saying) < len(kept):
                other = next(v for v in kept if v not in saying)
                said = _said_together(saying[0], pair)
                return (
                    f"The question says {said!r}, but the condition {term!r} on {column!r} also keeps "
                    f"{len(kept) - len(saying)} rows that do not say it (such as {other[:60]!r}). Match the words "
                    "the question uses."
                )
    return ""


def _said_together(text: str, pair: tuple[str, str]) -> str:
    """The words of ``text`` that ``pair`` (two stems) stands for, as the text writes them."""
    tokens = re.findall(r"[^\W_]+(?:['’][^\W_]+)?", text)
    for first, second in zip(tokens, tokens[1:], strict=False):
        if stems(first)[:1] == [pair[0]] and stems(second)[:1] == [pair[1]]:
            return f"{first} {second}"
    return " ".join(pair)


def _text_conditions(program: str) -> list[tuple[tuple[str, str], str, bool]]:
    """((frame, column), text, whole) for each ``t1["C"].str.contains("x")`` (whole False) and ``t1["C"] == "x"``
    (whole True) in ``program``; none when it does not parse."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "contains"
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "str"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and (column := _column_of(node.func.value.value))
        ):
            found.append((column, node.args[0].value, False))
        elif (pair := _compared_texts(node)) is not None and isinstance(node, ast.Compare):
            found += [(pair[0], text, True) for text in pair[1] if text]
    return found


def _comparisons(program: str) -> list[tuple[tuple[str, str], list[str]]]:
    """((frame, column), texts) for each comparison of a column with texts in ``program``; none when it does not
    parse."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return []
    return [pair for node in ast.walk(tree) if (pair := _compared_texts(node)) is not None]


def _compared_texts(node: ast.AST) -> tuple[tuple[str, str], list[str]] | None:
    """((frame, column), texts) for ``t1["C"] == "x"`` and ``t1["C"].isin(["x", "y"])``, and for ``t1["C"] != ""``
    (a test for blank cells); None for other nodes."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
        column, value = _column_of(node.left), node.comparators[0]
        if column and isinstance(value, ast.Constant) and isinstance(value.value, str):
            if isinstance(node.ops[0], ast.Eq) or value.value == "":
                return column, [value.value]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "isin":
        column = _column_of(node.func.value)
        listed = node.args[0] if node.args else None
        if column and isinstance(listed, (ast.List, ast.Tuple)):
            texts = [e.value for e in listed.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            return (column, texts) if texts else None
    return None


def _column_of(node: ast.AST) -> tuple[str, str] | None:
    """(frame, column) for ``t1["C"]``; None otherwise."""
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    ):
        return node.value.id, node.slice.value
    return None


def _alike(word: str, other: str) -> bool:
    """The same word, or two forms of one ("employ" / "employees", "profit" / "profitability")."""
    return word == other or (min(len(word), len(other)) >= 4 and word[:4] == other[:4])


def _literals(program: str) -> set[str]:
    """The strings written in ``program`` (column names and row labels it reads)."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return set()
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _not_cited(result: ProgramResult, frames: list[Frame]) -> list[str]:
    """Texts in the answer that are not cells the program read (the cited cells; beyond the citation limit, any
    cell of its frames), and numbers the program did not produce."""
    quotes = {norm(c["quote"]) for c in result.citations}
    if len(result.citations) >= MAX_CITATIONS:
        quotes |= {norm(c.text) for f in frames if f.name in result.frames for row in f.cells for c in row if c}
    texts = [t for t in _texts(result.value) if t.strip()]
    missing = [t for t in texts if norm(t) not in quotes]
    # a number inside a text the program picked ("2022", a year labelling a row) is that cell's, not computed
    return missing + unsupported_numbers(shown(result), [c["quote"] for c in result.citations], _numbers(result.value))


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def _numbers(value: Any) -> list[float]:
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return []


def shown(result: ProgramResult) -> str:
    """The program's value as a person reads it: "$5,700 (in thousands)", "12.5%", "West", "North, East"."""
    value = result.value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return _amount(float(value), result.unit)
    if isinstance(value, dict):
        if value and all(isinstance(v, str) for v in value.values()):
            return ", ".join(dict.fromkeys(value.values()))
        return "; ".join(f"{k}: {_amount(v, result.unit) if _number(v) else v}" for k, v in value.items())
    if isinstance(value, list):
        if not value:
            return "none"
        return ", ".join(_item(v, result.unit) for v in value)
    return str(value)


def _labels(value: Any) -> bool:
    """Whether ``value`` is a non-empty list of texts (the names of the rows a program selected)."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _item(value: Any, unit: str) -> str:
    if _number(value):
        return _amount(float(value), unit)
    if isinstance(value, dict):
        texts = [str(v) for v in value.values() if isinstance(v, str) and v]
        return texts[0] if texts else str(value)
    return str(value)


def _amount(value: float, unit: str) -> str:
    """A number with its unit: "%" after it, a currency sign before it, "(in thousands)" last."""
    text = format_number(value)
    scale = re.search(r"\(in \w+\)", unit)
    money = unit[: scale.start()].strip() if scale else unit.strip()
    if money == "%":
        text = f"{text}%"
    elif money and len(money) == 1:
        text = f"-{money}{text[1:]}" if text.startswith("-") else f"{money}{text}"
    elif money:
        text = f"{text} {money}"
    return f"{text} {scale.group(0)}" if scale else text
