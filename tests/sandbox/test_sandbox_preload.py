"""A lean sandbox (one CLI run) preloads only what each run's tools need.

The worker runs as ``nobody`` and may not be able to read Python's folders (e.g. a Python
under /root), so a tool that imports a module lazily at run time would fail there. These tests
call every tool after the same preloading the sandbox does and assert nothing else is imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.checks import tools_used

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import sandbox.child as child
child.preload(full=False)
seen = []
class Spy:
    def find_spec(self, name, path=None, target=None):
        seen.append(name)
sys.meta_path.insert(0, Spy())
from pdftools.registry import call_tool
report = {}
for name, args in json.loads(sys.argv[2]):
    child.preload_tools([name])
    before = len(seen)
    try:
        call_tool(name, args)
    except Exception as exc:
        report[name] = f"failed: {type(exc).__name__}: {exc}"
        continue
    report[name] = sorted({m for m in seen[before:] if not m.startswith("pdftools")})
print(json.dumps(report))
"""


def _calls(synthetic) -> list[tuple[str, dict]]:
    contract, salaries = synthetic("contract.pdf"), synthetic("salaries.pdf")
    logo, photo, signature = synthetic("logo.png"), synthetic("photo1.jpg"), synthetic("signature.png")
    return [
        ("count_pages", {"file": contract}),
        ("redact_text", {"file": contract, "categories": ["email", "phone", "ssn", "date", "money", "url"]}),
        ("highlight_text", {"file": contract, "terms": ["Agreement"]}),
        ("add_page_numbers", {"file": contract}),
        ("add_watermark", {"file": contract, "text": "DRAFT"}),
        ("add_watermark", {"file": contract, "image": logo}),
        ("add_signature", {"file": contract, "image": signature}),
        ("add_signature", {"file": contract, "name": "Jane Roe"}),
        ("add_image", {"file": contract, "image": photo}),
        ("images_to_pdf", {"images": [logo, photo]}),
        ("add_password", {"file": contract, "password": "pw"}),
        ("check_password", {"file": contract}),
        ("compress", {"file": contract, "level": "high"}),
        ("convert_to_docx", {"file": contract}),
        ("convert_to_pptx", {"file": contract}),
        ("convert_to_xlsx", {"file": salaries}),
        ("convert_to_tiff", {"file": contract, "pages": "1-2"}),
        ("convert_to_png", {"file": contract, "pages": "1"}),
        ("convert_to_markdown", {"file": contract}),
        ("extract_tables", {"file": salaries}),
        ("find_entities", {"file": contract, "categories": ["email", "date"]}),
        ("split_pdf", {"file": contract, "every": 1}),
    ]


def test_every_tool_runs_on_what_a_lean_sandbox_preloads(synthetic, tmp_path):
    calls = _calls(synthetic)
    proc = subprocess.run(
        [sys.executable, "-I", "-c", PROBE, str(ROOT), json.dumps(calls)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert {name for name, _ in calls} == set(report)
    late = {name: mods for name, mods in report.items() if mods}
    assert not late, f"tools imported modules the sandbox did not preload (add them to the tool's needs=): {late}"


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("a = tools.run(1, 'convert_to_docx', file=FILES['a.pdf'])\n", ["convert_to_docx"]),
        (
            "n = tools.count_pages(FILES['a.pdf'])\nif n > 3:\n    tools.compress(FILES['a.pdf'])\n",
            ["compress", "count_pages"],
        ),
        ("x = (\n", []),
    ],
)
def test_tools_used_reads_the_program(code, expected):
    assert tools_used(code) == expected
