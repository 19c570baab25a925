"""The fast path: plan a request with zero LLM calls when every clause is understood.

Clauses are matched by rules (tool vocabularies + argument patterns); the intents are
ordered (unlock first, edits in the order asked, conversions after edits, locking
last), chained through ``$name`` references, and returned as a Plan. Anything not
fully understood returns None, and the request goes to the LLM planner.

Around the instructions: a clause that only says which file ("In the exhibits file, …") is used by the
grounding; an aside that asks for nothing ("(it's just an advert)", "It's for my Year 9 class", "before it
goes on the website") is set aside, but only when it holds none of the words that could change what is
meant (a page, number, quote, colour, place, format, modifier, tool word, file, negation or judgement); a
statement that explains the instruction before it ("make it smaller? it's too big to email") is read with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from docpilot.files import FileInfo
from docpilot.planning.fastpath import rules as r
from docpilot.planning.fastpath import rules_files as f
from docpilot.planning.fastpath import rules_pages as p
from docpilot.planning.fastpath import rules_scans as s
from docpilot.planning.fastpath.accounting import bind_arguments, leftovers
from docpilot.planning.fastpath.asked import file_question
from docpilot.planning.fastpath.extract import pages_in, password_in
from docpilot.planning.fastpath.grounding import ground_files, names_a_file, word_aliases
from docpilot.planning.fastpath.rules import Context, Intent, NeedInfo
from docpilot.planning.fastpath.spans import VERB_TASKS, Span, deciding, tag
from docpilot.planning.fastpath.text import ASKS_HOW, VERBS, normalise, split_request
from docpilot.plans.plan import Plan
from pdftools import all_tools, get_tool
from pdftools.errors import PdfToolError
from pdftools.pages import parse_pages

__all__ = ["fast_plan", "fast_reading", "Reading", "partial_plan", "hint_tools", "NeedInfo", "RULE_ORDER", "LOGIC"]

RULE_ORDER: list[Callable[[str, str, Context], list[Intent] | None]] = [
    r.check_password,
    r.count_pages,
    file_question,  # "does it have form fields?": a fact of the file, by the words of the tool that reports it
    r.remove_password,
    p.blank_pages,
    p.summarize,
    p.summary_page,
    p.add_page_with_text,
    r.page_numbers,
    r.header_footer,
    r.watermark,
    r.signature,
    p.add_image,
    r.comment,
    r.annotation_tools,
    f.sanitize,
    f.form_tools,
    f.fill_form,
    f.set_metadata,
    f.get_metadata,
    f.find_entities,
    f.search,
    r._markup("highlight_text", "highlight|highlighting|mark"),
    r._markup("underline_text", "underline|underscore"),
    r._markup(
        "strikeout_text", "strike ?out|strikethrough|strike through|cross out|strike|(?:draw|put) a line through"
    ),
    r.redact,
    p.keep_or_drop,
    p.delete_pages,
    p.extract_pages,
    s.fix_orientation,
    s.deskew,
    p.rotate,
    p.reorder,
    p.split,
    p.crop,
    p.combine,
    p.images_to_pdf,
    p.compress,
    f.duplicate,
    f.ocr,
    f.extraction,
    f.convert,
    r.add_password,
]

# A clause of politeness only: "thanks in advance", "ok thank you so much" (never "thank you in red")
_FILLER = re.compile(
    r"^(?:please|thanks?|thank you|ok(?:ay)?|cheers|hi|hey|hello|hiya|good\s+(?:morning|afternoon|evening)|"
    r"(?:for|in) (?:this|the|these) (?:file|document|"
    r"pdf|contract|report)s?)(?:\s*(?:so\s+much|very\s+much|a\s+lot|a\s+bunch|in\s+advance|again|thanks?|"
    r"thank\s+you|please|cheers|there|team|all|everyone|x+|:\)|[!.]+))*$",
    re.IGNORECASE,
)
# Words that may name a part of a document by its structure (read by fastpath.parts when one is said)
_PART_WORDS = re.compile(
    r"\b(?:chapters?|sections?|parts?|items?|articles?|exhibits?|tables?\s*\d|figures?\s*\d|fig\.\s*\d|appendi|"
    r"annex|index|contents|toc|front\s+matter|prelims|preliminary|preface|foreword|introduction|conclusion|afterword|"
    r"epilogue|prologue|acknowledg|glossary|bibliography)",
    re.IGNORECASE,
)
# "… for the second file too", "… on invoice.pdf as well": another file besides one named, so which files is unsure
_TOO = re.compile(
    r"(?:\.pdf|\b(?:file|document|pdf|one|ones|copy|version)s?)\s+(?:too|as\s+well|also)\b", re.IGNORECASE
)
# Logic beyond a straight line (conditions, per-match loops) is for the LLM-written program path.
LOGIC = re.compile(
    r"\b(?:if|unless|otherwise|else|whether or not|in case)\b|\bonly when\b|"
    r"\b(?:every|each|all|any)\s+(?:page|pages|file|files|document|documents)\s+(?:that|which|where|containing|"
    r"mentioning|having|with(?!\s+(?:['\"‘“]|(?-i:[A-Z][A-Z0-9'-]+\b)(?!\s+(?:on|in)\s+(?:it|them)\b)|"
    r"(?:nothing|no\s+content)\s+(?:on|in)\s+(?:it|them)\b)))\b|"
    r"\b(?:whatever|whichever)\b|\bafter (?:every|each) page (?:that|which|containing|with)\b|\bfor each\b|"
    r"\b(?:pages?|files?|ones)\s+(?:that|which|where)\s+(?:mention|contain|have|has|include|talk|are|is|were|look|"
    r"seem|appear|show|need)",
    re.IGNORECASE,
)


def _match(clause: str, ctx: Context) -> list[Intent] | None:
    both = _two_objects(clause, ctx)
    if both:
        return both
    low = clause.lower()
    for rule in RULE_ORDER:
        found = rule(clause, low, ctx)
        if found:
            if ASKS_HOW.match(low) and any(get_tool(i.task).kind == "pdf" for i in found):
                return None  # "is anything upside down?" asks; a change to the file is not what it says
            if found[0].task not in ("add_password", "remove_password", "check_password"):
                found = found + r._password_suffix(clause, ctx)
            return found + _tail(clause, found, ctx)
    return None


def _two_objects(clause: str, ctx: Context) -> list[Intent] | None:
    """'add a DRAFT watermark and page numbers to the contract': one verb, two objects of different tools."""
    verb = re.match(r"^\s*(\w+)\b", clause)
    parts = re.split(r"\s+and\s+(?:also\s+)?(?!\d)", clause, maxsplit=1)  # "pages 3 and 4" is one reference
    if not verb or len(parts) < 2 or parts[0].count("⟦") != parts[0].count("⟧"):
        return None
    if _A_PAGE.match(parts[1]) and (_NUMBERED.match(parts[1]) or not _EXCEPT.search(parts[0])):
        return None  # "delete page 1 and page 10", "… and the back page": one list of pages
    try:
        head = _match_head(parts[0], ctx)
        tail = _match_head(f"{verb.group(1)} {parts[1]}", ctx)
    except NeedInfo:  # a half that cannot be read alone: the split is wrong, not the request
        return None
    if not head or not tail or {i.task for i in head} & {i.task for i in tail}:
        return None
    return head + tail


# "page 10", "pages 4-6", "the back page", "the last two pages": a page reference, the rest of a list of pages
_A_PAGE = re.compile(
    r"(?:the\s+)?(?:(?:very\s+)?(?:first|last|final|back|front|cover|title|next|previous|second|third|fourth|fifth|"
    r"odd|even|two|three|four|five|\d+(?:st|nd|rd|th)?)\s+)*(?:pages?|pp?\.?\s*\d)\b"
    r"(?!\s*(?:numbers?|numbering|count|nos?\b|labels?|borders?|breaks?|size|layout|orientation))",
    re.IGNORECASE,
)


_NUMBERED = re.compile(r"pages?\s+\d", re.IGNORECASE)
# "drop all pages except the cover page and the back page": is the back page kept too, or dropped? handed on
_EXCEPT = re.compile(r"\b(?:except|but|other\s+than|apart\s+from|besides)\b", re.IGNORECASE)


def _tail(clause: str, found: list[Intent], ctx: Context) -> list[Intent]:
    """'add page numbers and a DRAFT watermark': a second object after 'and' with the same verb."""
    m = re.match(r"^\s*(\w+)\b", clause)
    parts = re.split(r"\s+and\s+|,\s*", clause, maxsplit=1)
    if not m or len(parts) < 2 or "⟦" in parts[0] and "⟧" not in parts[0]:
        return []
    head, tail = parts
    if not re.search(r"\b(?:watermark|page numbers?|header|footer|signature|comment|stamp)\b", tail, re.IGNORECASE):
        return []
    low_tail = f"{m.group(1)} {tail}".lower()
    for rule in RULE_ORDER:
        try:
            extra = rule(f"{m.group(1)} {tail}", low_tail, ctx)
        except NeedInfo:  # "type my name, David Miller, as a signature": the tail is the same object, not a second
            return []
        if extra and extra[0].task != found[0].task:
            head_found = _match_head(head, ctx)
            if head_found and head_found[0].task == found[0].task:
                found[:] = head_found
                return extra
            return []
    return []


def _match_head(head: str, ctx: Context) -> list[Intent] | None:
    low = head.lower()
    for rule in RULE_ORDER:
        found = rule(head, low, ctx)
        if found:
            return found
    return None


def hint_tools(request: str, files: dict[str, FileInfo]) -> list[str]:
    """Tools the rules recognise in any clause, even when the whole request is not understood.

    For the LLM planner's tool selection: the vocabulary of "underline", "watermark",
    "PowerPoint" is reliable even when a clause's arguments are not.
    """
    req = split_request(request)
    pdfs = [n for n, i in files.items() if i.kind == "pdf"]
    images = [n for n, i in files.items() if i.kind == "image"]
    ctx = Context(req.quotes, pdfs, images, files[pdfs[0]].pages if pdfs else None)
    found: list[str] = []
    for clause in req.clauses:
        low = clause.lower()
        for rule in RULE_ORDER:
            try:
                intents = rule(clause, low, ctx)
            except NeedInfo:
                continue
            for intent in intents or []:
                if intent.task not in found:
                    found.append(intent.task)
            if intents:
                break
        else:
            for pattern, task in _KEYWORDS:
                if re.search(pattern, low) and task not in found:
                    found.append(task)
    return found


# Verbs that name a tool even when the rest of the clause is not understood.
_KEYWORDS = [
    (r"\b(?:redact|black ?out|censor|anonymi[sz]e|mask)\b", "redact_text"),
    (r"\bhighlight", "highlight_text"),
    (r"\bunderline", "underline_text"),
    (r"\bstrike|\bcross out", "strikeout_text"),
    (r"\bwatermark", "add_watermark"),
    (r"\bcomment|\bnote\b", "add_comment"),
    (r"\bsign", "add_signature"),
    (r"\bsearch|\bfind|\bwhich pages?\b|\bwhere\b", "search_text"),
    (r"\bsummar", "extract_text"),
    (r"\btables?\b", "extract_tables"),
    (r"\bform\b|\bfield", "read_form"),
]


def result_name(task: str, used: set[str]) -> str:
    """The ``$name`` of a step's result: what the tool declares (``@tool(result_name=...)``), made unique."""
    base = get_tool(task).result_name
    name, n = base, 2
    while name in used:
        name, n = f"{base}_{n}", n + 1
    used.add(name)
    return name


