"""The sandbox runs compiled-style programs over real PDFs and reports outputs, answers, steps and errors."""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pymupdf
import pytest

from pdftools.masking import MASK
from sandbox import Limits, RunResult, Sandbox, check_program, run_program
from sandbox.checks import ALLOWED_IMPORTS

COMPILED = """
contract = FILES["contract.pdf"]
redacted = tools.run(1, "redact_text", file=contract, terms=["VoltGuard"])
deck = tools.run(2, "convert_to_pptx", file=redacted)
n = tools.run(3, "count_pages", file=redacted)
"""


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox() as box:
        yield box


@pytest.fixture
def contract(make_pdf: Callable[..., str]) -> str:
    return make_pdf(
        ["Agreement with VoltGuard Inc.\nSigned 2024-01-02", "VoltGuard pays 100 EUR.", "End."], name="contract.pdf"
    )


def _sha(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_compiled_program_produces_outputs_answers_and_steps(sandbox: Sandbox, contract: str) -> None:
    before = _sha(contract)
    with sandbox.run(COMPILED, {"contract.pdf": contract}) as result:
        assert result.ok, result.error
        names = [os.path.basename(p) for p in result.outputs]
        assert names == ["contract_redacted.pdf", "contract_redacted.pptx"]
        assert all(p.startswith(result.workdir + os.sep) and os.path.isfile(p) for p in result.outputs)
        with pymupdf.open(result.outputs[0]) as doc:
            text = " ".join(page.get_text() for page in doc)
        assert "VoltGuard" not in text and "Agreement" in text
        from pptx import Presentation

        assert len(Presentation(result.outputs[1]).slides) == 3
        assert result.answers == [{"step": 3, "task": "count_pages", "value": 3}]
        assert [(s["id"], s["task"], s["ok"]) for s in result.steps] == [
            (1, "redact_text", True),
            (2, "convert_to_pptx", True),
            (3, "count_pages", True),
        ]
        assert result.steps[0]["args"] == {"file": "contract.pdf", "terms": ["VoltGuard"]}
        assert result.steps[0]["changed"] == {"pages": [3, 3], "annotations": [0, 0]}
        assert result.steps[0]["seconds"] >= 0
        assert result.stats["overhead_ms"] is not None
        workdir = result.workdir
        assert _sha(os.path.join(workdir, "contract.pdf")) == before
    assert not os.path.exists(workdir)  # the context manager removed the working folder
    assert _sha(contract) == before


def test_llm_style_program_with_loops_imports_and_print(sandbox: Sandbox, contract: str) -> None:
    code = """
import re, json
from collections import Counter
doc = FILES["contract.pdf"]
found = tools.search_text(file=doc, terms=["VoltGuard"])
pages = sorted(set(m["page"] for m in found["matches"]))
out = doc
for p in pages:
    out = tools.highlight_text(file=out, terms=["VoltGuard"], pages=str(p))
print("highlighted", len(pages), json.dumps(pages))
"""
    with sandbox.run(code, {"contract.pdf": contract}) as result:
        assert result.ok, result.error
        assert [s["id"] for s in result.steps] == [1, 2, 3]
        assert result.answers[0]["task"] == "search_text"
        assert result.printed.strip() == "highlighted 2 [1, 2]"
        assert result.steps[-1]["changed"]["annotations"] == [1, 2]
        assert len(result.outputs) == 2


def test_tool_error_is_reported_with_step_and_message(sandbox: Sandbox, contract: str) -> None:
    code = (
        'x = tools.run(1, "count_pages", file=FILES["contract.pdf"])\n'
        'y = tools.run(2, "extract_pages", file=FILES["contract.pdf"], pages="7")\n'
    )
    with sandbox.run(code, {"contract.pdf": contract}) as result:
        assert not result.ok
        assert result.error["step"] == 2 and result.error["task"] == "extract_pages"
        assert result.error["type"] == "PageRangeError"
        assert "7" in result.error["message"] and "3" in result.error["message"]
        assert "line 2" in result.error["traceback"] and "extract_pages" in result.error["traceback"]
        assert result.answers == [{"step": 1, "task": "count_pages", "value": 3}]
        assert result.steps[-1]["ok"] is False


def test_argument_errors_and_paths_outside_are_refused(sandbox: Sandbox, contract: str) -> None:
    with sandbox.run('tools.count_pages(file=FILES["contract.pdf"], bogus=1)', {"contract.pdf": contract}) as r:
        assert r.error["type"] == "ToolArgumentError" and "bogus" in r.error["message"]
    with sandbox.run('tools.count_pages(file="../../etc/passwd")', {"contract.pdf": contract}) as r:
        assert "outside the working folder" in r.error["message"]
    with sandbox.run(
        'tools.duplicate(file=FILES["contract.pdf"], output="/tmp/x.pdf")', {"contract.pdf": contract}
    ) as r:
        assert not r.ok and "plain file name" in r.error["message"]


def test_passwords_are_masked_in_step_records(sandbox: Sandbox, contract: str) -> None:
    code = (
        'p = tools.add_password(file=FILES["contract.pdf"], password="hunter2")\n'
        'n = tools.count_pages(file=p, password="hunter2")\n'
    )
    with sandbox.run(code, {"contract.pdf": contract}) as result:
        assert result.ok, result.error
        assert "hunter2" not in result.to_json()
        assert result.steps[0]["args"]["password"] == MASK


def test_odd_input_names_work(sandbox: Sandbox, make_pdf: Callable[..., str]) -> None:
    odd = make_pdf(["Odd name"], name="my file (1) $x;.pdf")
    code = (
        'n = tools.count_pages(file=FILES["my file (1) $x;.pdf"])\n'
        'd = tools.duplicate(file=FILES["my file (1) $x;.pdf"])'
    )
    with sandbox.run(code, {"my file (1) $x;.pdf": odd, "../sneaky/name.pdf": odd}) as result:
        assert result.ok, result.error
        assert result.files == {"my file (1) $x;.pdf": "my file (1) $x;.pdf", "../sneaky/name.pdf": "name.pdf"}
        assert result.answers[0]["value"] == 1
        assert os.path.dirname(result.outputs[0]) == result.workdir


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf is not installed")
def test_tools_may_run_qpdf_inside(sandbox: Sandbox, contract: str) -> None:
    """extract_pages runs qpdf (a trusted program) in the sandbox rather than falling back to PyMuPDF."""
    with sandbox.run(
        'x = tools.run(1, "extract_pages", file=FILES["c.pdf"], pages="3,1")', {"c.pdf": contract}
    ) as result:
        assert result.ok, result.error
        data = Path(result.outputs[0]).read_bytes()
        assert data.startswith(b"%PDF-") and b"%\xbf\xf7\xa2\xfe" in data[:20]  # qpdf's header line
        with pymupdf.open(result.outputs[0]) as doc:
            assert [page.get_text().split()[0] for page in doc] == ["End.", "Agreement"]


def test_run_program_without_a_warm_sandbox(contract: str) -> None:
    with run_program('n = tools.count_pages(file=FILES["c.pdf"])', {"c.pdf": contract}) as result:
        assert result.ok and result.answers[0]["value"] == 3


@pytest.mark.skipif(os.geteuid() != 0, reason="privilege drop and network namespace need root")
def test_layers_are_up_when_root(sandbox: Sandbox, contract: str) -> None:
    with sandbox.run("x = 1", {"c.pdf": contract}) as result:
        assert result.layers["user"] and result.layers["network_namespace"]


def test_overhead_of_a_trivial_program(sandbox: Sandbox, contract: str) -> None:
    sandbox.run("x = 1", {}).cleanup()  # warm
    times = []
    for _ in range(5):
        started = time.perf_counter()
        with sandbox.run("x = 1", {"c.pdf": contract}) as result:
            assert result.ok
        times.append((time.perf_counter() - started) * 1000)
    best = min(times)
    print(f"sandbox overhead per run (warm): best {best:.1f} ms, median {sorted(times)[2]:.1f} ms")
    assert best <= 250, f"sandbox overhead {best:.0f} ms exceeds the 250 ms target"


def test_result_is_json_able(sandbox: Sandbox, contract: str) -> None:
    import json

    with sandbox.run(COMPILED, {"contract.pdf": contract}) as result:
        data = json.loads(result.to_json())
        assert data["ok"] and data["answers"][0]["value"] == 3 and isinstance(result, RunResult)


# ---- static checks -----------------------------------------------------------------------------
STATIC = [
    ("import os", "Import of os is not allowed. Authorized imports are: " + ", ".join(ALLOWED_IMPORTS)),
    ("from subprocess import run", "Import from subprocess is not allowed"),
    ("import socket", "Import of socket is not allowed"),
    ("eval('1')", "eval is not allowed"),
    ("exec('x=1')", "exec is not allowed"),
    ("compile('1', 'x', 'eval')", "compile is not allowed"),
    ("open('/etc/passwd').read()", "open is not allowed"),
    ("__import__('os')", "The name __import__ is not allowed"),
    ("globals()", "globals is not allowed"),
    ("locals()", "locals is not allowed"),
    ("vars()", "vars is not allowed"),
    ("getattr(tools, 'x')", "getattr is not allowed"),
    ("setattr(tools, 'x', 1)", "setattr is not allowed"),
    ("delattr(tools, 'x')", "delattr is not allowed"),
    ("breakpoint()", "breakpoint is not allowed"),
    ("input()", "input is not allowed"),
    ("memoryview(b'')", "memoryview is not allowed"),
    ("().__class__.__mro__[1].__subclasses__()", "private attribute .__class__"),
    ("x = tools._registry", "private attribute ._registry"),
    ("f = lambda: 0\ng = f.__globals__", "private attribute .__globals__"),
    ("x = __builtins__", "The name __builtins__ is not allowed"),
    ("x = os.environ", "The name os is not allowed"),
    ("sys.exit()", "The name sys is not allowed"),
    ("tools.delete_everything(file='a')", "tools.delete_everything is not a tool"),
    ('tools.run(1, "nuke", file="a")', "there is no tool named 'nuke'"),
    ("x = 'a'.__class__", "private attribute .__class__"),
    ("s = '__subclasses__'", "looks like a dunder name"),
    ("def f(:\n  pass", "Syntax error"),
]


@pytest.mark.parametrize(("code", "message"), STATIC, ids=[c[:30] for c, _ in STATIC])
def test_static_checks_refuse(code: str, message: str) -> None:
    problems = check_program(code)
    assert problems, code
    assert any(message in p.message for p in problems), [p.message for p in problems]
    assert all(p.line >= 1 for p in problems)


def test_static_checks_collect_every_problem_with_lines() -> None:
    code = "import os\nx = 1\nopen('a')\nimport sys\n"
    problems = check_program(code)
    assert [p.line for p in problems] == [1, 3, 4]


def test_static_checks_accept_good_programs() -> None:
    assert check_program(COMPILED) == []
    assert (
        check_program(
            "import re, math\nfrom collections import Counter\n"
            "for i in range(3):\n    print(f'{i}', max([1, 2]))\n"
            "tools.count_pages(file=FILES['a.pdf'])\n"
        )
        == []
    )


def test_program_refused_by_static_checks_never_runs(contract: str) -> None:
    result = run_program("import os\nos.system('touch /tmp/pwned')", {"c.pdf": contract})
    assert not result.ok and result.error["type"] == "StaticCheckError"
    assert result.workdir is None and "Import of os is not allowed" in result.error["message"]
    assert result.error["problems"][0]["line"] == 1


def test_limits_are_plain_values() -> None:
    limits = Limits(timeout_seconds=5, memory_mb=1500)
    assert limits.timeout_seconds == 5 and Limits().memory_mb == 3072
