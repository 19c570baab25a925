"""Attacks the audit hook cannot see (or that a program past the hook would try), each stopped by a named layer.

Each attack runs with the static checks off, once with its layer up (stopped) and once with that layer off (it
gets through: the layer is what stops it). Where the hook cannot see the attack at all (``fork_exec``, ctypes
through pointers that already exist, C code opening files, ``str.format`` and ``string.Formatter``), the hook
stays on in the run that gets through, which shows it is blind to it.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pymupdf
import pytest
from layer_attacks import LIMITS, WALK, alone, landlock_scopes_signals, message, need, run

from sandbox import RunResult, Sandbox, check_program

TOKEN = uuid.uuid4().hex[:10]
SECRET_TEXT = f"OUTSIDE-{TOKEN}"


@pytest.fixture(scope="module")
def box() -> Iterator[Sandbox]:
    with Sandbox(lean=True) as sandbox:
        yield sandbox


@pytest.fixture
def secret(outside: Path) -> Path:
    """A file of this test's user that anyone may read but only it may change."""
    path = outside / "secret.txt"
    path.write_text(SECRET_TEXT)
    path.chmod(0o644)
    return path


@pytest.fixture
def c_pdf(tmp_path: Path) -> str:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "hello")
    doc.save(tmp_path / "c.pdf")
    return str(tmp_path / "c.pdf")


# ---- _posixsubprocess.fork_exec: no audit event; Landlock refuses to execute ----------------------
FORK_EXEC = (
    WALK
    + """
P = SYS.modules['_posixsubprocess']
r, w = OS['pipe']()
pid = P.fork_exec([b'/usr/bin/touch', TARGET], [b'/usr/bin/touch'], True, (w,), None, None,
                  -1, -1, -1, -1, -1, -1, r, w, True, False, -1, None, None, None, -1, None, False)
OS['close'](w)
failed = OS['read'](r, 200)
OS['waitpid'](pid, 0)
if failed:
    raise B.PermissionError(failed.decode())
print('ran')
"""
)


@pytest.mark.parametrize(
    "off", ["audit_hook", "landlock"], ids=["landlock-alone-stops-it", "hook-on-landlock-off-it-gets-through"]
)
def test_fork_exec_is_stopped_by_landlock(box: Sandbox, outside: Path, off: str) -> None:
    need("landlock")
    target = outside / f"pwned-{TOKEN}"
    code = FORK_EXEC.replace("TARGET", repr(str(target).encode()))
    layers_off = alone("landlock") if off == "audit_hook" else {"landlock"}
    with run(box, code, layers_off) as result:
        if off == "audit_hook":
            assert not result.ok and "OSError" in message(result) and not target.exists(), result.error
        else:
            assert result.layers["audit_hook"] is True
            assert result.ok and target.exists(), result.error  # the hook never saw it


# ---- ctypes through a function pointer that already exists: no audit event --------------------------
@pytest.fixture
def victim() -> Iterator[subprocess.Popen[bytes]]:
    """A process of this test's user (root here) for the attack to signal."""
    proc = subprocess.Popen(["sleep", "600"])
    yield proc
    proc.kill()
    proc.wait()


def _kill_offset() -> int:
    """Where libc's kill is from ctypes.memmove (the same library in the worker, so the same distance)."""
    libc = ctypes.CDLL(None)
    kill = ctypes.cast(libc.kill, ctypes.c_void_p).value
    memmove = ctypes.cast(ctypes.memmove, ctypes.c_void_p).value
    assert kill is not None and memmove is not None
    return kill - memmove


CTYPES_KILL = (
    WALK
    + """
C = SYS.modules['ctypes']
base = C.cast(C.memmove, C.c_void_p).value
kill = C.CFUNCTYPE(C.c_int, C.c_int, C.c_int)(base + OFFSET)
if kill(VICTIM, 15) != 0:
    raise B.PermissionError('kill was refused')
print('signalled')
"""
)


@pytest.mark.parametrize(
    "on",
    [("user",), ("landlock",), ()],
    ids=["nobody-alone-stops-it", "landlock-alone-stops-it", "hook-on-both-off-it-gets-through"],
)
def test_ctypes_from_a_prebuilt_pointer_cannot_signal_a_host_process(
    box: Sandbox, victim: subprocess.Popen[bytes], on: tuple[str, ...]
) -> None:
    need("user", "landlock")
    if on == ("landlock",) and not landlock_scopes_signals():
        pytest.skip("Landlock before ABI 6 does not scope signals")
    code = CTYPES_KILL.replace("OFFSET", str(_kill_offset())).replace("VICTIM", str(victim.pid))
    off = alone(*on) if on else {"user", "landlock"}
    with run(box, code, off) as result:
        if on:
            assert not result.ok and "kill was refused" in message(result), result.error
            assert victim.poll() is None
        else:
            assert result.layers["audit_hook"] is True
            assert result.ok and result.printed.strip() == "signalled", result.error
            assert victim.wait(timeout=30) == -15  # the wait only guards against a hang


