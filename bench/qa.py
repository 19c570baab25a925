"""Evidence found per question by three ways of choosing context (PDFTriage's comparison), and `ask` timings.

For each question of a set (qa_dev.jsonl shape: file, question, evidence_pages) three methods choose context:
  - structured (ours): DocPilot's own way — a workflow's cited values when the question is one, else the
    ranked units (passages, label/value pairs, table rows) up to the 1,200-token budget;
  - pages: whole pages ranked by the same hybrid retrieval (TF-IDF + MiniLM, fused), the best 3;
  - chunks: 100-word chunks ranked the same way, the best 5.
Reported per method: evidence recall (a cited page — the pages of the first 3 units chosen — is an evidence
page) and mean context tokens (what a model would read). No model is called: this measures retrieval.

With --book it also times `docpilot ask` on the 352-page pdfjs__freeculture.pdf in new processes, the same
question twice: cold (empty cache) and warm (structure and vectors cached on disk).

Run:  python bench/qa.py ../shared/bench/qa_dev.jsonl bench/qa_own.jsonl [--book]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from results import load_average, write_result  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"


def _tokens(text: str) -> int:
    return max(1, int(len(text.split()) * 1.35))


def _structured(docs, question, embed):  # noqa: ANN001 - bench script
    from docpilot.understanding.answer import answer_question, retrieved_evidence

    answer = answer_question(docs, question, None, embed)
    if answer.workflow or (answer.found and answer.citations and not answer.answer.startswith("I could not")):
        pages = [c["page"] for c in answer.citations]
        return pages[:3], sum(_tokens(c["quote"]) for c in answer.citations)
    evidence = retrieved_evidence(docs, question, embed)
    return [e.page for e in evidence[:3]], sum(_tokens(e.block) for e in evidence)


def _baseline(doc, question, embed, size: int | None, keep: int):  # noqa: ANN001
    from docpilot.understanding.document import Unit
    from docpilot.understanding.retrieve import _dense_scores, _lexical_scores, _rrf

    units = []
    for page, text in enumerate(doc.structure.pages, start=1):
        if size is None:
            units.append(Unit(doc.name, page, text, "page"))
        else:
            words = text.split()
            units += [Unit(doc.name, page, " ".join(words[i : i + size]), "chunk") for i in range(0, len(words), size)]
    units = [u for u in units if u.text.strip()]
    if not units:
        return [], 0
    scores = _rrf(_lexical_scores(question, [u.text for u in units]))
    vectors = embed([u.text[:2000] for u in units])
    scores = scores + _rrf(_dense_scores(vectors, embed([question])[0]))
    order = sorted(range(len(units)), key=lambda i: -scores[i])[:keep]
    chosen = [units[i] for i in order]
    return [u.page for u in chosen[:3]], sum(_tokens(u.text) for u in chosen)


def evaluate(paths: list[str]) -> dict[str, Any]:
    from docpilot.understanding.answer import embed_texts
    from docpilot.understanding.cache import StructureCache
    from docpilot.understanding.document import Document

    cache = StructureCache(Path(tempfile.mkdtemp(prefix="qa-bench-")))
    figures: dict[str, Any] = {}
    for path in paths:
        rows = [json.loads(line) for line in open(path) if line.strip()]
        rows = [r for r in rows if r.get("evidence_pages") and r.get("file")]
        results: dict[str, list[tuple[bool, int]]] = {"structured": [], "pages": [], "chunks": []}
        started = time.perf_counter()
        for row in rows:
            doc = Document(CORPUS / row["file"], cache)
            try:
                _ = doc.structure.pages
            except Exception as exc:  # noqa: BLE001 - an unreadable file counts as a miss for every method
                print(f"  {row['id']}: unreadable ({exc})")
                for method in results:
                    results[method].append((False, 0))
                continue
            evidence = set(row["evidence_pages"])
            for method, (pages, tokens) in {
                "structured": _structured([doc], row["question"], embed_texts),
                "pages": _baseline(doc, row["question"], embed_texts, None, 3),
                "chunks": _baseline(doc, row["question"], embed_texts, 100, 5),
            }.items():
                results[method].append((bool(evidence & set(pages)), tokens))
        print(f"{Path(path).name}: {len(rows)} questions ({time.perf_counter() - started:.0f} s)")
        for method, found in results.items():
            hits = sum(ok for ok, _ in found)
            mean_tokens = sum(t for _, t in found) / max(1, len(found))
            figures.setdefault(Path(path).stem, {})[method] = {
                "recall": f"{hits}/{len(found)}",
                "mean_context_tokens": round(mean_tokens),
            }
            print(
                f"  {method:<10} evidence recall {hits}/{len(found)} = {hits / max(1, len(found)):.0%}, "
                f"mean context tokens {mean_tokens:.0f}"
            )
    return figures


def time_book() -> dict[str, Any]:
    """The same question asked in a new process twice: cold (empty cache) and warm (the structure cached)."""
    book = CORPUS / "real" / "pdfjs__freeculture.pdf"
    question = "Who wrote this book?"
    figures: dict[str, Any] = {"question": question}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache}
        for label in ("cold", "warm"):
            started = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "docpilot", "ask", question, str(book), "--json"],
                capture_output=True,
                text=True,
                env=env,
                cwd=ROOT,
                timeout=600,
            )
            seconds = time.perf_counter() - started
            last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "{}"
            answer = json.loads(last).get("answer")
            figures[f"{label}_seconds"] = round(seconds, 1)
            figures[f"{label}_answer"] = str(answer)[:200]
            print(f"freeculture ask, {label}: {seconds:.1f} s — {question!r} → {str(answer)[:100]!r}")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sets", nargs="*", default=[str(ROOT.parent / "shared" / "bench" / "qa_dev.jsonl")])
    parser.add_argument("--book", action="store_true", help="time ask on the 352-page book, cold and warm")
    args = parser.parse_args()
    load = load_average()
    figures = evaluate(args.sets)
    write_result("qa-context", figures, label="tuning", load=load, notes="both sets were read while building")
    if args.book:
        write_result("qa-book", time_book(), load=load_average())
    return 0


if __name__ == "__main__":
    sys.exit(main())
