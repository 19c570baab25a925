"""Where bench/load.py looks for canaries: the texts of a chat, and what files hold (for bench/load.py).

A file is searched as raw bytes, as the text PyMuPDF extracts from a PDF (page text is often in compressed
streams, so bytes alone miss it), and member by member for zips (the results zip, Word, PowerPoint and Excel
files), recursively. Pictures are searched as bytes only: a canary drawn on a page render is not read back.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["canaries_in_files", "texts_of_chat"]


def texts_of_chat(chat: Any) -> list[str]:
    """Every message's text (and its title) of a gradio Chatbot value."""
    texts: list[str] = []
    for message in chat or []:
        if not isinstance(message, dict):
            texts.append(str(message))
            continue
        content = message.get("content")
        if isinstance(content, list):
            texts += [str(part.get("text", "")) for part in content if isinstance(part, dict)]
        else:
            texts.append(str(content))
        title = (message.get("metadata") or {}).get("title")
        if title:
            texts.append(str(title))
    return texts


def _texts_of_bytes(name: str, data: bytes, depth: int = 0) -> list[str]:
    texts = [data.decode("latin-1")]
    lower = name.lower()
    if lower.endswith(".pdf"):
        import pymupdf

        try:
            with pymupdf.open(stream=data, filetype="pdf") as doc:
                texts += [page.get_text() for page in doc]
        except Exception:  # noqa: BLE001 - an unreadable file is searched as bytes only
            pass
    if depth < 3 and zipfile.is_zipfile(io.BytesIO(data)):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for member in archive.namelist():
                texts += _texts_of_bytes(member, archive.read(member), depth + 1)
    return texts


def canaries_in_files(paths: Iterable[Path], canaries: Iterable[str]) -> set[str]:
    """The canaries found in any of ``paths`` (folders and missing paths are skipped)."""
    wanted = list(canaries)
    found: set[str] = set()
    for path in paths:
        if not path.is_file():
            continue
        for text in [path.name, *_texts_of_bytes(path.name, path.read_bytes())]:
            found.update(c for c in wanted if c in text)
    return found
