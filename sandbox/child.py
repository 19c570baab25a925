"""The sandbox process: ``python -I -m sandbox.child`` (or :func:`main`).

It starts as the caller's user, imports pdftools, every tool module and the
libraries they load lazily, then serves run requests (one JSON line each on
stdin, one JSON line back on stdout). Each request is run in a forked worker
that puts up the guards (:mod:`sandbox.guards`) and executes the program; this
process waits for it with a wall-clock deadline and an output-size watch, kills
its whole process tree when done, and reports. Forking a warm process keeps the
per-run overhead to milliseconds instead of a second of imports.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import signal
import sys
import tempfile
import time
import traceback
from typing import Any

PRELOAD_LEAN = ("heapq",)  # imported lazily by tools that need only PyMuPDF
PRINT_CAP = 64 * 1024
PR_SET_CHILD_SUBREAPER = 36
HOST_CALL_CAP = 16 * 1024 * 1024  # one call's text (pages for the entity recogniser), one reply
ENTRY_BYTES = 4096  # what each file, folder or link counts against the output limit, even when empty


def preload(full: bool = True) -> None:
    """Import what tools need before any guard is up (the worker, as nobody, may not read Python's folders).

    ``full`` also imports every library the tools declare in ``needs`` (office formats, Pillow, pypdf):
    a long-lived sandbox (the app) pays that once; a one-shot sandbox (a CLI run) imports only the
    libraries of the run's own tools, just before its worker forks (:func:`preload_tools`).
    """
    import importlib
    import warnings

    import pdftools

    from . import api, checks, guards  # noqa: F401

    warnings.simplefilter("ignore")
    tools = pdftools.all_tools()
    try:  # arguments that need converting or explaining go to pydantic: load it, its plugins and its errors now
        tools["count_pages"].validate({"file": "x.pdf", "password": 1, "unknown": None})
    except pdftools.ToolArgumentError:
        pass
    for name in PRELOAD_LEAN + checks.ALLOWED_IMPORTS:
        try:
            importlib.import_module(name)
        except ImportError:
            continue
    import encodings
    import pkgutil

    for info in pkgutil.iter_modules(encodings.__path__):  # codecs are looked up lazily, by name
        try:
            importlib.import_module(f"encodings.{info.name}")
        except ImportError:
            continue
    if full:
        preload_tools(list(tools))


def preload_tools(names: list[str]) -> None:
    """Import the libraries the named tools load when they run (a lean sandbox has not yet)."""
    import importlib

    import pdftools

    tools = pdftools.all_tools()
    wanted = {lib for name in names if name in tools for lib in tools[name].needs}
    missing = sorted(lib for lib in wanted if lib not in sys.modules)
    for lib in missing:
        try:
            importlib.import_module(lib)
        except ImportError:
            continue
    if "PIL.Image" in wanted and "PIL.Image" in sys.modules:
        sys.modules["PIL.Image"].init()  # every image plugin, not only those loaded so far
    if "pdf2docx" in wanted:
        import logging

        logging.disable(logging.WARNING)  # pdf2docx logs at INFO on import and per page


# ---- worker (forked per run) -------------------------------------------------------------------
def _trim_traceback(exc: BaseException, code: str) -> str:
    lines = code.splitlines()
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<program>"]
    out = []
    for frame in frames:
        out.append(f'  File "<program>", line {frame.lineno}, in {frame.name}')
        if frame.lineno and 0 < frame.lineno <= len(lines):
            out.append(f"    {lines[frame.lineno - 1].strip()}")
    out.append(f"{type(exc).__name__}: {exc}")
    return "\n".join(["Traceback (most recent call last):"] + out[-10:])


def _host_caller(call_fd: int, reply_fd: int) -> Any:
    """``pdftools.hosted`` calls as lines over the worker's two pipes."""
    from pdftools.errors import ToolUnavailableError

    replies = os.fdopen(reply_fd, "rb")

    def ask(name: str, payload: dict[str, Any]) -> Any:
        data = json.dumps({"name": name, "payload": payload}).encode() + b"\n"
        if len(data) > HOST_CALL_CAP:
            raise ToolUnavailableError(f"'{name}': too much text to send for it at once; choose fewer pages.")
        view = memoryview(data)
        while view:
            view = view[os.write(call_fd, view) :]
        reply = json.loads(replies.readline() or b'{"error": "the host did not answer"}')
        if "error" in reply:
            raise ToolUnavailableError(f"'{name}' could not be done: {reply['error']}")
        return reply.get("value")

    return ask


def _worker(request: dict[str, Any], result_fd: int, parent: int, host_fds: tuple[int, int] | None = None) -> None:
    from pdftools import hosted

    from . import guards
    from .api import PDFTools

    started = time.perf_counter()
    work = request["workdir"]
    limits = request["limits"]
    off = frozenset(request.get("layers_off") or ())  # only tests switch layers off (Sandbox.run's _layers_off)
    layers: dict[str, bool] = {}
    os.chdir(work)
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    layers["network_namespace"] = "network_namespace" not in off and guards.enter_network_namespace()
    readable = guards.read_roots(request["project"])
    enforce = None if "landlock" in off else guards.landlock(work, readable)
    uid = request.get("uid")
    layers.update(guards.set_limits(limits, uid, off))
    if uid is not None:
        guards.drop_privileges(uid, request["gid"])
    layers["user"] = uid is not None and os.getuid() == uid != 0
    layers["landlock"] = bool(enforce and enforce())
    guards.die_with_parent(parent)  # again: the change of user cleared it
    os.environ.clear()
    os.environ.update(request["env"])
    tempfile.tempdir = work

    tools = PDFTools(work)
    printed = io.StringIO()
    allowed = request["allowed_imports"]

    def guarded_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0):
        if level or name.split(".")[0] not in allowed:
            raise ImportError(f"Import of {name} is not allowed. Authorized imports are: {', '.join(allowed)}.")
        return __import__(name, globals, locals, fromlist, level)

    def printer(*args: Any, sep: str = " ", end: str = "\n", **_: Any) -> None:
        if printed.tell() < PRINT_CAP:
            printed.write(sep.join(str(a) for a in args) + end)

    violations: list[tuple[str, bool]] = []
    namespace = {
        "__builtins__": guards.safe_builtins(guarded_import, printer),
        "tools": tools,
        "FILES": dict(request["files"]),
    }
    watch = None
    if request.get("frames") is not None:  # a program over data: its tables, and a watch on what it computes
        from .dataframes import WATCH, Watch, unpack_frames

        namespace.update(unpack_frames(request["frames"]))
        watch = Watch()
        namespace[WATCH] = watch
    error = None
    try:
        compiled = compile(request["code"], "<program>", "exec")
    except SyntaxError as exc:
        compiled = None
        error = {"step": None, "type": "SyntaxError", "message": f"line {exc.lineno}: {exc.msg}", "traceback": ""}
    layers["audit_hook"] = "audit_hook" not in off
    if layers["audit_hook"]:
        guards.install_audit_hook(work, readable, [os.path.join(request["project"], "pdftools")], violations)
    setup_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    caller = _host_caller(*host_fds) if host_fds else None
    if compiled is not None:
        try:
            with hosted.hosting(caller) if caller else contextlib.nullcontext():
                exec(compiled, namespace)  # noqa: S102 (the sandboxed program)
        except BaseException as exc:  # noqa: BLE001 - everything the program raises is reported, nothing re-raised
            error = _describe(exc, tools, request, violations)
    exec_ms = (time.perf_counter() - started) * 1000
    direct = [message for message, by_program in violations if by_program]
    if error is None and direct:  # refused even though the program caught the exception
        error = {"step": None, "task": None, "type": "SandboxViolation", "message": direct[0], "traceback": ""}
    payload = {
        "report": tools.report(),
        "error": error,
        "printed": printed.getvalue()[:PRINT_CAP],
        "layers": layers,
        "blocked": [m for m, _ in violations][:20],
        "watched": watch.report() if watch is not None else None,
        "setup_ms": round(setup_ms, 1),
        "exec_ms": round(exec_ms, 1),
    }
    data = json.dumps(payload, default=str).encode()
    view = memoryview(data)
    while view:
        view = view[os.write(result_fd, view[:65536]) :]


