"""The small-model job loop: one small, checkable job for the model at a time.

A job (rewrite a request into command sentences, write a program over a table, …) is

- a static prefix (the ``system`` message, identical for every request, so the local backend keeps its
  state on disk and in memory per job: jobs that alternate in one process do not re-read each other's
  prefixes),
- a few retrieved examples (user/assistant turns right before the input),
- a constrained output where the backend allows it (a llama.cpp grammar) or a checked one (any backend:
  the ``check`` reads the reply and says what is wrong with it),
- one retry with the problem stated in the question (not after the wrong answer: a small model copies
  its own answer), and the caller's time limit (the metered model's stop).

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
    # the retry's question: a format of the first ``user`` message and the ``problem``, or a function of them
    retry: str | Callable[[str, str], str] = (
        "{user}\nA first answer could not be used ({problem}); write a correct one."
    )

    def retry_message(self, user: str, problem: str) -> str:
        """The retry's question: the first question (the model must see its data again) with the problem."""
        return self.retry(user, problem) if callable(self.retry) else self.retry.format(problem=problem, user=user)


class JobProblem(ValueError):
    """What is wrong with a reply, in a sentence the model is shown on its retry."""


@dataclass
class JobResult(Generic[T]):
    value: T
    replies: list[str] = field(default_factory=list)  # every reply, the last one used
    retries: int = 0


class JobFailed(DocPilotError):
    """The model's reply could not be used, even after one retry; ``replies`` and ``problems`` say why."""

    def __init__(self, job: str, replies: list[str], errors: list[JobProblem]) -> None:
        super().__init__(f"The model's {job} could not be used: {errors[-1]}")
        self.job = job
        self.replies = replies
        self.errors = errors  # the problem of each reply, the last one's last
        self.problems = [str(e) for e in errors]


def run_job(
    llm: Any,
    job: Job,
    user: str,
    check: Callable[[str], T],
    *,
    examples: Sequence[tuple[str, str]] = (),
    grammar: str | None = None,
    retry_grammar: Callable[[str], str] | None = None,
) -> JobResult[T]:
    """Ask ``llm`` (a metered backend) for ``job`` on ``user``; ``check`` turns a reply into the value.
    ``retry_grammar``: the grammar of the retry, made from the first reply, when it must be narrower
    (a correction fixes the reply, it does not add to it); default: ``grammar``.

    Raises:
        JobFailed: both replies had a problem.
        Stopped, LLMError: from the backend (cancelled, out of time, model failure).
    """
    messages: list[dict[str, str]] = [{"role": "system", "content": job.system}]
    for question, answer in examples:
        messages += [{"role": "user", "content": question}, {"role": "assistant", "content": answer}]
    messages.append({"role": "user", "content": user})
    replies: list[str] = []
    problems: list[JobProblem] = []
    for attempt in range(2):
        constraint = retry_grammar(replies[-1]) if attempt and retry_grammar is not None else grammar
        extra: dict[str, Any] = {"grammar": constraint} if constraint is not None else {}
        text = llm.chat(messages, max_tokens=job.max_tokens, **extra).text
        replies.append(text)
        try:
            return JobResult(check(text), replies, attempt)
        except JobProblem as exc:
            problems.append(exc)
            # the problem goes into the question itself: a small model shown its own wrong answer copies it
            messages = messages[:-1] + [{"role": "user", "content": job.retry_message(user, str(exc))}]
    raise JobFailed(job.name, replies, problems)
