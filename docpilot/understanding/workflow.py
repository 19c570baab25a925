"""Questions answered by a small program over records (FlowMind §3): pick the values, compute in Python.

A question is read into a :class:`Workflow` — an operation (look up, ratio, difference, total,
average, largest, smallest, which-ones, how-many, which-fell) over fields (labels) of records — by
code, not by the model: the words of the question are matched against the labels and record names
the documents actually have. The workflow's plain-language summary is shown before its answer, and a
person's feedback ("use the total purchase sale instead") re-plans it. Every value read carries the
page it was read on; the model never does arithmetic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from docpilot.understanding.accounting import Reading
from docpilot.understanding.records import Field, Record, find_named, label_score, match_label
from docpilot.understanding.textnorm import format_number, norm, stem, stems

__all__ = ["Workflow", "Finding", "plan_workflow", "run_workflow", "revise_workflow"]

_MORE = r"larger|bigger|greater|higher|more|smaller|less|lower|fewer"
_MAX_WORDS = r"largest|biggest|greatest|highest|most|maximum|top"
_MIN_WORDS = r"smallest|lowest|least|fewest|minimum"
_CHANGE = r"\b(fell|fall|decline|declined|decrease|decreased|drop|dropped|rise|rose|increase|increased|grew|grow)\b"


@dataclass
class Workflow:
    op: str  # lookup | ratio | difference | total | average | max | min | which | count | fell | rose
    labels: list[str]  # the fields it reads, in order
    names: list[str] = field(default_factory=list)  # the records it reads (empty: a group, see scope)
    scope: list[str] = field(default_factory=list)  # the files it reads; empty: all
    value: str = ""  # "which" keeps the records whose field equals this
    group: str = ""  # the record group it ranges over
    said: list[str] = field(default_factory=list)  # the question's names it chose records or files by

    def reading(self, records: list[Record]) -> Reading:
        """What the workflow read of the question (:mod:`.accounting`): its fields, the records' names and
        kind (their titles less the names, what a table's rows are), the value it keeps, the names it chose
        files by; what those stand under (the group's caption, the section heading); the fields it did not
        read; and, over a group, how many records it read ("the three milestone payments")."""
        members = self._members(records)
        matched = [*self.labels, *self.names, *self.said, self.value]
        context = [self.group.removeprefix("table:")] if not self.names else []
        for record in members[:3]:
            matched += [record.title.replace(record.name, " "), record.noun]  # "Item C.1 Fund: …", "Month"
            context += [record.heading, record.group.removeprefix("table:")]
        others = [lab for r in members[:3] for lab in r.fields if lab not in self.labels]
        numbers = (float(len(members)),) if not self.names and self.op != "count" else ()
        return Reading(self.op, _texts(matched), _texts(context), _texts(others), numbers)

    def summary(self, records: list[Record]) -> list[str]:
        """The plain-language steps, as shown before the answer."""
        where = f" in {', '.join(self.scope)}" if self.scope else ""
        fields = " and ".join(f"'{lab}'" for lab in self.labels)
        if self.names:
            steps = [f"Find {', '.join(self.names)}{where}.", f"Read {fields}."]
        else:
            count = len(self._members(records))
            kind = self.group[6:] if self.group.startswith("table:") else f"'{self.group}'"
            steps = [f"Find every {kind} record{where} ({count} found)."]
            steps += [f"Read {fields} of each."] if fields else []
        steps.append(
            {
                "lookup": "Report the value.",
                "ratio": "Divide the first value by the second.",
                "difference": "Subtract the second value from the first.",
                "total": "Add the values up.",
                "average": "Take the average of the values.",
                "max": "Name the one with the largest value.",
                "min": "Name the one with the smallest value.",
                "which": f"Keep those whose value is '{self.value}'.",
                "count": f"Keep those whose value is '{self.value}' and count them." if self.value else "Count them.",
                "fell": "Name the rows whose value is lower than the row before.",
                "rose": "Name the rows whose value is higher than the row before.",
            }[self.op]
        )
        return steps

    def _members(self, records: list[Record]) -> list[Record]:
        chosen = [r for r in records if (not self.scope or r.file in self.scope)]
        if self.names:
            return [r for r in chosen if r.name in self.names]
        return [r for r in chosen if r.group == self.group]


@dataclass
class Finding:
    answer: str
    citations: list[tuple[str, int, str]]  # file, page, quote
    workflow: Workflow
    steps: list[str]
    value: float | str | list[str] | None = None


def plan_workflow(question: str, records: list[Record], file_texts: dict[str, str]) -> Workflow | None:
    """The workflow ``question`` asks for over ``records``, or None when it is not that kind of question."""
    q = norm(question)
    named = find_named(question, records)
    rest = q
    for record in named:
        rest = rest.replace(norm(record.name), " ")
    scope, scope_phrase = _scope(question, file_texts, named)
    names = list(dict.fromkeys(r.name for r in named))
    workflow = _plan(q, rest, records, named, names, scope)
    if workflow is not None:  # what it chose files by is read too: a name on a first page, a registrant's name
        chosen = [r.name for r in named if r.file in workflow.scope] if workflow.scope != scope else []
        workflow.said = [scope_phrase, *chosen]
    return workflow


def _plan(
    q: str, rest: str, records: list[Record], named: list[Record], names: list[str], scope: list[str]
) -> Workflow | None:
    """The workflow of a question ``q`` (``rest``: without the named records' names)."""
    named_labels = [lab for r in named for lab in r.fields]
    group = _group(rest, records, scope)
    if not group and named:  # "how many of the Quarry Hill funds …": the registrant's name held the group's word
        whole = _group(q, records, scope)
        group = whole if whole and not any(r.group == whole for r in named) else group

    two = _two_fields(rest)
    if two and named:
        first, second = (match_label(p, named_labels) for p in two[1:])
        if first and second and first != second:
            return Workflow(two[0], [first, second], names, scope)
    if group and _counts(q, records, group) and not _label_for(rest, _group_labels(records, group)):
        return Workflow("count", [], [], scope, group=group)
    if named and len(names) == 1:
        label = _label_for(rest, named_labels)
        if label and not (_period(label) and all(r.group.startswith("table:") for r in named)):
            # a table row at a year is read by the cells, which check every word of the question (not
            # "net sales" when "net sales of Europe" is asked); what they decline is not read again here
            return Workflow("lookup", [label], names, scope)
    if not named:
        unnamed = _unnamed_lookup(rest, records, scope)
        if unnamed:
            return unnamed
    fell = re.search(
        r"\b(fell|fall|decline|declined|decrease|decreased|drop|dropped|rise|rose|increase|increased|grew|grow)\b", q
    )
    if fell and re.search(r"\bwhich|what\b", q):
        for g in _groups(records, scope):
            label = _label_for(rest, _group_labels(records, g), minimum=0.99)
            if label:
                op = "fell" if fell.group(1)[:2] in ("fe", "fa", "de", "dr") else "rose"
                return Workflow(op, [label], [], scope, group=g)
    if _aggregate(q):
        for g in ([group] if group else []) + _groups(records, scope):
            label = _label_for(rest, _group_labels(records, g))
            inside = scope or _outside_names(named, g, records)
            if label and g.startswith("table:") and _period(label):
                continue  # "combined net sales of A and B in 2019": a year names a column, not which rows to add
            if label and _numeric(records, g, label, inside):
                aggregate = _aggregate(_without(q, label)) or _aggregate(q)
                return Workflow(aggregate or "total", [label], [], inside, group=g)
        if group:  # "the total of the milestone payments": the group is named and has one column of amounts
            numeric = [lab for lab in _group_labels(records, group) if _numeric(records, group, lab, scope)]
            if len(numeric) == 1:
                return Workflow(_aggregate(q) or "total", numeric, [], scope, group=group)
    which = re.search(r"\bwhich\b", q)
    counted = re.search(r"\bhow many\b", q)
    if (which or counted) and group:  # "which funds use V as L"; "how many of them use V as L" counts those
        labels = _group_labels(records, group)
        values = {norm(f.value) for r in records if r.group == group for f in r.fields.values()}
        for record in records:
            if record.group != group:
                continue
            for lab, fld in record.fields.items():
                value = _said_value(fld.value, q, values)
                if value and lab in labels and _label_for(rest.replace(value, " "), [lab]):
                    return Workflow("which" if which else "count", [lab], [], scope, value=fld.value, group=group)
    return None


_LEGAL_FORM = re.compile(
    r"(?:,?\s+(?:l\.?\s?p\.?|l\.?l\.?[cp]\.?|inc\.?|ltd\.?|limited|n\.?a\.?|plc|co\.?|corp\.?|corporation|s\.?a\.?|gmbh|ag))+$"
)


def _said_value(value: str, q: str, values: set[str]) -> str:
    """How the question ``q`` says a field's ``value``: whole, or without its legal form ("Bloomberg" for
    "Bloomberg L.P.") when no other value of the group reads the same; "" when it does not say it."""
    whole = norm(value)
    if len(whole) >= 4 and re.search(rf"(?<!\w){re.escape(whole)}(?!\w)", q):
        return whole
    short = _without_legal_form(whole)
    if short == whole or len(short) < 4 or not re.search(rf"(?<!\w){re.escape(short)}(?!\w)", q):
        return ""
    alike = {v for v in values if v == short or v.startswith(short + " ")}
    return short if len({_without_legal_form(v) for v in alike}) == 1 else ""


def _without_legal_form(value: str) -> str:
    return _LEGAL_FORM.sub("", value).strip(" ,")


_COUNTED = re.compile(
    r"\bhow many ((?:[\w'-]+ ){0,2}?[\w'-]+?) "
    r"(?:are|is|was|were|do|does|did|have|has|had|should|can|will|would|in|of|on|across|there)\b"
)


def _counts(q: str, records: list[Record], group: str) -> bool:
    """ "How many funds are described …" counts the group's records; "how many days should you allow …" or
    "how many shares were outstanding" asks for a number the text gives, not for records to count."""
    counted = _COUNTED.search(q)
    return counted is not None and bool(set(stems(counted.group(1))) & _title_words(records, group))


def _unnamed_lookup(rest: str, records: list[Record], scope: list[str]) -> Workflow | None:
    """ "When does the passport expire?" over one form: a label all of whose words the question has, held by
    exactly one record, and covering a good share of what the question asks about."""
    files = {r.file for r in records if not scope or r.file in scope}
    if len(files) != 1 or not re.match(r"^\s*(what|who|when|where|which|how)\b", rest):
        return None
    plain = [r for r in records if not r.group.startswith("table:")]
    label = _label_for(rest, [lab for r in plain for lab in r.fields], minimum=1.0)
    if not label:
        return None
    holders = [r for r in plain if label in r.fields]
    asked = set(stems(rest))
    if len(holders) != 1 or not asked or len(set(stems(label)) & asked) * 3 < len(asked):
        return None
    return Workflow("lookup", [label], [holders[0].name], scope)


def _without(text: str, label: str) -> str:
    """``text`` without the words of ``label`` ("total monthly average net assets" less the label = "total")."""
    drop = set(stems(label))
    return " ".join(w for w in text.split() if stem(w.strip("?,.")) not in drop)


def _outside_names(named: list[Record], group: str, records: list[Record]) -> list[str]:
    """Files of records the question names that are not members of ``group``: "the funds of Lakeshore Funds
    Trust" names the registrant, whose file holds the funds meant."""
    outside = [r for r in named if r.group != group]
    return list(dict.fromkeys(r.file for r in outside)) if outside else []


def _two_fields(q: str) -> tuple[str, str, str] | None:
    match = re.search(r"\bratio (?:of|between) (.+?) (?:to|and) (.+)", q)
    if match:
        return "ratio", match.group(1), match.group(2)
    match = re.search(rf"\bhow (?:much|many) (?:{_MORE})\b(?: \w+)? (?:is|are|was|were) (.+?) than (.+)", q)
    if match:
        return "difference", match.group(1), match.group(2)
    match = re.search(r"\bdifference between (.+?) and (.+)", q)
    if match:
        return "difference", match.group(1), match.group(2)
    return None


def _aggregate(q: str) -> str | None:
    # "which fund reported the larger assets": of the two, the one with the larger value
    if re.search(rf"\bwhich\b.*\b(?:{_MAX_WORDS}|the (?:larger|bigger|greater|higher))\b", q):
        return "max"
    if re.search(rf"\bwhich\b.*\b(?:{_MIN_WORDS}|the (?:smaller|lower|lesser))\b", q):
        return "min"
    if re.search(r"\b(?:average|mean)\b", q):
        return "average"
    if re.search(r"\b(?:total|sum|combined|altogether|add up|adds up)\b", q):
        return "total"
    return None


def _label_for(text: str, labels: list[str], minimum: float = 0.5) -> str | None:
    """The label most of whose words the text has (units aside), if it has at least ``minimum`` of them; None
    when two labels fit equally well ("return" of "1-year return" and "3-year return")."""
    want = set(stems(text))
    scored: list[tuple[float, int, str]] = []
    for label in set(labels):
        have = set(stems(label)) - {"usd", "eur", "gbp", "million", "thousand", "billion"}
        if have and len(have & want) / len(have) >= minimum:
            scored.append((len(have & want) / len(have), len(have & want), label))
    scored.sort(reverse=True)
    if not scored or (len(scored) > 1 and scored[0][:2] == scored[1][:2]):
        return None
    return scored[0][2]


def _scope(question: str, file_texts: dict[str, str], named: list[Record]) -> tuple[list[str], str]:
    """Files the question restricts itself to by a proper name their first page has ("… of Lakeshore Funds
    Trust"), with that name; ([], "") when it names none."""
    names = {norm(r.name) for r in named}
    phrases = [p for p in re.findall(r"(?:[A-Z][\w&'.-]*(?: (?:of|and|&) )?(?: |$)){2,}", question)]
    for phrase in phrases:
        phrase = norm(phrase)
        if any(phrase in n or n in phrase for n in names):
            continue
        hits = [name for name, text in file_texts.items() if phrase in text]
        if hits and len(hits) < len(file_texts):
            return hits, phrase
    return [], ""


def _groups(records: list[Record], scope: list[str]) -> list[str]:
    return list(dict.fromkeys(r.group for r in records if r.group and (not scope or r.file in scope)))


def _group_labels(records: list[Record], group: str) -> list[str]:
    return list(dict.fromkeys(lab for r in records if r.group == group for lab in r.fields))


def _group(q: str, records: list[Record], scope: list[str]) -> str:
    """The group a question ranges over: the one whose records' first label or titles share a word with it."""
    want = set(stems(q))
    best = ("", 0)
    for group in _groups(records, scope):
        members = [r for r in records if r.group == group]
        title_words = _title_words(records, group)
        score = len(want & title_words)
        if score > best[1] or (
            score == best[1] and best[0] and len(members) > 1 and group.startswith("table:") is False
        ):
            best = (group, score) if score > best[1] else best
    return best[0]


def _period(label: str) -> bool:
    """A column named by its year ("2019", "Year Ended December 31, 2019"): a period, not a field."""
    return bool(re.search(r"\b(?:19|20)\d\d\b", label))


def _title_words(records: list[Record], group: str) -> set[str]:
    members = [r for r in records if r.group == group]
    return set(stems(group)) | {w for r in members[:3] for w in stems(r.title) if w not in stems(r.name)}


def _numeric(records: list[Record], group: str, label: str, scope: list[str]) -> bool:
    values = [
        r.fields[label].number
        for r in records
        if r.group == group and label in r.fields and (not scope or r.file in scope)
    ]
    return bool(values) and sum(v is not None for v in values) * 2 >= len(values)


def run_workflow(workflow: Workflow, records: list[Record]) -> Finding | None:
    """Carry the workflow out; None when the values it needs are not there."""
    members = workflow._members(records)
    steps = workflow.summary(records)
    if not members:
        return None
    if workflow.op == "count":
        cites = [(r.file, r.page, r.title) for r in members[:5]]
        if workflow.value:  # "how many use V as L": those whose field holds V, cited by that field
            held = [(r, r.fields[lab]) for r in members for lab in workflow.labels if lab in r.fields]
            kept = _holding(held, workflow.value)
            if not kept:
                return Finding("0", [], workflow, steps, 0.0) if held else None
            members = [r for r, _ in kept]
            cites = _spread([(r.file, f.page, f.quote) for r, f in kept])
        names = list(dict.fromkeys(r.name for r in members))
        return Finding(f"{len(names)} ({', '.join(names[:30])})", cites, workflow, steps, len(names))
    fields: list[tuple[Record, Field]] = [
        (r, r.fields[lab]) for r in members for lab in workflow.labels if lab in r.fields
    ]
    if not fields:
        return None
    if workflow.op == "lookup":
        record, fld = fields[0]
        return Finding(fld.value, [(record.file, fld.page, fld.quote)], workflow, steps, fld.value)
    if workflow.op in ("ratio", "difference"):
        first = next(((r, f) for r, f in fields if f.label == workflow.labels[0]), None)
        second = next(((r, f) for r, f in fields if f.label == workflow.labels[1]), None)
        if not first or not second or first[1].number is None or second[1].number is None:
            return None
        a, b = first[1].number, second[1].number
        if workflow.op == "ratio":
            if b == 0:
                return None
            value = a / b
            text = f"{format_number(value)} ({first[1].value} / {second[1].value})"
        else:
            value = a - b
            text = f"{format_number(value)} ({first[1].value} − {second[1].value})"
        cites = [(r.file, f.page, f.quote) for r, f in (first, second)]
        return Finding(text, cites, workflow, steps, value)
    if workflow.op == "which":
        kept = _holding(fields, workflow.value)
        names = list(dict.fromkeys(r.name for r, _ in kept))
        if not names:
            return Finding("None of them.", [], workflow, steps, [])
        return Finding(", ".join(names), _spread([(r.file, f.page, f.quote) for r, f in kept]), workflow, steps, names)
    numbered = [(r, f, f.number) for r, f in fields if f.number is not None]
    if not numbered:
        return None
    cites = [(r.file, f.page, f.quote) for r, f, _ in numbered]
    if workflow.op in ("total", "average"):
        total = sum(v for _, _, v in numbered)
        value = total if workflow.op == "total" else total / len(numbered)
        parts = " + ".join(f.value for _, f, _ in numbered[:12])
        shown = parts if workflow.op == "total" else f"({parts}) / {len(numbered)}"
        return Finding(
            f"{format_number(value)} = {shown}" if len(numbered) <= 6 else format_number(value),
            _spread(cites),
            workflow,
            steps,
            value,
        )
    if workflow.op in ("max", "min"):
        pick = max if workflow.op == "max" else min
        record, fld, value = pick(numbered, key=lambda item: item[2])
        return Finding(
            f"{record.name} ({fld.value})", [(record.file, fld.page, fld.quote)], workflow, steps, record.name
        )
    if workflow.op in ("fell", "rose"):
        picked = []
        for (_, _, v0), (r1, f1, v1) in zip(numbered, numbered[1:], strict=False):
            if (v1 < v0) if workflow.op == "fell" else (v1 > v0):
                picked.append((r1, f1))
        names = [r.name for r, _ in picked]
        return Finding(
            ", ".join(names) or "None.", [(r.file, f.page, f.quote) for r, f in picked][:5], workflow, steps, names
        )
    return None


def _texts(texts: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t for t in texts if t))


def _holding(fields: list[tuple[Record, Field]], value: str) -> list[tuple[Record, Field]]:
    """The (record, field) pairs whose field holds ``value`` ("which …" keeps them, "how many …" counts them)."""
    return [(r, f) for r, f in fields if norm(f.value) == norm(value)]


def _spread(cites: list[tuple[str, int, str]], limit: int = 5) -> list[tuple[str, int, str]]:
    """At most ``limit`` citations, one per file and page first."""
    seen: set[tuple[str, int]] = set()
    first = []
    for cite in cites:
        if (cite[0], cite[1]) not in seen:
            seen.add((cite[0], cite[1]))
            first.append(cite)
    return first[:limit]


def revise_workflow(workflow: Workflow, feedback: str, records: list[Record]) -> Workflow:
    """Apply a person's feedback on the summary: "use X instead of Y", "use X", "only in FILE"."""
    text = norm(feedback)
    labels = list(dict.fromkeys(lab for r in records for lab in r.fields))
    swap = re.search(r"(?:use|take|read) (?:the )?(.+?) (?:instead of|rather than|not) (?:the )?(.+)", text)
    if swap:
        new, old = match_label(swap.group(1), labels), match_label(swap.group(2), workflow.labels, minimum=0.3)
        if new and old:
            return replace(workflow, labels=[new if lab == old else lab for lab in workflow.labels])
    swap = re.search(r"(?:not|instead of) (?:the )?(.+?),? (?:but|use) (?:the )?(.+)", text)
    if swap:
        old, new = match_label(swap.group(1), workflow.labels, minimum=0.3), match_label(swap.group(2), labels)
        if new and old:
            return replace(workflow, labels=[new if lab == old else lab for lab in workflow.labels])
    use = re.search(r"(?:use|take|read) (?:the )?(.+?)(?: instead)?$", text)
    if use and len(workflow.labels) == 1:
        new = match_label(use.group(1), labels)
        if new:
            return replace(workflow, labels=[new])
    for op, pattern in (
        ("average", r"\baverage|mean\b"),
        ("total", r"\btotal|sum\b"),
        ("max", r"\blargest|highest\b"),
        ("min", r"\bsmallest|lowest\b"),
    ):
        if re.search(pattern, text) and workflow.op in ("total", "average", "max", "min"):
            return replace(workflow, op=op)
    _ = label_score  # kept for callers matching phrases to labels
    return workflow
