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

import functools
import json
import math
import re
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from docpilot.errors import LLMError, ProgramFailed, ProgramRefused, Stopped
from docpilot.llm.jobs import Job, JobFailed, JobProblem, run_job
from docpilot.llm.prompting import render
from docpilot.llm.untrusted import DATA_RULE, data_block
from docpilot.understanding.accounting import own_names
from docpilot.understanding.asked import (
    asked_kind,
    asks_rank,
    asks_several,
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
    answer_with_program,
    candidate_frames,
    compose_program,
    frame_of,
    name_frames,
    schema_text,
)
from docpilot.understanding.frames.checking import BUILTINS, METHODS
from docpilot.understanding.frames.grammar import program_grammar
from docpilot.understanding.frames.model import SECTION, is_total, section_name
from docpilot.understanding.operation_checks import as_percent_change, operation_problem
from docpilot.understanding.program_checks import (
    CANNOT,
    WHOLE,
    extreme_value,
    is_number,
    labelled,
    labels,
    misread,
    named_figures,
    one_figure,
    problem_with,
    regrouped,
    scalar_operands,
    shown,
    word_pairs,
)
from docpilot.understanding.retrieve import EmbedFn, Retriever
from docpilot.understanding.textnorm import STOPWORDS, format_number, norm, stems

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
COULD_NOT = "I could not compute this from the tables"
_FIGURE = re.compile(r"\(?-?\$?\d[\d,.]*%?\)?")
# "by how much did free cash flow fall", "how much lower was …": the size of a fall is asked, not a signed change
_FALL = re.compile(
    r"\bhow (?:much|many)\b.*\b(?:fall|fell|fallen|declin\w*|drop\w*|decreas\w*|shr[iau]nk\w*|lower|less)\b", re.I
)
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
    asked, pairs = set(said), frozenset(word_pairs(said))
    figures = frozenset(named_figures(question))
    scored = [(_named(frame, asked, pairs, figures), frame) for frame in found]
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


def _named(
    frame: Frame,
    asked: set[str],
    pairs: frozenset[tuple[str, str]] = frozenset(),
    figures: frozenset[float] = frozenset(),
) -> tuple[int, int]:
    """(rows and columns the question names, words it shares with the frame's description). ``pairs``: the
    question's words two by two, as it says them (a text cell saying two of them together names rows);
    ``figures``: the figures it names ("the $618 charge": the row holding 618.00)."""
    rows = sum(1 for label in frame.row_labels() if (have := set(stems(label))) and have <= asked)
    held = {float(v) for c in frame.figure_columns() for v in frame.data[c].tolist() if is_number(v)}
    rows += len(figures & held)
    values = {v for c in frame.columns if c != frame.label and frame.kinds.get(c) == "text" for v in frame.data[c]}
    said = [v for v in values if isinstance(v, str) and (have := set(stems(v))) and have <= asked and _worded(have)]
    rows += len(said)  # "the Toyota Motor North America closure": a row by its value in a column of names
    within = [v for v in values if isinstance(v, str) and v not in said and pairs & set(word_pairs(stems(v)))]
    rows += bool(within)  # "senator's transportation": rows by two words their cells say together
    columns = 0
    for column in frame.columns:
        have = {w for w in stems(column) if len(w) > 1 and not w.isdigit()}
        if have and len(have & asked) * 2 >= len(have):
            columns += 1
    described = " ".join([frame.caption, frame.heading, *frame.columns, *frame.row_labels(), *said, *within])
    return rows + columns, len(asked & set(stems(described)))


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
    share = kind == "percent" and bool(WHOLE.search(checked))
    counted = kind == "count"
    fall = bool(_FALL.search(checked))

    def check(reply: str, written_by_model: bool = True, again: bool = False) -> ProgramResult | None:
        program = program_of(reply)
        if program is None:
            return None
        try:
            result = answer_with_program(program, frames, sandbox=sandbox)
        except ProgramFailed as exc:
            alone = scalar_operands(program) if written_by_model and not again else None
            if alone is not None:  # one-row selections divided by row: their values, checked once
                try:
                    return check(alone, again=True)
                except JobProblem:
                    pass
            raise JobProblem(str(exc)) from exc
        except ProgramRefused as exc:
            raise JobProblem(str(exc)) from exc
        result = one_figure(result, kind)
        problem = problem_with(
            checked, result, frames, share=share, counted=counted, embed=embed, written_by_model=written_by_model
        ) or operation_problem(checked, result, frames)
        repaired = problem and written_by_model and not again
        swapped = repaired and (
            regrouped(checked, result, frames)
            or labelled(checked, result, frames)
            or extreme_value(checked, result)
            or as_percent_change(checked, result)
        )
        if swapped:
            try:  # the same program over the columns the question names, or the row of its "which": checked, once
                return check(swapped, again=True)
            except JobProblem:
                pass
        if problem:
            raise JobProblem(problem)
        return result

    names = " ".join(own_names(d) for d in documents)
    composed = None if feedback else compose_program(checked, frames, names)  # a part is read alone
    if composed is not None:  # every word read against a table's own schema: the program without a model
        try:
            result = check(composed, written_by_model=False)
        except JobProblem:
            result = None
        if result is not None:
            return _computed(result, notes, share, counted, fall)
    if llm is None:
        return None
    schema = schema_text(frames, question=question)
    user = render("program_user.j2", schema=data_block(schema), question=asked, feedback=feedback or "")
    try:
        # the retry decodes under the frames' grammar: a second program names only columns and labels they hold (a
        # first program decoded under it read the wrong row more often, tuning on q14: 34 right and 11 confidently
        # wrong of 72, against 38 and 9 with the retry alone constrained)
        done = run_job(llm, program_job(), user, check, retry_grammar=lambda _first: program_grammar(frames))
    except Stopped:
        raise
    except JobFailed as exc:
        reason = re.sub(r"\s+", " ", exc.problems[-1]).strip()
        reason = reason if len(reason) <= 240 else reason[:239].rstrip() + "…"
        tried = program_of(exc.replies[-1]) or exc.replies[-1]
        return Computed(f"{COULD_NOT}: {reason}", [], [f"The last program tried: {tried.strip()}"], found=False)
    except LLMError:
        return None  # the model failed: the passages may still answer
    if done.value is None:
        return None
    return replace(_computed(done.value, notes, share, counted, fall), retries=done.retries)


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
    if misread(result, frames):
        return None
    return _computed(result, notes, share=False)


def _computed(
    result: ProgramResult, notes: dict[str, str], share: bool, count: bool = False, fall: bool = False
) -> Computed:
    """The answer as the reply shows it; a share of a whole computed as a number is said as a percent
    ("15.06%", not "15.0584"); with ``count`` (the question asks how many), a list of row names as their number
    with the names ("3 (a, b, c)"); with ``fall`` (the question asks by how much a figure fell), a negative
    change as the size of the fall ("fell by 218", not "-218"), the program's sign said in the workflow."""
    left_out = [notes[name] for name in result.frames if name in notes]
    if fall and is_number(result.value) and float(result.value) < 0:
        size = -float(result.value)
        left_out.append(f"The program's value is {result.text}: a fall of {format_number(size)}.")
        result = replace(result, value=size, text=format_number(size))
    answer = shown(result)
    if share and is_number(result.value) and "%" not in answer:
        answer = f"{format_number(round(float(result.value), 2))}%"
    if count and labels(result.value):  # "how many benchmarks …" answered with the rows' names: they are counted
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
