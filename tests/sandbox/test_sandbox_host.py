"""Model work from a sandboxed tool reaches the host over the sandbox's own pipe, and only that way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from docpilot.understanding.host import Host
from pdftools.errors import ToolUnavailableError
from sandbox import Sandbox

PROGRAM = 'print(tools.find_entities(file=FILES["form.pdf"], categories=["person"]))'


@pytest.fixture(scope="module")
def box() -> Sandbox:
    with Sandbox(lean=True) as sandbox:
        yield sandbox


def test_a_tool_asks_the_host_through_the_pipe(box: Sandbox, make_pdf: Callable[..., str]) -> None:
    path = make_pdf(["Signed by Ada Lovelace on behalf of the firm."], name="form.pdf")
    calls: list[tuple[str, dict[str, Any]]] = []

    def host(name: str, payload: dict[str, Any]) -> dict[str, Any]:
        calls.append((name, payload))
        text = payload["texts"][0]
        start = text.index("Ada Lovelace")
        span = {"start": start, "end": start + 12, "kind": "person", "text": "Ada Lovelace", "score": 0.9}
        return {"spans": [[span] for _ in payload["texts"]], "english": [True] * len(payload["texts"])}

    result = box.run(PROGRAM, {"form.pdf": path}, host=host)
    assert result.ok, result.error
    assert "'text': 'Ada Lovelace'" in result.printed and "'category': 'person'" in result.printed
    assert calls and calls[0][0] == "entities" and "Ada Lovelace" in calls[0][1]["texts"][0]


def test_without_a_host_a_tool_cannot_load_a_model_itself(box: Sandbox, make_pdf: Callable[..., str]) -> None:
    result = box.run(PROGRAM, {"form.pdf": make_pdf(["Ada Lovelace"], name="form.pdf")})
    assert not result.ok and "no host for model work" in result.error["message"]


def test_a_host_error_is_the_tools_error_not_a_traceback(box: Sandbox, make_pdf: Callable[..., str]) -> None:
    def broken(name: str, payload: dict[str, Any]) -> Any:
        raise RuntimeError("the recogniser ran out of memory")

    result = box.run(PROGRAM, {"form.pdf": make_pdf(["Ada Lovelace"], name="form.pdf")}, host=broken)
    assert not result.ok and "ran out of memory" in result.error["message"]
    assert "Traceback" not in result.error["message"]


def test_the_program_cannot_import_a_model_library(box: Sandbox, make_pdf: Callable[..., str]) -> None:
    result = box.run("import spacy", {"form.pdf": make_pdf(["x"], name="form.pdf")}, static_checks=False)
    assert not result.ok and "not allowed" in result.error["message"]


def test_the_host_answers_only_its_own_names() -> None:
    with pytest.raises(ToolUnavailableError, match="not 'shell'"):
        Host()("shell", {"command": "id"})
