"""Colours as users say them: "red", "light blue", "#ffcc00", "255,204,0" → RGB floats 0-1."""

from __future__ import annotations

import re
from typing import Annotated

import pymupdf

from .errors import ToolArgumentError
from .words import Named

__all__ = ["COLORS", "Color", "ColorName", "color_names", "parse_color"]

# Print-friendly tones for the common names; any other PyMuPDF colour name works too.
COLORS: dict[str, tuple[float, float, float]] = {
    "black": (0.0, 0.0, 0.0),
    "gray": (0.5, 0.5, 0.5),
    "grey": (0.5, 0.5, 0.5),
    "lightgray": (0.75, 0.75, 0.75),
    "lightgrey": (0.75, 0.75, 0.75),
    "darkgray": (0.3, 0.3, 0.3),
    "darkgrey": (0.3, 0.3, 0.3),
    "white": (1.0, 1.0, 1.0),
    "red": (0.85, 0.1, 0.1),
    "green": (0.1, 0.55, 0.2),
    "blue": (0.1, 0.25, 0.8),
    "navy": (0.05, 0.1, 0.45),
    "orange": (0.95, 0.55, 0.1),
    "yellow": (0.95, 0.85, 0.1),
    "purple": (0.5, 0.2, 0.6),
}

# A colour argument: one of the names above, a PyMuPDF colour name, "#rrggbb" or "r,g,b".


def color_names() -> tuple[str, ...]:
    """Every colour name :func:`parse_color` knows: ours, then PyMuPDF's (without its numbered shades)."""
    return (*COLORS, *(name for name in pymupdf.pdfcolor if not name[-1].isdigit()))


_NAMES = Named("colour", color_names)
Color = Annotated[str | None, _NAMES]
ColorName = Annotated[str, _NAMES]  # a colour argument with a default colour

_HEX = re.compile(r"^#?([0-9a-f]{6}|[0-9a-f]{3})$")


def parse_color(value: str | None, default: tuple[float, float, float] | None = None) -> tuple[float, float, float]:
    """'yellow', 'light green', '#ffcc00', 'ffcc00', '255,204,0' or '1,0.8,0' to RGB floats 0-1.

    An empty value gives ``default``; without a default it is an error.
    """
    if value is None or not str(value).strip():
        if default is not None:
            return default
        raise ToolArgumentError(f"{value!r} is not a colour. Use a name like 'gray' or a hex code like '#FF0000'.")
    text = str(value).strip().lower()
    name = text.replace(" ", "").replace("_", "").replace("-", "")
    if name in COLORS:
        return COLORS[name]
    if name in pymupdf.pdfcolor:
        return tuple(pymupdf.pdfcolor[name])
    hexed = _HEX.match(text)
    if hexed:
        digits = hexed.group(1)
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        return tuple(int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]
    parts = [p for p in re.split(r"[\s,;]+", text.strip("()rgb ")) if p]
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        numbers = []
    if len(numbers) == 3 and all(0 <= n <= 255 for n in numbers):
        scale = 255.0 if any(n > 1 for n in numbers) else 1.0
        return tuple(n / scale for n in numbers)  # type: ignore[return-value]
    raise ToolArgumentError(
        f"{value!r} is not a colour. Use a name like 'yellow' or 'light blue', "
        "a hex code like '#ffcc00', or 'R,G,B' numbers 0-255."
    )
