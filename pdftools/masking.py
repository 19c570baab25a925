"""Secrets out of sight: which arguments are secret, the one mask, and passwords kept out of prompts.

Which arguments are secret is declared on each tool (``@tool(secrets=...)``) and read from the
registry here; every place that shows, logs, records or explains a plan masks through this module
(run records, the app's chat and logs, explanations, the sandbox's step records), with one mask
string. Passwords a person types in a request are swapped for placeholders before the text reaches
any model prompt (:func:`hide_passwords`) and put back only into the plan's arguments
(:func:`restore_passwords`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "MASK",
    "hide_passwords",
    "is_secret",
    "mask_args",
    "mask_steps",
    "mask_text",
    "restore_passwords",
    "secret_values",
]

MASK = "***"
_PLACEHOLDER = "PASSWORD_{n}"
_PLACEHOLDER_RE = re.compile(r"\bPASSWORD_(\d+)\b")
# "password abc", "password is abc", "password: 'a b'", "passcode=abc" in free text.
_TYPED = re.compile(
    r"(?P<lead>(?:\b\w*?pass(?:word|code|phrase)\s*[=:]\s*|\bpass(?:word|code|phrase)\s+(?:is\s+|of\s+|to\s+|as\s+)?)"
    r"\(?)"  # "the old password (test)": the brackets are not the password
    # a bare one ends before a full stop that ends the sentence ("the password is test. please …")
    r"(?:(?P<q>['\"‘’“”])(?P<quoted>[^'\"‘’“”]+)(?P=q)|(?P<bare>[^\s'\",;()]*[^\s'\",;().]))",
    re.IGNORECASE,
)
_NOT_SECRET = {
    "protect",
    "protected",
    "protection",
    "and",
    "with",
    "to",
    "it",
    "the",
    "a",
    "an",
    "on",
    "from",
    "for",
    "is",
    "of",
    "as",
    "that",
    "this",
    "its",
    "their",
    "set",
    "please",
    "so",
    "then",
    "but",
    "if",
    "by",
    "in",
    "required",
    "needed",
    "field",
    "fields",
    "prompt",
    MASK.lower(),
}


def _could_be_secret(word: str) -> bool:
    """A bare word after "password" that may be one: not a common word, a placeholder or punctuation ("…")."""
    return (
        any(ch.isalnum() for ch in word)
        and word.lower().strip(".") not in _NOT_SECRET
        and not _PLACEHOLDER_RE.fullmatch(word)
    )


def is_secret(task: str, arg: str) -> bool:
    """Whether argument ``arg`` of tool ``task`` is secret (what the tool declares; for a tool the
    registry does not know, any argument named like a password)."""
    from .registry import _REGISTRY, get_tool, tool_index

    if task in _REGISTRY or task in tool_index():
        return arg in get_tool(task).secrets
    return "password" in arg.lower() or "passcode" in arg.lower()


def mask_args(task: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """``args`` with every secret argument that is set replaced by :data:`MASK`."""
    return {k: (MASK if is_secret(task, k) and v not in (None, "") else v) for k, v in args.items()}


def mask_steps(steps: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Plan steps (``{"task", "args", …}`` dicts) with their secret arguments masked."""
    return [{**step, "args": mask_args(str(step.get("task")), step.get("args") or {})} for step in steps]


def secret_values(steps: Iterable[Mapping[str, Any]]) -> list[str]:
    """The secret strings set in plan steps (to find them again in free text)."""
    found = []
    for step in steps:
        for key, value in (step.get("args") or {}).items():
            if isinstance(value, str) and value and is_secret(str(step.get("task")), key):
                found.append(value)
    return sorted(set(found), key=len, reverse=True)


def mask_text(text: str, secrets: Iterable[str] | Any = ()) -> str:
    """``text`` with the given secret strings and any typed "password X" masked.

    ``secrets`` is a list of secret strings, or a plan (anything with ``steps`` whose items have
    ``task`` and ``args``), whose secret arguments are then found in ``text``.
    """
    if hasattr(secrets, "steps"):
        secrets = secret_values({"task": s.task, "args": s.args} for s in secrets.steps)
    for value in secrets or ():
        if value and value != MASK:
            text = text.replace(value, MASK)

    def hide(match: re.Match[str]) -> str:
        bare = match.group("bare")
        if bare is not None and not _could_be_secret(bare):
            return match.group(0)
        quote = match.group("q") or ""
        return f"{match.group('lead')}{quote}{MASK}{quote}"

    return _TYPED.sub(hide, text)


def hide_passwords(text: str, swaps: dict[str, str] | None = None) -> tuple[str, dict[str, str]]:
    """``text`` with each typed password swapped for a placeholder (``PASSWORD_1`` …), and the swaps.

    For text on its way into a model prompt: the model plans with the placeholder, and
    :func:`restore_passwords` puts the real value back into the plan's arguments only. Pass the
    ``swaps`` of earlier text (a request, then its critique) to keep one placeholder per password.
    """
    swaps = {} if swaps is None else swaps

    def swap(match: re.Match[str]) -> str:
        value = match.group("quoted") if match.group("quoted") is not None else match.group("bare")
        if match.group("bare") is not None and not _could_be_secret(value):
            return match.group(0)
        name = next((k for k, v in swaps.items() if v == value), None)
        if name is None:
            name = _PLACEHOLDER.format(n=len(swaps) + 1)
            swaps[name] = value
        quote = match.group("q") or ""
        return f"{match.group('lead')}{quote}{name}{quote}"

    return _TYPED.sub(swap, text), swaps


def restore_passwords(value: Any, swaps: Mapping[str, str]) -> Any:
    """``value`` (a plan's arguments, any nesting) with placeholders replaced by the real passwords."""
    if not swaps:
        return value
    if isinstance(value, str):
        return _PLACEHOLDER_RE.sub(lambda m: swaps.get(m.group(0), m.group(0)), value)
    if isinstance(value, list):
        return [restore_passwords(v, swaps) for v in value]
    if isinstance(value, dict):
        return {k: restore_passwords(v, swaps) for k, v in value.items()}
    return value
