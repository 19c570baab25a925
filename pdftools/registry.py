"""The tool registry: one typed, documented function per tool.

``@tool`` reads the function's signature and Google-style docstring and builds
a pydantic model for its arguments. The model gives the JSON schema (for the
catalogue and constrained decoding), the documentation text (for prompts) and
argument validation (for plans). A tool whose argument lacks a type or a
description fails at registration, so the catalogue cannot drift.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import re
import textwrap
import typing
from collections.abc import Callable
from typing import Any, Literal

from .argcheck import exact_values
from .errors import ToolArgumentError, UnknownToolError
from .words import Words

if typing.TYPE_CHECKING:  # pydantic loads on first need: a tool run with well-typed arguments never needs it
    from pydantic import BaseModel, ValidationError

__all__ = [
    "Tool",
    "tool",
    "get_tool",
    "all_tools",
    "call_tool",
    "unregister",
    "generic_answer",
    "TOOL_MODULES",
    "tool_index",
    "IMAGE_LIBRARIES",
    "FileKind",
]

# What the tools that read or write images through Pillow load when they run (plugins included).
IMAGE_LIBRARIES = ("PIL.Image", "PIL.ImageOps", "PIL.TiffImagePlugin", "PIL.PngImagePlugin", "PIL.JpegImagePlugin")

Kind = Literal["pdf", "files", "value"]
# What a file argument takes or a result is (the verifier checks steps fit together by these).
FileKind = Literal["pdf", "image", "office", "text", "value", "any"]
# How many pages a step's PDF has: (checked argument values, pages of its `file`, pages of all its `files`).
PageEffect = Callable[[dict[str, Any], int | None, int | None], int | None]
# The sentence that reports a value a tool returned.
Answer = Callable[[Any], str]
_RESULT_KINDS: dict[str, FileKind] = {"pdf": "pdf", "value": "value"}  # what `kind` implies a result is
_FILE_ARG_KINDS: dict[str, tuple[FileKind, ...]] = {
    "file": ("pdf",),
    "files": ("pdf",),
    "image": ("image",),
    "images": ("image",),
}

# Modules holding the tools, imported on first use of the registry (never at import).
TOOL_MODULES = (
    "pdftools.tools_files",
    "pdftools.tools_security",
    "pdftools.tools_pages",
    "pdftools.tools_scan",
    "pdftools.tools_extract_pages",
    "pdftools.tools_markup",
    "pdftools.tools_redact",
    "pdftools.tools_stamp",
    "pdftools.tools_forms",
    "pdftools.tools_convert",
    "pdftools.tools_extract",
    "pdftools.tools_entities",
    "pdftools.tools_understanding",
)

# A tool's definition in its module's source: the decorator at the start of a line, then the next function.
_TOOL_DECORATOR = re.compile(r"^@tool\(", re.M)
_FUNCTION = re.compile(r"^def (\w+)\(", re.M)


@functools.cache
def tool_index() -> dict[str, str]:
    """Which module defines each tool, read from the tool modules' source (nothing is imported), so
    one tool can be loaded without importing them all. tests/test_registry.py checks it against
    what the modules really register."""
    index: dict[str, str] = {}
    for module in TOOL_MODULES:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            continue
        with open(spec.origin, encoding="utf-8") as handle:
            source = handle.read()
        for decorator in _TOOL_DECORATOR.finditer(source):
            function = _FUNCTION.search(source, decorator.end())
            if function is not None:
                index[function.group(1)] = module
    return index


_REGISTRY: dict[str, Tool] = {}


class Tool:
    """A registered tool: the function plus what the registry derived from it.

    (A plain class rather than a dataclass: ``dataclasses`` imports ``inspect``, and every
    tool run starts by loading the registry.)
    """

    def __init__(
        self,
        name: str,
        func: Callable[..., Any],
        summary: str,
        description: str,
        arg_docs: dict[str, str],
        returns: str,
        kind: Kind,
        category: str,
        explain: str,
        fields: dict[str, tuple[Any, Any]],
        needs: tuple[str, ...] = (),
        *,
        result_name: str = "",
        page_effect: PageEffect | None = None,
        answer: Answer | None = None,
        secrets: tuple[str, ...] = (),
        page_words: dict[str, tuple[str, ...]] | None = None,
        takes: dict[str, tuple[FileKind, ...]] | None = None,
        makes: FileKind = "pdf",
        converts_to: str | None = None,
        idempotent: bool = False,
        say: str = "",
        words: Words | None = None,
    ) -> None:
        self.name = name
        self.func = func
        self.summary = summary
        self.description = description
        self.arg_docs = arg_docs
        self.returns = returns
        self.kind = kind
        self.category = category
        self.explain = explain
        self.fields = fields  # name -> (annotation, default; ... when required)
        self.needs = needs  # libraries the tool imports when it runs (a sandbox preloads them)
        self.result_name = result_name or name.split("_", 1)[-1]  # the $name a plan gives its result
        self.page_effect = page_effect  # None: the result has as many pages as `file`
        self.answer = answer  # None: the generic sentence (answer_text)
        self.secrets = secrets  # arguments never shown, logged or sent to a model
        self.page_words = page_words or {}  # words a page argument accepts besides page numbers
        self.takes = takes or {}  # file argument -> the kinds of file it takes
        self.makes = makes  # what the result is
        self.converts_to = converts_to  # the format a conversion tool writes ("docx", "png" …)
        self.idempotent = idempotent  # a second run on its own result changes nothing (asked twice = once)
        self.say = say or name.replace("_", " ").capitalize()  # the head of the sentence that commands it
        self.words = words or Words()  # the words people name it by

    def pages_after(self, values: dict[str, Any], pages_in: int | None, files_sum: int | None) -> int | None:
        """The page count of the PDF this step returns, or None when it cannot be known in advance."""
        if self.kind != "pdf":
            return None
        if self.page_effect is None:
            return pages_in
        return self.page_effect(values, pages_in, files_sum)

    def answer_text(self, value: Any) -> str:
        """A sentence for a value this tool returned."""
        return self.answer(value) if self.answer is not None else generic_answer(value)

    def __repr__(self) -> str:
        return f"Tool({self.name!r}, kind={self.kind!r}, category={self.category!r})"

    @functools.cached_property
    def args_model(self) -> type[BaseModel]:
        """The pydantic model of the arguments, built on first use (keeps start-up cheap)."""
        from pydantic import ConfigDict, Field, create_model

        fields: dict[str, Any] = {
            name: (annotation, Field(default, description=self.arg_docs[name]))
            for name, (annotation, default) in self.fields.items()
        }
        return create_model(
            f"{self.name}_args",
            __config__=ConfigDict(extra="forbid", arbitrary_types_allowed=False),
            **fields,
        )

    def schema(self) -> dict[str, Any]:
        """JSON schema of the arguments (pydantic), without pydantic's titles."""
        schema = self.args_model.model_json_schema()
        _strip_titles(schema)
        return schema

    def catalogue_entry(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "category": self.category,
            "description": self.description,
            "returns": self.returns,
            "kind": self.kind,
            "parameters": self.schema(),
        }

    def doc_text(self) -> str:
        """Compact documentation for prompts: signature line, summary, arguments."""
        required = set(self.schema().get("required", []))
        params = [n if n in required else f"{n}?" for n in self.arg_docs]
        lines = [f"{self.name}({', '.join(params)}) -> {self.returns}", f"  {self.summary}"]
        for name, text in self.arg_docs.items():
            lines.append(f"  - {name}{'' if name in required else ' (optional)'}: {text}")
        return "\n".join(lines)

    def prompt_doc(self, max_optional: int = 3) -> str:
        """Short documentation for a small model's prompt: signature, summary, key arguments.

        Every prompt token costs a small local model time (~80 tokens/s on two cores), so the
        obvious ``file`` argument and the later optional ones are left to the schema.
        """
        required = set(self.schema().get("required", []))
        params = [n if n in required else f"{n}?" for n in self.arg_docs]
        lines = [f"{self.name}({', '.join(params)}): {self.summary}"]
        optional = 0
        for name, text in self.arg_docs.items():
            if name == "file" and (self.kind != "value" or text.startswith("The PDF")):
                continue
            if name not in required:
                if name in ("output", "password") and self.category != "security" or optional >= max_optional:
                    continue
                optional += 1
            short = text if len(text) <= 90 else text[:87].rsplit(" ", 1)[0] + " …"
            lines.append(f"  {name}: {short}")
        return "\n".join(lines)

    def defaults(self) -> dict[str, Any]:
        """Each argument's default (None for required ones)."""
        return {name: (None if default is ... else default) for name, (_, default) in self.fields.items()}

    def validate(self, args: dict[str, Any]) -> dict[str, Any]:
        """Check arguments against the schema; return them with defaults filled in.

        Arguments that already have exactly their declared types are taken as they are (what
        pydantic would return for them); anything else goes through the pydantic model, which
        converts what it can and explains what it cannot.
        """
        values = exact_values(self.fields, args)
        if values is not None:
            return values
        from pydantic import ValidationError

        try:
            model = self.args_model.model_validate(args)
        except ValidationError as exc:
            raise ToolArgumentError(f"{self.name}: {format_validation_error(exc)}") from None
        return {name: getattr(model, name) for name in self.arg_docs}

    def __call__(self, **kwargs: Any) -> Any:
        return self.func(**kwargs)


