"""Where tools read and write: checked input paths, output names, atomic writes.

Nothing here opens a PDF library: a tool that hands its work to a program (qpdf) or
only names files starts without loading PyMuPDF.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import NotAPdfError, ToolArgumentError

__all__ = ["input_path", "check_pdf_bytes", "output_path", "unique_path", "atomic_target", "IMAGE_SUFFIXES"]

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp"}


def input_path(file: str | os.PathLike[str]) -> Path:
    """Resolve an input file, failing clearly when it is missing or empty."""
    path = Path(file).expanduser()
    if not path.exists():
        raise ToolArgumentError(f"File not found: {path.name}. Check the file name.")
    if not path.is_file():
        raise ToolArgumentError(f"{path.name} is not a file.")
    if path.stat().st_size == 0:
        raise NotAPdfError(f"{path.name} is empty (0 bytes); upload the file again.")
    return path


def check_pdf_bytes(path: Path) -> None:
    """Fail clearly when ``path`` does not look like a whole PDF (no header, or no end marker)."""
    with path.open("rb") as handle:
        head = handle.read(1024)
        handle.seek(0, os.SEEK_END)
        size = handle.tell()
        handle.seek(max(0, size - 2048))
        tail = handle.read()
    if b"%PDF-" not in head:
        preview = head[:8].decode("latin-1", "replace")
        raise NotAPdfError(
            f"{path.name} is not a PDF (it starts with {preview!r}, not '%PDF-'). "
            "Upload a PDF, or convert the file first."
        )
    if b"%%EOF" not in tail and b"startxref" not in tail:
        raise NotAPdfError(
            f"{path.name} is truncated or damaged (no end-of-file marker). Upload a complete copy of the file."
        )


def output_path(
    source: str | os.PathLike[str] | None,
    what: str,
    ext: str = ".pdf",
    output: str | None = None,
) -> Path:
    """Where a tool writes its result.

    ``output`` (a name or path the request gave) is used as given, relative to the
    current working directory. Otherwise ``<source stem>_<what><ext>`` in the
    current working directory, with ``-2``, ``-3`` … when the name is taken.
    """
    if output:
        path = Path(output).expanduser()
        if not path.suffix:
            path = path.with_suffix(ext)
        if not path.is_absolute():
            path = Path.cwd() / path
        if source and path.resolve() == Path(source).resolve():
            raise ToolArgumentError(
                f"The output name {path.name} is the input file; tools never overwrite their input. "
                "Choose another name."
            )
        return path
    stem = Path(source).stem if source else "document"
    base = Path.cwd() / f"{stem}_{what}{ext}" if what else Path.cwd() / f"{stem}{ext}"
    return unique_path(base)


def unique_path(path: Path) -> Path:
    """``path`` if free, else ``name-2.ext``, ``name-3.ext`` …"""
    if not path.exists():
        return path
    n = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
        n += 1


@contextlib.contextmanager
def atomic_target(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; move it into place only on success."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o644)  # mkstemp makes 0600; outputs are ordinary readable files
        os.replace(tmp_path, path)
    finally:
        tmp_path.unlink(missing_ok=True)