@dataclass
class Reading:
    """What the fast path made of a request: the plan, the words that decided each step, the words it could not read."""

    plan: Plan | None
    words: dict[int, list[str]] = field(default_factory=dict)
    unread: list[str] = field(default_factory=list)


def fast_plan(request: str, files: dict[str, FileInfo]) -> Plan | None:
    """A plan for ``request`` with zero LLM calls, or None when a clause is not understood.

    Raises:
        NeedInfo: understood, but something only the user can say is missing.
    """
    return fast_reading(request, files).plan


def fast_reading(request: str, files: dict[str, FileInfo]) -> Reading:
    """:func:`fast_plan` with its reasons: which words decided each step, or which words were not understood."""
    # "evry page that mentions …" is logic once read as meant; "everything else stays as it is" is no "else" branch
    said = _REST_STAYS.sub(" ", normalise(request))
    if LOGIC.search(_REST_STAYS.sub(" ", request)) or LOGIC.search(said):
        return Reading(None, unread=[m.group(0) for m in LOGIC.finditer(said)] or ["if"])
    unread: list[str] = []
    found = _understood(request, files, skip_unknown=False, unread=unread)
    if not found:
        return Reading(None, unread=unread)
    plan, words = _assemble(*found)
    return Reading(plan, words)


def partial_plan(request: str, files: dict[str, FileInfo]) -> Plan | None:
    """The steps for the clauses the rules do understand (a draft for the LLM), or None."""
    try:
        found = _understood(request, files, skip_unknown=True)
        return _assemble(*found)[0] if found else None
    except NeedInfo:
        return None


