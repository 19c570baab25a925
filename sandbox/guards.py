"""The layers a worker process puts up before it runs an untrusted program.

Lowest first: no network (a new network namespace), resource limits, a
different user (``nobody``), a Landlock file-system and signal ruleset (where
the kernel has it), and an audit hook that refuses file access outside the
working folder, processes, sockets, ctypes and introspection from the program.
Each OS layer is tried and reported; the audit hook is always installed.
"""

from __future__ import annotations

import ctypes
import os
import resource
import shutil
import signal
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

__all__ = [
    "LAYERS",
    "SandboxViolation",
    "die_with_parent",
    "drop_privileges",
    "enter_network_namespace",
    "install_audit_hook",
    "landlock",
    "landlock_abi",
    "read_roots",
    "safe_builtins",
    "set_limits",
]

CLONE_NEWNET = 0x40000000
PR_SET_NO_NEW_PRIVS = 38
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
TRUSTED_BINARIES = frozenset({"tesseract", "qpdf", "gs"})
PROGRAM = "<program>"
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


# Every layer a run reports in ``RunResult.layers``; tests may switch any of them off (never production code).
LAYERS = (
    "network_namespace",  # a fresh network namespace: no interface up, so no connection anywhere
    "user",  # the worker runs as ``nobody`` (only when the host runs as root)
    "landlock",  # kernel file-system, TCP and signal rules (Linux 5.13+)
    "rlimit_cpu",
    "rlimit_memory",
    "rlimit_file_size",
    "rlimit_processes",  # RLIMIT_NPROC, which binds only a user other than root
    "audit_hook",  # refuses files outside the working folder, processes, sockets, ctypes and internals
    "output_limit",  # the serving process's watch on the working folder's size, and the host's final count
    "result_cap",  # the most the worker's report may be (printed text and answers included)
    "output_paths",  # the host accepts only single-link regular files inside the working folder as outputs
)


class SandboxViolation(PermissionError):
    """The program tried something the sandbox does not allow."""


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def enter_network_namespace() -> bool:
    """Move this process into a fresh network namespace (no interfaces up). Needs root."""
    try:
        if hasattr(os, "unshare"):
            os.unshare(CLONE_NEWNET)  # Python 3.12+
            return True
        return _libc().unshare(CLONE_NEWNET) == 0
    except (OSError, AttributeError):
        return False


def _count_tasks(uid: int) -> int:
    """Processes and threads now running as ``uid`` (RLIMIT_NPROC counts them all)."""
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", encoding="ascii", errors="replace") as handle:
                fields = dict(line.split(":", 1) for line in handle if ":" in line)
            if int(fields["Uid"].split()[0]) == uid:
                total += int(fields["Threads"])
        except (OSError, KeyError, ValueError):
            continue
    return total


def set_limits(limits: dict[str, Any], uid: int | None, off: frozenset[str] = frozenset()) -> dict[str, bool]:
    """CPU, address space, file size, open files, processes, no core dumps; returns the limit layers set.

    ``off``: limit layers left unset (tests only).
    """
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (int(limits["open_files"]),) * 2)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a too-big write fails with EFBIG instead of killing
    engaged = dict.fromkeys(("rlimit_cpu", "rlimit_memory", "rlimit_file_size", "rlimit_processes"), False)
    if "rlimit_cpu" not in off:
        cpu = int(limits["cpu_seconds"])
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
        engaged["rlimit_cpu"] = True
    if "rlimit_memory" not in off:
        memory = int(limits["memory_mb"]) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        engaged["rlimit_memory"] = True
    if "rlimit_file_size" not in off:
        size = int(limits["file_size_mb"]) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        engaged["rlimit_file_size"] = True
    if uid is not None and "rlimit_processes" not in off:  # root is exempt from RLIMIT_NPROC: only with a uid
        nproc = _count_tasks(uid) + int(limits["processes"])
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        engaged["rlimit_processes"] = True
    return engaged


def die_with_parent(parent: int) -> None:
    """Be killed (SIGKILL) by the kernel when ``parent``, the process that forked this one, ends in any way;
    exit at once when it has ended already (this process was re-parented before the call took effect).

    A change of user clears the setting (``commit_creds``), so a worker calls this again once its user has
    changed. The "parent" is the thread that forked: it must live as long as this process is used.
    """
    libc = _libc()
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:
        os._exit(1)


