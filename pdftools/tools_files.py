"""File-level tools: copies, names, page counts and metadata."""

from __future__ import annotations

import re
import shutil
from typing import Any

from .docio import open_pdf, write_pdf
from .errors import ToolArgumentError
from .paths import atomic_target, input_path, output_path
from .registry import tool
from .words import Words

__all__ = ["duplicate", "rename", "count_pages", "get_metadata", "set_metadata"]


@tool(
    kind="pdf",
    category="files",
    explain="Make a copy of {file}[ named {output}]",
    result_name="copy",
    say="Make a copy",
    words=Words(verbs=("copy", "duplicate"), nouns=("copy", "duplicate", "backup")),
)
def duplicate(file: str, output: str | None = None) -> str:
    """Make an exact copy of a file.

    Args:
        file: The file to copy.
        output: Name for the copy (default: "<name>_copy.pdf").

    Returns:
        Path of the copy.
    """
    source = input_path(file)
    target = output_path(source, "copy", source.suffix or ".pdf", output)
    with atomic_target(target) as tmp:
        shutil.copyfile(source, tmp)
    return str(target)


def _count_pages_answer(value: Any) -> str:
    return f"The document has {value} page{'s' if value != 1 else ''}."


@tool(
    kind="value",
    category="files",
    explain="Count the pages of {file}",
    secrets=("password",),
    result_name="page_count",
    answer=_count_pages_answer,
    say="Count the pages",
    words=Words(verbs=("count",), nouns=("page count", "pages", "length")),
)
def count_pages(file: str, password: str | None = None) -> int:
    """Count the pages of a PDF.

    Args:
        file: The PDF.
        password: Its password, if it is encrypted.

    Returns:
        The number of pages.
    """
    with open_pdf(file, password) as doc:
        return doc.page_count


@tool(
    kind="pdf",
    category="files",
    explain="Save a copy of {file} named {new_name}",
    result_name="renamed",
    say="Rename it to {new_name}",
    words=Words(verbs=("rename", "call"), nouns=("name", "file name")),
)
def rename(file: str, new_name: str) -> str:
    """Give a file a new name (a renamed copy; the original stays as it is).

    Args:
        file: The file to rename.
        new_name: The new file name, e.g. "contract_final.pdf" (the extension is kept when left out).

    Returns:
        Path of the file under its new name.
    """
    source = input_path(file)
    name = new_name.strip()
    if not name or name in {".", ".."} or name.endswith(("/", "\\")):
        raise ToolArgumentError(f"new_name {new_name!r} is not a file name. Give a name like 'report_final.pdf'.")
    target = output_path(source, "", source.suffix or ".pdf", name)
    with atomic_target(target) as tmp:
        shutil.copyfile(source, tmp)
    return str(target)


def _iso_date(value: str) -> str:
    """PDF date ``D:20230421160435+02'00'`` as ISO 8601; unparsable values are returned as they are."""
    raw = (value or "").strip()
    if not raw:
        return ""
    digits = raw[2:] if raw.startswith("D:") else raw
    match = re.match(r"^(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+\-])?(\d{2})?'?(\d{2})?'?", digits)
    if not match:
        return raw
    year, month, day, hour, minute, second, tz, tzh, tzm = match.groups()
    text = f"{year}-{month or '01'}-{day or '01'}"
    if hour:
        text += f"T{hour}:{minute or '00'}:{second or '00'}"
        if tz in ("Z", "z") and not tzh:
            text += "Z"
        elif tz in ("Z", "z") and tzh == "00" and (tzm or "00") == "00":
            text += "Z"
        elif tz in ("+", "-"):
            text += f"{tz}{tzh or '00'}:{tzm or '00'}"
    return text


@tool(
    kind="value",
    category="files",
    explain="Read the properties (title, author, dates) of {file}",
    secrets=("password",),
    result_name="properties",
    say="Read the properties",
    words=Words(verbs=("read", "show", "get"), nouns=("properties", "metadata", "title", "author")),
)
def get_metadata(file: str, password: str | None = None) -> dict:
    """Read a PDF's document properties: title, author, dates, page count, encryption.

    Args:
        file: The PDF.
        password: Its password, if it is encrypted.

    Returns:
        A dict with title, author, subject, keywords, creator, producer, creation_date and
        modification_date (ISO 8601), page_count, encrypted (bool), encryption (method or "")
        and pdf_version (e.g. "1.7").
    """
    with open_pdf(file, password) as doc:
        meta = doc.metadata or {}
        encryption = meta.get("encryption") or ""
        version = (meta.get("format") or "").replace("PDF", "").strip()
        return {
            "title": meta.get("title") or "",
            "author": meta.get("author") or "",
            "subject": meta.get("subject") or "",
            "keywords": meta.get("keywords") or "",
            "creator": meta.get("creator") or "",
            "producer": meta.get("producer") or "",
            "creation_date": _iso_date(meta.get("creationDate") or ""),
            "modification_date": _iso_date(meta.get("modDate") or ""),
            "page_count": doc.page_count,
            "encrypted": bool(encryption),
            "encryption": encryption,
            "pdf_version": version,
        }


@tool(
    kind="pdf",
    category="files",
    explain="Set the properties of {file}:[ title {title}][, author {author}][, subject {subject}]"
    "[, keywords {keywords}]",
    result_name="retitled",
    say="Set the properties",
    words=Words(
        verbs=("set", "change", "update"), nouns=("title", "author", "subject", "keywords", "properties", "metadata")
    ),
)
def set_metadata(
    file: str,
    title: str | None = None,
    author: str | None = None,
    subject: str | None = None,
    keywords: str | None = None,
    output: str | None = None,
) -> str:
    """Set a PDF's document properties (title, author, subject, keywords).

    Fields left out keep their value; an empty string clears a field. The XMP copy of
    the properties is dropped so that no reader shows the old values.

    Args:
        file: The PDF.
        title: New document title.
        author: New author.
        subject: New subject.
        keywords: New keywords, e.g. "contract, 2024".
        output: File name for the result (default: <name>_metadata.pdf).

    Returns:
        Path of the PDF with the new properties.
    """
    changes = {"title": title, "author": author, "subject": subject, "keywords": keywords}
    changes = {key: value for key, value in changes.items() if value is not None}
    if not changes:
        raise ToolArgumentError(
            "set_metadata needs at least one of title, author, subject or keywords. Say which property to set."
        )
    source = input_path(file)
    target = output_path(source, "metadata", ".pdf", output)
    with open_pdf(source) as doc:
        meta = {k: v for k, v in (doc.metadata or {}).items() if k not in ("format", "encryption") and v}
        meta.update(changes)
        doc.set_metadata(meta)
        if doc.get_xml_metadata():
            doc.del_xml_metadata()
        return write_pdf(doc, target)
