"""Per-user state of the web app: a private folder, the uploaded copies, the conversation, the chat, the outputs.

A :class:`Session` owns one folder (mode 0700) under the store's root; everything
the session makes (copies of uploads, run outputs, page renders, zips) lives in it
and goes when the session is reset, closed or idle too long. Sessions never share
folders, and nothing here imports gradio.

Each session folder carries a lock its server holds (:mod:`docpilot.folders`): the kernel drops it
when the server dies, even by SIGKILL. A store sweeps its root when it starts and removes only the
folders no live server holds, so two servers may share a root and a killed one leaves nothing behind
after the next start.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docpilot.conversation import Conversation
from docpilot.errors import LimitError
from docpilot.files import FileInfo, UploadLimits, inspect_files
from docpilot.folders import HeldFolder, hold_new_folder, sweep_unheld

__all__ = ["Session", "SessionStore", "default_root", "safe_file_name"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_MAX_NAME = 100
_MAKING = ".new-"  # a session folder being made: locked under this hidden name, then renamed to its id


def default_root() -> Path:
    """``<tmp>/docpilot-sessions-<uid>``: one root per OS user."""
    return Path(tempfile.gettempdir()) / f"docpilot-sessions-{os.getuid()}"


def safe_file_name(name: str) -> str:
    """A plain file name (no folders, no odd characters) that keeps the user's name recognisable."""
    base = Path(name.replace("\\", "/")).name
    stem, suffix = os.path.splitext(base)
    stem = _UNSAFE.sub("_", stem).strip("._-") or "file"
    suffix = _UNSAFE.sub("", suffix)[:10]
    return stem[: _MAX_NAME - len(suffix)] + suffix


def _private_dir(path: Path) -> Path:
    path.mkdir(mode=0o700, parents=False, exist_ok=False)
    path.chmod(0o700)
    return path


def _check_root(root: Path) -> Path:
    """Create the root 0700, or accept an existing one only if it is a real folder of ours, private."""
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = os.lstat(root)
    if not stat.S_ISDIR(info.st_mode):
        raise RuntimeError(f"session root {root} is not a folder")
    if info.st_uid != os.getuid():
        raise RuntimeError(f"session root {root} belongs to another user")
    if info.st_mode & 0o077:
        root.chmod(0o700)
    return root


@dataclass
class Session:
    """One user's workspace. Mutated only while its ``lock`` is held (see :meth:`SessionStore.use`)."""

    id: str
    folder: Path
    owner: str | None = None  # the web session (gradio session hash) that created it
    created: float = field(default_factory=time.time)
    last_seen: float = field(default_factory=time.time)
    conversation: Conversation = field(default_factory=Conversation)  # files, turns, the plan awaiting approval
    waiting: str | None = None  # a message shown in the chat and not planned yet
    stop: Any = None  # the cancel switch of the planning or run under way (read without the lock by Cancel)
    rows: list[list[str]] | None = None  # plan-editor values the user edited that did not verify
    history: list[dict[str, Any]] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)  # the latest run's delivered files
    zip_path: str | None = None
    before_after: list[tuple[str, str]] = field(default_factory=list)
    view_doc: str | None = None  # the document shown in the viewer (a path in this folder)
    view_page: int = 1
    unlock: list[str] = field(default_factory=list, repr=False)  # passwords of the latest outputs, for the viewer
    runs: int = 0
    busy: int = 0
    told_remote: bool = False  # the notice that document text goes to a remote server was shown
    citations: list[dict[str, Any]] = field(default_factory=list)  # the latest answer's sources
    view_quote: str | None = None  # the quote highlighted on the page shown (a source was opened)
    draft: str | None = None  # an answer being written ("" while the documents are read), shown as it grows
    queued: int | None = None  # calls ahead of this session's at the model while it waits (0: its turn came)
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    held: HeldFolder | None = field(default=None, repr=False)  # the folder's lock, held while the session lives
    limits: UploadLimits = field(default_factory=UploadLimits)

    @property
    def files(self) -> dict[str, FileInfo]:
        return self.conversation.files

    @property
    def outcome(self) -> Any:
        """The plan awaiting approval (None when nothing waits)."""
        return self.conversation.pending

    def sub(self, name: str) -> Path:
        """A private sub-folder of the session folder (created on first use)."""
        path = self.folder / name
        if not path.exists():
            _private_dir(path)
        return path

    def add_file(self, source: str | Path) -> FileInfo:
        """Copy ``source`` into the session under a safe, unique name; the source is never touched.

        Raises :class:`~docpilot.errors.LimitError` (and keeps nothing) for a file over the session's
        size or page limit.
        """
        self.limits.check_size(source)
        inputs = self.sub("inputs")
        name = safe_file_name(Path(source).name)
        stem, suffix = os.path.splitext(name)
        candidate, n = name, 1
        while candidate in self.files or (inputs / candidate).exists():
            n += 1
            candidate = f"{stem}-{n}{suffix}"
        target = inputs / candidate
        shutil.copyfile(source, target)
        target.chmod(0o600)
        info = inspect_files([target])[candidate]
        try:
            self.limits.check_pages(info, Path(source).name)
        except LimitError:
            target.unlink(missing_ok=True)
            raise
        self.files[candidate] = info
        return info

    def drop_file(self, name: str) -> None:
        info = self.files.pop(name, None)
        if info is not None:
            Path(info.path).unlink(missing_ok=True)

    def new_run_dir(self) -> Path:
        self.runs += 1
        return _private_dir(self.sub("outputs") / f"run-{self.runs}")

    def say(self, role: str, content: str, **extra: Any) -> None:
        self.history.append({"role": role, "content": content, **extra})

    def log(self, line: str) -> None:
        self.logs.append(f"[{time.strftime('%H:%M:%S')}] {line}")

    def close(self) -> None:
        """Remove the session's folder and forget its state."""
        shutil.rmtree(self.folder, ignore_errors=True)
        if self.held is not None:
            self.held.release()  # after the folder is gone: a sweeper never sees it unheld
        self.files.clear()
        self.outputs.clear()
        self.history.clear()
        self.logs.clear()
        self.conversation = Conversation()
        self.unlock.clear()