def drop_privileges(uid: int, gid: int) -> None:
    """Become ``uid``, and not dumpable: another process of that user (a run beside this one) may then not
    read this one's /proc entries (its working folder through /proc/PID/cwd, its memory) or trace it."""
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise RuntimeError("could not drop privileges")
    _libc().prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def read_roots(project: str) -> list[str]:
    """Folders a run may read besides its working folder: Python, libraries, fonts, OCR data.

    The trusted programs the tools run (qpdf, tesseract, gs) are readable and executable as
    single files, not their whole folder.
    """
    roots = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        os.path.join(project, "pdftools"),
        os.path.join(project, "sandbox"),
    }
    roots.update(p for p in sys.path if p and os.path.isdir(p) and p not in ("/", project))
    roots.update(str(p) for p in Path(project).glob("*.egg-info"))  # package metadata (entry points)
    roots.update(
        [
            "/usr/share/fonts",
            "/etc/fonts",
            "/usr/share/tesseract-ocr",
            "/usr/share/tessdata",
            "/usr/share/zoneinfo",
            "/usr/lib",
            "/usr/lib64",
            "/lib",
            "/lib64",
            "/usr/local/lib",
            "/var/cache/fontconfig",
        ]
    )
    if os.environ.get("TESSDATA_PREFIX"):
        roots.add(os.environ["TESSDATA_PREFIX"])
    roots.update(filter(None, (shutil.which(name, path="/usr/bin:/bin") for name in TRUSTED_BINARIES)))
    return sorted(os.path.realpath(r) for r in roots if os.path.exists(r))


# ---- Landlock (Linux 5.13+): file-system, TCP and signal rules enforced by the kernel ------------
_FS_READ = (1 << 0) | (1 << 2) | (1 << 3)  # execute, read file, read dir
_FS_FILE_RIGHTS = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 14) | (1 << 15)


def landlock_abi() -> int:
    """The kernel's Landlock ABI version; 0 when it has none (or it is turned off)."""
    abi = _libc().syscall(444, None, 0, 1)
    return max(0, abi)


def landlock(workdir: str, readable: Iterable[str]) -> Callable[[], bool] | None:
    """Prepare a ruleset (call as root, before dropping privileges); returns ``enforce()`` or None.

    ``enforce()`` (after dropping privileges) restricts this process and its children to:
    everything in ``workdir``, reading ``readable``, /dev/null; no TCP; no signals outside.
    """
    try:
        abi = landlock_abi()
        if not abi:
            return None
        libc = _libc()
        handled = (1 << 13) - 1
        if abi >= 2:
            handled |= 1 << 13  # refer
        if abi >= 3:
            handled |= 1 << 14  # truncate
        if abi >= 5:
            handled |= 1 << 15  # ioctl on devices
        fields = [handled]
        if abi >= 4:
            fields.append(0b11)  # bind and connect TCP: no rules, so never
        if abi >= 6:
            fields.append(0b11)  # abstract unix sockets and signals: only inside this domain
        attr = (ctypes.c_uint64 * len(fields))(*fields)
        ruleset = libc.syscall(444, ctypes.byref(attr), ctypes.sizeof(attr), 0)
        if ruleset < 0:
            return None

        class PathBeneath(ctypes.Structure):
            _pack_ = 1
            _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

        def allow(path: str, access: int) -> None:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                return
            try:
                if not os.path.isdir(path):
                    access &= _FS_FILE_RIGHTS
                rule = PathBeneath(access & handled, fd)
                libc.syscall(445, ruleset, 1, ctypes.byref(rule), 0)
            finally:
                os.close(fd)

        allow(workdir, handled)
        allow("/dev/null", (1 << 1) | (1 << 2) | (1 << 14))
        allow("/dev/urandom", 1 << 2)
        for root in readable:
            allow(root, _FS_READ)

        def enforce() -> bool:
            try:
                if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
                    return False
                return libc.syscall(446, ruleset, 0) == 0
            finally:
                os.close(ruleset)

        return enforce
    except (OSError, AttributeError, ValueError):
        return None


# ---- The audit hook --------------------------------------------------------------------------
_PROCESS_EVENTS = frozenset(
    {
        "subprocess.Popen",
        "os.system",
        "os.exec",
        "os.posix_spawn",
        "os.spawn",
        "os.fork",
        "os.forkpty",
        "os.startfile",
        "pty.spawn",
        "os.popen",
    }
)
_PROGRAM_ONLY_EVENTS = frozenset(
    {
        "object.__getattr__",
        "sys._getframe",
        "sys._current_frames",
        "exec",
        "compile",
        "code.__new__",
        "function.__new__",
        "builtins.input",
        "builtins.breakpoint",
        "marshal.loads",
        "marshal.load",
        "pickle.find_class",
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "sys.settrace",
        "sys.setprofile",
        "sys.addaudithook",
        "cpython._PySys_ClearAuditHooks",
    }
)
_PATH_EVENTS = {  # event -> indexes of path arguments that must stay inside the working folder
    "os.remove": (0,),
    "os.rmdir": (0,),
    "os.mkdir": (0,),
    "os.rename": (0, 1),
    "os.truncate": (0,),
    "os.chmod": (0,),
    "os.chown": (0,),
    "os.utime": (0,),
    "os.setxattr": (0,),
    "os.removexattr": (0,),
    "shutil.rmtree": (0,),
    "shutil.move": (0, 1),
    "shutil.copyfile": (1,),
    "shutil.copytree": (1,),
}
_LIST_EVENTS = frozenset({"os.listdir", "os.scandir", "glob.glob", "os.walk"})


