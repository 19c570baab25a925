"""The ``tools`` object a program sees: every registry tool as a method, each call recorded as a step.

``tools.run(1, "redact_text", file=..., terms=[...])`` (compiled plans) and
``tools.redact_text(file=..., terms=[...])`` (LLM-written programs) both
validate the arguments with the registry, keep every file inside the working
folder, run the tool and record what the step did: its arguments (passwords
masked), a short result, the seconds it took and what it changed.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pdftools import get_tool
from pdftools.errors import ToolArgumentError
from pdftools.masking import mask_args

__all__ = ["FILE_ARGS", "OUTPUT_ARGS", "PDFTools"]

FILE_ARGS = ("file", "files", "image", "images")
OUTPUT_ARGS = ("output", "new_name")
ANNOT_PAGE_LIMIT = 200  # count annotations only on documents up to this many pages (keeps records cheap)


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return json.loads(json.dumps(value, default=str))


def _summary(kind: str, value: Any) -> Any:
    if kind in ("pdf", "files"):
        if isinstance(value, (list, tuple)):
            return [os.path.basename(str(v)) for v in value]
        return os.path.basename(str(value))
    text = json.dumps(_jsonable(value), ensure_ascii=False)
    return text if len(text) <= 300 else text[:297] + "..."


def _pdf_facts(path: str) -> dict[str, Any] | None:
    """Pages and annotation count of a PDF, cheaply; None when it cannot be opened."""
    try:
        import pymupdf

        with pymupdf.open(path) as doc:
            if doc.needs_pass:
                return {"pages": None, "annotations": None}
            pages = doc.page_count
            annots = None
            if pages <= ANNOT_PAGE_LIMIT:
                annots = sum(1 for page in doc for _ in page.annots())
            return {"pages": pages, "annotations": annots}
    except Exception:  # a fact for the record, never a reason to fail the step  # noqa: BLE001
        return None


class PDFTools:
    """Programs call tools through this object; it records steps, answers and produced files."""

    __slots__ = ("_answers", "_failure", "_next_id", "_outputs", "_steps", "_workdir")

    def __init__(self, workdir: str) -> None:
        self._workdir = os.path.realpath(workdir)
        self._steps: list[dict[str, Any]] = []
        self._answers: list[dict[str, Any]] = []
        self._outputs: list[str] = []
        self._next_id = 1
        self._failure: tuple[BaseException, int, str] | None = None

    # --- what programs call -------------------------------------------------------------------
    def run(self, step_id: int, task: str, **args: Any) -> Any:
        """Run tool ``task`` as step ``step_id`` with keyword arguments ``args``."""
        if not isinstance(step_id, int) or isinstance(step_id, bool):
            raise ToolArgumentError(f"tools.run: the step id must be an integer, not {step_id!r}.")
        return self._call(step_id, str(task), args)

    def __getattr__(self, task: str) -> Callable[..., Any]:
        if task.startswith("_"):
            raise AttributeError(task)
        tool = get_tool(task)  # UnknownToolError with a hint when there is no such tool

        def method(**args: Any) -> Any:
            return self._call(None, tool.name, args)

        method.__name__ = tool.name
        method.__doc__ = tool.description
        return method

    # --- results the runner reads ---------------------------------------------------------------
    def report(self) -> dict[str, Any]:
        return {"steps": self._steps, "answers": self._answers, "outputs": self._outputs}

    def failure_of(self, exc: BaseException) -> tuple[int, str] | None:
        """(step id, task) when ``exc`` was raised by a tool call, else None."""
        if self._failure and self._failure[0] is exc:
            return self._failure[1], self._failure[2]
        return None

    # --- inside ---------------------------------------------------------------------------------
    def _inside(self, value: Any, arg: str, task: str) -> str:
        if not isinstance(value, (str, os.PathLike)):
            raise ToolArgumentError(f"{task}: argument '{arg}' must be a file name, not {type(value).__name__}.")
        text = os.fspath(value)
        if "\x00" in text:
            raise ToolArgumentError(f"{task}: argument '{arg}' is not a valid file name.")
        path = os.path.realpath(os.path.join(self._workdir, text))
        if path != self._workdir and not path.startswith(self._workdir + os.sep):
            raise ToolArgumentError(
                f"{task}: argument '{arg}' names {text!r}, outside the working folder. "
                "Use the names in FILES or the results of earlier steps."
            )
        return path

    def _check_paths(self, task: str, args: dict[str, Any]) -> dict[str, Any]:
        checked = dict(args)
        for name in FILE_ARGS + OUTPUT_ARGS:
            value = checked.get(name)
            if value is None:
                continue
            if isinstance(value, (list, tuple)):
                checked[name] = [self._inside(v, name, task) for v in value]
            elif name in OUTPUT_ARGS:
                if os.sep in str(value) or str(value) in ("", ".", ".."):
                    raise ToolArgumentError(f"{task}: '{name}' must be a plain file name without folders.")
                self._inside(value, name, task)
            else:
                checked[name] = self._inside(value, name, task)
        return checked

    def _call(self, step_id: int | None, task: str, args: dict[str, Any]) -> Any:
        if step_id is None:
            step_id = self._next_id
        self._next_id = max(self._next_id, step_id + 1)
        record: dict[str, Any] = {"id": step_id, "task": task, "args": _jsonable(mask_args(task, args))}
        started = time.perf_counter()
        try:
            tool = get_tool(task)
            valid = tool.validate(self._check_paths(task, args))
            source = valid.get("file") if isinstance(valid.get("file"), str) else None
            before = _pdf_facts(source) if tool.kind == "pdf" and source else None
            result = tool.func(**valid)
        except BaseException as exc:
            record.update(
                ok=False, seconds=round(time.perf_counter() - started, 3), error=f"{type(exc).__name__}: {exc}"
            )
            self._steps.append(record)
            self._failure = (exc, step_id, task)
            raise
        record.update(
            ok=True, seconds=round(time.perf_counter() - started, 3), kind=tool.kind, result=_summary(tool.kind, result)
        )
        if tool.kind == "value":
            self._answers.append({"step": step_id, "task": task, "value": _jsonable(result)})
        else:
            produced = result if isinstance(result, (list, tuple)) else [result]
            for path in produced:
                full = os.path.realpath(os.path.join(self._workdir, str(path)))
                if full in self._outputs:
                    self._outputs.remove(full)
                self._outputs.append(full)
            if tool.kind == "pdf" and isinstance(result, (str, Path)):
                after = _pdf_facts(str(result))
                if before or after:
                    record["changed"] = {
                        "pages": [(before or {}).get("pages"), (after or {}).get("pages")],
                        "annotations": [(before or {}).get("annotations"), (after or {}).get("annotations")],
                    }
        self._steps.append(record)
        return str(result) if isinstance(result, Path) else result
