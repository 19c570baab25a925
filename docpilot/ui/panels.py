"""What each panel of the web app shows for a session, computed without gradio.

The viewer's document list holds labels, never paths: a label is looked up among
the session's own files, so a client cannot make the app render a file that is
not the session's.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docpilot import service
from docpilot.ui.session import Session
from docpilot.ui.views import page_view, thumbnails

__all__ = ["View", "chat_of", "render", "select_doc", "select_page", "select_source", "source_labels", "waiting_text"]

RESULT = "result: "
log = logging.getLogger("docpilot.ui")


@dataclass
class View:
    chat: list[dict[str, Any]] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    plan_json: str = ""
    logs: str = ""
    downloads: list[str] = field(default_factory=list)
    files_md: str = ""
    docs: list[str] = field(default_factory=list)
    doc: str | None = None
    thumbs: list[tuple[str, str]] = field(default_factory=list)
    page: str | None = None
    before_after: list[tuple[str, str]] = field(default_factory=list)
    pending: bool = False  # a plan waits for approval (and no new message is being planned)
    sources: list[str] = field(default_factory=list)  # the latest answer's citations, as chips
    source: str | None = None  # the one opened in the viewer


def _documents(session: Session) -> dict[str, str]:
    """label → path for every file the session may show: uploads, then the latest outputs."""
    docs = {name: info.path for name, info in session.files.items()}
    for path in session.outputs:
        if Path(path).suffix.lower() in (".pdf", ".png", ".jpg", ".jpeg"):
            docs[RESULT + Path(path).name] = path
    return docs


def select_doc(session: Session, label: str | None) -> None:
    path = _documents(session).get(label or "")
    if path is not None:
        session.view_doc, session.view_page, session.view_quote = path, 1, None


def select_page(session: Session, index: int | None) -> None:
    if isinstance(index, int) and index >= 0:
        session.view_page, session.view_quote = index + 1, None


def source_labels(session: Session) -> list[str]:
    """ "1 · contract.pdf p. 3" for each citation of the latest answer."""
    return [f"{i} · {Path(c['file']).name} p. {c['page']}" for i, c in enumerate(session.citations, 1)]


def select_source(session: Session, label: str | None) -> None:
    """Open a cited page with its quote highlighted; only a file of the session can be opened."""
    labels = source_labels(session)
    if label not in labels:
        return
    cite = session.citations[labels.index(label)]
    if str(cite["file"]) in _documents(session).values():
        session.view_doc, session.view_page, session.view_quote = str(cite["file"]), int(cite["page"]), cite["quote"]


def _open_source(session: Session) -> str | None:
    for label, cite in zip(source_labels(session), session.citations, strict=True):
        if (str(cite["file"]), int(cite["page"]), cite["quote"]) == (
            session.view_doc,
            session.view_page,
            session.view_quote,
        ):
            return label
    return None


def _current(session: Session) -> tuple[str | None, str | None]:
    docs = _documents(session)
    for label, path in docs.items():
        if path == session.view_doc:
            return label, path
    if docs:
        label, path = next(iter(docs.items()))
        session.view_doc, session.view_page = path, 1
        return label, path
    return None, None


def _files_md(session: Session) -> str:
    if not session.files:
        return "No files yet: upload PDFs (and images for signatures or images → PDF)."
    return "**Your files:** " + " · ".join(info.describe() for info in session.files.values())


READING = "Reading the documents… (press Cancel to stop)"
WORKING = "The model is working on your request… (press Cancel to stop)"


def waiting_text(ahead: int) -> str:
    """ "Waiting for the model: 2 requests ahead of yours" (other sessions are using the one model)."""
    requests = "request" if ahead == 1 else "requests"
    return f"Waiting for the model: {ahead} {requests} ahead of yours… (press Cancel to stop)"


def chat_of(session: Session) -> list[dict[str, Any]]:
    """The chat's messages, then what the request under way is doing as a last, pending one: its place in the
    model's line while it waits, the answer being written (marked as a draft), or the model at work."""
    chat = [dict(m) for m in list(session.history)]
    draft, queued = session.draft, session.queued
    if queued:
        chat.append({"role": "assistant", "content": waiting_text(queued), **_pending("Waiting")})
    elif draft is not None:
        chat.append({"role": "assistant", "content": f"{draft} ▍" if draft else READING, **_pending("Writing")})
    elif queued == 0:
        chat.append({"role": "assistant", "content": WORKING, **_pending("Working")})
    return chat


def _pending(title: str) -> dict[str, Any]:
    return {"metadata": {"title": title, "status": "pending"}}


def render(session: Session | None, pilot: Any, pictures: bool = True) -> View:
    """Every panel for ``session`` (an empty view for None); page pictures only when ``pictures``."""
    if session is None:
        return View(files_md="No files yet: upload PDFs (and images for signatures or images → PDF).")
    label, path = _current(session)
    outcome = session.outcome
    rows = session.rows if session.rows is not None else pilot.rows(outcome)
    view = View(
        chat=chat_of(session),
        rows=rows,
        plan_json=service.exact_plan(outcome) if outcome is not None else "",
        logs="\n".join(session.logs),
        downloads=[p for p in [*session.outputs, session.zip_path] if p and Path(p).is_file()],
        files_md=_files_md(session),
        docs=list(_documents(session)),
        doc=label,
        before_after=[pair for pair in session.before_after if Path(pair[0]).is_file()],
        pending=outcome is not None and session.waiting is None,
        sources=source_labels(session),
        source=_open_source(session),
    )
    if path and pictures:
        try:
            views = session.sub("views")
            view.thumbs = thumbnails(path, views, session.unlock)
            view.page = page_view(path, session.view_page, views, session.unlock, highlight=session.view_quote)
        except OSError:  # the session was closed meanwhile: no pictures, nothing else lost
            log.warning("could not render pages of %s", Path(path).name)
    return view
