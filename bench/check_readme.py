"""Check that every figure the README states is the one its bench wrote.

A README figure is written as a link to the results file and key it comes from:
``[42/42](bench/results/docbench.json#score)`` — the link text is the figure as shown, the fragment a dotted path
into the file's ``figures``. A string figure must be shown exactly; a number must be shown as the stored value
rounded to the decimals shown (``0.53`` for 0.5312, ``1,912`` for 1912). In the README's measurements section every
bold figure holding a digit must be such a link, so no figure can be stated without its source.

    python bench/check_readme.py [README.md]     exit 1 and one line per problem when a figure differs
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\[([^\]]+)\]\((bench/results/[\w.-]+\.json)#([\w./-]+)\)")
BOLD = re.compile(r"\*\*(.+?)\*\*")
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
SECTION = "## Measurements"


def _lookup(figures: Any, key: str) -> Any:
    value = figures
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            raise KeyError(key)
        value = value[part]
    return value


def _matches(shown: str, value: Any) -> bool:
    shown = shown.strip().strip("*").strip()
    if isinstance(value, bool) or value is None:
        return shown.lower() == str(value).lower()
    if isinstance(value, str):
        return shown == value
    if isinstance(value, int | float):
        found = NUMBER.search(shown)
        if not found:
            return False
        text = found.group().replace(",", "")
        decimals = len(text.split(".")[1]) if "." in text else 0
        return float(text) == round(float(value), decimals)
    return False


def problems(readme: str, root: Path = ROOT) -> list[str]:
    """Every README figure that differs from its results file, or that names no results file."""
    out: list[str] = []
    cache: dict[str, dict[str, Any]] = {}
    for shown, path, key in LINK.findall(readme):
        if path not in cache:
            try:
                cache[path] = json.loads((root / path).read_text())
            except (OSError, ValueError) as exc:
                out.append(f"{path}: cannot be read ({exc})")
                cache[path] = {}
        record = cache[path]
        if not record:
            continue
        try:
            value = _lookup(record.get("figures", {}), key)
        except KeyError:
            out.append(f"{path}#{key}: no such figure (README shows {shown!r})")
            continue
        if not _matches(shown, value):
            out.append(f"{path}#{key}: README shows {shown!r}, the bench wrote {value!r}")
    start = readme.find(SECTION)
    if start < 0:
        out.append(f"the README has no {SECTION!r} section")
        return out
    end = readme.find("\n## ", start + len(SECTION))
    section = readme[start : end if end > 0 else len(readme)]
    for bold in BOLD.findall(section):
        if any(c.isdigit() for c in bold) and not LINK.search(bold):
            out.append(f"a bold figure with no results link: **{bold}**")
    return out


def main(argv: list[str]) -> int:
    readme = Path(argv[1]) if len(argv) > 1 else ROOT / "README.md"
    found = problems(readme.read_text())
    for line in found:
        print(line)
    links = len(LINK.findall(readme.read_text()))
    print(f"{links} figures checked, {len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
