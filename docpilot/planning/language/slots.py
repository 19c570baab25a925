"""Slots: what kind of value each tool argument takes, read from its annotation, and how such a value is
written in the tool language and read back.

Every kind has one written form, so a value written and read again is the same value:

- quote: a text, quoted, ``'DRAFT'`` (double quotes when the text holds an apostrophe);
- quotes: quoted items joined by ", ";
- number: ``0.3``, ``60``; numbers: joined by ", ";
- yes/no: ``yes`` or ``no``;
- choice (a ``Literal``): the value itself, ``bottom-right``;
- name / names (an argument marked :class:`~pdftools.words.Named`): ``blue``; ``phone, email``;
- pages: a page phrase, ``page 3``, ``pages 1-3,5``, ``the last page``, ``all pages``, ``the odd pages``;
- spec: a page selection as written in a plan, ``3,1,2`` or a page word the tool accepts (``reverse``);
- file, files: an uploaded file's name quoted, or ``the result of step 2``;
- mapping: ``'Name' = 'Ada', 'Age' = 42``.
"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import dataclass
from typing import Any

from pdftools import Tool
from pdftools.argcheck import PageSelection
from pdftools.words import Named

__all__ = ["Slot", "slots_of", "RESULT", "quote", "unquote", "spec_of"]

QUOTED = r"'[^'\n]*'|\"[^\"\n]*\""
NUMBER = r"-?\d+(?:\.\d+)?"
RESULT = re.compile(r"the result of step (\d+)", re.I)
_PAGE_ITEM = r"(?:\d+|last|first)(?:-(?:\d+|last))?"
SPEC = rf"{_PAGE_ITEM}(?:,{_PAGE_ITEM})*"
PAGE_PHRASE = rf"all pages|the last page|the first page|the odd pages|the even pages|page \d+|pages {SPEC}"
_PAGE_WORDS = {"all": "all pages", "last": "the last page", "odd": "the odd pages", "even": "the even pages"}


def quote(text: str) -> str:
    """Text as the language writes it: in single quotes, or double ones when it holds an apostrophe."""
    return f'"{text}"' if "'" in text else f"'{text}'"


def unquote(text: str) -> str:
    return text[1:-1]


def spec_of(value: Any) -> str:
    """A page selection as one string, as a plan writes it ("1-3,5", "last", "all")."""
    if isinstance(value, list):
        return ",".join(spec_of(v) for v in value)
    text = re.sub(r"\s+", "", str(value)).lower()
    return "1" if text == "first" else text


def _number(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _to_number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def _alternatives(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@dataclass(frozen=True)
class Slot:
    """One argument of one tool as the language sees it."""

    arg: str
    kind: str  # quote quotes number numbers yesno choice name names pages spec file files mapping
    label: str  # how an option names it: "font size"
    default: Any
    required: bool
    choices: tuple[str, ...] = ()  # choice/name(s)/spec: the words it takes

    def pattern(self) -> str:
        """A regular expression for a written value of this slot."""
        kind = self.kind
        if kind == "quote":
            return QUOTED
        if kind == "quotes":
            return rf"(?:{QUOTED})(?:, (?:{QUOTED}))*"
        if kind == "number":
            return NUMBER
        if kind == "numbers":
            return rf"{NUMBER}(?:, {NUMBER})*"
        if kind == "yesno":
            return "yes|no"
        if kind in ("choice", "name"):
            extra = r"|#[0-9a-fA-F]{6}" if kind == "name" else ""
            return _alternatives(self.choices) + extra
        if kind == "names":
            one = _alternatives(self.choices)
            return rf"(?:{one})(?:, (?:{one}))*"
        if kind == "pages":
            return PAGE_PHRASE
        if kind == "spec":
            words = _alternatives(self.choices)
            return rf"{SPEC}|{words}" if words else SPEC
        if kind == "file":
            return rf"{QUOTED}|the result of step \d+"
        if kind == "files":
            one = rf"{QUOTED}|the result of step \d+"
            return rf"(?:{one})(?:, (?:{one}))*"
        if kind == "mapping":
            pair = rf"(?:{QUOTED}) = (?:{QUOTED}|{NUMBER}|yes|no)"
            return rf"{pair}(?:, {pair})*"
        raise AssertionError(kind)

    def write(self, value: Any, refs: dict[str, int]) -> str:
        """``value`` as the language writes it; ``refs`` maps a ``$name`` to the step that made it."""
        kind = self.kind
        if kind == "quote":
            return quote(str(value))
        if kind == "quotes":
            items = value if isinstance(value, list) else [value]
            return ", ".join(quote(str(v)) for v in items)
        if kind == "number" or kind == "yesno":
            return _number(value)
        if kind == "numbers":
            return ", ".join(_number(v) for v in value)
        if kind == "choice":
            return str(value)
        if kind == "name":
            compact = re.sub(r"[\s_-]+", "", str(value).lower())
            return compact if compact in self.choices else str(value)
        if kind == "names":
            items = value if isinstance(value, list) else [value]
            return ", ".join(str(v) for v in items)
        if kind == "pages":
            return page_phrase(value)
        if kind == "spec":
            return spec_of(value)
        if kind == "file":
            return _file_ref(value, refs)
        if kind == "files":
            return ", ".join(_file_ref(v, refs) for v in value)
        if kind == "mapping":
            return ", ".join(f"{quote(str(k))} = {_scalar(v)}" for k, v in value.items())
        raise AssertionError(kind)

    def read(self, text: str, names: dict[int, str]) -> Any:
        """The value of a written ``text`` (that matched :meth:`pattern`); ``names`` maps a step number to
        the ``$name`` of its result. Raises ValueError for a step that made no file."""
        kind = self.kind
        if kind == "quote":
            return unquote(text)
        if kind == "quotes":
            return [unquote(m) for m in re.findall(QUOTED, text)]
        if kind == "number":
            return _to_number(text)
        if kind == "numbers":
            return [_to_number(n) for n in re.findall(NUMBER, text)]
        if kind == "yesno":
            return text.lower() == "yes"
        if kind == "choice":
            return next(c for c in self.choices if c.lower() == text.lower())
        if kind == "name":
            return text.lower()
        if kind == "names":
            return [t.strip().lower() for t in text.split(",")]
        if kind == "pages":
            return read_page_phrase(text)
        if kind == "spec":
            return text.lower()
        if kind == "file":
            return _read_file_ref(text, names)
        if kind == "files":
            parts = re.findall(rf"{QUOTED}|the result of step \d+", text, re.I)
            return [_read_file_ref(p, names) for p in parts]
        if kind == "mapping":
            pairs = re.findall(rf"({QUOTED}) = ({QUOTED}|{NUMBER}|yes|no)", text)
            return {unquote(k): _read_scalar(v) for k, v in pairs}
        raise AssertionError(kind)


def page_phrase(value: Any) -> str:
    spec = spec_of(value)
    if spec in _PAGE_WORDS:
        return _PAGE_WORDS[spec]
    if spec.isdigit():
        return f"page {spec}"
    return f"pages {spec}"


def read_page_phrase(text: str) -> str:
    text = text.lower()
    for spec, phrase in _PAGE_WORDS.items():
        if text == phrase:
            return spec
    if text == "the first page":
        return "1"
    return text.split(" ", 1)[1]


def _scalar(value: Any) -> str:
    if isinstance(value, bool | int | float):
        return _number(value)
    return quote(str(value))


def _read_scalar(text: str) -> Any:
    if text in ("yes", "no"):
        return text == "yes"
    if re.fullmatch(NUMBER, text):
        return _to_number(text)
    return unquote(text)


def _file_ref(value: Any, refs: dict[str, int]) -> str:
    text = str(value)
    if text.startswith("$") and text[1:] in refs:
        return f"the result of step {refs[text[1:]]}"
    return quote(text)


def _read_file_ref(text: str, names: dict[int, str]) -> str:
    match = RESULT.fullmatch(text)
    if match is None:
        return unquote(text)
    step = int(match.group(1))
    if step not in names:
        raise ValueError(f"step {step} made no file before this one")
    return f"${names[step]}"


def _strip_optional(annotation: Any) -> tuple[Any, tuple[Any, ...]]:
    """The annotation without ``None`` and ``Annotated``, and the ``Annotated`` metadata."""
    metadata: tuple[Any, ...] = ()
    if typing.get_origin(annotation) is typing.Annotated:
        metadata = annotation.__metadata__
        annotation = typing.get_args(annotation)[0]
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        args = tuple(a for a in typing.get_args(annotation) if a is not type(None))
        inner = [_strip_optional(a) for a in args]
        metadata += tuple(m for _, meta in inner for m in meta)
        args = tuple(a for a, _ in inner)
        annotation = args[0] if len(args) == 1 else typing.Union[args]  # noqa: UP007 - built at run time
    return annotation, metadata


def _kind(tool: Tool, arg: str, annotation: Any) -> tuple[str, tuple[str, ...]]:
    if arg in tool.takes:
        return ("files" if arg in ("files", "images") else "file"), ()
    bare, metadata = _strip_optional(annotation)
    named = next((m for m in metadata if isinstance(m, Named)), None)
    if named is not None:
        return ("names" if named.many else "name"), named.names()
    if any(isinstance(m, PageSelection) for m in metadata):
        return "pages", tool.page_words.get(arg, ())
    origin = typing.get_origin(bare)
    if origin is typing.Literal:
        return "choice", tuple(str(a) for a in typing.get_args(bare))
    if bare is bool:
        return "yesno", ()
    if bare in (int, float):
        return "number", ()
    if bare is str:
        return "quote", ()
    if origin is list:
        item = typing.get_args(bare)[0]
        return ("numbers" if item in (int, float) else "quotes"), ()
    if origin is dict:
        return "mapping", ()
    members = typing.get_args(bare)
    if str in members and any(typing.get_origin(m) is list for m in members):
        return "quotes", ()
    if int in members or float in members:
        return "number", ()
    return "quote", ()


def slots_of(tool: Tool) -> dict[str, Slot]:
    """Each argument of ``tool`` as a slot. A page argument named in ``say`` as ``{arg:spec}`` is a spec."""
    spec_args = set(re.findall(r"\{(\w+):spec\}", tool.say))
    out: dict[str, Slot] = {}
    for arg, (annotation, default) in tool.fields.items():
        kind, choices = _kind(tool, arg, annotation)
        if arg in spec_args:
            kind = "spec"
        out[arg] = Slot(arg, kind, arg.replace("_", " "), None if default is ... else default, default is ..., choices)
    return out