def _understood(
    request: str, files: dict[str, FileInfo], skip_unknown: bool, unread: list[str] | None = None
) -> tuple[list[Intent], dict[str, FileInfo], list[str], str | None] | None:
    req = split_request(request)
    bracketed = _named_in_brackets(req.text, req.quotes, files)
    if bracketed != req.text:  # "OCR the letter from the bank (carta_banco.pdf)" → "OCR carta_banco.pdf"
        req = req.retold(bracketed)
    grounding = ground_files(req.text, files)
    if grounding.ambiguous:
        raise NeedInfo(f"Which file do you mean: {_either(grounding.ambiguous)}?", grounding.ambiguous)
    if grounding.said:  # "in the week 6 notes" → "in the lecture_notes_wk6.pdf": read like a typed file name
        req = req.retold(grounding.said)
    if _PART_WORDS.search(req.text):  # "delete the index" → "delete pages 339-352": the file's own parts, as pages
        from docpilot.planning.fastpath.parts import told_by_parts  # (its grammar is compiled only when needed)

        parted = told_by_parts(req.text, req.quotes, files, grounding.pdfs)
        if parted != req.text:
            req = req.retold(parted)
    too = _TOO.search(req.text)
    if too:
        if unread is not None:
            unread.append(too.group(0))
        return None
    pdfs = grounding.pdfs
    images = [n for n, i in files.items() if i.kind == "image"]
    first = files[pdfs[0]] if pdfs else None
    ctx = Context(req.quotes, pdfs, images, first.pages if first else None, request=req.text.lower())
    intents: list[Intent] = []
    password: str | None = None
    last: _Read | None = None  # the clause read before, to read a statement that follows it together with it
    held: tuple[str, bool] | None = None  # a question or statement not read alone, and whether it is a statement
    for clause in _described(req.clauses, ctx.page_count, files):
        clause = _without_asides(clause, req.quotes, files)
        if held is not None:  # "What does page 1 say? Just give me its text.", "The scan is in Spanish. OCR it."
            asked = _answered(*held, clause, ctx, req.quotes, files)
            if asked is None:
                if unread is not None:
                    unread.append(held[0])
                return None
            clause, held = asked, None
        if last is not None and _REPORT.fullmatch(clause) and all(_shows(i) for i in last.found):
            continue  # "Are there any comments? List them for me.": the look-up's answer is what is shown
        named = _OUTPUT_ONLY.fullmatch(clause)
        if named and intents:  # "… and save it as notes.txt": the name of the last result
            raw = named.group(1)
            intents[-1].args["output"] = req.quotes[int(raw[1:-1])] if raw.startswith("⟦") else raw
            continue
        if not clause or _only_a_file(clause, pdfs if grounding.mentioned or len(pdfs) == 1 else []):
            continue  # "In the exhibits file, redact …": which file, said apart from what to do
        locked = _LOCKED_WITH.fullmatch(clause)
        if locked:  # "This PDF is locked with 'abc123', unlock it": the password the file has now
            password = req.quotes[int(locked.group(1)[1:-1])]
            continue
        found, spans, left = _read(clause, ctx, req.quotes, files) if not _SAID_OF.match(clause) else (None, [], [])
        report = _ASKS_WHAT.search(clause) if found is None or left else None
        if report:  # "which pages from 2 to 5 have markup on them, and what does it say?": the look-up's answer
            head = _read(clause[: report.start()], ctx, req.quotes, files)
            if head[0] and not head[2] and all(_reads_only(i) for i in head[0]):
                found, spans, left = head
                clause = clause[: report.start()]
        if (
            (found is None or left)
            and last is not None
            and (_STATEMENT.match(clause) or _only_arguments(clause, req.quotes, files))
        ):
            joined = _joined(last, clause, ctx, req.quotes, files)  # "make it smaller, it's too big to email"
            if joined is not None:
                del intents[last.before :]
                found, spans, left = joined.found, joined.spans, []
                clause = joined.clause
        if (found is None or left) and _REST_STAYS.fullmatch(clause) and last and _scoped(last.found):
            continue  # "remove the comments from pages 1-3; leave everything else alone": what the step does anyway
        if found is None and clause.endswith("?") and _QUESTION.match(clause) and not skip_unknown:
            held = clause, False
            continue
        if found is None:
            pw = password_in(clause, req.quotes) if re.search(r"\bpassword\b", clause, re.I) else None
            if pw and not _said_besides(clause, pw, req.quotes, files) and not _SETS_PASSWORD.search(clause):
                password = pw  # "the password is abc123": the one the file has now
                continue
            if pw and unread is not None:
                unread.append(clause)
            if _FILLER.match(clause) or clause.endswith(":") or skip_unknown or _aside(clause, req.quotes, files):
                continue
            if _STATEMENT.match(clause) or _SAID_OF.match(clause):
                held = clause, True  # "The scan is in Spanish. Make it searchable.": read with what follows
                continue
            if unread is not None:
                unread.append(clause)
            return None
        left = left or _others(spans, pdfs, files)
        if left and not skip_unknown:
            if unread is not None:
                unread.extend(s.text for s in left)
            return None
        last = _Read(clause, found, spans, len(intents), ctx.last_target, ctx.last_value)
        for intent in found:
            intent.decided = deciding(spans)
            intent.files = _named_for(intent, spans, files, pdfs)
        intents.extend(found)
        targets = [i.target for i in found if i.target is not None]
        if targets:
            ctx.last_target = targets[-1]
        if any(i.task == "summarize" for i in found):
            ctx.last_value = "summary"
    if held is not None:
        if unread is not None:
            unread.append(held[0])
        return None
    if not intents:
        return None
    if _turned_twice(intents, ctx.page_count):  # "this file is upside down, rotate page 2 180°": which turn is meant?
        if unread is not None:
            unread.append("rotate_pages")
        return None
    intents = _asked_once(intents)
    if any(a.task == b.task and a.args == b.args for a, b in zip(intents, intents[1:], strict=False)):
        if unread is not None:  # the same step twice from two clauses: "reverse" twice undoes itself
            unread.append(intents[-1].task)
        return None
    intents = _merged(intents)
    if password and not any(files[n].encrypted for n in pdfs if n in files):
        takers = [i for i in intents if "password" in get_tool(i.task).arg_docs and "password" not in i.args]
        if not takers:  # a password said and used by nothing: not understood
            if unread is not None:
                unread.append("password")
            return None
        takers[0].args["password"] = password
    merging = any(i.task in ("combine_files", "images_to_pdf") for i in intents)
    if merging and not _in_merged(intents, files):  # a step said for one input that cannot be put on the merged file
        if unread is not None:
            unread.extend(n for i in intents for n in i.files)
        return None
    if len(pdfs) > 1 and not grounding.mentioned and not merging:
        raise NeedInfo(f"Which file should I change: {_either(pdfs)} (or all of them)?", [*pdfs, "all of them"])
    return intents, files, pdfs, password


def _named_for(intent: Intent, spans: list[Span], files: dict[str, FileInfo], pdfs: list[str]) -> tuple[str, ...]:
    """The uploaded PDFs the clause names ``intent`` for ("delete page 2 of b.pdf", "in the second file …"), when
    they are fewer than the request's; a file that is one of its arguments (an image to add, a file to insert)
    is not where it acts."""
    taken = {str(v).lower() for value in intent.args.values() for v in (value if isinstance(value, list) else [value])}
    named: set[str] = set()
    for span in spans:
        if span.kind == "file":
            named.update(n for n in ground_files(span.text, files).pdfs if n.lower() not in taken)
    return tuple(n for n in pdfs if n in named) if named and not set(pdfs) <= named else ()


