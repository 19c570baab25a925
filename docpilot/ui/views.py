"""Pictures for the web app: page thumbnails, a large page view, before/after pairs of changed pages.

Pages are rendered with PyMuPDF pixmaps at a small resolution into a folder the
caller owns (the session's ``views`` folder); renders are reused when present.
Nothing here imports gradio.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pymupdf

__all__ = ["THUMB_DPI", "VIEW_DPI", "before_after", "first_page", "page_view", "thumbnails"]

THUMB_DPI = 30
VIEW_DPI = 100
DIFF_DPI = 40
MAX_THUMBS = 40
MAX_PAIRS = 4
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"}


def _open(path: str | Path, passwords: Iterable[str] = ()) -> pymupdf.Document | None:
    """The document, unlocked with one of ``passwords`` when needed; None when unreadable or locked."""
    pymupdf.TOOLS.mupdf_display_errors(False)  # a damaged upload is shown as "no pictures", not as stderr noise
    try:
        doc = pymupdf.open(str(path))
    except Exception:  # noqa: BLE001 - any unreadable file simply has no pictures
        return None
    if doc.needs_pass and not any(doc.authenticate(p) for p in passwords if p):
        doc.close()
        return None
    if not doc.is_pdf:
        doc.close()
        return None
    return doc


def _key(path: str | Path) -> str:
    p = Path(path)
    stat = p.stat()
    return hashlib.sha256(f"{p.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()[:16]


def _render(page: pymupdf.Page, dpi: int, target: Path) -> str:
    if not target.exists():
        page.get_pixmap(dpi=dpi).save(str(target))
    return str(target)


def thumbnails(
    path: str | Path, folder: str | Path, passwords: Iterable[str] = (), limit: int = MAX_THUMBS
) -> list[tuple[str, str]]:
    """(image path, caption) for the first ``limit`` pages of a PDF, or the image itself for an image file."""
    path, folder = Path(path), Path(folder)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return [(str(path), path.name)]
    doc = _open(path, passwords)
    if doc is None:
        return []
    key = _key(path)
    with doc:
        return [
            (_render(doc[i], THUMB_DPI, folder / f"{key}-t{i + 1}.png"), f"Page {i + 1}")
            for i in range(min(limit, doc.page_count))
        ]


def page_view(
    path: str | Path, page: int, folder: str | Path, passwords: Iterable[str] = (), highlight: str | None = None
) -> str | None:
    """A larger render of ``page`` (1-based) of a PDF, or the image itself; None when it cannot be shown.

    ``highlight``: text of the page (a citation's quote) shown highlighted — on the render only, the file
    is not changed.
    """
    path, folder = Path(path), Path(folder)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return str(path)
    doc = _open(path, passwords)
    if doc is None:
        return None
    with doc:
        if not 1 <= page <= doc.page_count:
            return None
        target = doc[page - 1]
        if highlight:
            for rect in _quote_rects(target, highlight):
                target.add_highlight_annot(rect)
            marker = hashlib.sha1(highlight.encode()).hexdigest()[:10]
            return _render(target, VIEW_DPI, folder / f"{_key(path)}-v{page}-hl{marker}.png")
        return _render(target, VIEW_DPI, folder / f"{_key(path)}-v{page}.png")


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def _quote_rects(page: pymupdf.Page, quote: str) -> list[Any]:
    """Where ``quote`` is on ``page``: the text searched as one phrase, else the run of the page's words
    (in reading order, then in position order) that spells it — a table row's cells are not one phrase."""
    found = page.search_for(" ".join(quote.split())[:300], quads=True)
    if found:
        return list(found)
    wanted = _folded(quote).split()
    if not wanted:
        return []
    for sort in (False, True):
        words = page.get_text("words", sort=sort)
        folded = [_folded(word[4]) for word in words]
        for start in range(len(words) - len(wanted) + 1):
            if folded[start : start + len(wanted)] == wanted:
                return [pymupdf.Rect(word[:4]) for word in words[start : start + len(wanted)]]
    return []


def _samples(doc: pymupdf.Document, index: int) -> tuple[tuple[int, int], bytes]:
    pix = doc[index].get_pixmap(dpi=DIFF_DPI)
    return (pix.width, pix.height), bytes(pix.samples)


def before_after(
    before: str | Path, after: str | Path, folder: str | Path, passwords: Iterable[str] = (), limit: int = MAX_PAIRS
) -> list[tuple[str, str]]:
    """Renders of the pages that differ between two PDFs, as (image, caption) in before/after order.

    Pages are compared by their low-resolution pixels at the same position; a page
    only one side has is shown alone ("removed" / "added").
    """
    folder = Path(folder)
    old, new = _open(before), _open(after, passwords)
    if old is None or new is None:
        for doc in (old, new):
            if doc is not None:
                doc.close()
        return []
    pictures: list[tuple[str, str]] = []
    old_key, new_key = _key(before), _key(after)
    with old, new:
        shown = 0
        for i in range(max(old.page_count, new.page_count)):
            if shown >= limit:
                break
            has_old, has_new = i < old.page_count, i < new.page_count
            if has_old and has_new and _samples(old, i) == _samples(new, i):
                continue
            shown += 1
            if has_old:
                label = "before" if has_new else "before (no page here after)"
                pictures.append(
                    (_render(old[i], DIFF_DPI, folder / f"{old_key}-d{i + 1}.png"), f"Page {i + 1} {label}")
                )
            if has_new:
                label = "after" if has_old else "after (new page)"
                pictures.append(
                    (_render(new[i], DIFF_DPI, folder / f"{new_key}-d{i + 1}.png"), f"Page {i + 1} {label}")
                )
    return pictures


def first_page(pictures: list[tuple[str, str]]) -> int:
    """The first page number a before/after list shows (1 when it is empty)."""
    for _, caption in pictures:
        words = caption.split()
        if len(words) > 1 and words[0] == "Page" and words[1].isdigit():
            return int(words[1])
    return 1