def generic_answer(value: Any) -> str:
    """A sentence for a value from a tool that declares none of its own."""
    if isinstance(value, list):
        return f"{len(value)} item{'s' if len(value) != 1 else ''} found."
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in list(value.items())[:6] if v not in (None, "", [], {}))
    return str(value)


def format_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(x) for x in err["loc"]) or "arguments"
        if err["type"] == "missing":
            parts.append(f"argument '{where}' is required")
        elif err["type"] == "extra_forbidden":
            parts.append(f"argument '{where}' is not accepted by this tool")
        else:
            parts.append(f"argument '{where}': {err['msg']}")
    return "; ".join(dict.fromkeys(parts))


def _strip_titles(node: Any) -> None:
    if isinstance(node, dict):
        if isinstance(node.get("title"), str):  # pydantic's title, not an argument named "title" (set_metadata's)
            node.pop("title")
        for value in node.values():
            _strip_titles(value)
    elif isinstance(node, list):
        for value in node:
            _strip_titles(value)


_SECTION = re.compile(r"^(Args|Arguments|Returns|Raises|Example|Examples|Note|Notes):\s*$")


def parse_docstring(doc: str) -> tuple[str, str, dict[str, str], str]:
    """Split a Google docstring into summary, description, Args and Returns."""
    first, _, rest = (doc or "").expandtabs().partition("\n")
    doc = (first.strip() + "\n" + textwrap.dedent(rest)).strip()  # as inspect.cleandoc
    sections: dict[str, list[str]] = {"": []}
    current = ""
    for line in doc.splitlines():
        match = _SECTION.match(line.strip()) if not line.startswith(" ") else None
        if match:
            current = match.group(1)
            sections[current] = []
        else:
            sections.setdefault(current, []).append(line)
    description = "\n".join(sections[""]).strip()
    summary = description.split("\n\n")[0].replace("\n", " ").strip()
    args: dict[str, str] = {}
    name = None
    for line in sections.get("Args", sections.get("Arguments", [])):
        match = re.match(r"^\s{0,4}(\w+)(?:\s*\([^)]*\))?:\s*(.*)$", line)
        if match and not line.startswith(" " * 5):
            name = match.group(1)
            args[name] = match.group(2).strip()
        elif name and line.strip():
            args[name] += " " + line.strip()
    returns = " ".join(x.strip() for x in sections.get("Returns", []) if x.strip())
    return summary, description, args, returns