def _in_merged(intents: list[Intent], files: dict[str, FileInfo]) -> bool:
    """'merge the two files, then rotate the pages from the second one': a step said for one input of the merge
    acts on the pages that input has in the merged file (its pages counted after those of the inputs before
    it). False when one cannot be put so: no pages to act on, a page count not known, a page it does not have."""
    merge = next((i for i in intents if i.task == "combine_files"), None)
    order = [str(n) for n in merge.args.get("files", [])] if merge is not None else []
    for intent in intents:
        if not intent.files:
            continue
        name = intent.files[0]
        if len(intent.files) > 1 or name not in order or "pages" not in intent.args:
            return False
        counts = [files[n].pages if n in files else None for n in order]
        at = order.index(name)
        count, earlier = counts[at], counts[:at]
        if count is None or None in earlier:
            return False
        before = sum(c or 0 for c in earlier)
        try:
            pages = [before + index + 1 for index in parse_pages(intent.args["pages"], count)]
        except PdfToolError:
            return False
        intent.args["pages"] = _pages_spec(pages)
        intent.files = ()
    return True


def _pages_spec(pages: list[int]) -> str:
    """[4, 5, 7] → "4-5,7" (runs of pages in the order given)."""
    runs: list[list[int]] = []
    for page in pages:
        if runs and page == runs[-1][-1] + 1:
            runs[-1].append(page)
        else:
            runs.append([page])
    return ",".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)


@dataclass
class _Read:
    """A clause read into steps: kept so a statement after it ("it's too big to email") can be read with it."""

    clause: str
    found: list[Intent]
    spans: list[Span]
    before: int  # how many steps there were before this clause's
    target: Any = None  # the context the clause was read in
    value: str | None = None


def _read(
    clause: str, ctx: Context, quotes: list[str], files: dict[str, FileInfo]
) -> tuple[list[Intent] | None, list[Span], list[Span]]:
    """The steps a clause asks for, its spans, and the spans no step accounts for."""
    found = _match(clause, ctx)
    if found is None:
        return None, [], []
    spans = tag(clause, quotes, tuple(files))
    bind_arguments(spans, found, clause)
    return found, spans, leftovers(spans, found, list(files), ctx.page_count)


# "List them for me", "tell me where it is", "show me": asks to be shown what the look-up before it found
_REPORT = re.compile(
    r"(?:and\s+)?(?:please\s+)?(?:just\s+)?(?:(?:list|show|give|send|read)\s+(?:them|it|those|these|the\s+results?)"
    r"(?:\s+(?:to|for)\s+me)?|(?:show|tell|give)\s+me(?:\s+(?:them|it|those|these|the\s+results?))?"
    r"(?:\s+(?:where|what)\s+(?:it\s+is|they\s+are|it\s+says|they\s+say))?|let\s+me\s+know(?:\s+(?:where|what)"
    r"\s+(?:it\s+is|they\s+are|it\s+says|they\s+say))?)(?:\s+please)?[.!]?",
    re.IGNORECASE,
)
# "…, and what does it say?", "… and where are they?": what the look-up before it shows anyway
_ASKS_WHAT = re.compile(
    r",?\s+and\s+(?:what\s+(?:does|do)\s+(?:it|they|that|those|each\s+one)\s+say|where\s+(?:is|are)\s+(?:it|they)|"
    r"what\s+(?:is|are)\s+(?:it|they|those))\s*\??$",
    re.IGNORECASE,
)
# A question, said before the instruction that asks for its answer ("What does page 1 say? Just give me its text.")
_QUESTION = re.compile(r"(?:what|which|where|who|how|are|is|does|do|did|has|have)\b", re.IGNORECASE)


def _shows(intent: Intent) -> bool:
    """A look-up whose answer is a list to show ("List them for me" after it); a count or a yes/no lists nothing."""
    return _reads_only(intent) and intent.task not in ("count_pages", "check_password")


def _reads_only(intent: Intent) -> bool:
    """A step that answers (a look-up, or the text shown): changes nothing, so safe to read a question with; a
    conversion makes a file and answers nothing ("What does page 1 say? Convert it to Word." is handed on)."""
    return get_tool(intent.task).kind == "value" or intent.task == "extract_text"


def _answered(
    said: str, statement: bool, clause: str, ctx: Context, quotes: list[str], files: dict[str, FileInfo]
) -> str | None:
    """'What does page 1 say? Just give me its text.': the question read with the instruction after it, kept only
    when the two together are every word accounted for, the same steps as the instruction alone asks for, and
    steps that change nothing (so a question that is a condition, "Is page 3 blank? Delete it.", is handed on).
    A statement before the instruction ("The scan is in Spanish. Make it searchable.") is read after it, as the
    rules read a statement that explains ("make it searchable, the scan is in Spanish"); it may change the PDF."""
    joined = f"{clause.rstrip(' ?!')}, {said}" if statement else f"{said.rstrip(' ?')}, {clause}"
    saved = ctx.last_target, ctx.last_value
    try:
        alone, _, _ = _read(clause, ctx, quotes, files)
        ctx.last_target, ctx.last_value = saved
        found, _, left = _read(joined, ctx, quotes, files)
    except NeedInfo:
        found, alone, left = None, None, []
    ctx.last_target, ctx.last_value = saved
    if (
        found is None
        or alone is None
        or left
        or [i.task for i in found] != [i.task for i in alone]
        or not statement
        and not all(_reads_only(i) for i in found)
    ):
        return None
    return joined


def _only_arguments(clause: str, quotes: list[str], files: dict[str, FileInfo]) -> bool:
    """'Font size 40 please.', 'Purple, top-left corner, no tilt at all.' after the instruction: no verb of its own,
    only how the step before is to be done (read with it, and kept only when every word of both is accounted for).
    Never which pages, what content or which file: "redact emails. phone numbers on page 2." says a second thing
    with its own pages, which one sentence ("redact emails, phone numbers on page 2") would not say."""
    if _VERB_WORD.match(clause) or "?" in clause:
        return False
    return all(s.kind in _HOW for s in tag(clause, quotes, tuple(files)))


# Kinds of words that say how a step is done, never what it works on
_HOW = frozenset({"filler", "word", "colour", "position", "modifier", "measure", "number"})


def _joined(last: _Read, clause: str, ctx: Context, quotes: list[str], files: dict[str, FileInfo]) -> _Read | None:
    """A statement read as part of the instruction before it ("make this smaller? it's too big to email"): kept
    only when the rules account for every word of the two together."""
    if re.search(r"\b(?:and|then|also|plus)\b", clause, re.IGNORECASE):
        return None  # "it's too big to email and email it to me": a second instruction, not a reason
    saved = ctx.last_target, ctx.last_value
    ctx.last_target, ctx.last_value = last.target, last.value
    joined = f"{last.clause.rstrip(' ?!,')}, {clause}"
    try:
        found, spans, left = _read(joined, ctx, quotes, files)
    except NeedInfo:
        found, left = None, []
    if found is None or left or [i.task for i in found] != [i.task for i in last.found]:
        ctx.last_target, ctx.last_value = saved
        return None
    return _Read(joined, found, spans, last.before, last.target, last.value)


