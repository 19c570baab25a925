"""Hostile programs: refused by the static checks, and — with those bypassed — stopped by the runtime layers alone.

Every program runs twice. With static checks it must be refused (statically or at run time) with a clear
error. With static checks off, the child's guards (restricted builtins, audit hook, nobody user, Landlock,
network namespace, rlimits, the parent's timeout and output watch) must stop it, and the host must be
unharmed: secrets unread, no file written outside the working folder, the test process alive, quickly.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pymupdf
import pytest

from sandbox import Limits, Sandbox

TOKEN = uuid.uuid4().hex[:10]
SECRET_TEXT = f"TOPSECRET-{TOKEN}"
SECRET = Path(f"/tmp/docpilot-secret-{TOKEN}.txt")  # world-readable, beside the working folders
SECRET_PDF = Path(f"/tmp/docpilot-secret-{TOKEN}.pdf")
PWNED = f"/tmp/docpilot-pwned-{TOKEN}"
LIMITS = Limits(timeout_seconds=8, cpu_seconds=3, memory_mb=1536, file_size_mb=10, output_mb=20)

# Reaches os, sys, builtins and importlib without importing anything (what a static-check bypass allows).
WALK = """
def _os():
    for c in ().__class__.__mro__[1].__subclasses__():
        if c.__name__ == "_wrap_close":
            return c.__init__.__globals__