# ---- /proc/self/mem and /proc/self/environ -------------------------------------------------------
PROC_MEM = (
    WALK
    + """
b = B.bytes([65]) * 8
fd = OS['open']('/proc/self/mem', OS['O_RDWR'])
OS['lseek'](fd, B.id(b) + 32, 0)
OS['write'](fd, b'BBBBBBBB')
print(b)
"""
)


@pytest.mark.parametrize(
    "on", [("landlock",), ("user",), ()], ids=["landlock-alone-stops-it", "nobody-alone-stops-it", "off-it-works"]
)
def test_proc_self_mem_cannot_rewrite_the_workers_memory(box: Sandbox, on: tuple[str, ...]) -> None:
    """Writing its own memory would undo the audit hook; the hook sees os.open, so it is off in every run.

    As nobody, the kernel makes the worker non-dumpable when it changes user, so /proc/self/mem is root's.
    """
    need(*on)
    with run(box, PROC_MEM, alone(*on)) as result:
        if on:
            assert not result.ok and "Permission denied" in message(result), result.error
        else:
            assert result.ok and result.printed.strip() == "b'BBBBBBBB'", result.error


PROC_ENVIRON = (
    WALK
    + """
M = SYS.modules['pymupdf'].mupdf
print(M.fz_buffer_extract(M.fz_read_file(PATH)).replace(B.bytes(1), b' ').decode())
"""
)


@pytest.fixture
def host_process() -> Iterator[subprocess.Popen[bytes]]:
    """A process of this test's user whose environment holds a secret (as the app's holds an API key)."""
    proc = subprocess.Popen(["sleep", "600"], env={"OPENAI_API_KEY": SECRET_TEXT})
    yield proc
    proc.kill()
    proc.wait()


@pytest.mark.parametrize("on", [("landlock",), ()], ids=["landlock-alone-stops-it", "hook-on-landlock-off-it-reads"])
def test_c_code_cannot_read_proc_environ(
    box: Sandbox, host_process: subprocess.Popen[bytes], on: tuple[str, ...]
) -> None:
    """MuPDF reads /proc/self/environ and a host process's /proc/PID/environ in C, where no audit hook looks."""
    need("landlock")
    for path, expect in (
        ("/proc/self/environ", "PATH=/usr/bin:/bin"),
        (f"/proc/{host_process.pid}/environ", SECRET_TEXT),
    ):
        off = alone("landlock") if on else {"landlock", "user"}
        with run(box, PROC_ENVIRON.replace("PATH", repr(path)), off) as result:
            if on:
                assert not result.ok and expect not in result.to_json(), result.error
            else:
                assert result.layers["audit_hook"] is True
                assert result.ok and expect in result.printed, result.error


# ---- hard links ------------------------------------------------------------------------------------
HARD_LINK = WALK + "OS['link'](SECRET, 'x.txt')\nprint(B.open('x.txt').read())"


@pytest.mark.parametrize(
    "on", [("user",), ("landlock",), ()], ids=["nobody-alone-stops-it", "landlock-alone-stops-it", "off-it-works"]
)
def test_a_hard_link_to_a_file_outside_is_refused(box: Sandbox, secret: Path, on: tuple[str, ...]) -> None:
    """os.link raises an audit event, so the hook is off. nobody: the kernel's protected_hardlinks; Landlock:
    linking from a folder outside its rules."""
    need(*on)
    with run(box, HARD_LINK.replace("SECRET", repr(str(secret))), alone(*on)) as result:
        if on:
            assert not result.ok and SECRET_TEXT not in result.to_json(), result.error
        else:
            assert result.ok and SECRET_TEXT in result.printed, result.error


# ---- outputs handed back to the host -------------------------------------------------------------
FORGED = {
    "symlink": "OS['symlink'](SECRET, 'leak.txt')\ntools._outputs.append(OS['getcwd']() + '/leak.txt')",
    "folder_symlink": "OS['symlink'](DIR, 'd')\ntools._outputs.append(OS['getcwd']() + '/d/' + NAME)",
    "forged_path": "tools._outputs.append(SECRET)",
    "hard_link": "OS['link'](SECRET, 'leak.txt')\ntools._outputs.append(OS['getcwd']() + '/leak.txt')",
}


