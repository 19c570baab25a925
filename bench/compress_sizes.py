"""Compare `compress` with Ghostscript /ebook and qpdf on the corpus's three long files (run by hand).

    .venv/bin/python bench/compress_sizes.py [CORPUS_REAL_DIR]

Prints, per file: input size, our compress at each level (size and seconds), gs /ebook,
qpdf --object-streams=generate --recompress-flate, and whether text is still extractable
(the text of every page equals the input's, compared by PyMuPDF).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import write_result  # noqa: E402

from pdftools.tools_security import compress  # noqa: E402

FILES = (
    "pdfjs__freeculture.pdf",
    "unstructured__pdf2image-memory-error-test-400p.pdf",
    "pypdfsamples__GeoTopo-komprimiert.pdf",
)


def _texts(path: Path) -> list[str]:
    with pymupdf.open(path) as doc:
        return [" ".join(page.get_text().split()) for page in doc]


def _run(cmd: list[str]) -> float | None:
    if not shutil.which(cmd[0]):
        return None
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    default = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "real"
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    header = f"{'file':<44} {'input':>10} {'low':>16} {'medium':>16} {'high':>16} {'gs /ebook':>16} {'qpdf':>16}  text"
    print(header)
    print("-" * len(header))
    figures: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)
        for name in FILES:
            src = corpus / name
            if not src.exists():
                print(f"{name:<44} (missing)")
                continue
            original = _texts(src)
            cells, text_ok = [], []
            row: dict[str, object] = {"input_mb": round(src.stat().st_size / 1e6, 2)}
            figures[name.removesuffix(".pdf")] = row
            for level in ("low", "medium", "high"):
                start = time.perf_counter()
                out = Path(compress(file=str(src), level=level, output=f"{level}_{name}"))
                row[f"{level}_mb"] = round(out.stat().st_size / 1e6, 2)
                cells.append(f"{out.stat().st_size:>10,} {time.perf_counter() - start:4.1f}s")
                text_ok.append(_texts(out) == original)
            for tool, cmd in (
                ("gs", ["gs", "-q", "-sDEVICE=pdfwrite", "-dPDFSETTINGS=/ebook", "-o", f"gs_{name}", str(src)]),
                ("qpdf", ["qpdf", "--object-streams=generate", "--recompress-flate", str(src), f"qpdf_{name}"]),
            ):
                seconds = _run(cmd)
                size = Path(f"{tool}_{name}").stat().st_size if seconds is not None else None
                row[f"{tool}_mb"] = round(size / 1e6, 2) if size else None
                cells.append(f"{size:>10,} {seconds:4.1f}s" if size else f"{'n/a':>16}")
            ok = "yes" if all(text_ok) else "NO (" + ",".join(str(t) for t in text_ok) + ")"
            row["text_kept"] = ok
            print(f"{name[:44]:<44} {src.stat().st_size:>10,} " + " ".join(f"{c:>16}" for c in cells) + f"  {ok}")
    os.chdir(Path(__file__).resolve().parent)
    write_result("compress-sizes", figures)


if __name__ == "__main__":
    main()
