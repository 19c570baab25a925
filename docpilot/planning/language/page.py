"""The tool language on one page (``docs/language.md``), generated from the registry.

    python -m docpilot.planning.language.page > docs/language.md

``tests/planning/test_language.py`` checks that the committed page is the one the registry gives today.
"""

from __future__ import annotations

from docpilot.planning.language.forms import form_of
from pdftools import Tool, all_tools

__all__ = ["language_page"]

_INTRO = """# DocPilot's tool language

Every plan can be said as command sentences, one per step, and every sentence below is read back into
exactly one tool call. The fast path reads what people type; what it cannot fully account for, the model
rewrites into these sentences, and the reader reads them with every word accounted for. The person sees
them as "I read this as: …" and `plan`/`run --json` return them as `"reading"`.

- A sentence works on the result of the sentence before it (before any, on the one uploaded PDF).
  `of 'name.pdf'` works on another uploaded file; `of the result of step 2` on an earlier result.
- Parts in `[ ]` are optional. Pages: `page 3`, `pages 1-3,5`, `pages 2-last`, `the last page`,
  `all pages`, `the odd pages`, `the even pages`. Text is quoted: `'DRAFT'` (or `"…"` when it holds an
  apostrophe). Several values: `'ACME', 'Globex'`; `email, phone`.
- This page is generated from the tool registry (`say=` and `words=` of each `@tool`):
  `python -m docpilot.planning.language.page > docs/language.md`.
"""


def language_page(tools: dict[str, Tool] | None = None) -> str:
    tools = tools if tools is not None else all_tools()
    by_category: dict[str, list[Tool]] = {}
    for tool in tools.values():
        by_category.setdefault(tool.category, []).append(tool)
    lines = [_INTRO]
    for category in sorted(by_category):
        lines.append(f"## {category}\n")
        for tool in sorted(by_category[category], key=lambda t: t.name):
            words = ", ".join(tool.words.all())
            lines.append(f"- `{form_of(tool).describe()}` — `{tool.name}`" + (f" ({words})" if words else ""))
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(language_page(), end="")