@pytest.mark.parametrize("layer_on", [True, False], ids=["host-check-stops-it", "host-check-off-it-is-delivered"])
@pytest.mark.parametrize("how", list(FORGED))
def test_an_output_outside_the_working_folder_is_refused(box: Sandbox, secret: Path, how: str, layer_on: bool) -> None:
    """The program reports a path of its choosing as an output; the host delivers only single-link regular
    files inside the working folder. (The hard link needs the worker as root and without Landlock.)"""
    code = WALK + (
        FORGED[how]
        .replace("SECRET", repr(str(secret)))
        .replace("DIR", repr(str(secret.parent)))
        .replace("NAME", repr(secret.name))
    )
    off = {"audit_hook"}
    if how == "hard_link":
        off |= {"user", "landlock"}
    if not layer_on:
        off.add("output_paths")
    with run(box, code, off) as result:
        if layer_on:
            assert result.layers["output_paths"] is True
            assert not result.ok and "outside its working folder" in message(result), result.error
            assert not result.outputs
        else:
            assert result.ok and result.outputs, result.error
            assert Path(result.outputs[0]).read_text() == SECRET_TEXT


# ---- a previous run's folder ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "on", [("landlock",), ("user",), ()], ids=["landlock-alone-stops-it", "nobody-alone-stops-it", "off-it-works"]
)
def test_a_run_cannot_touch_a_previous_runs_results(box: Sandbox, c_pdf: str, on: tuple[str, ...]) -> None:
    """Both runs are nobody. The host gives a finished run's folder back to root (0700) before it reads the
    results, so the user layer holds even without Landlock."""
    need(*on)
    with box.run("tools.duplicate(file=FILES['c.pdf'], output='result.pdf')", {"c.pdf": c_pdf}) as first:
        assert first.ok, first.error
        earlier = first.outputs[0]
        before = Path(earlier).read_bytes()
        code = (
            WALK + f"B.open({earlier!r}, 'wb').write(b'tampered')\nprint(OS['listdir']({os.path.dirname(earlier)!r}))"
        )
        with run(box, code, alone(*on)) as second:
            if on:
                assert not second.ok and "Permission denied" in message(second), second.error
                assert Path(earlier).read_bytes() == before
            else:
                assert second.ok and Path(earlier).read_bytes() == b"tampered", second.error


# ---- disk fill with many small files ---------------------------------------------------------------
@pytest.mark.parametrize("layer_on", [True, False], ids=["output-limit-stops-it", "output-limit-off-it-fills"])
def test_many_empty_files_count_against_the_output_limit(box: Sandbox, layer_on: bool) -> None:
    """Empty files and folders take no blocks but do take inodes: each entry counts at least 4 KB."""
    limits = replace(LIMITS, output_mb=1)
    code = WALK + "for i in range(1500):\n    B.open(f'f{i}', 'w').close()\n    OS['mkdir'](f'd{i}')\nprint('made')"
    with run(box, code, set() if layer_on else {"output_limit"}, limits=limits) as result:
        if layer_on:
            assert not result.ok and "more than 1 MB" in message(result), result.error
        else:
            assert result.ok and "made" in result.printed, result.error
            assert len(os.listdir(result.workdir or "")) == 3000


# ---- oversized printed output and results ----------------------------------------------------------
BIG = 3 << 20  # over the 2 MB result limit set below (32 MB by default)
OVERSIZED = {
    "printed": f"SYS.modules['sandbox.child'].PRINT_CAP = 1 << 40\nprint('x' * {BIG})",
    "answers": f"tools._answers.append({{'step': 1, 'task': 'count_pages', 'value': 'y' * {BIG}}})",
}


@pytest.mark.parametrize("layer_on", [True, False], ids=["result-cap-stops-it", "result-cap-off-it-arrives"])
@pytest.mark.parametrize("what", list(OVERSIZED))
def test_oversized_printed_text_and_results_are_refused(box: Sandbox, what: str, layer_on: bool) -> None:
    """The program lifts the worker's own print cap (it is the program's memory); the serving process, which
    the program cannot reach, caps what it reads from the worker. The audit hook stays on: it sees none of it."""
    code = WALK + OVERSIZED[what]
    with run(box, code, set() if layer_on else {"result_cap"}, limits=replace(LIMITS, result_mb=2)) as result:
        if layer_on:
            assert not result.ok and "too large" in message(result), result.error
            assert len(result.to_json()) < 1 << 20
        else:
            assert result.ok, result.error
            assert len(result.printed if what == "printed" else result.answers[0]["value"]) >= BIG


