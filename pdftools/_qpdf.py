"""Page selection with qpdf, the program made for restructuring PDFs.

Copying pages into a new document is structural work: no page needs rendering or
parsing of its content. qpdf does it in C++ without a PDF renderer's start-up
cost (loading PyMuPDF alone takes longer than qpdf's whole run on a 400-page file).
Each function returns None when qpdf is missing or declines the file (encrypted
with a password, damaged beyond repair, a page past the end); the caller then
falls back to PyMuPDF, which explains the problem precisely.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from .paths import atomic_target

__all__ = ["qpdf_page_count", "qpdf_select", "page_ranges"]

_TIMEOUT = 300  # seconds; a run that takes longer is treated as declined


def _qpdf() -> str:
    return "qpdf"  # found on PATH when it runs; a missing qpdf is an OSError below


def _run(args: list[str]) -> subprocess.CompletedProcess[bytes] | None:
    try:
        done = subprocess.run([_qpdf(), *args], capture_output=True, timeout=_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):  # not installed, not allowed, or too slow
        return None
    return done if done.returncode in (0, 3) else None  # 3: succeeded with warnings (e.g. a repaired xref)


def qpdf_page_count(source: Path) -> int | None:
    """The number of pages, or None when qpdf cannot tell."""
    done = _run(["--show-npages", str(source.resolve())])
    try:
        return int(done.stdout) if done else None
    except ValueError:
        return None


def page_ranges(indices: list[int]) -> str:
    """qpdf's page-range syntax for 0-based ``indices``, in their order: [0, 1, 2, 6, 5] -> "1-3,7-6"."""
    numbers = [i + 1 for i in indices]
    parts: list[str] = []
    i = 0
    while i < len(numbers):
        j = i
        step = numbers[i + 1] - numbers[i] if i + 1 < len(numbers) else 0
        while step in (1, -1) and j + 1 < len(numbers) and numbers[j + 1] - numbers[j] == step:
            j += 1
        parts.append(str(numbers[i]) if j == i else f"{numbers[i]}-{numbers[j]}")
        i = j + 1
    return ",".join(parts)


def qpdf_select(source: Path, indices: list[int], target: Path) -> bool:
    """Write the pages ``indices`` (0-based, in order) of ``source`` as a new PDF at ``target``.

    The new document holds the pages with their content, annotations, links between them
    and form fields; encryption without a password to open (restrictions only) is kept.
    Returns False, with nothing written, when qpdf is missing or declines.
    """
    src = str(source.resolve())
    try:
        with atomic_target(target) as tmp:
            done = _run(
                [
                    "--empty",
                    f"--copy-encryption={src}",
                    "--encryption-file-password=",
                    "--pages",
                    src,
                    page_ranges(indices),
                    "--",
                    str(tmp),
                ]
            )
            if done is None:
                raise _Declined
    except _Declined:
        return False
    return True


class _Declined(Exception):
    """qpdf did not write the file; the caller falls back to PyMuPDF."""
