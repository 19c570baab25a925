"""Tool speed and compression against raw PyMuPDF, qpdf and Ghostscript (run by hand, not in CI).

    .venv/bin/python bench/tools.py [--repeat 3] [--corpus ../shared/corpus/real]

Each case runs as a whole process, `docpilot call TOOL ...` against `bench/raw_pymupdf.py` doing the same
operations (and `qpdf --empty --pages` for page extraction); the best of --repeat interleaved runs is
compared. The raw script imports PyMuPDF the lean way pdftools does; the last columns show it with the
plain `import pymupdf` (which also loads PyMuPDF 2's layout analyser and onnxruntime) for reference.
Targets: ≤1.1× the raw script, ≤1.5× qpdf for page extraction; `compress` at its default level no larger than
`gs -sDEVICE=pdfwrite -dPDFSETTINGS=/ebook` and `qpdf --object-streams=generate --recompress-flate`,
with the text still extractable.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from results import load_average, write_result  # noqa: E402

FILES = {
    "freeculture (352 p)": ("pdfjs__freeculture.pdf", "copyright"),
    "IRM (400 p)": ("unstructured__pdf2image-memory-error-test-400p.pdf", "Internal Revenue"),
}
PACKAGES = ("pdftools", "docpilot", "sandbox")
SIZE_FILES = FILES | {"GeoTopo (117 p)": ("pypdfsamples__GeoTopo-komprimiert.pdf", "Lemma")}


def timed(cmds: list[list[str]], repeat: int) -> list[float]:
    """Best wall time of each command; runs are interleaved so drift on the machine hits all alike."""
    best = [float("inf")] * len(cmds)
    for _ in range(repeat):
        for i, cmd in enumerate(cmds):
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def docpilot(tool: str, args: dict, src: Path, out: Path) -> list[str]:
    script = Path(sys.executable).with_name("docpilot")  # the console script users run
    head = [str(script)] if script.exists() else [sys.executable, "-m", "docpilot"]
    return [*head, "call", tool, "--args", json.dumps(args), str(src), "--out", str(out)]


def raw(op: str, src: Path, dst: Path, *rest: str, plain: bool = False) -> list[str]:
    flag = ["--plain-import"] if plain else []
    return [sys.executable, str(HERE / "raw_pymupdf.py"), *flag, op, str(src), str(dst), *rest]


Row = tuple[str, str, float, float, float | None, str]

# What any Python command line pays before its own work, measured under the qpdf comparison: the same
# page-copying job run through libqpdf's C API in a bare Python process, then after the imports that parsing a
# command line and its JSON arguments takes, then as the qpdf program started from Python.
_JOB = (
    "import ctypes, sys\n"
    "argv = [b'qpdf', b'--empty', b'--pages', sys.argv[1].encode(), b'1-100', b'--', sys.argv[2].encode(), None]\n"
    "ctypes.CDLL(sys.argv[3]).qpdfjob_run_from_argv((ctypes.c_char_p * len(argv))(*argv))\n"
)
FLOORS = {
    "floor: python + libqpdf job": _JOB,
    "floor: + import argparse, json": "import argparse, json\n" + _JOB,
    "floor: python runs qpdf": "import subprocess, sys\n"
    "subprocess.run(['qpdf', '--empty', '--pages', sys.argv[1], '1-100', '--', sys.argv[2]])\n",
}


def speed_rows(corpus: Path, repeat: int, work: Path) -> list[Row]:
    rows: list[Row] = []
    for label, (name, term) in FILES.items():
        src = corpus / name
        cases = [
            ("redact_text", {"terms": [term]}, ("redact", term)),
            ("highlight_text", {"terms": [term]}, ("highlight", term)),
            ("extract_pages", {"pages": "1-100"}, ("extract", "1", "100")),
            ("rotate_pages", {"degrees": 90}, ("rotate", "90")),
            ("compress", {}, ("compress",)),
        ]
        for tool, args, (op, *rest) in cases:
            ours, lean, plain = timed(
                [
                    docpilot(tool, args, src, work / tool),
                    raw(op, src, work / f"{op}.pdf", *rest),
                    raw(op, src, work / f"{op}-plain.pdf", *rest, plain=True),
                ],
                repeat,
            )
            rows.append((label, tool, ours, lean, plain, "raw PyMuPDF script"))
        if shutil.which("qpdf"):
            qpdf = ["qpdf", "--empty", "--pages", str(src), "1-100", "--", str(work / "q.pdf")]
            ours, base = timed([docpilot("extract_pages", {"pages": "1-100"}, src, work / "x"), qpdf], repeat)
            rows.append((label, "extract_pages", ours, base, None, "qpdf --empty --pages"))
            rows += floor_rows(label, src, qpdf, repeat, work)
    return rows


def floor_rows(label: str, src: Path, qpdf: list[str], repeat: int, work: Path) -> list[Row]:
    from ctypes.util import find_library

    library = find_library("qpdf")
    if not library:
        return []
    floors = [[sys.executable, "-c", code, str(src), str(work / "floor.pdf"), library] for code in FLOORS.values()]
    base, *times = timed([qpdf, *floors], repeat)
    return [(label, name, t, base, None, "qpdf --empty --pages") for name, t in zip(FLOORS, times, strict=False)]


def has_text(path: Path) -> bool:
    with pymupdf.open(path) as doc:
        return sum(len(page.get_text()) for page in doc) > 0.5 * doc.page_count


def size_rows(corpus: Path, work: Path) -> list[tuple[str, int, int, int, int, bool]]:
    rows = []
    for label, (name, _) in SIZE_FILES.items():
        src = corpus / name
        out = work / f"ours-{name}"
        subprocess.run(docpilot("compress", {"output": out.name}, src, work), check=True, capture_output=True)
        gs = work / f"gs-{name}"
        subprocess.run(
            [
                "gs",
                "-q",
                "-sDEVICE=pdfwrite",
                "-dPDFSETTINGS=/ebook",
                "-dNOPAUSE",
                "-dBATCH",
                f"-sOutputFile={gs}",
                str(src),
            ],
            check=True,
            capture_output=True,
        )
        qp = work / f"qpdf-{name}"
        subprocess.run(
            ["qpdf", "--object-streams=generate", "--recompress-flate", str(src), str(qp)],
            check=False,
            capture_output=True,
        )
        rows.append(
            (label, src.stat().st_size, out.stat().st_size, gs.stat().st_size, qp.stat().st_size, has_text(out))
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--corpus", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "real")
    opts = parser.parse_args()
    # Byte-compile the project first: a checkout run with PYTHONDONTWRITEBYTECODE would otherwise
    # compile every module on every start and time that instead of the tools.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *(str(HERE.parent / d) for d in PACKAGES)],
        check=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""},
    )
    load = load_average()
    figures: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        print(
            "| file | tool | docpilot (s) | baseline (s) | ratio | baseline | with plain `import pymupdf` (s) | ratio |"
        )
        print("|---|---|---:|---:|---:|---|---:|---:|")
        for label, tool, ours, base, plain, what in speed_rows(opts.corpus, opts.repeat, work):
            extra = f"{plain:.2f} | {ours / plain:.2f}×" if plain else "– | –"
            key = f"{tool} vs {what}" if what.startswith("qpdf") else tool
            figures.setdefault(label.split(" (")[0], {})[key] = {
                "docpilot_s": round(ours, 2),
                "baseline_s": round(base, 2),
                "ratio": round(ours / base, 2),
            }
            print(f"| {label} | {tool} | {ours:.2f} | {base:.2f} | {ours / base:.2f}× | {what} | {extra} |")
        print()
        print("| file | input | docpilot compress | gs /ebook | qpdf | ≤ both | text kept |")
        print("|---|---:|---:|---:|---:|---|---|")
        for label, size, ours, gs, qp, text in size_rows(opts.corpus, work):
            mb = lambda n: f"{n / 1e6:.2f} MB"  # noqa: E731
            figures.setdefault(label.split(" (")[0], {})["compress_sizes"] = {
                "input_mb": round(size / 1e6, 2),
                "docpilot_mb": round(ours / 1e6, 2),
                "gs_mb": round(gs / 1e6, 2),
                "qpdf_mb": round(qp / 1e6, 2),
                "text_kept": text,
            }
            print(
                f"| {label} | {mb(size)} | {mb(ours)} | {mb(gs)} | {mb(qp)} | "
                f"{'yes' if ours <= min(gs, qp) else 'NO'} | {'yes' if text else 'NO'} |"
            )
    write_result("tools", figures, load=load, notes=f"best of {opts.repeat} interleaved runs")


if __name__ == "__main__":
    main()