# A statement, not an instruction: about the file or the situation ("it's just an advert", "the scanner doubled
# everything", "there are …"), or when and why it is wanted ("before this goes to the landlord")
_STATEMENT = re.compile(
    r"^(?:(?:and|but|so|oh|btw|fyi)\s+)?(?:"
    r"(?:it|this|that|they|these|those)(?:'s|'re|\s+is|\s+are|\s+was|\s+were|\s+goes|\s+go|\s+came|\s+comes)\b"
    r"|there(?:'s|\s+is|\s+are|\s+was|\s+were)\b"
    r"|(?:I'm|I\s+am|we're|we\s+are)\s+[a-z]+ing\b"
    r"|(?P<told>(?:I|we)\s+(?-i:[a-z]+ed)\b)"
    r"|(?:the|my|our)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:came|comes|is|are|was|were|went|got|has|have|had|[a-z]+ed)\b"
    r"|(?P<when>before|because|since)\s+(?:it|this|they|these|I|we|(?:the|my|our)\s+\w+)\b)",
    re.IGNORECASE,
)
# "It's a duplicate", "they're confidential": said of the file, never an instruction on its own
_SAID_OF = re.compile(
    r"(?:(?:and|but|so)\s+)?(?:it's|it\s+is|this\s+is|that's|they're|they\s+are|these\s+are|those\s+are)\s+"
    r"(?:a|an|the|just|only|all|really|very|so|too|not)\b",
    re.IGNORECASE,
)
# Words an aside may not say: they limit, judge, count or name what a tool works on, so a statement holding one
# may change what is meant ("not the signed ones", "the important bits", "only the first", "it has 3 pages")
_NOT_ASIDE = frozenset(
    """not no never nothing none nobody without except but only also either neither nor else other others rest
    remaining same instead rather again keep kept leave left stay stays remain remains touch alone should shouldn't
    must mustn't don't doesn't didn't isn't aren't wasn't can't cannot won't wouldn't need needs want wants please
    you me make sure first last second third fourth next previous final one ones all every each both any some most
    many much more less few several half whole entire empty blank twice once lot lots loads bit important relevant
    irrelevant confidential sensitive private personal secret key main necessary unnecessary needed unwanted extra
    wrong right correct incorrect bad good better worse best worst fine ok okay broken missing old outdated new
    latest current duplicate duplicates original readable legible visible clear page pages password passcode
    header headers footer footers watermark watermarks signature signatures comment comments note notes annotation
    annotations highlight highlights text word words image images picture pictures photo photos logo form forms
    field fields title author metadata bookmark bookmarks table tables margin margins font colour color size quality
    order copy copies version name names number numbers date dates line lines box border shadow draft grayscale
    greyscale letters style corner corners side sides chapter chapters section sections paragraph paragraphs
    heading headings if unless when whether""".split()
)
# Words a past-tense story of how the file came to be may say ("I scanned the blank backs by mistake"): what the
# pages were, never which pages or what to do with them
_TOLD = frozenset({"blank", "empty"})
_DETERMINERS = {"my", "our", "the", "his", "her", "their", "your"}
_VERB_WORD = re.compile(rf"(?:please\s+)?(?:{VERBS})\b", re.IGNORECASE)  # a word that starts an instruction


# "the scan is crooked", "it's blurry", "these pages look faded": a state of the file (a word, no article);
# "this is urgent" speaks of the request, not the file
_CONDITION = re.compile(
    r"^(?:it|they|these|those|the\s+[\w-]+|my\s+[\w-]+)\s*(?:'s|'re|\s+is|\s+are|\s+was|\s+were|"
    r"\s+looks?|\s+seems?|\s+came\s+out)\s+(?:(?:a\s+bit|a\s+little|slightly|very|really|too|quite|so|all|"
    r"still|kind\s+of|kinda)\s+)?(?P<what>[\w-]+)",
    re.IGNORECASE,
)


def _aside(clause: str, quotes: list[str], files: dict[str, FileInfo]) -> bool:
    """A statement that asks for nothing and changes nothing asked ("it's just an advert", "It's for my Year 9
    class", "the scanner doubled everything", "before it goes on the website"): set aside. Only its own words
    may be in it: no page, number, quote, colour, place, format, modifier, tool word, file or limiting word."""
    frame = _STATEMENT.match(clause)
    words = set(re.findall(r"[\w']+", clause.lower()))
    if frame and frame.group("told"):  # "I scanned the blank backs by mistake": how the file came to be
        words -= _TOLD
    if not frame or words & _NOT_ASIDE or re.search(r"\bjust\b(?!\s+an?\b)", clause, re.IGNORECASE):
        return False
    if any(w.endswith("ly") for w in words):  # "faintly", "properly": how, said of what is asked
        return False
    spans = tag(clause, quotes, tuple(files))
    state = _CONDITION.match(clause)
    if (
        state
        and not state.group("what").lower().endswith("ing")
        and any(s.kind != "filler" for s in spans if s.start == state.start("what"))
    ):  # ("it's going by email" says where it goes, not what is wrong)
        return False  # "the scan is crooked": what is wrong with the file says what to fix (a 90° turn does not)
    told = bool(frame.group("told")) and sum(i.kind == "pdf" for i in files.values()) == 1
    for before, span in zip([None, *spans], spans, strict=False):
        if told and span.kind == "file" and span.text.isalpha() and span.text.islower():
            continue  # "I scanned …" beside scanned_letters.pdf, the one file: a word of the story, no other file
        if not _aside_word(span, before, clause, bool(frame.group("when"))):
            return False
    return True


def _aside_word(span: Span, before: Span | None, clause: str, when: bool) -> bool:
    """One word of a would-be aside: its own word, a name ("my Year 9 class"), or where it goes ("before it goes
    on the website", "it's going by email")."""
    if span.kind == "filler":
        return True
    if span.kind == "word":  # a name only after "my", "the" … ("my Year 9 class"); "in Comic Sans" says how
        named = span.text[:1].isupper() and span.start > 0 and span.text != "I"
        return not named or before is not None and (before.text.lower() in _DETERMINERS or before.text[:1].isupper())
    if span.kind == "number":  # "Year 9", "Room 101": part of a name
        return before is not None and before.kind == "word" and before.text[:1].isupper()
    carried = span.kind == "verb" and not next(
        (t for p, t in VERB_TASKS.items() if re.fullmatch(p, span.text, re.I)), ()
    )
    by = before is not None and before.text.lower() in ("by", "via", "over")
    return (carried or span.kind == "category") and (when or by)


# "(it's just an advert)": a parenthesis that says why, set aside when it is an aside
_PARENTHESIS = re.compile(r"\s*\(([^()⟦]*)\)")


def _without_asides(clause: str, quotes: list[str], files: dict[str, FileInfo]) -> str:
    """The clause less each parenthesis that is an aside ("Remove the last page (it's just an advert)")."""
    return _PARENTHESIS.sub(lambda m: "" if _aside(m.group(1).strip(), quotes, files) else m.group(0), clause).strip()


