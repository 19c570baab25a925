"""Render prompt templates from the ``prompts`` package (Jinja2 with StrictUndefined)."""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

__all__ = ["render"]


@functools.cache
def _environment() -> Any:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FunctionLoader(lambda name: resources.files("prompts").joinpath(name).read_text("utf-8")),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=False,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )


def render(name: str, **values: Any) -> str:
    """Render ``prompts/<name>`` with ``values``; a missing value is an error, not a blank."""
    return _environment().get_template(name).render(**values).strip()
