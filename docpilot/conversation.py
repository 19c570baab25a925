"""The turns of one conversation: requests, plans, results — used by both faces (CLI and app).

A :class:`Conversation` holds the files a person works on, what was said (each turn with the plan
or run it led to), the plan waiting for approval and the last run. Its methods drive the service
(:class:`docpilot.service.DocPilot` or anything with the same methods); the faces only show what
it holds. Follow-ups across turns and clarifying questions build on it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docpilot.files import FileInfo, inspect_files
from docpilot.service import MASK, Edit, follow_up, mask_text

if TYPE_CHECKING:
    from docpilot.planning.followup import FollowUp
    from docpilot.service import PlanOutcome, RunOutcome, Stop

__all__ = ["Conversation", "Turn"]


@dataclass
class Turn:
    """One thing said: by the person ("user") or by DocPilot ("assistant"), with what it led to."""

    role: str
    text: str  # masked: safe to show and log
    outcome: PlanOutcome | None = None
    run: RunOutcome | None = None


@dataclass
class Earlier:
    """The last plan made in a conversation: its request, the uploads it used, and the PDFs its run made."""

    request: str
    used: list[str]
    results: list[str] = field(default_factory=list)


@dataclass
class Conversation:
    """One person's conversation about a set of files."""

    files: dict[str, FileInfo] = field(default_factory=dict)
    turns: list[Turn] = field(default_factory=list)
    pending: PlanOutcome | None = None  # the plan waiting for approval
    last_run: RunOutcome | None = None
    asking: tuple[str, list[str]] | None = None  # (request, choices) of a question waiting for its answer
    working: dict[str, FileInfo] | None = None  # the files the waiting plan acts on, when not self.files
    earlier: Earlier | None = None  # what a follow-up ("the same for …", "also lock it") refers to

    @property
    def acting_on(self) -> dict[str, FileInfo]:
        """The files the waiting plan acts on: the last run's results for a follow-up on them, else the uploads."""
        return self.working if self.working is not None else self.files

    def _said(self, role: str, text: str, outcome: PlanOutcome | None = None, run: RunOutcome | None = None) -> None:
        self.turns.append(Turn(role, mask_text(text, outcome), outcome, run))

    def request(self, pilot: Any, text: str, stop: Stop | None = None) -> PlanOutcome:
        """Plan a new request (or the answer to a question just asked); a plan that can be run waits for
        approval (a failed one replaces none)."""
        answered = self._answered(text)
        follow = None if answered else self.follow_up(text)
        planned = answered or (follow.request if follow else text)
        self.working = follow.files if follow else None
        outcome: PlanOutcome = pilot.plan(planned, self.acting_on, stop)
        self._said("user", text, outcome)
        self.pending = outcome if outcome.ok else None
        if outcome.ok and outcome.plan is not None:
            used = {str(v) for step in outcome.plan.steps for k, v in step.args.items() if k in ("file", "files")}
            self.earlier = Earlier(outcome.request, sorted(used & set(self.files)))
        elif outcome.ok:  # a written program: it may use any of the files it was given
            self.earlier = Earlier(outcome.request, sorted(set(self.acting_on) & set(self.files)))
        question = outcome.question
        self.asking = (outcome.request, list(question.choices)) if question is not None else None
        return outcome

    def follow_up(self, text: str) -> FollowUp | None:
        """``text`` read against the previous plan and the last run ("the same for the invoice", "also lock
        it"); None when it is a new request."""
        earlier = self.earlier
        if earlier is None or MASK in earlier.request:  # a masked secret cannot be planned again
            return None
        results = [p for p in earlier.results if Path(p).is_file()]
        found = inspect_files(results) if results else None
        return follow_up(text, earlier.request, self.files, found, earlier.used)

    def _answered(self, reply: str) -> str | None:
        """The earlier request completed by ``reply`` when it answers the question asked ("contract.pdf",
        "all of them"); None when it is a new request."""
        if self.asking is None:
            return None
        request, choices = self.asking
        said = " ".join(reply.lower().split()).strip(" .!")
        said = re.sub(r"^(?:(?:in|on|for|to|only|just|please|the)\s+)+|\s+(?:one|file|document|pdf|please)$", "", said)
        everything = said in (
            "all",
            "all of them",
            "both",
            "both of them",
            "all files",
            "every file",
            "each",
            "them all",
        )
        for choice in choices:
            name = choice.lower()
            if said in (name, name.rsplit(".", 1)[0], name.rsplit(".", 1)[0].replace("_", " ")) or (
                everything and choice == "all of them"
            ):
                where = "for all files" if choice == "all of them" else f"in {choice}"
                return f"{request}, {where}"
        return None

    def save_question(self, folder: Path) -> Path:
        """Keep the question waiting for an answer in ``folder`` (mode 0700), for ``run REPLY --continue``.

        The request is kept as shown (secrets masked): a password typed in it must be typed again.
        """
        if self.asking is None:
            raise ValueError("no question is waiting")
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o700)
        request, choices = self.asking
        record = {"request": mask_text(request), "choices": choices, "files": [i.path for i in self.files.values()]}
        (folder / "question.json").write_text(json.dumps(record, ensure_ascii=False, indent=1))
        return folder

    def save_turn(self, folder: Path) -> Path:
        """Keep what a follow-up needs (the last request, masked; the files; the run's results) in ``folder``,
        for ``run "also lock it" --continue RECORD``."""
        if self.earlier is None:
            raise ValueError("nothing was planned yet")
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o700)
        earlier = self.earlier
        record = {
            "request": mask_text(earlier.request),
            "used": earlier.used,
            "results": [str(Path(p).resolve()) for p in earlier.results],
            "files": [i.path for i in self.files.values()],
        }
        (folder / "conversation.json").write_text(json.dumps(record, ensure_ascii=False, indent=1))
        return folder

    @classmethod
    def resume(cls, folder: Path) -> Conversation:
        """The conversation a run's record holds — a question waiting for its answer, or the last run for a
        follow-up — with its files read again; ValueError when unreadable."""
        folder = Path(folder)
        try:
            if (folder / "conversation.json").is_file():
                record = json.loads((folder / "conversation.json").read_text())
                talk = cls(inspect_files(list(record["files"])))
                talk.earlier = Earlier(record["request"], list(record["used"]), list(record["results"]))
                return talk
            record = json.loads((folder / "question.json").read_text())
            request, choices, paths = record["request"], list(record["choices"]), list(record["files"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{folder} is not the record of a run (a question or a result) ({exc})") from None
        talk = cls(inspect_files(paths))
        talk.asking = (request, choices)
        return talk

    def revise(self, pilot: Any, critique: str, stop: Stop | None = None) -> PlanOutcome:
        """Change the waiting plan by a critique; when that fails, the previous plan still waits."""
        if self.pending is None:
            raise ValueError("there is no plan to revise")
        revised: PlanOutcome = pilot.revise(self.pending, critique, self.acting_on, stop)
        self._said("user", critique, revised if revised.ok else self.pending)
        if revised.ok:
            self.pending = revised
        return revised

    def edit(self, pilot: Any, rows: Sequence[Sequence[Any]] | None) -> Edit:
        """Apply a person's edits of the plan's values (re-verified); the plan keeps waiting."""
        if self.pending is None:
            raise ValueError("there is no plan to edit")
        return pilot.edit(self.pending, rows, self.acting_on)

    def approve(self, pilot: Any, out_dir: str | Path, stop: Any = None) -> RunOutcome:
        """Run the waiting plan; after a successful run nothing waits any more. ``stop`` (a
        ``service.RunStop``) cancels the run."""
        if self.pending is None:
            raise ValueError("there is no plan to approve")
        outcome = self.pending
        run: RunOutcome = pilot.run(outcome, self.acting_on, out_dir, stop)
        self._said("assistant", run.message if run.ok else run.error or "the run failed", outcome, run)
        self.last_run = run
        if run.ok:
            self.pending = None
            if self.earlier is not None:
                self.earlier.results = [p for p in run.outputs if str(p).lower().endswith(".pdf")]
        return run

    def cancel(self) -> bool:
        """Drop the waiting plan; False when there was none."""
        had = self.pending is not None
        if had and self.pending is not None:
            self.pending.refuse("Cancelled: the plan was not approved.")
        self.pending = None
        return had