def _others(spans: list[Span], pdfs: list[str], files: dict[str, FileInfo]) -> list[Span]:
    """Words of a file the plan does not work on ("… as a draft" with draft.pdf uploaded beside the one meant):
    said for something else, so they are not accounted for by the file."""
    others = [n for n, i in files.items() if i.kind == "pdf" and n not in pdfs]
    if not others:
        return []

    def words_of(names: list[str]) -> set[str]:
        return {
            a for n in names for w in re.split(r"[\W_]+", n.rsplit(".", 1)[0].lower()) if w for a in word_aliases(w)
        }

    own, theirs = words_of(pdfs), words_of(others)
    out = []
    for span in spans:
        if span.kind != "file" or any(n.lower() == span.text.lower() for n in pdfs) or _GENERIC.search(span.text):
            continue
        words = {w.removesuffix("s") for w in re.findall(r"[a-z0-9]+", span.text.lower())} | set(
            re.findall(r"[a-z0-9]+", span.text.lower())
        )
        if words & theirs and not words & own:
            out.append(span)
    return out


# A file reference by kind or order ("both files", "the second one", "into one PDF"), not by a name's words
_GENERIC = re.compile(
    r"\b(?:files?|documents?|pdfs?|docs?|ones?|both|all|each|every|these|those|first|second|third|last|latest|"
    r"1st|2nd|3rd|them|uploads?)\b",
    re.IGNORECASE,
)


# "In it" (a mention of the one file meant, retold): which file, said apart from what to do
_IN_IT = re.compile(r"(?:in|for|on|from|with|within|inside|regarding|about)\s+it\s*[:,]?", re.IGNORECASE)


# "leave everything else alone", "everything else stays in the same order", "the rest stays as it is"
_REST_STAYS = re.compile(
    r"(?:(?:and|but|so|please)\s+)*(?:(?:leave|keep)\s+(?:everything|all|anything)\s+else|(?:leave|keep)\s+the\s+rest"
    r"(?:\s+of\s+(?:it|the\s+(?:pages|document|file)))?)\s+(?:alone|as\s+it\s+is|as\s+is|untouched|unchanged|the\s+same|"
    r"where\s+it\s+is|in\s+(?:the\s+same|its)\s+order)(?:\s+please)?"
    r"|(?:(?:and|but|so)\s+)?(?:everything\s+else|the\s+rest(?:\s+of\s+(?:it|the\s+pages))?|all\s+the\s+other\s+pages|"
    r"the\s+other\s+pages)\s+(?:stays?|remains?|should\s+(?:stay|remain)|can\s+stay|is\s+fine|are\s+fine)\s*"
    r"(?:alone|as\s+it\s+is|as\s+they\s+are|as\s+is|untouched|unchanged|the\s+same|where\s+(?:it\s+is|they\s+are)|"
    r"in\s+(?:the\s+same|their|its)\s+order)?",
    re.IGNORECASE,
)


def _scoped(found: list[Intent]) -> bool:
    """Steps that change only the pages named ("pages 1-3", "move page 5 to the front"): everything else stays
    as it is anyway, so saying so asks for nothing more."""
    return bool(found) and all(
        any(i.args.get(k) not in (None, "all") for k in ("pages", "page"))
        or "order" in i.args
        and i.task == "reorder_pages"
        and i.args.get("order") != "reverse"
        for i in found
    )


# "(carta_banco.pdf)": an uploaded file's name in brackets, after the words that describe it
_BRACKETED = re.compile(r"\s*\(\s*([^()\s]+\.pdf)\s*\)", re.IGNORECASE)
_DESCRIBES = re.compile(r"\b(?:the|my|our|this|that)\s+", re.IGNORECASE)


def _named_in_brackets(text: str, quotes: list[str], files: dict[str, FileInfo]) -> str:
    """'the letter from the bank (carta_banco.pdf)' → 'carta_banco.pdf': a description followed by the file's name
    in brackets says the file twice; the description goes when it is only words of its own (no page, no tool
    word, nothing that limits), the longest such description of up to six words."""
    pdfs = {n.lower(): n for n, i in files.items() if i.kind == "pdf"}
    for m in reversed(list(_BRACKETED.finditer(text))):
        name = pdfs.get(m.group(1).lower())
        if name is None:
            continue
        window = text[max(0, m.start() - 80) : m.start()]
        starts = [d.start() for d in _DESCRIBES.finditer(window)]
        for start in starts:  # the farthest "the …" that is a description only
            said = window[start:]
            if len(said.split()) <= 7 and _only_describes(said, quotes, files):
                at = m.start() - len(window) + start
                text = text[:at] + name + text[m.end() :]
                break
    return text


def _only_describes(said: str, quotes: list[str], files: dict[str, FileInfo]) -> bool:
    words = set(re.findall(r"[\w']+", said.lower())) - _DETERMINERS
    if words & _NOT_ASIDE or any(_VERB_WORD.fullmatch(w) for w in words):
        return False
    return all(s.kind in ("word", "filler", "file") for s in tag(said, quotes, tuple(files)))


def _only_a_file(clause: str, pdfs: list[str]) -> bool:
    """'In the exhibits file' (or 'In the lecture_notes_wk6.pdf' once retold): which file, said apart from what to
    do; the grounding has used it."""
    if not pdfs:
        return False
    return _IN_IT.fullmatch(clause) is not None or names_a_file(clause, pdfs)


# "pages 2-4 came out sideways, rotate them counter-clockwise": what is wrong with which pages, then what to do
_STATE = re.compile(
    r"^(?:but\s+|and\s+|so\s+)?(?P<pages>.+?)\s+(?:came\s+out|come\s+out|are|were|is|was|look|looks|got\s+scanned|"
    r"were\s+scanned|was\s+scanned|ended\s+up|have\s+been|has\s+been)\s+(?P<state>sideways|upside[- ]down)$",
    re.IGNORECASE,
)
_WHOLE = re.compile(
    r"(?:this|the|my|your|our|its)\s+(?:scan|document|file|pdf|doc|whole\s+thing)|it|everything", re.IGNORECASE
)
_THEM = re.compile(r"\b(?:them|those(?:\s+pages)?|these(?:\s+pages)?|it)\b", re.IGNORECASE)


_THEM_ONLY = re.compile(r"\b(?:them|those)\b", re.IGNORECASE)
# "turn them the right way up": back to how the page should be, which the state said before says how
_UPRIGHT = re.compile(
    r"\s+(?:the\s+)?(?:right|correct)\s+way\s+(?:up|round|around)\b|\s+right\s+side\s+up\b|\s+upright\b",
    re.IGNORECASE,
)
# "pages 3 and 4 are the wrong way round", then "can you switch them?": the two pages, swapped
_SWAPPED = re.compile(
    r"^(?:but\s+|and\s+|so\s+)?(?P<pages>pages?\s+.+?)\s+(?:are|were|came\s+out|got\s+scanned|ended\s+up)\s+"
    r"(?:the\s+wrong\s+way\s+(?:round|around)|in\s+the\s+wrong\s+order|swapped(?:\s+round|\s+around)?|"
    r"(?:round|around)\s+the\s+wrong\s+way)$",
    re.IGNORECASE,
)
_SWAP_THEM = re.compile(
    r"(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:switch|swap)\s+them(?:\s+(?:round|around|over|back))?"
    r"(?:\s+please)?\s*\??",
    re.IGNORECASE,
)


