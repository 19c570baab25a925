"""Accept tool arguments that already have exactly their declared types, without pydantic.

Importing pydantic and building a tool's argument model costs ~0.1 s, more than many
tools take to run. Arguments from a plan or the command line are usually already
exactly what the signature says (a str for ``str``, a list of str for ``list[str]``),
and for those pydantic returns the values unchanged. :func:`exact_values` recognises
that case and nothing else: a value that would need converting (an int for a
``float``), a missing or unknown argument, or a type it does not know sends the call
to the pydantic model, which converts or explains. ``tests/test_registry.py`` checks
that both give the same values for every tool.
"""

from __future__ import annotations

import types
import typing
from typing import Any

from .words import Named

__all__ = ["exact_values", "is_exact", "PageSelection"]

_NONE = type(None)


class PageSelection:
    """Marks the page-selection type in ``Annotated`` (pydantic ignores it; the verifier looks for it)."""

    def __repr__(self) -> str:
        return "PageSelection()"


def is_exact(annotation: Any, value: Any) -> bool:
    """True when ``value`` is an instance of ``annotation`` that pydantic would pass through unchanged."""
    if annotation is Any:
        return True
    if annotation is _NONE or annotation is None:
        return value is None
    if annotation in (str, int, float, bool):
        return type(value) is annotation  # an int is not taken for a float, nor a bool for an int
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        # Only metadata that cannot change the value (our marker); constraints go to pydantic.
        markers = (PageSelection, Named)
        return all(isinstance(meta, markers) for meta in annotation.__metadata__) and is_exact(args[0], value)
    if origin is typing.Union or origin is types.UnionType:
        return any(is_exact(arg, value) for arg in args)
    if origin is typing.Literal:
        return any(type(value) is type(arg) and value == arg for arg in args)
    if origin is list:
        return type(value) is list and all(is_exact(args[0], item) for item in value)
    if origin is dict:
        return type(value) is dict and all(is_exact(args[0], k) and is_exact(args[1], v) for k, v in value.items())
    return False


def exact_values(fields: dict[str, tuple[Any, Any]], args: dict[str, Any]) -> dict[str, Any] | None:
    """``args`` with defaults filled in when every value has exactly its declared type, else None.

    ``fields`` maps each argument to (annotation, default), the default being ``...`` when required.
    """
    if type(args) is not dict or not args.keys() <= fields.keys():
        return None
    values: dict[str, Any] = {}
    for name, (annotation, default) in fields.items():
        if name in args:
            value = args[name]
            if not is_exact(annotation, value):
                return None
            values[name] = value.copy() if type(value) in (list, dict) else value  # as pydantic: a new container
        elif default is ...:
            return None
        else:
            values[name] = default
    return values