class SessionStore:
    """All live sessions, each with its own folder under ``root``; idle ones are removed."""

    def __init__(
        self,
        root: str | Path | None = None,
        idle_timeout: float = 1800.0,
        clock: Callable[[], float] = time.time,
        limits: UploadLimits | None = None,
    ) -> None:
        self.root = _check_root(Path(root) if root else default_root())
        self.idle_timeout = idle_timeout
        self.clock = clock
        self.limits = limits or UploadLimits()
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self.swept = self.sweep()

    def sweep(self) -> list[Path]:
        """Remove the session folders no live server holds (left by a server that was killed)."""
        named = sweep_unheld(self.root, lambda name: not name.startswith("."), lockless=True)
        making = sweep_unheld(self.root, lambda name: name.startswith(_MAKING))
        return named + making

    def __len__(self) -> int:
        return len(self._sessions)

    def create(self, owner: str | None = None) -> Session:
        with self._lock:
            sid = secrets.token_urlsafe(16)
            held = hold_new_folder(self.root, _MAKING, sid)
            now = self.clock()
            session = Session(sid, held.path, owner, created=now, last_seen=now, held=held, limits=self.limits)
            self._sessions[sid] = session
            return session

    def get(self, sid: str | None) -> Session | None:
        if not sid:
            return None
        with self._lock:
            return self._sessions.get(sid)

    def remove(self, sid: str | None) -> bool:
        """Close and forget a session (a no-op for unknown ids).

        A session in the middle of a request is forgotten now and closed when that request ends,
        so a run never has its folder removed under it (and this never blocks).
        """
        if not sid:
            return False
        with self._lock:
            session = self._sessions.pop(sid, None)
            in_use = session is not None and session.busy > 0
        if session is None:
            return False
        if not in_use:
            session.close()
        return True

    def remove_owner(self, owner: str | None) -> int:
        """Close every session created by the web session ``owner`` (its tab was closed)."""
        if not owner:
            return 0
        with self._lock:
            ids = [s.id for s in self._sessions.values() if s.owner == owner]
        return sum(self.remove(sid) for sid in ids)

    def reset(self, sid: str | None, owner: str | None = None) -> Session:
        """Remove the session and its files; a fresh, empty one takes its place."""
        self.remove(sid)
        return self.create(owner)

    def expire_idle(self, now: float | None = None) -> list[str]:
        """Remove sessions idle longer than the timeout (never one in the middle of a request)."""
        now = self.clock() if now is None else now
        with self._lock:
            stale = [s.id for s in self._sessions.values() if not s.busy and now - s.last_seen > self.idle_timeout]
        return [sid for sid in stale if self.remove(sid)]

    def close_all(self) -> None:
        with self._lock:
            ids = list(self._sessions)
        for sid in ids:
            self.remove(sid)

    @contextmanager
    def use(self, sid: str | None, owner: str | None = None) -> Iterator[tuple[Session, bool]]:
        """The session ``sid`` (or a new one), locked for one request; yields (session, expired).

        ``expired`` is True when ``sid`` named a session that no longer exists (idle timeout).
        """
        self.expire_idle()
        with self._lock:
            session = self._sessions.get(sid) if sid else None
            if session is not None:
                session.busy += 1
        expired = bool(sid) and session is None
        if session is None:
            session = self.create(owner)
            with self._lock:
                session.busy += 1
        try:
            with session.lock:
                yield session, expired
        finally:
            with self._lock:
                session.busy -= 1
                session.last_seen = self.clock()
                orphan = session.busy == 0 and self._sessions.get(session.id) is not session
            if orphan:  # removed (reset, tab closed, expired) while this request ran
                session.close()
