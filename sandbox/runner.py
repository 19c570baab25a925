"""Run a program over the PDF tools where it cannot hurt anyone.

``run_program(code, files)`` checks the program statically, copies the inputs
into a fresh working folder and runs it in a guarded child process
(:mod:`sandbox.child`): a stripped environment, its own session, no network,
resource limits, the ``nobody`` user when started as root, Landlock rules and
an audit hook. A :class:`Sandbox` keeps that child warm between runs, so each
run costs a fork instead of a second of imports.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import re
import secrets
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Self

from .checks import ALLOWED_IMPORTS, check_program, format_problems, tools_used
from .child import ENTRY_BYTES
from .folders import hold_run_folder, release, sweep_run_folders
from .guards import LAYERS

__all__ = ["Host", "Limits", "RunResult", "Sandbox", "SandboxStartError", "run_program"]

PROJECT = str(Path(__file__).resolve().parents[1])
BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from sandbox.child import main; main()"
START_TIMEOUT = 120.0
RESERVED = frozenset({"tools", "FILES"})  # names a program's namespace has already


class SandboxStartError(RuntimeError):
    """The sandbox process could not be started (a bug or a broken installation, not the program's fault)."""


@dataclass(frozen=True)
class Limits:
    """What one run may use. Built by the caller and passed in; nothing global."""

    timeout_seconds: float = 120.0
    cpu_seconds: int = 120
    memory_mb: int = 3072
    file_size_mb: int = 512
    output_mb: int = 1024
    result_mb: int = 32  # the report: printed text (itself capped at 64 KB), answers, steps
    processes: int = 16
    open_files: int = 256
    user: str = "nobody"


@dataclass
class RunResult:
    """What a run produced. Outputs stay in ``workdir`` until :meth:`cleanup` (or the ``with`` block ends)."""

    ok: bool
    outputs: list[str] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    printed: str = ""
    layers: dict[str, bool] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    watched: dict[str, Any] | None = None  # a run over frames: what its watched expressions were (sandbox.dataframes)
    workdir: str | None = None
    _lock: int | None = field(default=None, repr=False, compare=False)  # on the run's folder (sandbox.folders)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["_lock"]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), default=str)

    def cleanup(self) -> None:
        """Remove the working folder and everything in it, then let its lock go."""
        if self.workdir:
            shutil.rmtree(os.path.dirname(self.workdir), ignore_errors=True)
            self.workdir = None
        lock, self._lock = self._lock, None
        release(lock)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()


def safe_name(name: str) -> str:
    """A file name without folders or control characters; spaces and shell characters are kept."""
    base = re.sub(r"[\x00-\x1f/\\]", "_", str(name)).strip()
    if base in ("", ".", ".."):
        base = "file"
    return base[:200]


Host = Callable[[str, dict[str, Any]], Any]


def _host_reply(host: Host | None, message: dict[str, Any]) -> dict[str, Any]:
    """The answer to one call from the sandbox: ``{"value": …}`` or ``{"error": …}`` (never a traceback)."""
    if host is None:
        return {"error": "this run has no host for model work"}
    try:
        return {"value": host(str(message["host_call"]), dict(message.get("payload") or {}))}
    except Exception as exc:  # noqa: BLE001 - whatever the host raises becomes the tool's error message
        return {"error": str(exc) or type(exc).__name__}


def _error(kind: str, message: str, step: int | None = None, **extra: Any) -> dict[str, Any]:
    return {"step": step, "task": None, "type": kind, "message": message, "traceback": "", **extra}


class Sandbox:
    """A warm sandbox process serving runs one at a time. Use as a context manager, or call :meth:`close`.

    ``lean`` preloads only pdftools and PyMuPDF (a one-shot CLI run: conversion tools import their
    libraries when used); the default preloads everything once (the app). :meth:`begin` starts the
    process without waiting, so its start-up overlaps the caller's planning.
    """

    def __init__(self, lean: bool = False) -> None:
        self.lean = lean
        self._proc: subprocess.Popen[bytes] | None = None
        self._ready = False
        self._buffer = b""
        self._lock = threading.Lock()
        self._log: Any = None
        self._parent: threading.Event | None = None  # set: the thread that started the process may end

    # --- process ----------------------------------------------------------------------------------
    @property
    def pid(self) -> int | None:
        """The sandbox process's id while it runs (each run's worker is forked from it)."""
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def _env(self) -> dict[str, str]:
        env = {
            "PATH": "/usr/bin:/bin",
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "HOME": "/nonexistent",
        }
        if os.environ.get("TESSDATA_PREFIX"):
            env["TESSDATA_PREFIX"] = os.environ["TESSDATA_PREFIX"]
        return env

    def begin(self) -> Self:
        """Start the sandbox process in the background (no wait); :meth:`start` waits for it.

        The run folders that killed runs left in the temporary root (no live process holds them) are
        removed first. The process dies with this one (``PR_SET_PDEATHSIG``), and the worker running a
        program with the process: a caller killed with SIGKILL leaves no program running.
        """
        if self._proc is not None and self._proc.poll() is None:
            return self
        sweep_run_folders()
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the process)
        self._proc = self._spawn(
            [sys.executable, "-I", "-c", BOOT, PROJECT, "lean" if self.lean else "full", str(os.getpid())]
        )
        self._buffer, self._ready = b"", False
        return self

    def _spawn(self, command: list[str]) -> subprocess.Popen[bytes]:
        """Start the process from a thread of its own that lives until :meth:`close`: the kernel's "parent"
        for the parent-death signal is the thread that forked, and the caller's thread may end sooner (a
        server's worker thread) while the sandbox is still in use."""
        if self._parent is not None:
            self._parent.set()  # the previous process is gone: its thread may end
        started: dict[str, Any] = {}
        ready, self._parent = threading.Event(), threading.Event()
        done = self._parent

        def parent() -> None:
            try:
                started["proc"] = subprocess.Popen(
                    command,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=self._log,
                    env=self._env(),
                    cwd="/",
                    start_new_session=True,
                    close_fds=True,
                )
            except BaseException as exc:  # noqa: BLE001 - raised again on the caller's thread
                started["error"] = exc
                ready.set()
                return
            ready.set()
            done.wait()

        threading.Thread(target=parent, name="docpilot-sandbox-parent", daemon=True).start()
        ready.wait()
        if "error" in started:
            raise started["error"]
        return started.pop("proc")  # held by the caller only: dropped, its pipes close and the process ends

    def start(self) -> None:
        """Make sure the sandbox process runs and has finished its imports."""
        if self._proc is None or self._proc.poll() is not None:
            self.close()
            self.begin()
        if self._ready:
            return
        line = self._read_line(time.monotonic() + START_TIMEOUT)
        if line is None or not json.loads(line).get("ready"):
            tail = self._log_tail()
            self.close()
            raise SandboxStartError(f"the sandbox process did not start. {tail}")
        self._ready = True

    def _log_tail(self) -> str:
        if self._log is None:
            return ""
        self._log.seek(0)
        return self._log.read()[-2000:].decode(errors="replace")

    def _read_line(self, deadline: float) -> bytes | None:
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        parts = [self._buffer]  # joined once: appending to one bytes object is quadratic in a long reply
        while b"\n" not in parts[-1]:
            left = deadline - time.monotonic()
            chunk = b""
            if left > 0 and select.select([fd], [], [], left)[0]:
                chunk = os.read(fd, 1 << 20)
                if chunk:
                    parts.append(chunk)
                    continue
            self._buffer = b"".join(parts)
            return None
        line, self._buffer = b"".join(parts).split(b"\n", 1)
        return line

    def kill(self) -> bool:
        """Kill the sandbox process and the worker running a program in it, from any thread, at once.

        The run under way (if any) ends as a failed run ("the sandbox process stopped answering") and
        the next run starts a new sandbox process. False when no process was running.
        """
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return False
        _kill_tree(proc.pid)
        return True

    def close(self) -> None:
        proc, self._proc, self._ready = self._proc, None, False
        if proc is not None:
            _kill_tree(proc.pid)  # the worker has its own session: killing the sandbox's group misses it
            proc.wait()
            for stream in (proc.stdin, proc.stdout):
                if stream:
                    stream.close()
        if self._parent is not None:
            self._parent.set()
            self._parent = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- runs -------------------------------------------------------------------------------------
    def run(
        self,
        code: str,
        files: Mapping[str, str],
        *,
        limits: Limits | None = None,
        static_checks: bool = True,
        host: Host | None = None,
        frames: Mapping[str, Any] | None = None,
        _layers_off: Collection[str] = (),
    ) -> RunResult:
        """Run ``code`` with copies of ``files`` ({name in the program: path on disk}).

        ``frames`` ({name: :func:`sandbox.dataframes.pack_frame` output}) are given to the program as pandas
        DataFrames under those names; what its watched expressions were comes back in ``RunResult.watched``.

        ``host(name, payload)`` answers the model work a tool asks for (:mod:`pdftools.hosted`) here, in the
        caller's process: the request comes over the sandbox's own pipe, the models never load inside it.

        ``_layers_off`` (names from :data:`sandbox.guards.LAYERS`) runs without those layers. It exists only
        for the tests that prove each layer stops its attacks alone; :func:`run_program` (what the product
        calls) has no such parameter, and no plan, document or setting reaches it.
        """
        off = frozenset(_layers_off)
        bad = [n for n in frames or () if not str(n).isidentifier() or str(n).startswith("_") or n in RESERVED]
        if bad:
            raise ValueError(f"frame names must be plain identifiers other than {sorted(RESERVED)}: {bad}")
        if not off <= set(LAYERS):
            raise ValueError(f"unknown sandbox layers {sorted(off - set(LAYERS))}; the layers are {LAYERS}")
        limits = limits or Limits()
        started = time.perf_counter()
        if static_checks:
            problems = check_program(code)
            if problems:
                return RunResult(
                    ok=False,
                    error=_error(
                        "StaticCheckError", format_problems(problems), problems=[p.to_dict() for p in problems]
                    ),
                    stats={"seconds": round(time.perf_counter() - started, 3), "overhead_ms": 0},
                )
        uid, gid = (None, None) if "user" in off else self._identity(limits)
        workdir, names, lock = self._prepare(files, uid, gid)
        request = {
            "code": code,
            "tools": tools_used(code),
            "files": names,
            "workdir": workdir,
            "project": PROJECT,
            "uid": uid,
            "gid": gid,
            "limits": asdict(limits),
            "allowed_imports": list(ALLOWED_IMPORTS),
            "layers_off": sorted(off),
            "frames": None if frames is None else dict(frames),
            "env": {
                "PATH": "/usr/bin:/bin",
                "HOME": workdir,
                "TMPDIR": workdir,
                "OMP_NUM_THREADS": "1",
                "LANG": os.environ.get("LANG", "C.UTF-8"),
                **({"TESSDATA_PREFIX": os.environ["TESSDATA_PREFIX"]} if os.environ.get("TESSDATA_PREFIX") else {}),
            },
        }
        try:
            with self._lock:
                reply = self._exchange(request, limits, host)
        except BaseException:  # interrupted (Ctrl-C): the program is killed, the copies of the inputs removed
            self.close()
            shutil.rmtree(os.path.dirname(workdir), ignore_errors=True)
            release(lock)
            raise
        if uid is not None:
            _reclaim(os.path.dirname(workdir))  # the worker and all it started are gone: nobody may touch it now
        result = self._result(reply, workdir, names, limits, started, off)
        result._lock = lock  # held until cleanup: a live run's folder is never swept
        return result

    def _identity(self, limits: Limits) -> tuple[int | None, int | None]:
        if os.geteuid() != 0:
            return None, None
        entry = pwd.getpwnam(limits.user)
        return entry.pw_uid, entry.pw_gid

    def _prepare(self, files: Mapping[str, str], uid: int | None, gid: int | None) -> tuple[str, dict[str, str], int]:
        """The run's working folder with copies of ``files``, the names they have there, and the lock
        on the run's folder (held by this process; the sandbox's next start removes it once released)."""
        base, lock = hold_run_folder()
        try:
            workdir, names = self._copy_in(base, files, uid, gid)
        except BaseException:
            shutil.rmtree(base, ignore_errors=True)
            release(lock)
            raise
        return workdir, names, lock

    def _copy_in(
        self, base: str, files: Mapping[str, str], uid: int | None, gid: int | None
    ) -> tuple[str, dict[str, str]]:
        os.chmod(base, 0o711)  # others may pass through to the working folder, not list or create here
        # An unguessable name: every run is nobody, and without Landlock a run beside this one (another
        # sandbox on the machine) could otherwise find it through /tmp and read or change it.
        workdir = os.path.join(base, secrets.token_hex(16))
        os.mkdir(workdir, 0o700)
        if uid is not None and gid is not None:
            os.chown(workdir, uid, gid)
        names: dict[str, str] = {}
        taken: set[str] = set()
        for key, source in files.items():
            name = safe_name(os.path.basename(str(key)) or key)
            stem, dot, ext = name.rpartition(".")
            counter = 2
            while name in taken:
                name = f"{stem}-{counter}.{ext}" if dot else f"{ext}-{counter}"
                counter += 1
            taken.add(name)
            target = os.path.join(workdir, name)
            shutil.copyfile(source, target)
            os.chmod(target, 0o444)
            names[str(key)] = name
        return workdir, names

    def _exchange(self, request: dict[str, Any], limits: Limits, host: Host | None = None) -> dict[str, Any]:
        data = json.dumps(request).encode() + b"\n"
        for attempt in (1, 2):  # a sandbox process that died since the last run is restarted once
            self.start()
            assert self._proc is not None and self._proc.stdin is not None
            try:
                self._proc.stdin.write(data)
                self._proc.stdin.flush()
                break
            except OSError:
                self.close()
                if attempt == 2:
                    return {"payload": None, "reason": "internal", "message": "the sandbox process is gone"}
        deadline = time.monotonic() + limits.timeout_seconds + 30
        while True:
            line = self._read_line(deadline)
            if line is None:
                self.close()  # it hung or died: never reuse it
                return {"payload": None, "reason": "internal", "message": "the sandbox process stopped answering"}
            message = json.loads(line)
            if "host_call" not in message:
                return message
            reply = _host_reply(host, message)
            assert self._proc is not None and self._proc.stdin is not None
            self._proc.stdin.write(json.dumps(reply, default=str).encode() + b"\n")
            self._proc.stdin.flush()

    def _result(
        self,
        reply: dict[str, Any],
        workdir: str,
        names: dict[str, str],
        limits: Limits,
        started: float,
        off: frozenset[str],
    ) -> RunResult:
        payload = reply.get("payload")
        seconds = time.perf_counter() - started
        result = RunResult(ok=False, workdir=workdir, files=names)
        result.stats = {"seconds": round(seconds, 3), "cpu_seconds": reply.get("cpu_seconds")}
        if off:
            result.stats["layers_off"] = sorted(off)
        if payload is None:
            result.error = _error("SandboxLimit", _limit_message(reply, limits))
            result.stats["overhead_ms"] = None
            return result
        report = payload["report"]
        result.steps, result.answers = report["steps"], report["answers"]
        result.printed = payload.get("printed", "")
        result.layers = {
            **dict.fromkeys(LAYERS, False),
            **payload.get("layers", {}),
            **{name: name not in off for name in ("output_limit", "result_cap", "output_paths")},
        }
        result.stats["overhead_ms"] = round(seconds * 1000 - payload.get("exec_ms", 0.0), 1)
        result.stats["setup_ms"] = payload.get("setup_ms")
        result.error = payload.get("error")
        result.watched = payload.get("watched")
        if payload.get("blocked"):
            result.stats["blocked"] = payload["blocked"]
        real = os.path.realpath(workdir)
        for path in report["outputs"]:
            full = os.path.realpath(path)
            if "output_paths" in off or _own_file(full, path, real):
                result.outputs.append(full)
            elif result.error is None:
                result.error = _error("SandboxViolation", f"reported an output outside its working folder: {path}")
        total = 0 if "output_limit" in off else _tree_size(workdir)
        if total > limits.output_mb * 1024 * 1024 and result.error is None:
            result.error = _error("SandboxLimit", f"the program wrote more than {limits.output_mb} MB of files")
        result.ok = result.error is None
        return result


