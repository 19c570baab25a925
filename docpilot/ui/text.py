"""Text the web app shows: passwords masked, the exact plan, questions told apart from actions."""

from __future__ import annotations

import json
import re
from typing import Any

from docpilot.running.executor import mask_passwords
from docpilot.planning.planner import PlanOutcome

__all__ = ["QA_NOT_AVAILABLE", "QA_TOOLS", "exact_plan", "looks_like_question", "mask_text"]

QA_TOOLS = {"answer_question", "summarize"}
QA_NOT_AVAILABLE = (
    "Answering questions about what a document says is not available yet (document Q&A is coming). "
    "For now I can act on your PDFs: for example \"redact 'ACME'\", \"rotate page 2 by 90 degrees\", "
    "\"add a DRAFT watermark\", \"encrypt with password …\", \"how many pages?\".")
_QUESTION = re.compile(
    r"^\s*(what|what's|whats|who|whom|whose|when|where|why|which|how|does|do|did|is|are|was|were|can|could|"
    r"should|would|will|explain|summari[sz]e|describe|tell me)\b", re.IGNORECASE)
_PASSWORD = re.compile(r"(?P<lead>password\s*[=:]\s*|password\s+(?:is\s+|of\s+|to\s+)?)"
                       r"(?:(?P<q>['\"])(?P<quoted>[^'\"]+)(?P=q)|(?P<bare>[^\s'\",)]+))", re.IGNORECASE)
_NOT_SECRET = {"protect", "protected", "protection", "and", "with", "to", "it", "the", "a", "on", "from", "for"}


def mask_text(text: str, plan: Any = None) -> str:
    """``text`` as shown in the chat and logs: the plan's passwords and any "password X" masked."""
    text = mask_passwords(plan, text)

    def hide(match: re.Match[str]) -> str:
        bare = match.group("bare")
        if bare is not None and (bare.lower() in _NOT_SECRET or bare == "***"):
            return match.group(0)
        quote = match.group("q") or ""
        return f"{match.group('lead')}{quote}***{quote}"

    return _PASSWORD.sub(hide, text)


def looks_like_question(text: str) -> bool:
    """A question about the documents rather than an action on them."""
    return text.strip().endswith("?") or bool(_QUESTION.match(text))


def exact_plan(outcome: PlanOutcome) -> str:
    """The plan as JSON (or the program) for the "exact plan" views, passwords masked."""
    data = outcome.to_json()["plan"]
    if outcome.plan is not None:
        for step in data["steps"]:
            for key, value in step["args"].items():
                if "password" in key and value:
                    step["args"][key] = "***"
    return mask_text(json.dumps(data, ensure_ascii=False, indent=1), outcome.plan)
