"""A question over one table composed into a program by code, when every word of it is accounted for.

The fast path before the model's program job (issue K items 2 and 3): the question is read against a frame's
own schema — its row labels, its columns' names, the values of its text columns, its caption — and a small
grammar of operations, and the program it means is written out in the same pandas the model writes, then
checked, run and traced like the model's (:func:`~docpilot.understanding.frames.answer_with_program`).

A question is read into spans: the rows it names, the values of a text column it names ("the Retail
division"), the columns it names, comparisons with a number ("above 7%"), and words that ask for an operation
(:data:`_CUES`: "highest", "together", "difference", "average", "how many", "share" …). The operation follows
from what was named, not from the phrasing: two rows and one column with "together" is their sum; one row and
two period columns with "change" is the later minus the earlier; a column and "lowest" with no row named is the
row label at its minimum. Every word must be taken by a span, be one of the frame's own words (its caption,
heading, the row-label column's name: "which crop", "in the table"), or be a function word; a word left over,
a column named ambiguously, or an operation word the operation does not use leaves the question to the model
(``None``). So "the second-highest", "excluding Retail" or "in the previous year" are never answered here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from docpilot.understanding.frames.model import SECTION, Frame, section_name
from docpilot.understanding.frames.values import SCALES, is_year, read_number, read_scale
from docpilot.understanding.textnorm import STOPWORDS, stem

__all__ = ["answer_column", "compose_program", "named_in"]

_TOKEN = re.compile(r"[^\W_]*[^\W\d_][^\W_]*(?:'s)?|(?<!\w)[-\u2212]?[$€£]?\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s?%)?")
_NUMBER_WORDS = {
    w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
}
_ORDINALS = {w: str(i) for i, w in enumerate("zeroth first second third fourth".split()) if i} | {
    "1st": "1",
    "2nd": "2",
    "3rd": "3",
    "4th": "4",
}


def _family(words: str) -> frozenset[str]:
    return frozenset(stem(w) for w in words.split())


# Words that ask for an operation, by family. A family present in the question must be used by the operation
# read, else the question is left to the model.
_CUES = {
    "max": _family("highest largest biggest greatest most maximum top peak peaked"),
    "min": _family("lowest smallest least fewest minimum bottom"),
    "sum": _family("total sum together combined aggregate altogether add added"),
    "diff": _family(
        "difference change changed apart differ gap move moved compared versus vs fall fell drop dropped decline "
        "declined decrease decreased rise rose increase increased grow grew"
    ),
    "more": _family("more higher greater larger bigger exceed exceeded exceeds exceeding"),
    "less": _family("less lower smaller fewer"),
    "share": _family("share percentage percent fraction portion proportion contribution %"),
    "mean": _family("average mean typical"),
    "rank": _family("rank ranked ranking order ordered sort sorted"),
}
_POSITIONS = _family("first last")
_NTH = {w: i for i, w in enumerate("first second third fourth fifth sixth seventh eighth ninth tenth".split(), 1)} | {
    f"{i}{suffix}": i for i, suffix in zip(range(1, 11), "st nd rd th th th th th th th".split(), strict=True)
}
_FALLING = _family("fall fell drop dropped decline declined decrease decreased")  # a change said as a fall
_POINTS = _family("point points")  # "percentage points": the unit of a change of a rate
_BEFORE_NUMBER = {"more": _family("above over"), "less": _family("below under")}  # else prepositions
_WHOLE = _family("total all overall combined every whole entire share contribution portion fraction proportion")
# Words of asking and of talking about a table, which name nothing in it.
_FILLER = _family(
    "what which who name list show give compute calculate need looking look find tell say says shown value values "
    "answer figure figures reported table listed one ones among if you take taken only put come comes came account "
    "far other others is it that have had having their there shows showing every overall whole entire 1 go goes went "
    "above over below under euro euros dollar dollars usd eur gbp pound pounds across between out count number "
    "numbers amount figure level line lines item items row rows entry entries contribute contributed contributes menu "
    "represent represented represents get gets got"
)
_RATES = _family("rate rates percentage")  # what a percent column is called besides its name ("occupancy rate")
_ENUMERATED = re.compile(r"^\s*(?:\d{1,3}|[A-Za-z]|[ivxIVX]{1,4})[.)]\s+")  # "14. ", "b) ", "iv. " before a label
_MORE_THAN_ALL = re.compile(r"\bthan (?:every|all|any) other\b", re.I)
_ORDER = re.compile(r"\b(highest|largest|biggest|greatest|most|lowest|smallest|least)\b[\s,]+to\b", re.I)


@dataclass
class _Token:
    text: str
    key: str
    number: float | None = None
    scale: str = ""
    taken: str = ""  # what took it: "row", "group", "column", "cue:<family>", "context", "filler", "stop"


@dataclass
class _Read:
    rows: list[str] = field(default_factory=list)  # row labels named, in order
    row_places: list[int] = field(default_factory=list)  # where each of them is said
    groups: list[tuple[str, str]] = field(default_factory=list)  # (text column, value) named
    columns: list[str] = field(default_factory=list)  # numeric columns named, in the order first said
    positions: dict[str, list[int]] = field(default_factory=dict)  # column → the token positions naming it
    conditions: list[tuple[int, str, float, str]] = field(default_factory=list)  # (position, ">"|"<", number, scale)
    cues: dict[str, list[int]] = field(default_factory=dict)  # family → positions
    whole: bool = False  # a word of a whole is said ("total", "all", "every"): a share may be asked
    total_row: bool = False  # a total row left out of the frame is named ("consolidated"): the column's sum
    exact: bool = False  # the columns are named by all their words (not the best of partial matches)
    falling: bool = False  # the change is said as a fall ("fell", "dropped"): the earlier less the later
    nth: int = 1  # "the second-highest", "ranks third by": the place in the order asked for


def compose_program(question: str, frames: list[Frame], names: str = "", *, with_value: bool = False) -> str | None:
    """The program ``question`` asks for over one of ``frames`` (named ``t1`` …), when exactly one frame reads it
    with every word accounted for; None otherwise. ``names``: what the documents call themselves (a company's
    name in "Best Buy's gross profit"), words the question may use beside the frame's own. ``with_value``: the
    question goes on to ask the value that decided ("which year had the highest revenue, and what was it?"):
    a row at an extreme is answered with its label and its value; any other reading is None."""
    programs = {p for frame in frames if frame.label and (p := _compose(question, frame, names, with_value))}
    return programs.pop() if len(programs) == 1 else None


def _compose(question: str, frame: Frame, names: str, with_value: bool = False) -> str | None:
    named = _names(question, frame)
    if named is None:
        return None
    tokens, read = named
    _take_prices(tokens, read, frame)
    if not (read.columns or read.groups):  # a column, or a value of one ("of type X"), or a price's order
        return None
    _take_counting(tokens, read)
    _take_cues(tokens, read)
    _take_totals(tokens, read, frame)
    _take_context(tokens, frame, names)
    _take_ranges(question, tokens, read, frame)
    if any(not t.taken for t in tokens):
        return None  # a word no span took: the question says something this reading does not
    program = _program(read, frame, question, tokens)
    if not with_value or program is None:
        return program
    extreme = re.fullmatch(r"(\w+)\.loc\[\1\[(.+)\]\.(idxmax|idxmin)\(\), (.+)\]", program)
    if extreme is None:
        return None  # only a row at an extreme has a value that decided it
    t, column, method, answer = extreme.groups()
    return f"row = {t}.loc[{t}[{column}].{method}()]\n[row[{answer}], row[{column}]]"


_RANGE = r"\s*(?:-|\u2013|\u2014|\u2212|to|through|thru|until|till)\s*"
_THROUGH = _family("through thru until till")


def years_spanned(question: str) -> set[str]:
    """The years inside each range of years the question names ("over 2019-2023" → 2019 … 2023)."""
    years: set[str] = set()
    for first, last in re.findall(rf"(?<!\w)((?:19|20)\d\d){_RANGE}((?:19|20)\d\d)(?!\w)", question, re.I):
        if int(first) < int(last) <= int(first) + 50:
            years |= {str(y) for y in range(int(first), int(last) + 1)}
    return years


def _take_ranges(question: str, tokens: list[_Token], read: _Read, frame: Frame) -> None:
    """Two rows named as a range ("over 2019-2023", "from 2019 through 2021") as the rows from the one to the
    other, in the table's order — unless the question asks how much it changed from the one to the other (its
    two ends)."""
    if len(read.rows) != 2 or set(read.cues) & {"diff", "more", "less"}:
        return
    first, last = read.rows
    if not re.search(rf"(?<!\w){re.escape(first)}{_RANGE}{re.escape(last)}(?!\w)", question, re.I):
        return
    labels = frame.row_labels()
    a, b = labels.index(first), labels.index(last)
    if a > b:
        return  # "2023 to 2019" read backwards: not a range this reading can be sure of
    read.rows = labels[a : b + 1]
    read.row_places = [read.row_places[0]] * len(read.rows)
    for token in tokens:
        if not token.taken and token.key in _THROUGH:
            token.taken = "context"


def named_in(question: str, frame: Frame) -> tuple[list[str], list[str]]:
    """The row labels ``question`` names in ``frame``, and the numeric columns it names by all their words —
    what a program over the frame must read (a program that reads another column answers another question)."""
    named = _names(question, frame)
    if named is None:
        return [], []
    read = named[1]
    return read.rows, read.columns if read.exact else []


def _names(question: str, frame: Frame) -> tuple[list[_Token], _Read] | None:
    """The question's tokens with the rows, text-column values, comparisons and columns of ``frame`` it names
    taken; None when a row label is printed twice (several files' rows: which one is meant is not ours to guess)."""
    labels = frame.row_labels()
    if len(set(labels)) != len(labels):
        return None
    tokens = _tokens(question)
    read = _Read()
    _take_values(tokens, read, frame)
    _take_conditions(tokens, read)
    _take_columns(tokens, read, frame)
    return tokens, read


# --- reading the question ----------------------------------------------------------------------------
def _tokens(text: str) -> list[_Token]:
    found: list[_Token] = []
    end = 0
    for match in _TOKEN.finditer(text.replace("\u2019", "'")):
        raw = match.group(0)
        number = read_number(raw) if raw.lstrip("-\u2212")[:1].isdigit() or raw[0] in "$€£" else None
        token = _Token(raw, _key(raw), number.value if number else None)
        if (
            found
            and is_year(found[-1].text)
            and re.fullmatch(r"\d\d", raw)
            and re.fullmatch(r"[-\u2013/]", text[end : match.start()])
        ):
            token.key = found[-1].text[:2] + raw  # "2014-15": the fiscal year 2014-2015, however either is printed
        found.append(token)
        end = match.end()
    for i, token in enumerate(found):
        before = found[i - 1] if i else None
        if before is None:
            continue
        if token.key == _key("quarter") and before.text.lower() in _ORDINALS:  # "fourth quarter" is Q4
            before.key, token.key, token.taken = "q" + _ORDINALS[before.text.lower()], "", "stop"
        elif before.number is not None and token.text.lower().rstrip("s") in SCALES:  # "4 million"
            before.scale, token.taken = token.text.lower().rstrip("s"), "context"
        elif before.number is not None and token.text.lower() in ("percent", "pct"):  # "20 percent"
            token.taken = "context"
    return found


def _key(word: str) -> str:
    lower = word.lower()
    if lower in _NUMBER_WORDS:
        return _NUMBER_WORDS[lower]
    if re.fullmatch(r"\d[\d,]*(?:\.\d+)?", lower):
        return lower.replace(",", "")
    return stem(lower)


def _keys(text: str) -> list[str]:
    return [t.key for t in _tokens(text)]


def _find(tokens: list[_Token], keys: list[str]) -> list[int]:
    """The start of each untaken run of ``tokens`` whose keys are ``keys``."""
    n = len(keys)
    return [
        i
        for i in range(len(tokens) - n + 1)
        if all(not tokens[i + j].taken and tokens[i + j].key == keys[j] for j in range(n))
    ]


def _take_values(tokens: list[_Token], read: _Read, frame: Frame) -> None:
    """Rows named by their labels, and values of the other text columns, longest first."""
    sections = set(frame.data[SECTION].tolist()) if SECTION in frame.columns else set()
    named: list[tuple[list[str], str, str]] = [  # a heading row named is the rows under it ("the Defence demands")
        (_keys(label), "row", label) for label in frame.row_labels() if section_name(label) not in sections
    ]
    bare = {label: _ENUMERATED.sub("", label) for label in frame.row_labels()}
    once = [b for b in bare.values() if list(bare.values()).count(b) == 1]
    for label, text in bare.items():  # "14. Department of Telecommunications" is named without its number
        if text != label and text in once and text.strip():
            named.append((_keys(text), "row", label))
    for column in frame.columns:
        if column != frame.label and frame.kinds.get(column, "text") == "text":
            for value in dict.fromkeys(str(v) for v in frame.data[column].tolist() if str(v).strip()):
                named.append((_keys(value), column, value))
    # words that name a section and one of its rows ("Ministry of Defence") name the section when rows are
    # compared, counted or added up ("among the Ministry of Defence demands, which one …")
    over_rows = any(t.key in _CUES["max"] | _CUES["min"] | _CUES["sum"] | _CUES["mean"] | _WHICH_KEYS for t in tokens)
    named.sort(key=lambda item: (-len(item[0]), not (over_rows and item[1] == SECTION)))
    found: list[tuple[int, str, str]] = []
    for keys, where, value in named:
        if not keys or all(k in _STOP_KEYS for k in keys):
            continue  # a label "All" or "Other" is not named by "all the campaigns", "every other"
        for start in _find(tokens, keys):
            for j in range(len(keys)):
                tokens[start + j].taken = "row" if where == "row" else "group"
            found.append((start, where, value))
    for start, where, value in sorted(found):
        if where == "row":
            read.rows.append(value)
            read.row_places.append(start)
        else:
            read.groups.append((where, value))
            column_keys = _keys(where)
            for start in _find(tokens, column_keys):  # "whose asset class is Fixed income": the column's name
                for j in range(len(column_keys)):
                    tokens[start + j].taken = "group"


def _column_keys(name: str) -> set[str]:
    """A column name's words as keys; an abbreviation ("Conv.", "temp.") as its stem with a trailing "."."""
    plain = re.sub(r"\([^)]*\)", " ", name)  # "(GWh)", "(%)": units, not names
    found = set()
    for match in _TOKEN.finditer(plain):
        key = _key(match.group(0))
        if key and key not in _STOP_KEYS:
            short = plain[match.end() : match.end() + 1] == "." and len(match.group(0)) >= 3
            found.add(match.group(0).lower() + "." if short else key)
    return found


def _said_as(key: str, said: dict[str, list[int]], tokens: list[_Token]) -> list[int]:
    """Where the question says a column's word: the same key, or a word an abbreviation ("conv.") begins."""
    if not key.endswith("."):
        return said.get(key, [])
    return [i for k, places in said.items() for i in places if tokens[i].text.lower().startswith(key[:-1])]


def _take_columns(tokens: list[_Token], read: _Read, frame: Frame) -> None:
    """The numeric columns named: each whose every word is said (less one named by words that name another
    column too: "conversion rate" is "Conv. rate", not "Conversions"); else the one column most of whose words
    are said, and at least half."""
    said: dict[str, list[int]] = {}
    for i, token in enumerate(tokens):
        if not token.taken and token.key:
            said.setdefault(token.key, []).append(i)
    totals = said | {_TOTAL_KEY: [i for k, p in said.items() if k in _CUES["sum"] for i in p]}
    numeric = frame.figure_columns()
    places: dict[str, dict[str, list[int]]] = {  # "combined" says the "Total" of "Total Plan & Non-Plan"
        c: {k: _said_as(k, totals if len(keys) > 1 else said, tokens) for k in keys}
        for c in numeric
        for keys in [_column_keys(c)]
    }
    covered = {c: {i for found in p.values() for i in found} for c, p in places.items()}
    full = [c for c, p in places.items() if p and all(p.values())]
    window = {c: _window(places[c]) for c in full}
    full = [c for c in full if not any(covered[c] <= window[d] and len(window[d]) > len(window[c]) for d in full)]
    runs = {c: run for c in full if (run := _said_in_order(tokens, c))}  # "total plan and non-plan budget"
    if runs:  # a column named word for word in its own order, over those whose words it says in another
        full = [c for c in full if c in runs or not any(window[c] <= runs[d] for d in runs)]
        window |= {c: runs[c] for c in full if c in runs}
        covered |= {c: runs[c] for c in full if c in runs}
    quoted = _caption_runs(tokens, frame.caption)  # "the detailed trace recording statistics": the caption's words
    if len(full) > 1 and any(not covered[c] <= quoted for c in full):
        full = [c for c in full if not covered[c] <= quoted]
    if not full:
        scored = sorted(
            ((n, n / len(p), c) for c, p in places.items() if p for n in [sum(bool(v) for v in p.values())]),
            reverse=True,
        )
        if not scored or scored[0][1] < 0.5 or (len(scored) > 1 and scored[1][:2] == scored[0][:2]):
            return
        full = [scored[0][2]]
    else:
        read.exact = True
    for column in full:
        own = covered[column] - {i for d in full if d != column for i in window.get(d, set())}
        read.positions[column] = sorted(own or window.get(column, covered[column]))
        for i in read.positions[column]:
            tokens[i].taken = "column"
    read.columns = sorted(full, key=lambda c: read.positions[c][0])
    if all(frame.kinds.get(c) == "percent" for c in full):  # "what percentage of revenue" names a share column
        for token in tokens:
            if not token.taken and token.key in _CUES["share"]:
                token.taken = "context"
    for column in full:  # "occupancy rate", "percentage change" for a column of percents
        if frame.kinds.get(column) == "percent":
            for i in read.positions[column]:
                for j in (i - 1, i + 1):
                    if 0 <= j < len(tokens) and not tokens[j].taken and tokens[j].key in _RATES:
                        tokens[j].taken = "context"


def _said_in_order(tokens: list[_Token], column: str) -> set[int]:
    """The positions of the first run of the question that says ``column``'s words in its order, function words
    ("and" for "&") between them allowed; empty when there is none. An abbreviated column is never said so."""
    plain = re.sub(r"\([^)]*\)", " ", column)
    keys = [k for k in _keys(plain) if k not in _STOP_KEYS]
    for start in range(len(tokens)):
        run: set[int] = set()
        i = start
        for key in keys:
            while i < len(tokens) and tokens[i].key in _STOP_KEYS and i > start:
                i += 1
            if i >= len(tokens) or tokens[i].taken or tokens[i].key != key:
                break
            run.add(i)
            i += 1
        else:
            if len(keys) > 1:
                return run
    return set()


def _caption_runs(tokens: list[_Token], caption: str) -> set[int]:
    """The positions of runs of three or more words of the question that the caption says in the same order."""
    said = _keys(caption)
    runs: set[int] = set()
    for i in range(len(tokens)):
        for j in range(len(said)):
            size = 0
            while i + size < len(tokens) and j + size < len(said) and tokens[i + size].key == said[j + size]:
                size += 1
            if size >= 3:
                runs |= set(range(i, i + size))
    return runs


def _window(places: dict[str, list[int]]) -> set[int]:
    """One place for each of a column's words, as close together as they can be ("pupils per teacher" where
    "pupils" is also said earlier, alone)."""
    choices = [sorted(v) for v in places.values() if v]
    if not choices:
        return set()
    best: set[int] = set()
    for anchor in choices[0]:
        picked = {anchor} | {min(c, key=lambda i: abs(i - anchor)) for c in choices[1:]}
        if not best or max(picked) - min(picked) < max(best) - min(best):
            best = picked
    return best


def _take_conditions(tokens: list[_Token], read: _Read) -> None:
    """Comparisons with a number: "above 7%", "greater than 1,200", "exceed 50", "under 4 million"."""
    comparing = _CUES["more"] | _CUES["less"] | _BEFORE_NUMBER["more"] | _BEFORE_NUMBER["less"]
    for i, token in enumerate(tokens):
        if token.number is None or token.taken or i == 0:
            continue
        j = i - 2 if i >= 2 and tokens[i - 1].key == "than" else i - 1
        if tokens[j].taken or tokens[j].key not in comparing:
            continue
        more = tokens[j].key in _CUES["more"] | _BEFORE_NUMBER["more"]
        read.conditions.append((j, ">" if more else "<", token.number, token.scale))
        for k in range(j, i + 1):
            tokens[k].taken = "condition"


def _take_counting(tokens: list[_Token], read: _Read) -> None:
    """ "How many offices …", "the number of funds …", "the count of …" — of rows, not a column ("how many
    loans did Old Town make" names the column Loans; "the highest total number of checks" the column Totals)."""
    for i in range(len(tokens) - 2):
        pair = (tokens[i].key, tokens[i + 1].key)
        after_column = i > 0 and tokens[i - 1].taken == "column" and pair[0] != _key("how")  # "total number of"
        if pair == (_key("how"), _key("many")) and i > 0 and tokens[i - 1].key == "by":  # "by how many": a change
            tokens[i - 1].taken = tokens[i].taken = tokens[i + 1].taken = "stop"
            continue
        if pair == (_key("how"), _key("many")) and tokens[i + 2].key in _CUES["more"] | _CUES["less"]:
            tokens[i].taken = tokens[i + 1].taken = "stop"  # "how many more employees": a difference, no count
            continue
        if pair in _COUNTED and tokens[i + 2].taken != "column" and not after_column:
            read.cues.setdefault("count", []).append(i)
            tokens[i].taken = tokens[i + 1].taken = "cue:count"


def _take_cues(tokens: list[_Token], read: _Read) -> None:
    ranked = any(t.key in _CUES["rank"] for t in tokens)
    read.whole = any(t.key in _WHOLE for t in tokens)
    for i, token in enumerate(tokens[1:], 1):  # "percentage points": how a change of a rate is counted
        if token.key in _POINTS and not token.taken and tokens[i - 1].key in (_key("percentage"), _key("percent")):
            token.taken = tokens[i - 1].taken = "context"
    for i, token in enumerate(tokens):
        if token.taken:
            continue
        if token.key == _key("number") and i + 1 < len(tokens) and tokens[i + 1].key == "1":  # "number one"
            read.cues.setdefault("rank", []).append(i)
            token.taken = tokens[i + 1].taken = "cue:rank"
            continue
        place = _NTH.get(token.text.lower())
        after = tokens[i + 1].key if i + 1 < len(tokens) else ""
        if place and (after in _CUES["max"] | _CUES["min"] or (i and tokens[i - 1].key in _CUES["rank"])):
            read.nth = place  # "second-highest", "third most", "ranks second by …": a place in the order
            token.taken = "cue:nth"
            continue
        if token.key in _POSITIONS and ranked:  # "first" or "last" of an order said, not "last year"
            read.cues.setdefault("rank", []).append(i)
            token.taken = "cue:rank"
            continue
        read.falling = read.falling or token.key in _FALLING
        for family, words in _CUES.items():
            if token.key in words:
                read.cues.setdefault(family, []).append(i)
                token.taken = f"cue:{family}"
                break
        if token.taken == "cue:sum" and i + 1 < len(tokens) and tokens[i + 1].key == "up":  # "add up", "sum up"
            tokens[i + 1].taken = token.taken


def _take_prices(tokens: list[_Token], read: _Read, frame: Frame) -> None:
    """ "The cheapest pizza", "the most expensive item": the order of the frame's one column of money, when the
    question names no column."""
    money = [c for c in frame.columns if frame.kinds.get(c, "").startswith("money")]
    if read.columns or len(money) != 1:
        return
    for i, token in enumerate(tokens):
        if token.taken:
            continue
        cheap = token.key in _CHEAPEST
        dear = token.key in _DEAREST and i and tokens[i - 1].key in _CUES["max"] | _CUES["min"]
        if token.key in _PRICIEST or cheap or dear:
            family = "min" if cheap or (dear and tokens[i - 1].key in _CUES["min"]) else "max"
            read.columns.append(money[0])
            read.positions.setdefault(money[0], []).append(i)
            read.cues.setdefault(family, []).append(i)
            token.taken = f"cue:{family}"
            if dear:
                tokens[i - 1].taken = f"cue:{family}"
            return


_CHEAPEST = _family("cheapest")
_PRICIEST = _family("priciest dearest costliest")
_DEAREST = _family("expensive costly pricey")


def _take_totals(tokens: list[_Token], read: _Read, frame: Frame) -> None:
    """A total row left out of the frame, named by its label ("consolidated operating income"): the whole its rows
    add up to, which the question may take a share of."""
    for total in frame.totals:
        keys = [k for k in _keys(total) if k not in _STOP_KEYS]
        for start in _find(tokens, keys) if keys else []:
            for j in range(len(keys)):
                tokens[start + j].taken = "total"
            read.total_row = True


def _take_context(tokens: list[_Token], frame: Frame, names: str) -> None:
    """The frame's own words (caption, heading, column names with their units), the initials of a name it
    abbreviates ("full-time equivalent" for "FTE"), and function words."""
    text = " ".join([frame.caption, frame.heading, frame.label or "", *frame.columns])
    own = set(_keys(text)) | {k for k in _keys(names) if not k[:1].isdigit()}
    size = len(frame.data)
    for i, token in enumerate(tokens[1:-1], 1):  # "across the five people", "all 5 funds": the rows, said again
        if token.key == str(size) and tokens[i - 1].key in _RESTATING and not tokens[i + 1].taken:
            token.taken = tokens[i + 1].taken = "context"
    for i, token in enumerate(tokens[1:], 1):  # "this month", "this year": the period the table is of
        if token.key in _PERIODS and tokens[i - 1].key in (_key("this"), _key("that")) and not token.taken:
            token.taken = "context"
    for token in tokens:
        if token.taken:
            continue
        if token.key in _STOP_KEYS or token.key in _FILLER:
            token.taken = "stop"
        elif token.key in own and (token.number is None or token.text in frame.caption):
            token.taken = "context"
    shorts = {w.lower() for w in re.findall(r"\b[A-Z]{2,5}\b", text)}
    for size in (4, 3, 2):
        for i in range(len(tokens) - size + 1):
            run = tokens[i : i + size]
            if (
                all(not t.taken and t.text[:1].isalpha() for t in run)
                and "".join(t.text[0] for t in run).lower() in shorts
            ):
                for t in run:
                    t.taken = "context"


_WHICH_KEYS = {_key("which")}
_TOTAL_KEY = _key("total")
_PERIODS = _family("month year quarter week period day")
_RESTATING = {_key(w) for w in ("the", "all", "these", "those", "its", "their")}
_COUNTED = {(_key("how"), _key("many")), (_key("number"), "of"), (_key("count"), "of")}
_STOP_KEYS = frozenset(stem(w) for w in STOPWORDS) | STOPWORDS | {"s", "i'm", "im", "'s", "their", "whose", "i"}


# --- the program --------------------------------------------------------------------------------------
def _program(  # noqa: C901 - one branch per operation
    read: _Read, frame: Frame, question: str, tokens: list[_Token]
) -> str | None:
    t, label = frame.name, _q(frame.label or "")
    named = answer_column(question, frame)  # what a "who" or "which X" question is answered with
    if named is None:
        return None
    answer = _q(named)
    cues = set(read.cues)
    if len(read.conditions) > 1 or len(read.groups) > 1 or (read.groups and read.rows):
        return None
    where = _mask(t, read, frame)
    if where is None:
        return None
    if read.nth > 1:  # "the second-highest": a place in one column's order, and nothing else
        direction = _extreme(cues, question, read.nth)
        if not direction or read.rows or read.conditions or len(read.columns) != 1:
            return None
        return _placed(t, answer, read.columns[0], frame, where, direction, read.nth)
    if read.conditions:  # rows kept by a comparison: listed, counted or averaged
        compared = _nearest(read, read.conditions[0][0])
        target = [c for c in read.columns if c != compared] or read.columns
        if len(target) != 1 or read.rows:
            return None
        column = _q(target[0])
        if cues == {"mean"}:
            return f"{t}.loc[{where}, {column}].mean()"
        if cues == {"count"} and len(read.columns) == 1:
            return f"len({t}[{where}])"
        if not cues and len(read.columns) == 1 and re.search(r"\b(which|who|list|show|name|what)\b", question, re.I):
            return f"{t}.loc[{where}, {answer}].tolist()"
        return None
    rows = [_q(r) for r in read.rows]
    if len(read.columns) == 2 and len(rows) == 1 and "diff" in cues and cues <= {"diff", "more", "less"}:
        first, later = (_q(c) for c in read.columns)  # "from 2022 to 2023": the later less the earlier
        if read.falling:  # "how much did it fall from 2022 to 2023": the earlier less the later
            first, later = later, first
        return f"{_cell(t, label, rows[0], later)} - {_cell(t, label, rows[0], first)}"
    if len(read.columns) == 2 and not rows and where == "True" and (cues - {"count"}) in ({"more"}, {"less"}):
        return _columns_compared(t, answer, read, question, tokens)
    if len(read.columns) >= 2 and len(rows) == 1 and cues in ({"sum"}, {"mean"}):  # "2022 and 2023 added together"
        cells = [_cell(t, label, rows[0], _q(c)) for c in read.columns]
        return f"({' + '.join(cells)}){'' if cues == {'sum'} else f' / {len(cells)}'}"
    if cues == {"count"} and not read.columns and not rows and where != "True":  # "how many are of type X"
        return f"len({t}[{where}])"
    if len(read.columns) != 1:
        return None
    column = _q(read.columns[0])
    if len(rows) >= 2:
        chosen = f"{t}.loc[{t}[{label}].isin([{', '.join(rows)}]), {column}]"
        if cues == {"sum"}:
            return f"{chosen}.sum()"
        if cues == {"mean"}:
            return f"{chosen}.mean()"
        if len(rows) == 2 and cues == {"share"}:  # "what percentage of the Consolidated total came from AWS"
            return _part_of(t, label, column, read, frame, tokens)
        if len(rows) == 2 and cues and cues <= {"diff", "more", "less"}:
            first, second = rows  # "how many more … A than B": A less B; "how many fewer … A than B": B less A
            if cues & {"more", "less"} == {"less"}:
                first, second = second, first
            elif not cues & {"more", "less"} and all(is_year(r) for r in read.rows):  # a change between two years:
                earlier, later = sorted(rows, key=lambda r: int(json.loads(r)))  # the later less the earlier
                first, second = (earlier, later) if read.falling else (later, earlier)
            return f"{_cell(t, label, first, column)} - {_cell(t, label, second, column)}"
        return None
    if len(rows) == 1:
        if not cues:
            return _cell(t, label, rows[0], column)
        amounts = frame.kinds.get(read.columns[0]) != "percent" and bool((frame.data[read.columns[0]] >= 0).all())
        if "share" in cues and cues <= {"share", "sum"} and (read.whole and amounts or read.total_row):
            return f"part = {_cell(t, label, rows[0], column)}\npart / {t}[{column}].sum() * 100"
        return None
    direction = _extreme(cues, question)
    if direction:
        method = "idxmax" if direction == "max" else "idxmin"
        if where == "True":
            return f"{t}.loc[{t}[{column}].{method}(), {answer}]"
        return f"rows = {t}[{where}]\nrows.loc[rows[{column}].{method}(), {answer}]"
    if cues == {"mean"}:
        return f"{t}[{column}].mean()" if where == "True" else f"{t}.loc[{where}, {column}].mean()"
    if where != "True" and cues in ({"sum"}, {"count"}):
        return f"{t}.loc[{where}, {column}].sum()" if cues == {"sum"} else f"len({t}[{where}])"
    return None


_PEOPLE = _family(
    "name names employee employees person people staff member members manager officer director author owner contact "
    "representative attorney signatory recipient applicant customer client student teacher player candidate worker "
    "president executive partner chair speaker winner holder"
)
WHO = re.compile(r"^\W*whose\b|\bwhom?\b", re.I)  # a question after a person ("funds whose class is …" is not)
_WHICH = re.compile(r"\b(?:which|what)\s+(?:one\s+of\s+the\s+)?([A-Za-z][\w-]*)", re.I)


def answer_column(question: str, frame: Frame) -> str | None:
    """The text column a "who" or "which X" question is answered from: for "who", the one column named for people
    ("Employee", "Name"), for "which fund" the column named "Fund"; else the row labels. None when "who" is asked
    of a table with several text columns and no one column names people (a job title is no answer to "who")."""
    texts = [c for c in frame.columns if frame.kinds.get(c, "text") == "text" and c != "file"]
    if len(texts) <= 1:
        return frame.label
    if WHO.search(question):
        people = [c for c in texts if set(_keys(c)) & _PEOPLE]
        return people[0] if len(people) == 1 else None
    asked = _WHICH.search(question)
    named = [c for c in texts if asked and _key(asked.group(1)) in _keys(c)]
    return named[0] if len(named) == 1 else frame.label


def _extreme(cues: set[str], question: str, nth: int = 1) -> str | None:
    """ "max" or "min" for a question after the row at an extreme of the column; None when it is not one."""
    if not cues or cues - {"max", "min", "rank", "more", "less"}:
        return None
    top = re.search(r"\b(?:first|top|number one)\b", question, re.I)
    bottom = re.search(r"\b(?:last|bottom)\b", question, re.I)
    if cues & {"more", "less"}:  # "lower than every other department's"
        if len(cues) != 1 or not _MORE_THAN_ALL.search(question):
            return None
        return "max" if "more" in cues else "min"
    if cues >= {"max", "min"}:  # "ranked by X, highest to lowest": the first of the order, or its last
        order = _ORDER.search(question)
        if not order or "rank" not in cues or bool(top) == bool(bottom):
            return None
        first = "max" if _key(order.group(1)) in _CUES["max"] else "min"
        return first if top else ("min" if first == "max" else "max")
    if cues == {"rank"}:  # ranked with no direction said: the top is the highest ("ranks second by": from the top)
        if nth > 1 and not bottom:
            return "max"
        return "max" if top and not bottom else "min" if bottom and not top else None
    return "max" if "max" in cues else "min"


def _columns_compared(t: str, answer: str, read: _Read, question: str, tokens: list[_Token]) -> str | None:
    """Rows whose first-named column is more (less) than the second, "… higher revenue in 2023 than in 2022":
    counted when "how many" is asked, else listed for "which"; None when "than" does not stand between them."""
    first, second = read.columns
    than = [i for i, token in enumerate(tokens) if token.key == "than"]
    if not any(read.positions[first][0] < i < read.positions[second][0] for i in than):
        return None
    sign = ">" if "more" in read.cues else "<"
    mask = f"{t}[{_q(first)}] {sign} {t}[{_q(second)}]"
    if "count" in read.cues:
        return f"len({t}[{mask}])"
    if re.search(r"\b(which|what|list|name)\b", question, re.I):
        return f"{t}.loc[{mask}, {answer}].tolist()"
    return None


def _part_of(t: str, label: str, column: str, read: _Read, frame: Frame, tokens: list[_Token]) -> str | None:
    """Row A as a percent of row B, where the question says "percentage (share, proportion) of" just before B and
    names A elsewhere ("What percentage of consolidated operating income came from AWS?"). None when no row follows
    "… of", or when A's amount is larger than B's or negative (then B is no whole that A is part of)."""
    wholes = {
        min(after)
        for cue in read.cues.get("share", [])
        if cue + 1 < len(tokens) and tokens[cue + 1].key == "of"
        for after in [[p for p in read.row_places if cue + 1 < p <= cue + 6]]
        if after
    }
    if len(wholes) != 1:
        return None
    whole = read.rows[read.row_places.index(wholes.pop())]
    part = next(r for r in read.rows if r != whole)
    values = dict(zip(frame.data[frame.label].astype(str), frame.data[read.columns[0]], strict=False))
    if not 0 <= values.get(part, -1) <= values.get(whole, -1) or not values.get(whole):
        return None
    cells = _cell(t, label, _q(part), column), _cell(t, label, _q(whole), column)
    return f"part = {cells[0]}\nwhole = {cells[1]}\npart / whole * 100"


def _placed(t: str, label: str, column: str, frame: Frame, where: str, direction: str, nth: int) -> str | None:
    """The row at place ``nth`` of the column's order (largest first for "max"); None when rows are kept by a
    condition or when the value there is tied with a neighbour's (which row is "second" is then not the table's)."""
    if where != "True":
        return None
    ascending = direction == "min"
    values = frame.data[column].dropna().sort_values(ascending=ascending).tolist()
    if len(values) < nth or values[nth - 1] in values[nth - 2 : nth - 1] + values[nth : nth + 1]:
        return None
    return f"{t}.sort_values({_q(column)}, ascending={ascending})[{label}].iloc[{nth - 1}]"


def _mask(t: str, read: _Read, frame: Frame) -> str | None:
    """The rows the question keeps, as a mask over ``t`` ("True": all of them). A number said with a scale ("45
    million") is put in the compared column's printed scale ("Revenue (USD million)": 45; a caption's "in
    thousands": 45,000); when that scale is not printed, the comparison is not made."""
    parts: list[str] = []
    for column, value in read.groups:
        parts.append(f"({t}[{_q(column)}] == {_q(value)})")
    for position, sign, number, scale in read.conditions:
        compared = _nearest(read, position)
        if compared is None:
            return None
        if scale:
            printed = read_scale(compared) or frame.scale
            if not printed:
                return None
            number = number * SCALES[scale] / SCALES[printed]
        parts.append(f"({t}[{_q(compared)}] {sign} {_literal(number)})")
    if not parts:
        return "True"
    return parts[0][1:-1] if len(parts) == 1 else " & ".join(parts)


def _nearest(read: _Read, position: int) -> str | None:
    """The column a comparison at ``position`` is about: the one named closest to it (one only)."""
    if not read.columns:
        return None
    distance = {c: min(abs(p - position) for p in read.positions[c]) for c in read.columns}
    best = min(distance.values())
    closest = [c for c, d in distance.items() if d == best]
    return closest[0] if len(closest) == 1 else None


def _cell(t: str, label: str, row: str, column: str) -> str:
    """The value at a row and a column (``label``, ``row`` and ``column`` written as literals, :func:`_q`)."""
    return f"{t}.loc[{t}[{label}] == {row}, {column}].iloc[0]"


def _q(text: str) -> str:
    """A column name or a cell's text as a string literal of the program."""
    return json.dumps(text, ensure_ascii=False)


def _literal(number: float) -> str:
    return str(int(number)) if number == int(number) else repr(number)