def install_audit_hook(
    workdir: str, readable: Iterable[str], trusted_code: Iterable[str], violations: list[tuple[str, bool]]
) -> None:
    """Refuse, with a :class:`SandboxViolation`, what a program must not do.

    Each refusal is appended to ``violations`` as (message, raised directly by the program's own code).

    ``trusted_code``: folders whose code may start the fixed binaries (tesseract, qpdf, gs).
    """
    work = os.path.realpath(workdir)
    roots = tuple(os.path.realpath(r) for r in readable) + ("/dev/null", "/dev/urandom", "/proc/self")
    trusted = tuple(os.path.realpath(t) + os.sep for t in trusted_code)
    busy: list[int] = []
    getframe = sys._getframe
    realpath = os.path.realpath
    fspath = os.fsdecode

    def inside(path: str, places: tuple[str, ...]) -> bool:
        return any(path == p or path.startswith(p.rstrip(os.sep) + os.sep) for p in places)

    def resolve(value: Any) -> str | None:
        if isinstance(value, int) or value is None:
            return None
        try:
            return realpath(fspath(value))
        except (TypeError, ValueError):
            return None

    def refuse(message: str) -> None:
        violations.append((message, from_program(getframe(3))))
        raise SandboxViolation(message)

    def from_program(frame: Any) -> bool:
        while frame is not None:
            name = frame.f_code.co_filename
            if name == PROGRAM:
                return True
            if not name.startswith("<frozen"):
                return False
            frame = frame.f_back
        return False

    def from_trusted(frame: Any) -> bool:
        while frame is not None:
            if frame.f_code.co_filename.startswith(trusted):
                return True
            frame = frame.f_back
        return False

    def check(event: str, args: tuple[Any, ...], frame: Any) -> None:
        if event == "open":
            path = resolve(args[0])
            if path is None:
                return
            mode, flags = args[1], args[2] if len(args) > 2 else 0
            writing = bool((flags or 0) & WRITE_FLAGS) or (isinstance(mode, str) and any(c in mode for c in "wax+"))
            if writing:
                if not inside(path, (work, "/dev/null")):
                    refuse(f"tried to write {path}, outside its working folder")
            elif not inside(path, (work,) + roots):
                refuse(f"tried to read {path}, outside its working folder")
        elif event.startswith("socket."):
            refuse(f"tried to open a network connection ({event}); programs have no network access")
        elif event in _PROCESS_EVENTS or event.startswith(("os.exec", "os.spawn", "os.posix_spawn")):
            program = args[0] if args else ""
            if isinstance(program, (list, tuple)):
                program = program[0] if program else ""
            name = os.path.basename(fspath(program)) if isinstance(program, (str, bytes, os.PathLike)) else ""
            if (
                event in ("subprocess.Popen", "os.posix_spawn", "os.exec")
                and name in TRUSTED_BINARIES
                and from_trusted(frame)
                and not from_program(frame)
            ):
                return
            refuse(f"tried to start a process ({event}); programs may not run other programs")
        elif event in ("os.kill", "os.killpg", "signal.pthread_kill"):
            refuse("tried to send a signal to a process")
        elif event.startswith("ctypes."):
            refuse(f"tried to use ctypes ({event})")
        elif event in ("os.symlink", "os.link"):
            refuse(f"tried to create a link ({event})")
        elif event == "os.chdir":
            refuse("tried to change its working folder")
        elif event in ("resource.setrlimit", "resource.prlimit", "os.setuid", "os.setgid"):
            refuse(f"tried to change its limits ({event})")
        elif event in _PATH_EVENTS:
            for index in _PATH_EVENTS[event]:
                path = resolve(args[index]) if len(args) > index else None
                if path is not None and not inside(path, (work,)):
                    refuse(f"tried to change {path}, outside its working folder")
        elif event in _LIST_EVENTS:
            path = resolve(args[0]) if args else None
            if path is not None and not inside(path, (work,) + roots):
                refuse(f"tried to list {path}, outside its working folder")
        elif event == "import" and from_program(frame):
            refuse(f"tried to import {args[0]}, which is not allowed")
        elif event in _PROGRAM_ONLY_EVENTS and from_program(frame):
            what = f"{event} {args[1]}" if event == "object.__getattr__" and len(args) > 1 else event
            refuse(f"tried to use Python internals ({what})")

    def _audit(event: str, args: tuple[Any, ...]) -> None:
        if busy:
            return
        busy.append(1)
        try:
            check(event, args, getframe(1))
        finally:
            busy.clear()

    sys.addaudithook(_audit)


def safe_builtins(guarded_import: Callable[..., Any], printer: Callable[..., None]) -> dict[str, Any]:
    """The builtins a program gets: :data:`sandbox.checks.SAFE_BUILTINS`, a guarded import, a captured print."""
    import builtins

    from .checks import SAFE_BUILTINS

    table = {name: getattr(builtins, name) for name in SAFE_BUILTINS if hasattr(builtins, name)}
    table["print"] = printer
    table["__import__"] = guarded_import
    table["__build_class__"] = builtins.__build_class__
    table["__name__"] = "__main__"
    return table
