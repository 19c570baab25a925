"""The small-model job loop: one small, checkable job for the model at a time.

A job (rewrite a request into command sentences, write a program over a table, …) is

- a static prefix (the ``system`` message, identical for every request, so the local backend keeps its
  state on disk and in memory per job: jobs that alternate in one process do not re-read each other's
  prefixes),
- a few retrieved examples (user/assistant turns right before the input),
- a constrained output where the backend allows it (a llama.cpp grammar) or a checked one (any backend:
  the ``check`` reads the reply and says what is wrong with it),
- one retry with the problem stated, and the caller's time limit (the metered model's stop).

``check`` returns the job's value or raises :class:`JobProblem` with a sentence for the model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from docpilot.errors import DocPilotError

__all__ = ["Job", "JobProblem", "JobFailed", "JobResult", "run_job"]

T = TypeVar("T")


@dataclass(frozen=True)
class Job:
    """What a job asks of the model. ``name`` is for records and measurements."""

    name: str
    system: str
    max_tokens: int = 200
    retry: str = "That could not be used: {problem}\nWrite it again, using only the allowed forms."


class JobProblem(ValueError):
    """What is wrong with a reply, in a sentence the model is shown on its retry."""


@dataclass
class JobResult(Generic[T]):
    value: T
    replies: list[str] = field(default_factory=list)  # every reply, the last one used
    retries: int = 0


class JobFailed(DocPilotError):
    """The model's reply could not be used, even after one retry; ``replies`` and ``problems`` say why."""

    def __init__(self, job: str, replies: list[str], problems: list[str]) -> None:
        super().__init__(f"The model's {job} could not be used: {problems[-1]}")
        self.job = job
        self.replies = replies
        self.problems = problems


def run_job(
    llm: Any,
    job: Job,
    user: str,
    check: Callable[[str], T],
    *,
    examples: Sequence[tuple[str, str]] = (),
    grammar: str | None = None,
) -> JobResult[T]:
    """Ask ``llm`` (a metered backend) for ``job`` on ``user``; ``check`` turns a reply into the value.

    Raises:
        JobFailed: both replies had a problem.
        Stopped, LLMError: from the backend (cancelled, out of time, model failure).
    """
    messages: list[dict[str, str]] = [{"role": "system", "content": job.system}]
    for question, answer in examples:
        messages += [{"role": "user", "content": question}, {"role": "assistant", "content": answer}]
    messages.append({"role": "user", "content": user})
    extra: dict[str, Any] = {"grammar": grammar} if grammar is not None else {}
    replies: list[str] = []
    problems: list[str] = []
    for attempt in range(2):
        text = llm.chat(messages, max_tokens=job.max_tokens, **extra).text
        replies.append(text)
        try:
            return JobResult(check(text), replies, attempt)
        except JobProblem as exc:
            problems.append(str(exc))
            messages = messages + [
                {"role": "assistant", "content": text},
                {"role": "user", "content": job.retry.format(problem=exc)},
            ]
    raise JobFailed(job.name, replies, problems)