def _describe(
    exc: BaseException, tools: Any, request: dict[str, Any], violations: list[tuple[str, bool]]
) -> dict[str, Any]:
    failed = tools.failure_of(exc)
    message = str(exc)
    kind = type(exc).__name__
    if isinstance(exc, MemoryError):
        message = f"the program used more than {request['limits']['memory_mb']} MB of memory and was stopped"
    elif isinstance(exc, RecursionError):
        message = "the program recursed too deeply (maximum recursion depth exceeded)"
    elif violations and (kind == "SandboxViolation" or not failed):
        kind, message = "SandboxViolation", violations[-1][0]
    elif isinstance(exc, OSError) and exc.errno == 27:  # EFBIG
        message = f"tried to write a file larger than {request['limits']['file_size_mb']} MB"
    return {
        "step": failed[0] if failed else None,
        "task": failed[1] if failed else None,
        "type": kind,
        "message": message,
        "traceback": _trim_traceback(exc, request["code"]),
    }


# ---- the serving process -------------------------------------------------------------------------
_warmed: list[bool] = []


def _warm_pandas() -> None:
    """pandas and its lazy imports, once per serving process (the first run over frames pays ~1 s)."""
    if not _warmed:
        from .dataframes import warm_pandas

        warm_pandas()
        _warmed.append(True)