OS = _os()
SYS = OS["sys"]
B = SYS.modules["builtins"]
IMP = SYS.modules["importlib"]
"""


@dataclass(frozen=True)
class Case:
    name: str
    code: str
    expect: str = r"."  # regex the error message must match when static checks are off
    may_succeed: bool = False  # allowed to finish (then it must simply leak nothing)


CASES = [
    Case("read_passwd_open", "print(open('/etc/passwd').read())", r"open"),
    Case("read_passwd_walk", WALK + "print(B.open('/etc/passwd').read())", r"tried to read /etc/passwd"),
    Case(
        "read_passwd_os_open",
        WALK + "fd = OS['open']('/etc/passwd', 0)\nprint(OS['read'](fd, 1000))",
        r"tried to read /etc/passwd",
    ),
    Case("read_secret_absolute", WALK + f"print(B.open('{SECRET}').read())", r"tried to read .*secret"),
    Case("read_secret_dotdot", WALK + f"print(B.open('../../{SECRET.name}').read())", r"tried to read .*secret"),
    Case("read_secret_via_tool", f"print(tools.extract_text(file='{SECRET_PDF}'))", r"outside the working folder"),
    Case(
        "read_secret_via_tool_dotdot",
        f"print(tools.count_pages(file='../../{SECRET_PDF.name}'))",
        r"outside the working folder",
    ),
    Case(
        "read_secret_pdf_in_c_code",
        WALK + f"d = SYS.modules['pymupdf'].open('{SECRET_PDF}')\nprint(d[0].get_text())",
        r"(?i)cannot open|permission|denied|failed|no such",
    ),
    Case("read_proc_self_root", WALK + "print(B.open('/proc/self/root/etc/passwd').read())", r"tried to read"),
    Case("write_tmp", WALK + f"B.open('{PWNED}', 'w').write('x')", r"tried to write"),
    Case("write_dotdot", WALK + f"B.open('../../{Path(PWNED).name}', 'w').write('x')", r"tried to write"),
    Case(
        "write_via_tool_output",
        f"tools.duplicate(file=FILES['c.pdf'], output='../../{Path(PWNED).name}')",
        r"plain file name",
    ),
    Case("overwrite_input_copy", WALK + "B.open(FILES['c.pdf'], 'wb').write(b'gone')", r"(?i)permission|denied"),
    Case(
        "socket_connect",
        WALK + "s = IMP.import_module('socket').socket()\ns.connect(('127.0.0.1', 22))",
        r"network|Permission|denied|No module named",
    ),
    Case(
        "urllib_request",
        WALK + "IMP.import_module('urllib.request').urlopen('http://127.0.0.1:9/')",
        r"network|Permission|denied|import|No module named",
    ),
    Case(
        "subprocess_run",
        WALK + f"IMP.import_module('subprocess').run(['touch', '{PWNED}'])",
        r"start a process|Permission|denied|No module named",
    ),
    Case("os_system", WALK + f"OS['system']('touch {PWNED}')", r"start a process"),
    Case("os_popen", WALK + "print(OS['popen']('id').read())", r"start a process"),
    Case("os_fork", WALK + "pid = OS['fork']()", r"start a process"),
    Case("os_execv", WALK + "OS['execv']('/bin/sh', ['sh', '-c', 'id'])", r"start a process"),
    Case(
        "pty_spawn",
        WALK + "IMP.import_module('pty').spawn('/bin/sh')",
        r"start a process|Permission|denied|No module named",
    ),
    Case("fork_bomb", WALK + "while True:\n    OS['fork']()", r"start a process"),
    Case(
        "environment_secret",
        WALK + "print(dict(OS['environ']))\nprint(OS['getenv']('OPENAI_API_KEY'))",
        may_succeed=True,
    ),
    Case("dunder_import", "os = __import__('os')\nos.system('id')", r"Import of os is not allowed"),
    Case(
        "importlib_import_module",
        "import importlib\nimportlib.import_module('os').system('id')",
        r"Import of importlib is not allowed",
    ),
    Case("getattr_builtins_import", "getattr(__builtins__, '__import__')('os')", r"getattr"),
    Case("subclasses_walk_system", WALK + f"OS['system']('touch {PWNED}')", r"start a process"),
    Case("globals_builtins", "globals()['__builtins__']['__import__']('os')", r"globals"),
    Case("type_subclasses", "print(type(1).__subclasses__())", r"type"),
    Case(
        "lambda_globals",
        "b = (lambda: 0).__globals__['__builtins__']\nb['__import__']('os').system('id')",
        r"Import of os is not allowed",
    ),
    Case("tools_class_globals", "g = tools.__class__._call.__globals__\ng['os'].system('id')", r"start a process"),
    Case(
        "tools_private_workdir",
        "tools._workdir = '/'\nprint(tools.extract_text(file='/etc/passwd'))",
        r"tried to read /etc/passwd|outside",
    ),
    Case(
        "ctypes_libc",
        WALK + "IMP.import_module('ctypes').CDLL(None).system(b'id')",
        r"ctypes|Permission|No module named",
    ),
    Case("memory_bomb_string", "x = 'x' * 10**11", r"memory"),
    Case("memory_bomb_list", "x = [0] * 10**10", r"memory"),
    Case("memory_growing_list", "a = []\nwhile True:\n    a.append(' ' * 10**7)", r"memory|killed"),
    Case("infinite_loop", "while True:\n    pass", r"CPU time|longer than"),
    Case("cpu_burn", "print(sum(i * i for i in range(10**12)))", r"CPU time|longer than"),
    Case(
        "giant_output_via_tool",
        "for i in range(100000):\n    tools.duplicate(file=FILES['big.pdf'], output=f'copy{i}.pdf')",
        r"more than 20 MB|larger than",
    ),
    Case(
        "giant_file_direct",
        WALK + "f = B.open('big.bin', 'wb')\nwhile True:\n    f.write(b'x' * 10**6)",
        r"larger than 10 MB|more than 20 MB",
    ),
    Case("deep_recursion", "def f(n):\n    return f(n + 1)\nf(0)", r"recursed too deeply"),
    Case("kill_parent", WALK + "OS['kill'](OS['getppid'](), 9)", r"signal"),
    Case("kill_everything", WALK + "OS['kill'](-1, 9)", r"signal"),
    Case("change_cwd", WALK + "OS['chdir']('/')\nprint(B.open('etc/passwd').read())", r"working folder"),
    Case(
        "symlink_passwd",
        WALK + "OS['symlink']('/etc/passwd', 'x.pdf')\nprint(tools.extract_text(file='x.pdf'))",
        r"create a link",
    ),
    Case("frame_walk", WALK + "f = SYS._getframe(0)\nprint(f.f_back.f_globals.keys())", r"internals"),
    Case("gc_objects", WALK + "print(len(IMP.import_module('gc').get_objects()))", r"internals|import|No module named"),
    Case("exec_via_builtins", WALK + "B.exec('import os; os.system(\"id\")')", r"internals"),
]


@pytest.fixture(scope="module")
def box() -> Iterator[Sandbox]:
    os.environ["OPENAI_API_KEY"] = "sk-secret-" + TOKEN
    SECRET.write_text(SECRET_TEXT)
    SECRET.chmod(0o644)
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), SECRET_TEXT)
    doc.save(SECRET_PDF)
    SECRET_PDF.chmod(0o644)
    try:
        with Sandbox() as sandbox:
            yield sandbox
    finally:
        os.environ.pop("OPENAI_API_KEY", None)
        SECRET.unlink(missing_ok=True)
        SECRET_PDF.unlink(missing_ok=True)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("hostile-inputs")
    small = pymupdf.open()
    small.new_page().insert_text((72, 72), "hello")
    small.save(folder / "c.pdf")
    big = pymupdf.open()  # ~1.5 MB of incompressible image data, so copies fill the output limit fast
    page = big.new_page()
    page.insert_image(page.rect, stream=_noise_png(), keep_proportion=False)
    big.save(folder / "big.pdf", deflate=False)
    return {"c.pdf": str(folder / "c.pdf"), "big.pdf": str(folder / "big.pdf")}


def _noise_png() -> bytes:
    pix = pymupdf.Pixmap(pymupdf.csRGB, 700, 700, os.urandom(700 * 700 * 3), False)
    return pix.tobytes("png")


def _by_the_program(names: set[str]) -> set[str]:
    """New names in /tmp the sandboxed program may have made. Run as root, the program runs as another user, so
    files owned by this user come from other processes on the machine (a parallel test run), not from it."""
    if os.getuid() != 0:
        return names
    mine = set()
    for name in names:
        with contextlib.suppress(OSError):
            if os.lstat(os.path.join("/tmp", name)).st_uid == 0:
                mine.add(name)
    return names - mine


def _sha(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.mark.parametrize("static_checks", [True, False], ids=["static", "runtime-only"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_program_is_stopped(box: Sandbox, inputs: dict[str, str], case: Case, static_checks: bool) -> None:
    hashes = {name: _sha(path) for name, path in inputs.items()}
    outside_before = set(os.listdir("/tmp"))
    result = box.run(case.code, inputs, limits=LIMITS, static_checks=static_checks)
    try:
        dumped = result.to_json()
        # the host is unharmed: nothing secret came back, nothing was written outside, inputs unchanged
        assert SECRET_TEXT not in dumped and "sk-secret" not in dumped
        assert "root:x:0:0" not in dumped
        assert not os.path.exists(PWNED)
        assert not any(Path(PWNED).name in name for name in os.listdir("/tmp"))
        assert {name: _sha(path) for name, path in inputs.items()} == hashes
        assert SECRET.read_text() == SECRET_TEXT
        if result.workdir:
            created = set(os.listdir("/tmp")) - outside_before - {os.path.basename(os.path.dirname(result.workdir))}
            assert not _by_the_program(created), f"created outside the working folder: {created}"
        if case.may_succeed and result.ok:
            return
        assert not result.ok, f"{case.name} was not stopped: {result.steps} {result.printed[:300]}"
        message = result.error["message"]
        assert message and len(message) < 2000
        if static_checks:
            if result.error["type"] == "StaticCheckError":
                assert "not allowed" in message or "is not a tool" in message or "no tool" in message
        else:
            assert re.search(case.expect, message), f"{case.name}: unexpected error {result.error}"
            assert result.stats["seconds"] < LIMITS.timeout_seconds + 5
    finally:
        result.cleanup()


def test_sandbox_still_serves_after_the_hostile_suite(box: Sandbox, inputs: dict[str, str]) -> None:
    with box.run("n = tools.count_pages(file=FILES['c.pdf'])", inputs, limits=LIMITS) as result:
        assert result.ok and result.answers[0]["value"] == 1


@pytest.mark.skipif(os.geteuid() != 0, reason="privilege drop, Landlock and netns are set up only as root")
def test_runtime_layers_reported(box: Sandbox, inputs: dict[str, str]) -> None:
    with box.run("x = 1", inputs, limits=LIMITS) as result:
        assert result.layers["user"] is True
        assert result.layers["network_namespace"] is True
