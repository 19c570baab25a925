"""What a revision changed: the steps of a new plan against the previous one, in plain words."""

from __future__ import annotations

from docpilot.plans.plan import Plan, Step
from pdftools.masking import mask_args

__all__ = ["plan_changes"]


def _key(step: Step) -> tuple[str, str]:
    return step.task, str(step.args.get("file", ""))


def plan_changes(old: Plan, new: Plan) -> list[str]:
    """Lines such as "changed: add_page_numbers position bottom-right → top-center", "removed: …", "added: …".

    Steps are paired by tool and input in order; secrets are masked.
    """
    unmatched = list(new.steps)
    lines: list[str] = []
    for before in old.steps:
        after = next((s for s in unmatched if s.task == before.task), None)
        if after is None:
            lines.append(f"removed: {before.task}")
            continue
        unmatched.remove(after)
        shown_old, shown_new = mask_args(before.task, before.args), mask_args(after.task, after.args)
        for name in dict.fromkeys([*shown_old, *shown_new]):
            if name == "file":
                continue
            if shown_old.get(name) != shown_new.get(name):
                lines.append(
                    f"changed: {before.task} {name} {shown_old.get(name, '(not set)')} → "
                    f"{shown_new.get(name, '(not set)')}"
                )
    lines += [f"added: {step.task}" for step in unmatched]
    return lines