def _tree_pids(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as handle:
                    ppid = int(handle.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def _kill_descendants() -> None:
    """Kill every process below this one (orphans re-parent here: we are a subreaper)."""
    me = os.getpid()
    for _ in range(50):
        pids = _tree_pids(me)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _reap()
        time.sleep(0.01)


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _dir_size(path: str, cap: int) -> int:
    total, todo = 0, [path]
    while todo and total <= cap:
        try:
            with os.scandir(todo.pop()) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        todo.append(entry.path)
                    total += max(entry.stat(follow_symlinks=False).st_blocks * 512, ENTRY_BYTES)
        except OSError:
            continue
    return total


def _answer_call(line: bytes, host: Any, reply_fd: int) -> None:
    """Pass one call of the worker to the host and its answer back (an error when no host is there)."""
    try:
        call = json.loads(line)
        reply = host(str(call["name"]), call.get("payload") or {}) if host else {"error": "no host answers calls"}
    except (ValueError, KeyError, TypeError) as exc:
        reply = {"error": f"a broken call: {exc}"}
    try:
        os.write(reply_fd, json.dumps(reply).encode() + b"\n")
    except OSError:
        pass  # the worker is gone


def _serve(request: dict[str, Any], host: Any = None) -> dict[str, Any]:
    limits = request["limits"]
    off = frozenset(request.get("layers_off") or ())  # tests only
    result_cap = float("inf") if "result_cap" in off else int(limits["result_mb"]) * 1024 * 1024
    preload_tools(request.get("tools") or [])
    if request.get("frames") is not None:
        _warm_pandas()
    read_fd, write_fd = os.pipe()
    call_r, call_w = os.pipe()  # the worker asks the host for model work (pdftools.hosted) …
    reply_r, reply_w = os.pipe()  # … and reads the answer here: the only way from the sandbox to a model
    me = os.getpid()
    pid = os.fork()
    if pid == 0:  # the worker
        code = 0
        try:
            from .guards import die_with_parent

            die_with_parent(me)  # its own session escapes our group: it must not outlive us
            for fd in (read_fd, call_r, reply_w):
                os.close(fd)
            os.setsid()
            _worker(request, write_fd, me, (call_w, reply_r))
        except BaseException:  # noqa: BLE001
            code = 70
        os._exit(code)
    for fd in (write_fd, call_w, reply_r):
        os.close(fd)
    calls = b""
    deadline = time.monotonic() + float(limits["timeout_seconds"])
    output_cap = int(limits["output_mb"]) * 1024 * 1024
    chunks: list[bytes] = []
    size, reason, status, usage, next_check = 0, None, None, None, 0.0
    while True:
        now = time.monotonic()
        if now >= deadline:
            reason = "timeout"
            break
        ready, _, _ = select.select([read_fd, call_r], [], [], min(0.05, deadline - now))
        if call_r in ready:
            chunk = os.read(call_r, 1 << 20)
            calls += chunk
            if len(calls) > HOST_CALL_CAP:
                reason = "result"
                break
            while b"\n" in calls:
                line, calls = calls.split(b"\n", 1)
                _answer_call(line, host, reply_w)
            if chunk:
                continue
        if read_fd in ready:
            chunk = os.read(read_fd, 1 << 20)
            if chunk:
                size += len(chunk)
                if size > result_cap:
                    reason = "result"
                    break
                chunks.append(chunk)
                continue
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            while True:  # whatever is still in the pipe
                ready, _, _ = select.select([read_fd], [], [], 0)
                chunk = os.read(read_fd, 1 << 20) if ready else b""
                if not chunk:
                    break
                chunks.append(chunk)
            break
        if now >= next_check and "output_limit" not in off:
            next_check = now + 0.25
            if _dir_size(request["workdir"], output_cap) > output_cap:
                reason = "output"
                break
    if reason is not None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        _, status, usage = os.wait4(pid, 0)
    for fd in (read_fd, call_r, reply_w):
        os.close(fd)
    _kill_descendants()
    payload = None
    if chunks and reason is None:
        try:
            payload = json.loads(b"".join(chunks))
        except ValueError:
            payload = None
    signum = os.WTERMSIG(status) if status is not None and os.WIFSIGNALED(status) else None
    exit_code = os.WEXITSTATUS(status) if status is not None and os.WIFEXITED(status) else None
    cpu = round(usage.ru_utime + usage.ru_stime, 2) if usage is not None else None
    return {"payload": payload, "reason": reason, "signal": signum, "exit_code": exit_code, "cpu_seconds": cpu}


def main() -> None:
    """Serve run requests from stdin until it closes.

    Arguments (after the project folder): ``lean`` or ``full``, then the pid of the process that started
    this one, which this one does not outlive (:func:`sandbox.guards.die_with_parent`)."""
    import ctypes

    from .guards import die_with_parent

    if sys.argv[-1].isdigit():
        die_with_parent(int(sys.argv[-1]))
    try:
        ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    preload(full="lean" not in sys.argv[1:])
    out = os.fdopen(os.dup(1), "w")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # stray library output must not corrupt the reply stream
    out.write(json.dumps({"ready": True, "pid": os.getpid()}) + "\n")
    out.flush()

    def host(name: str, payload: dict[str, Any]) -> dict[str, Any]:
        """A worker's call goes up to the runner, which answers it in the host process."""
        out.write(json.dumps({"host_call": name, "payload": payload}) + "\n")
        out.flush()
        line = sys.stdin.readline()
        return json.loads(line) if line.strip() else {"error": "the host is gone"}

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = _serve(json.loads(line), host)
        except Exception as exc:  # noqa: BLE001 - a broken request: report it, keep serving
            reply = {"payload": None, "reason": "internal", "message": f"{type(exc).__name__}: {exc}"}
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