def _turned_twice(intents: list[Intent], count: int | None) -> bool:
    """Two turns that share a page: a state said ("this file is upside down") and a turn asked ("rotate page 2")
    would turn page 2 twice — back where it was. Nobody asks that in one breath; the model or a question decides."""
    seen: set[int] = set()
    for intent in intents:
        if intent.task != "rotate_pages":
            continue
        spec = str(intent.args.get("pages", "all"))
        try:
            pages = set(parse_pages(spec, count or 10_000))
        except Exception:  # noqa: BLE001 - a page spec the tool would refuse anyway: not this check's business
            continue
        if pages & seen:
            return True
        seen |= pages
    return False


# "reverse the page order", "reverse the order of the pages": the whole file's order, said without "them"
_THE_ORDER = re.compile(
    r"(?:please\s+)?(?:can\s+you\s+)?(?:reverse|re-?order)\s+(?:the\s+)?(?:page\s+order|order(?:\s+of\s+(?:the\s+)?"
    r"pages)?|pages)(?:\s+please)?",
    re.IGNORECASE,
)
# "there are loads of empty pages in my scan, remove them": what "them" is, said in the clause before
_THERE_ARE = re.compile(
    r"(?:but\s+|and\s+|so\s+)?there(?:'s|\s+is|\s+are|\s+were)\s+(?:(?:loads|lots|a\s+lot|plenty|a\s+couple|a\s+few)"
    r"\s+of\s+|some\s+|several\s+|many\s+|a\s+few\s+)?(?P<what>[a-z]+(?:\s+[a-z]+){0,2}?)\s+(?:in|on)\s+"
    r"(?:it|(?:my|the|this|our)\s+(?:scan|file|document|pdf|doc))",
    re.IGNORECASE,
)


def _put_for(pronoun: re.Pattern[str], said: str, clause: str) -> str:
    """The clause with its first "them" replaced by what it stands for (taken as it is, never as a template)."""
    return pronoun.sub(lambda _: said, clause, count=1)


def _state_then_ask(clause: str) -> list[str]:
    """'pages 3 and 4 are the wrong way round, can you switch them?': what is wrong, then the question that asks
    for the fix, as two clauses (only when the first says how pages are wrong)."""
    m = _CAN_YOU.search(clause)
    if m and (_STATE.fullmatch(clause[: m.start()]) or _SWAPPED.fullmatch(clause[: m.start()])):
        return [clause[: m.start()], clause[m.end() :]]
    return [clause]


_CAN_YOU = re.compile(r",\s*(?:so\s+)?(?=(?:please\s+)?(?:can|could|would|will)\s+you\b)", re.IGNORECASE)


def _described(clauses: list[str], count: int | None, files: dict[str, FileInfo] | None = None) -> list[str]:
    """A clause that says which pages are sideways or upside down, folded into the next clause that turns "them";
    the state word goes along, so a turn that disagrees with it ("upside down, rotate them 90 degrees") is unread."""
    clauses = [part for clause in clauses for part in _state_then_ask(clause)]
    out: list[str] = []
    i = 0
    while i < len(clauses):
        state = _STATE.fullmatch(clauses[i])
        following = clauses[i + 1] if i + 1 < len(clauses) else ""
        pages = state and (pages_in(state.group("pages"), count) or _WHOLE.fullmatch(state.group("pages")))
        if state and pages and re.search(r"\b(?:rotat\w*|turn)\b", following, re.I) and _THEM.search(following):
            if state.group("state").lower().startswith("upside"):  # "turn them the right way up": undo a half turn
                following = _UPRIGHT.sub("", following).rstrip(" ?")  # (sideways says no direction: still unread)
            said = state.group("pages")
            if _WHOLE.fullmatch(said):  # "this scan is upside down, rotate it 180°": the whole file, "it" says so
                out.append(f"{following} {state.group('state')}")
                i += 2
                continue
            if {s.kind for s in tag(said, [], tuple(files or ()))} <= {
                "pages",
                "filler",
                "file",
            }:  # the state stays, to agree with the turn
                out.append(f"{_put_for(_THEM, said, following)} {state.group('state')}")
                i += 2
                continue
        if (
            _THE_REST.fullmatch(following)
            and _KEEPS.search(clauses[i])
            and pages_in(clauses[i], count) not in (None, "all")
        ):
            out.append(f"{clauses[i]} only")  # "keep the odd pages and drop the others": those pages only
            i += 2
            continue
        topic = clauses[i][:-1] if clauses[i].endswith(":") else ""
        if topic and not _VERB_WORD.match(topic) and _THEM_ONLY.search(following):
            out.append(_put_for(_THEM_ONLY, topic, following))
            i += 2  # "Dates on the final page: underline them": what "them" is, said before the colon
            continue
        swapped = _SWAPPED.fullmatch(clauses[i])
        if swapped and _SWAP_THEM.fullmatch(following) and pages_in(swapped.group("pages"), count) not in (None, "all"):
            out.append(f"swap {swapped.group('pages')}")  # "pages 3 and 4 are the wrong way round, switch them"
            i += 2
            continue
        there = _THERE_ARE.fullmatch(clauses[i])
        if there and re.fullmatch(r"(?:please\s+)?\w+(?:\s+\w+)?\s+(?:them|those)(?:\s+please)?", following, re.I):
            out.append(re.sub(r"\b(?:them|those)\b", f"the {there.group('what')}", following, count=1))
            i += 2  # "there are loads of empty pages in my scan, remove them": remove the empty pages
            continue
        backwards = _BACKWARDS.fullmatch(clauses[i])
        if (
            backwards
            and re.search(r"\b(?:reverse|reorder|re-order)\b", following, re.I)
            and (_THEM.search(following) or _THE_ORDER.fullmatch(following))
        ):
            out.append(f"{following} {backwards.group('state')}")  # "the pages are backwards, reverse them"
            i += 2
            continue
        out.append(clauses[i])
        i += 1
    return out