_VARARGS = 0x04 | 0x08  # CO_VARARGS | CO_VARKEYWORDS


def _parameters(func: Callable[..., Any]) -> list[tuple[str, Any]]:
    """(name, default or ...) of each named parameter, in order (what inspect.signature gives, cheaply)."""
    code = func.__code__
    if code.co_flags & _VARARGS:
        raise TypeError(f"tool {func.__name__}: *args and **kwargs are not allowed; name every argument")
    positional = code.co_varnames[: code.co_argcount]
    keyword = code.co_varnames[code.co_argcount : code.co_argcount + code.co_kwonlyargcount]
    defaults = func.__defaults__ or ()
    padded = (...,) * (len(positional) - len(defaults)) + defaults
    kwdefaults = func.__kwdefaults__ or {}
    return list(zip(positional, padded, strict=False)) + [(name, kwdefaults.get(name, ...)) for name in keyword]


def tool(
    *,
    kind: Kind,
    category: str,
    explain: str,
    needs: tuple[str, ...] = (),
    result_name: str = "",
    page_effect: PageEffect | None = None,
    answer: Answer | None = None,
    secrets: tuple[str, ...] = (),
    page_words: dict[str, tuple[str, ...]] | None = None,
    takes: dict[str, tuple[FileKind, ...]] | None = None,
    makes: FileKind | None = None,
    converts_to: str | None = None,
    idempotent: bool = False,
    say: str = "",
    words: Words | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a function as a tool, with the facts the rest of DocPilot reads about it.

    Args:
        kind: "pdf" (returns the path of a new PDF), "files" (paths of other files) or
            "value" (a JSON-able value).
        category: Catalogue group, e.g. "pages" or "markup".
        explain: Plain-language template for the plan explanation, with ``{arg}`` fields.
        needs: Modules the tool imports lazily when it runs (e.g. "pptx"); a sandbox imports
            them before its guards go up.
        result_name: The name a plan gives the step's result ("redacted" → ``$redacted``);
            default: the tool name after its verb.
        page_effect: How many pages the resulting PDF has, from the arguments and the input's
            page count (see :mod:`pdftools.effects`); default: as many as the input.
        answer: The sentence reporting a value the tool returned; default: a generic one.
        secrets: Arguments that are secret (passwords): masked in plans, logs, records and
            explanations, and kept out of model prompts. Every argument named like a password
            must be listed.
        page_words: For page arguments, words accepted besides page ranges
            (``{"order": ("reverse", …)}``).
        takes: The kinds of file each file argument takes (default: ``file``/``files`` a PDF,
            ``image``/``images`` an image).
        makes: What the result is: "pdf", "image", "office", "text", "value" or "any"
            (default: "pdf" for kind "pdf", "value" for kind "value", else required).
        converts_to: For a conversion, the format it writes ("docx", "png" …).
        idempotent: Running it again on its own result changes nothing (setting pages upright,
            straightening): the same step asked twice in one request is done once.
        say: The head of the command sentence in DocPilot's tool language, with ``{arg}`` slots and
            ``[ … ]`` around optional parts: ``"Delete {pages}"``, ``"Redact[ {terms}][ every
            {categories}]"``. Arguments not in it follow as " on <pages>", " of <file>" and
            " with <argument> <value>, …" (:mod:`docpilot.planning.language`). Default: the name.
        words: The words people use for the tool (:class:`~pdftools.words.Words`).
    """

    def register(func: Callable[..., Any]) -> Callable[..., Any]:
        name = func.__name__
        summary, description, arg_docs, returns = parse_docstring(func.__doc__ or "")
        if not summary:
            raise TypeError(f"tool {name}: the docstring needs a summary line")
        hints = typing.get_type_hints(func, include_extras=True)
        fields: dict[str, Any] = {}
        ordered_docs: dict[str, str] = {}
        for param, default in _parameters(func):
            if param not in hints:
                raise TypeError(f"tool {name}: argument '{param}' has no type annotation")
            if not arg_docs.get(param):
                raise TypeError(f"tool {name}: argument '{param}' has no description in Args:")
            fields[param] = (hints[param], default)
            ordered_docs[param] = arg_docs[param]
        extra = set(arg_docs) - set(ordered_docs)
        if extra:
            raise TypeError(f"tool {name}: Args documents unknown arguments {sorted(extra)}")
        _check_facts(name, fields, secrets, page_words or {}, takes or {})
        result_kind = makes or _RESULT_KINDS.get(kind)
        if result_kind is None:
            raise TypeError(f"tool {name}: kind 'files' needs makes= (what kind of files it writes)")
        file_kinds = {arg: kinds for arg, kinds in _FILE_ARG_KINDS.items() if arg in fields}
        file_kinds.update(takes or {})
        entry = Tool(
            name=name,
            func=func,
            summary=summary,
            description=description,
            arg_docs=ordered_docs,
            returns=returns or kind,
            kind=kind,
            category=category,
            explain=explain,
            fields=fields,
            needs=needs,
            result_name=result_name,
            page_effect=page_effect,
            answer=answer,
            secrets=secrets,
            page_words=page_words,
            takes=file_kinds,
            makes=result_kind,
            converts_to=converts_to,
            idempotent=idempotent,
            say=say,
            words=words,
        )
        _check_say(name, say, fields)
        if name in _REGISTRY and _REGISTRY[name].func is not func:
            raise TypeError(f"tool {name} is registered twice")
        _REGISTRY[name] = entry
        func.tool = entry  # type: ignore[attr-defined]
        return func

    return register


def _check_facts(
    name: str,
    fields: dict[str, Any],
    secrets: tuple[str, ...],
    page_words: dict[str, tuple[str, ...]],
    takes: dict[str, tuple[FileKind, ...]],
) -> None:
    """Facts must name real arguments, page words must be written as they are compared (stripped,
    lower case), and every password-like argument must be declared secret."""
    for what, names in (("secrets", secrets), ("page_words", tuple(page_words)), ("takes", tuple(takes))):
        unknown = [n for n in names if n not in fields]
        if unknown:
            raise TypeError(f"tool {name}: {what} names unknown arguments {unknown}")
    unmatchable = [w for words in page_words.values() for w in words if w != w.strip().lower()]
    if unmatchable:
        raise TypeError(f"tool {name}: page_words {unmatchable} never match; write them stripped and in lower case")
    undeclared = [n for n in fields if "password" in n and n not in secrets]
    if undeclared:
        raise TypeError(f"tool {name}: arguments {undeclared} look secret; list them in secrets=")


_SLOT = re.compile(r"\{(\w+)(?::(\w+))?\}")


def _check_say(name: str, say: str, fields: dict[str, Any]) -> None:
    """A sentence head names only real arguments, each once, with balanced optional parts."""
    slots = [m.group(1) for m in _SLOT.finditer(say)]
    unknown = [s for s in slots if s not in fields]
    if unknown:
        raise TypeError(f"tool {name}: say names unknown arguments {unknown}")
    if len(set(slots)) != len(slots):
        raise TypeError(f"tool {name}: say names an argument twice")
    depth = 0
    for char in say:
        depth += {"[": 1, "]": -1}.get(char, 0)
        if depth not in (0, 1):
            raise TypeError(f"tool {name}: say's optional parts [ … ] are unbalanced or nested")
    if depth:
        raise TypeError(f"tool {name}: say's optional parts [ … ] are unbalanced")


def unregister(name: str) -> None:
    """Forget a tool registered outside the tool modules (tests that register their own)."""
    _REGISTRY.pop(name, None)


def _load() -> dict[str, Tool]:
    for module in TOOL_MODULES:
        importlib.import_module(module)
    return _REGISTRY


def all_tools() -> dict[str, Tool]:
    """Every registered tool by name (imports the tool modules on first call)."""
    return dict(sorted(_load().items()))


def get_tool(name: str) -> Tool:
    """One tool by name; imports only the module that defines it."""
    if name not in _REGISTRY:
        module = tool_index().get(name)
        if module is not None:
            importlib.import_module(module)
    if name in _REGISTRY:
        return _REGISTRY[name]
    tools = _load()
    if name not in tools:
        close = [t for t in tools if name.split("_")[0] in t][:5]
        hint = f" Similar tools: {', '.join(close)}." if close else ""
        raise UnknownToolError(f"There is no tool named '{name}'.{hint} Run `docpilot tools` for the list.")
    return tools[name]


def call_tool(name: str, args: dict[str, Any]) -> Any:
    """Validate ``args`` against the tool's schema and run it."""
    entry = get_tool(name)
    return entry.func(**entry.validate(args))