def _own_file(full: str, reported: str, workdir: str) -> bool:
    """A regular file of the run: inside its working folder, not a symbolic link, not a hard link to elsewhere."""
    if not full.startswith(workdir + os.sep) or os.path.islink(reported):
        return False
    try:
        info = os.lstat(full)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_nlink == 1


def _reclaim(base: str) -> None:
    """Give the run's folder back to this user, closed, so no later ``nobody`` process can read or change it."""
    uid, gid = os.getuid(), os.getgid()
    for root, dirs, files in os.walk(base):
        for path in [root] + [os.path.join(root, name) for name in dirs + files]:
            with contextlib.suppress(OSError):  # gone already: nothing left to protect
                os.lchown(path, uid, gid)
        with contextlib.suppress(OSError):
            os.chmod(root, 0o700)


def _children(pid: int) -> list[int]:
    """The pids of ``pid``'s direct children, forked by any of its threads (from /proc)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        listed = []
        for task in tasks:
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                listed += [int(p) for p in handle.read().split()]
        return listed
    except (OSError, ValueError):
        pass
    found = []  # a kernel without the children file: read every process's parent
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as handle:
                    if int(handle.read().rsplit(b")", 1)[1].split()[1]) == pid:
                        found.append(int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    return found


def _kill_tree(pid: int) -> None:
    """SIGKILL the sandbox process ``pid``'s workers (each leads its own session) and then the process group
    of ``pid``. Workers are killed first: while their parent lives it is their subreaper, so whatever a
    worker started is still below it."""
    for child in _children(pid):
        _signal(os.killpg, child)  # the worker's session: whatever it started
        _signal(os.kill, child)  # the worker itself, had it not led its session yet
    _signal(os.killpg, pid)


def _signal(send: Callable[[int, int], None], pid: int) -> None:
    try:
        send(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _tree_size(path: str) -> int:
    """Bytes in the folder, each file, folder and link counted as at least ENTRY_BYTES (an empty file is an inode)."""
    total = 0
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            try:
                total += max(os.lstat(os.path.join(root, name)).st_size, ENTRY_BYTES)
            except OSError:
                pass
    return total


def _limit_message(reply: dict[str, Any], limits: Limits) -> str:
    reason, signum, cpu = reply.get("reason"), reply.get("signal"), reply.get("cpu_seconds") or 0
    if reason == "timeout":
        return f"the program ran longer than {limits.timeout_seconds:g} s and was stopped"
    if reason == "output":
        return f"the program wrote more than {limits.output_mb} MB of files and was stopped"
    if reason == "result":
        return f"the program's results were too large to report (more than {limits.result_mb} MB)"
    if signum == signal.SIGXCPU or (signum == signal.SIGKILL and cpu >= limits.cpu_seconds - 0.5):
        return f"the program used more than {limits.cpu_seconds} s of CPU time and was stopped"
    if signum == signal.SIGKILL:
        return f"the program was killed; it may have used more than {limits.memory_mb} MB of memory"
    if signum:
        return f"the program crashed ({signal.Signals(signum).name})"
    if reason == "internal":
        return f"the sandbox failed: {reply.get('message', 'unknown error')}"
    return f"the program stopped without a result (exit code {reply.get('exit_code')})"


def run_program(
    code: str,
    files: Mapping[str, str],
    *,
    limits: Limits | None = None,
    static_checks: bool = True,
    sandbox: Sandbox | None = None,
    host: Host | None = None,
    frames: Mapping[str, Any] | None = None,
) -> RunResult:
    """Run ``code`` over copies of ``files`` and return what it produced.

    Args:
        code: The program (compiled plan or LLM-written), using ``tools`` and ``FILES``.
        files: {name the program uses in FILES: path of the uploaded file}.
        limits: Time, memory and size limits (default :class:`Limits`).
        static_checks: Check the source first; only security tests turn this off.
        sandbox: A warm :class:`Sandbox` to reuse; without one a sandbox is started and closed for this run.
        host: Answers the model work tools ask for (:mod:`pdftools.hosted`), in this process.
        frames: Tables the program computes over, as pandas DataFrames under these names
            ({name: :func:`sandbox.dataframes.pack_frame` output}); see :mod:`sandbox.dataframes`.
    """
    if sandbox is not None:
        return sandbox.run(code, files, limits=limits, static_checks=static_checks, host=host, frames=frames)
    with Sandbox(lean=True) as fresh:
        return fresh.run(code, files, limits=limits, static_checks=static_checks, host=host, frames=frames)