def test_printed_text_is_capped_in_the_worker(box: Sandbox) -> None:
    with box.run("for i in range(100):\n    print('x' * 100000)", {}) as result:
        assert result.ok and len(result.printed) == 64 * 1024


# ---- str.format and string.Formatter: attribute access the static checks and the hook do not see ----
FORMATTER = """
import string
F = string.Formatter()
u = '_' * 2
def attr(obj, name):
    return F.get_field('0.' + name, (obj,), {})[0]
base = attr(attr((), u + 'class' + u), u + 'mro' + u)[1]
for c in attr(base, u + 'subclasses' + u)():
    if c.__name__ == '_wrap_close':
        g = attr(attr(c, u + 'init' + u), u + 'globals' + u)
g['system']('touch TARGET')
"""


def test_format_strings_reading_private_attributes_are_refused_statically() -> None:
    for code in ('x = "{0.__class__.__mro__}".format(1)', "import string\nF = string.Formatter()"):
        assert check_program(code), code


@pytest.mark.parametrize(
    "on", [("audit_hook",), ("landlock",), ()], ids=["hook-alone-stops-it", "landlock-alone-stops-it", "off-it-runs"]
)
def test_formatter_get_field_reaches_os_but_cannot_start_a_process(
    box: Sandbox, outside: Path, on: tuple[str, ...]
) -> None:
    """string.Formatter().get_field is getattr by another name; with it a program reaches os.system."""
    need(*(layer for layer in on if layer != "audit_hook"))
    target = outside / f"pwned-{TOKEN}"
    code = FORMATTER.replace("TARGET", str(target))
    with run(box, code, alone(*on)) as result:
        if on:
            assert not target.exists(), result.printed
            if on == ("audit_hook",):
                assert not result.ok and "start a process" in message(result), result.error
        else:
            assert result.ok and target.exists(), result.error


# ---- a run going on at the same time ---------------------------------------------------------------
WAITER = (
    WALK
    + """
cwd = OS['getcwd']()
B.open(STARTED, 'w').write(OS['path'].dirname(cwd))
while not OS['path'].exists(DONE) and not OS['path'].exists('owned'):
    pass
print('owned' if OS['path'].exists('owned') else 'untouched')
"""
)

INTRUDER = (
    WALK
    + """
base = B.open(STARTED).read()
names = ['work']
try:
    names = [n for n in OS['listdir'](base) if OS['path'].isdir(base + '/' + n)]  # not the folder's lock
except B.OSError:
    for pid in OS['listdir']('/proc'):  # the worker's working folder through /proc/PID/cwd
        try:
            cwd = OS['readlink']('/proc/' + pid + '/cwd')
        except B.OSError:
            continue
        if cwd.startswith(base + '/'):
            names = [OS['path'].basename(cwd)]
for name in names:
    B.open(base + '/' + name + '/owned', 'w').write('intruder')
print('wrote into', names)
"""
)


@pytest.mark.parametrize(
    "on", [("landlock",), ("user",), ()], ids=["landlock-alone-stops-it", "nobody-alone-stops-it", "off-it-works"]
)
def test_a_run_cannot_find_or_change_a_run_going_on_beside_it(outside: Path, on: tuple[str, ...]) -> None:
    """Two sandboxes (two users of one machine), both runs nobody. The first tells where its run folder is
    (anyone may list /tmp); the second must not list it, find the working folder through /proc/PID/cwd, or
    write into it. Landlock closes /tmp and /proc; without it, the working folder's name is unguessable, the
    folder above may not be listed and a worker is not dumpable (its /proc entries are root's)."""
    need(*on)
    started, done = outside / "started", outside / "done"
    waiter = WAITER.replace("STARTED", repr(str(started))).replace("DONE", repr(str(done)))
    intruder = INTRUDER.replace("STARTED", repr(str(started)))
    waiting: dict[str, RunResult] = {}
    with Sandbox(lean=True) as first, Sandbox(lean=True) as second:
        first.start()
        second.start()
        thread = threading.Thread(
            target=lambda: waiting.update(
                result=run(first, waiter, alone("user"), limits=replace(LIMITS, cpu_seconds=60))
            )
        )
        thread.start()
        try:
            for _ in range(600):  # until the first run is under way (it writes `started`); a bound, not a timing
                if started.exists() and started.read_text():
                    break
                time.sleep(0.1)
            with run(second, intruder, alone(*on)) as result:
                intruded = result.ok
        finally:
            done.touch()
            thread.join()
        with waiting["result"] as first_result:
            assert first_result.ok, first_result.error
            if on:
                assert not intruded and first_result.printed.strip() == "untouched", result.error
            else:
                assert intruded and first_result.printed.strip() == "owned", result.error
