"""The sentence form of each tool, compiled from its ``say`` head and its arguments' slots.

A command sentence is ``<head>[ on <pages>][ of <file>][ with <argument> <value>, …].`` The head is the
tool's ``say`` (``"Rotate {pages} by {degrees} degrees"``) with its slots filled; the page argument that
is not in the head follows " on", the file " of", and every other argument that differs from its
default is an option named by its label (``with opacity 0.2, color blue``). A sentence is read back
only when every word of it is accounted for by the head, a slot or an option.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from docpilot.planning.language.slots import Slot, slots_of
from pdftools import Tool

__all__ = ["Form", "Match", "form_of"]

_PIECE = re.compile(r"\[([^\]]*)\]|\{(\w+)(?::\w+)?\}|([^\[\]{}]+)")


@dataclass(frozen=True)
class Match:
    """A sentence read by one form: the arguments it gives, or where reading stopped."""

    args: dict[str, Any]
    unread: str  # "" when every word was read


class Form:
    """One tool's sentence: written from a step's arguments, read back into them."""

    def __init__(self, tool: Tool) -> None:
        self.tool = tool
        self.slots = slots_of(tool)
        self.pieces = _pieces(tool.say)
        self.head_args = [arg for piece in self.pieces for arg in _piece_args(piece)]
        rest = [a for a in self.slots if a not in self.head_args]
        self.on_arg = next((a for a in rest if self.slots[a].kind == "pages"), None)
        self.of_arg = "file" if "file" in rest and self.slots["file"].kind == "file" else None
        self.options = [a for a in rest if a not in (self.on_arg, self.of_arg)]
        self.literal = re.sub(r"\{[^}]*\}|[\[\]]", "", tool.say).strip()
        self.head = re.compile(_head_regex(self.pieces, self.slots), re.I)
        labels = sorted((self.slots[a].label for a in self.options), key=len, reverse=True)
        self._labels = {self.slots[a].label.lower(): a for a in self.options}
        self._option_split = re.compile(r", (?=(?:" + "|".join(re.escape(x) for x in labels) + r") )", re.I)
        on = rf"(?: (?:on )?(?P<t_on>{self.slots[self.on_arg].pattern()}))?" if self.on_arg else ""
        of = rf"(?: of (?P<t_of>{self.slots['file'].pattern()}))?" if self.of_arg else ""
        self.tail = re.compile(on + of + (r"(?: with (?P<t_with>.+))?" if self.options else ""), re.I)

    # writing

    def write(self, args: dict[str, Any], refs: dict[str, int], implicit_file: bool) -> str:
        """The sentence for a step with these (checked) ``args``; the file is left out when ``implicit_file``."""
        given = {a: v for a, v in args.items() if not self._is_default(a, v)}
        text = ""
        for piece in self.pieces:
            if isinstance(piece, list):  # an optional part: written when each of its slots has a value
                needed = [p for p in piece if isinstance(p, tuple)]
                if needed and all(p[1] in given for p in needed):
                    text += "".join(self._write_piece(p, args, refs) for p in piece)
            else:
                text += self._write_piece(piece, args, refs)
        if self.on_arg and self.on_arg in given:
            text += " on " + self.slots[self.on_arg].write(given[self.on_arg], refs)
        if self.of_arg and not implicit_file and "file" in args:
            text += " of " + self.slots["file"].write(args["file"], refs)
        options = [f"{self.slots[a].label} {self.slots[a].write(given[a], refs)}" for a in self.options if a in given]
        if options:
            text += " with " + ", ".join(options)
        return text + "."

    def _write_piece(self, piece: Any, args: dict[str, Any], refs: dict[str, int]) -> str:
        if isinstance(piece, str):
            return piece
        arg = piece[1]
        value = args.get(arg, self.slots[arg].default)
        return self.slots[arg].write(value, refs)

    def _is_default(self, arg: str, value: Any) -> bool:
        slot = self.slots[arg]
        return not slot.required and (value == slot.default or value is None)

    # reading

    def read(self, sentence: str, names: dict[int, str]) -> Match | None:
        """The arguments ``sentence`` gives (file arguments included only when written), or None when its
        head is not this tool's. ``names``: each earlier step's number → the ``$name`` of its result."""
        head = self.head.match(sentence)
        if head is None:
            return None
        args: dict[str, Any] = {}
        try:
            for arg in self.head_args:
                text = head.group(f"s_{arg}")
                if text is not None:
                    args[arg] = self.slots[arg].read(text, names)
            rest = sentence[head.end() :]
            tail = self.tail.match(rest)
            end = tail.end() if tail else 0
            if tail is not None:
                if tail.groupdict().get("t_on"):
                    args[self.on_arg or ""] = self.slots[self.on_arg or ""].read(tail.group("t_on"), names)
                if tail.groupdict().get("t_of"):
                    args["file"] = self.slots["file"].read(tail.group("t_of"), names)
                if tail.groupdict().get("t_with"):
                    unread = self._read_options(tail.group("t_with"), args, names)
                    if unread:
                        return Match(args, unread)
        except ValueError as exc:
            return Match(args, str(exc))
        return Match(args, rest[end:].strip())

    def _read_options(self, text: str, args: dict[str, Any], names: dict[int, str]) -> str:
        for part in self._option_split.split(text):
            label = next(
                (x for x in sorted(self._labels, key=len, reverse=True) if part.lower().startswith(x + " ")), None
            )
            if label is None:
                return part
            arg = self._labels[label]
            value = part[len(label) + 1 :]
            if arg in args or not re.fullmatch(self.slots[arg].pattern(), value, re.I):
                return part
            args[arg] = self.slots[arg].read(value, names)
        return ""

    # the language page

    def describe(self, generic: tuple[str, ...] = ()) -> str:
        """The form with placeholders, for the language page and the model's prompt; options named in
        ``generic`` (said once for every form, e.g. "output") and the file are left out when given."""
        text = ""
        for piece in self.pieces:
            if isinstance(piece, list):
                text += "[" + "".join(_placeholder(p, self.slots) for p in piece) + "]"
            else:
                text += _placeholder(piece, self.slots)
        if self.on_arg:
            text += f"[ on <{_what(self.slots[self.on_arg])}>]"
        if self.of_arg and not generic:
            text += "[ of <file>]"
        options = [a for a in self.options if a not in generic]
        if options:
            text += "[ with " + ", ".join(f"{self.slots[a].label} <{_what(self.slots[a])}>" for a in options) + "]"
        return text + "."


def _pieces(say: str) -> list[Any]:
    """``say`` as literal strings, (slot, arg) tuples and lists of those (optional parts)."""
    out: list[Any] = []
    for group, arg, literal in _PIECE.findall(say):
        if group:
            out.append([p for p in _pieces(group)])
        elif arg:
            out.append(("slot", arg))
        else:
            out.append(literal)
    return out


def _piece_args(piece: Any) -> list[str]:
    if isinstance(piece, list):
        return [p[1] for p in piece if isinstance(p, tuple)]
    return [piece[1]] if isinstance(piece, tuple) else []


def _head_regex(pieces: list[Any], slots: dict[str, Slot]) -> str:
    def one(piece: Any) -> str:
        if isinstance(piece, str):
            return r"\s+".join(re.escape(w) for w in piece.split(" ")) if piece.strip() else re.escape(piece)
        return f"(?P<s_{piece[1]}>{slots[piece[1]].pattern()})"

    out = ""
    for piece in pieces:
        out += "(?:" + "".join(one(p) for p in piece) + ")?" if isinstance(piece, list) else one(piece)
    return out


def _what(slot: Slot) -> str:
    if slot.kind in ("choice", "name") and len(slot.choices) <= 8:
        return "|".join(slot.choices)
    return {
        "quote": "'text'",
        "quotes": "'text', …",
        "number": "number",
        "numbers": "numbers",
        "yesno": "yes|no",
        "name": slot.arg,
        "names": f"{slot.arg}, …",
        "choice": slot.arg,
        "pages": "pages",
        "spec": "page order",
        "file": "file",
        "files": "files",
        "mapping": "'field' = 'value', …",
    }[slot.kind]


def _placeholder(piece: Any, slots: dict[str, Slot]) -> str:
    return piece if isinstance(piece, str) else f"<{_what(slots[piece[1]])}>"


_FORMS: dict[tuple[str, str, int], Form] = {}


def form_of(tool: Tool) -> Form:
    """The compiled form of ``tool`` (cached: compiling a form reads its annotations and builds regexes)."""
    key = (tool.name, tool.say, id(tool))
    form = _FORMS.get(key)
    if form is None:
        form = _FORMS[key] = Form(tool)
    return form
