"""Entity bench (issue G item 4): precision and recall of ``find_entities`` per kind against hand labels.

    .venv/bin/python bench/entities.py [--show] [LABELS.json ...]

Each ``bench/entities/*.json`` names a corpus file (under ../shared/corpus), the pages read and, per
kind, the entities a person wrote down by reading the page text before any finder existed. The
tool runs as DocPilot runs it: ``find_entities`` with the host's recogniser answering
(``hosting(docpilot.understanding.entities.handle)``), the real spaCy pipeline, one kind at a time.

Matching. Texts are normalised (NFKC, curly quotes made straight, lower case, every run of characters
other than letters, digits, "@" and "&" made one space). A found text matches a gold one when the two
are equal, or when one contains the other at word boundaries and the shorter has at least half the
words of the longer ("12 June 2025" matches "9 to 12 June 2025"; "Oakland CA 94607" does not match
"1200 Harbor Drive Oakland CA 94607"). Scores are over distinct texts per file and kind: precision =
distinct found texts that match some gold text / distinct found texts; recall = gold texts matched
by some found text / gold texts. An empty list scores "-" (nothing to find, or nothing found).
Targets: precision and recall >= 90% for person, organization, address and date on contract.pdf and
visa_application.pdf; the other files are reported without a bar.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from results import write_result  # noqa: E402

from docpilot.understanding.entities import handle  # noqa: E402
from pdftools.hosted import hosting  # noqa: E402
from pdftools.tools_entities import find_entities  # noqa: E402

CORPUS = Path(os.environ.get("DOCPILOT_SHARED", ROOT.parent / "shared")) / "corpus"
BARRED = {"contract.json", "visa_application.json"}
BAR_KINDS = ("person", "organization", "address", "date")
BAR = 0.9


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("’", "'").lower()
    return " ".join(re.sub(r"[^\w@&]+", " ", text).split())


def matches(found: str, gold: str) -> bool:
    a, b = norm(found), norm(gold)
    if a == b:
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if not short or f" {short} " not in f" {long} ":
        return False
    return len(short.split()) * 2 >= len(long.split())


def score(found: list[str], gold: list[str]) -> tuple[float | None, float | None, list[str], list[str]]:
    distinct = sorted({norm(f): f for f in found}.values())
    wrong = [f for f in distinct if not any(matches(f, g) for g in gold)]
    missed = [g for g in gold if not any(matches(f, g) for f in distinct)]
    precision = (len(distinct) - len(wrong)) / len(distinct) if distinct else None
    recall = (len(gold) - len(missed)) / len(gold) if gold else None
    return precision, recall, wrong, missed


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _share(value: float | None) -> float | None:
    return None if value is None else round(value * 100, 1)


def run(paths: list[Path], show: bool) -> bool:
    ok = True
    figures: dict[str, dict[str, dict[str, float | int | None]]] = {}
    print(f"{'file':28} {'kind':13} {'found':>5} {'gold':>4} {'prec':>5} {'recall':>6}  seconds")
    with hosting(handle):
        for path in paths:
            label = json.loads(path.read_text())
            pdf = CORPUS / label["file"]
            if not pdf.exists():
                print(f"{label['file']}: absent (../shared/corpus not beside the project)")
                continue
            for kind, gold in label["entities"].items():
                start = time.perf_counter()
                found = [e["text"] for e in find_entities(str(pdf), categories=[kind], pages=label["pages"])]
                seconds = time.perf_counter() - start
                precision, recall, wrong, missed = score(found, gold)
                barred = path.name in BARRED and kind in BAR_KINDS
                fails = barred and any(v is not None and v < BAR for v in (precision, recall))
                ok = ok and not fails
                mark = " <- below 90%" if fails else ""
                figures.setdefault(path.stem, {})[kind] = {
                    "precision": _share(precision),
                    "recall": _share(recall),
                    "found": len({norm(f) for f in found}),
                    "gold": len(gold),
                }
                print(
                    f"{path.stem:28} {kind:13} {len({norm(f) for f in found}):5} {len(gold):4} "
                    f"{_pct(precision):>5} {_pct(recall):>6}  {seconds:6.2f}{mark}"
                )
                if show and (wrong or missed):
                    print(f"{'':42} wrong: {wrong}\n{'':42} missed: {missed}")
    if figures:
        write_result(
            "entities",
            figures,
            label="tuning",
            notes="labels written before the finders, but the finders were then built and fixed on these files",
        )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("labels", nargs="*", type=Path, help="label files (default: bench/entities/*.json)")
    parser.add_argument("--show", action="store_true", help="list the wrong and missed texts")
    args = parser.parse_args()
    paths = args.labels or sorted((HERE / "entities").glob("*.json"))
    return 0 if run(paths, args.show) else 1


if __name__ == "__main__":
    raise SystemExit(main())