# "…, delete the rest", "and drop the others" after pages kept: everything not named before goes
_KEEPS = re.compile(r"\b(?:keep|need|want|extract|save|retain|preserve|pull|take|grab)\b", re.IGNORECASE)
_THE_REST = re.compile(
    r"(?:and\s+)?(?:then\s+)?(?:delete|remove|drop|discard|get\s+rid\s+of|lose|ditch|toss|throw\s+away|bin)\s+"
    r"(?:the\s+rest(?:\s+of\s+(?:the\s+)?(?:pages|it))?|everything\s+else|all\s+(?:the\s+)?other\s+pages|"
    r"(?:all\s+)?the\s+other\s+pages|the\s+others)",
    re.IGNORECASE,
)
# "the pages are backwards, reverse them": the whole file's order is wrong, then what to do about it
_BACKWARDS = re.compile(
    r"^(?:but\s+|and\s+|so\s+)?(?:the\s+|its\s+|my\s+|our\s+|this\s+)?(?:pages|page\s+order|order(?:\s+of\s+the\s+pages)?|file|"
    r"document|scan|pdf|it)\s+(?:came\s+out|come\s+out|are|were|is|was|got\s+scanned|were\s+scanned|was\s+scanned|"
    r"ended\s+up)\s+(?:all\s+)?(?P<state>backwards|reversed|in\s+reverse(?:\s+order)?)$",
    re.IGNORECASE,
)


_OUTPUT_ONLY = re.compile(
    r"(?:and\s+)?(?:then\s+)?(?:(?:save|call|name)\s+(?:it|the\s+result|that|this|the\s+file|them)?\s*(?:as|to)?|"
    # "output file name public_version.pdf", "put it in contract_text.txt"
    r"(?:output\s+)?file\s*name(?:\s+(?:is|should\s+be))?\s*:?|output\s+(?:to|as)|"
    r"(?:put|write)\s+(?:it|that|the\s+(?:result|text))\s+(?:in|into|to)(?=\s+[\w\-]+\.(?:txt|md|docx|xlsx|pptx)\b))\s*"
    r"(⟦\d+⟧|[\w.\-]+\.(?:pdf|docx|pptx|xlsx|txt|md|png|jpe?g|tiff?))",
    re.IGNORECASE,
)


# "put a new password on it: X", "set the password to X": a password to be given to the file, not the one it
# has now (a clause the fast path does not read as a step: handed on)
_SETS_PASSWORD = re.compile(r"\b(?:new|put|puts|set|sets|add|adds|change|changes|reset|apply|give)\b", re.I)
# The file's current password said as a state of the file, quoted, without the word "password" needed: "This PDF
# is locked with 'pw'", "the file's encrypted using 'pw'", "my scan has been protected by the password 'pw'". A
# subject (it, this, that, or a determiner and a noun), a verb of being (or 's), the state, then the quote.
_LOCKED_WITH = re.compile(
    r"(?:(?:and|but|so)\s+)?(?:it|this|that|(?:the|this|that|my|our|your)\s+\w+)"
    r"(?:\s+(?:is|was|has\s+been|is\s+currently)|['\u2019]s)\s+"
    r"(?:locked|protected|encrypted|secured|password[-\s]protected)\s+(?:with|by|using)\s+"
    r"(?:(?:the|a|its)\s+)?(?:(?:password|passcode|passphrase)\s+)?(⟦\d+⟧)",
    re.IGNORECASE,
)


def _said_besides(clause: str, password: str, quotes: list[str], files: dict[str, FileInfo]) -> bool:
    """'the password is X in red': a clause that gives a password and says something more."""
    for span in tag(clause, quotes, tuple(files)):
        if span.kind in ("filler", "file") or span.text == password or span.value == password:
            continue
        return True
    return False


def _asked_once(intents: list[Intent]) -> list[Intent]:
    """'who is the author? when was it created?': the same look-up asked twice in a row (a tool that reads and
    changes nothing, with the same arguments) is one step that answers both; so is a change that a second run
    would not change again ("some pages are upside down. Turn them the right way up."); any other change asked
    twice is not merged."""
    out: list[Intent] = []
    for intent in intents:
        prev = out[-1] if out else None
        tool = get_tool(intent.task)
        if prev and prev.task == intent.task and prev.args == intent.args and (tool.kind == "value" or tool.idempotent):
            prev.decided += [w for w in intent.decided if w not in prev.decided]
            continue
        out.append(intent)
    return out


def _merged(intents: list[Intent]) -> list[Intent]:
    """Two clauses setting properties ("make me the author …, set the subject to …") are one step."""
    out: list[Intent] = []
    for intent in intents:
        if out and intent.task == out[-1].task == "set_metadata":
            out[-1].args.update(intent.args)
            out[-1].decided += intent.decided
            continue
        out.append(intent)
    return out


def _either(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


# A reference to an earlier step's result: "$redacted", never "$1,200"
_STEP_REF = re.compile(r"\$[A-Za-z_]\w*")


def _assemble(
    intents: list[Intent], files: dict[str, FileInfo], pdfs: list[str], password: str | None
) -> tuple[Plan, dict[int, list[str]]]:
    tools = all_tools()
    merging = [i for i in intents if i.task in ("combine_files", "images_to_pdf")]
    rest = [i for i in intents if i not in merging]
    for intent in rest:
        if intent.task == "remove_password" and "password" not in intent.args:
            if not password:
                raise NeedInfo(
                    "What is the file's current password? Say it in the request, "
                    'e.g. "remove the password; the password is test".'
                )
            intent.args["password"] = password
    rest.sort(key=lambda i: 0 if i.stage == 0 else 1 if i.stage == 1 else i.stage)
    steps: list[dict[str, Any]] = []
    used: set[str] = set()
    words: dict[int, list[str]] = {}

    def add(task: str, args: dict[str, Any], source: str | None, intent: Intent | None = None) -> str:
        entry = tools[task]
        full = dict(args)
        deps = []
        if source is not None and "file" in entry.arg_docs and "file" not in full:
            full = {"file": source, **full}
        for value in full.values():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and _STEP_REF.fullmatch(item):  # "$1,200" is a price, not a step
                    ref = next((s["id"] for s in steps if s["return"] == item[1:]), None)
                    if ref is not None:  # "strike out '$total'": words to find, not an earlier step's result
                        deps.append(ref)
        name = result_name(task, used)
        steps.append({"id": len(steps) + 1, "task": task, "dep": sorted(set(deps)), "args": full, "return": name})
        if intent is not None:
            words[len(steps)] = list(intent.decided)
        return f"${name}"

    sources: list[str | None] = list(pdfs) or [None]
    if merging:
        sources = [add(merging[0].task, merging[0].args, None, merging[0])]
    for source in sources:
        current = source
        info = files.get(source) if source and not source.startswith("$") else None
        if (
            info is not None
            and info.encrypted
            and not any(i.task in ("remove_password", "check_password") for i in rest)
        ):
            if not password:
                raise NeedInfo(
                    f'{info.name} is password-protected. Tell me its password, e.g. "…; the password is test".'
                )
            current = add("remove_password", {"password": password}, current)
        for intent in rest:
            if intent.files and source not in intent.files:  # "… and delete page 2 of b.pdf": b.pdf's step only
                continue
            if intent.task == "count_pages" and info is not None and info.encrypted and password:
                intent.args.setdefault("password", password)
            result = add(intent.task, intent.args, current, intent)
            if tools[intent.task].kind == "pdf" and intent.task not in ("duplicate", "rename"):
                current = result
    return Plan.model_validate({"steps": steps}), words
