"""The held-out paraphrases stay out of the code and the tests.

``bench/paraphrases.py`` holds out a seeded third of ``bench/paraphrases.jsonl``; its figure is honest only while
nothing was built from those rows. So no string that only a held-out row has may appear in ``docpilot/`` or
``tests/``: a password, a quoted term or value, an unusual word, a run of seven words. The strings are derived
here from the rows with the bench's own split, never written down, and a failure names only the string, the row's
id and the file.

What counts as only a held-out row's: absent from every tuned and extra row, and — for single words — not ordinary
English, which here is every word of the standard library's own source and docs plus English number words.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
SEARCHED = ("docpilot", "tests")
RUN = 7  # words in a row: a held-out request quoted whole or nearly so
RARE = 5  # letters at least in an unusual word
NUMBER_WORDS = set(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million first second "
    "third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth "
    "seventeenth eighteenth nineteenth twentieth thirtieth fortieth fiftieth hundredth thousandth".split()
)
_QUOTED = re.compile(r"(?<!\w)'([^'\n]+?)'(?!\w)|\"([^\"\n]+)\"|\u2018([^\u2019\n]+)\u2019|\u201c([^\u201d\n]+)\u201d")


def _paraphrase_bench() -> Any:
    """bench/paraphrases.py, for its split (one definition of the held-out rows for the bench and this test)."""
    spec = importlib.util.spec_from_file_location("paraphrase_bench", BENCH / "paraphrases.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


@functools.cache
def _ordinary() -> frozenset[str]:
    """Ordinary English: the words of the standard library's source files (code, comments and docs)."""
    words: set[str] = set(NUMBER_WORDS)
    for path in Path(sysconfig.get_paths()["stdlib"]).rglob("*.py"):
        if "site-packages" not in path.parts:
            words.update(re.findall(r"[a-z]+", path.read_text(errors="ignore").lower()))
    return frozenset(words)


def _forms(word: str) -> Iterator[str]:
    yield word
    for ending in ("s", "es", "ed", "d", "ing", "ly", "er", "est"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            yield word[: -len(ending)]


def _values(expect: Any, key: str | None = None) -> Iterator[tuple[str | None, str]]:
    """(argument name, value) of every string in a row's expectation."""
    if isinstance(expect, str):
        yield key, expect
    elif isinstance(expect, dict):
        for name, value in expect.items():
            yield from _values(value, name)
    elif isinstance(expect, list):
        for value in expect:
            yield from _values(value, key)


def _distinctive(row: dict[str, Any], others: str, known: set[str], runs: set[str]) -> set[tuple[str, str]]:
    """(kind, string) of what only this held-out row says. ``others``: the other rows' text, lower case;
    ``known``: their words; ``runs``: their runs of RUN words."""
    request = row["request"]
    found: set[tuple[str, str]] = set()
    values = list(_values(row["expect"])) if isinstance(row["expect"], list) else []
    for name, value in values:
        if name == "password" and len(value) >= 3 and value.lower() not in others:
            found.add(("password", value))
    quoted = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(request)]
    passwords = {value for kind, value in found}
    for value in quoted + [v for _, v in values if v in request]:
        value = value.strip()
        if len(re.findall(r"[A-Za-z]", value)) >= 3 and value.lower() not in others and value not in passwords:
            found.add(("quoted", value))
    ordinary = _ordinary()
    for word in re.findall(r"[A-Za-z]+", request):
        word = word.lower()
        if len(word) >= RARE and not any(f in ordinary or f in known for f in _forms(word)):
            found.add(("word", word))
    tokens = _words(request)
    for i in range(len(tokens) - RUN + 1):
        run = " ".join(tokens[i : i + RUN])
        if run not in runs:
            found.add(("run", run))
    return found


@functools.cache
def _held_out_strings() -> dict[tuple[str, str], str]:
    """(kind, string) -> the id of a held-out row that alone says it."""
    bench = _paraphrase_bench()
    cases = bench.load(BENCH / "paraphrases.jsonl")
    held = bench.held_out(cases)
    others = [c for c in cases if c["id"] not in held] + bench.load(BENCH / "paraphrases_extra.jsonl")
    text = "\n".join(json.dumps(c, ensure_ascii=False) for c in others).lower()
    known = set(re.findall(r"[a-z]+", text))
    runs = {" ".join(t[i : i + RUN]) for c in others for t in [_words(c["request"])] for i in range(len(t) - RUN + 1)}
    strings: dict[tuple[str, str], str] = {}
    for case in sorted(cases, key=lambda c: c["id"]):
        if case["id"] in held:
            for item in _distinctive(case, text, known, runs):
                strings.setdefault(item, case["id"])
    return strings


def _sources() -> Iterator[Path]:
    me = Path(__file__).resolve()
    for folder in SEARCHED:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".md", ".json", ".jsonl", ".yaml", ".yml", ".j2", ".txt"):
                if path.resolve() != me and "__pycache__" not in path.parts:
                    yield path


def test_the_held_out_rows_give_strings_to_look_for() -> None:
    strings = _held_out_strings()
    kinds = {kind for kind, _ in strings}
    # a derivation that finds nothing would pass for any code: every kind has something to look for
    assert kinds == {"password", "quoted", "word", "run"}, kinds
    assert len(strings) >= 200, len(strings)


def test_no_held_out_string_is_in_the_code_or_the_tests() -> None:
    strings = _held_out_strings()
    words = {s for kind, s in strings if kind == "word"}
    runs = {s for kind, s in strings if kind == "run"}
    literal = [(kind, s) for kind, s in strings if kind in ("password", "quoted")]
    leaks = []
    for path in _sources():
        raw = path.read_text(errors="ignore")
        lower = raw.lower()
        tokens = _words(raw)
        for kind, value in literal:
            if value.lower() in lower:
                leaks.append((kind, value, strings[kind, value], path))
        for word in words & set(tokens):
            leaks.append(("word", word, strings["word", word], path))
        for i in range(len(tokens) - RUN + 1):
            run = " ".join(tokens[i : i + RUN])
            if run in runs:
                leaks.append(("run", run, strings["run", run], path))
    report = [f"{kind} {value!r} of held-out row {row} in {path.relative_to(ROOT)}" for kind, value, row, path in leaks]
    assert not leaks, "held-out rows quoted in the code or the tests:\n" + "\n".join(report)
