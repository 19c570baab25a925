"""Issue F item 6: a request no tool can do (print, email, fax, translate …) is refused at once with what
the product can do instead — never handed to a model that could plan the rest and report it done."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from fakes import ScriptedLLM

from docpilot.files import inspect_files
from docpilot.planning.planner import Planner
from docpilot.planning.unsupported import refusal


@pytest.mark.parametrize(
    ("request_text", "verb", "instead"),
    [
        ("print it", "print", "ready for printing"),
        ("Print pages 2-3 double sided", "print", "ready for printing"),
        ("please print out the contract", "print", "ready for printing"),
        ("I want to print 2 copies", "print", "ready for printing"),
        ("compress it and email it to Ann", "email", '(e.g. "compress it")'),
        ("send it to bob@example.com", "send", "ready to send"),
        ("fax the contract to my lawyer", "fax", "ready to send"),
        ("Could you mail this to my accountant?", "mail", "ready to send"),
        ("translate it into French", "translate", "Word or Markdown"),
        ("Translate pages 1-2 to Spanish", "translate", "Word or Markdown"),
        ("upload it to Dropbox", "upload", "ready to share"),
        ("share it with the team", "share", "ready to share"),
        ("proofread this", "proofread", "convert it to Word"),
    ],
)
def test_requests_no_tool_can_do_are_refused_with_what_can(
    make_pdf: Callable[..., str], request_text: str, verb: str, instead: str
) -> None:
    files = inspect_files([make_pdf(["One.", "Two.", "Three."], name="contract.pdf")])
    llm = ScriptedLLM([])  # any call fails the test: the model is never asked
    started = time.perf_counter()
    outcome = Planner(llm=llm).plan(request_text, files)
    assert time.perf_counter() - started < 1.0
    assert not outcome.ok and outcome.plan is None and not llm.calls
    assert outcome.error.startswith(f"I can't {verb} files") and instead in outcome.error


@pytest.mark.parametrize(
    "request_text",
    [
        "redact the email addresses",
        "redact all email addresses and phone numbers",
        "highlight every email address",
        "highlight the share price on page 3",
        "highlight where we share the costs with the partner",
        "stamp 'PRINTED COPY' on every page",
        'add a watermark that says "print and sign"',
        "send me a Word version",
        "underline the text the lawyer added",
        "redact the email the client sent",
        "strip the metadata before I send it out",
        "compress it so I can email it to Ann",
    ],
)
def test_the_same_words_as_nouns_or_purposes_are_not_refused(request_text: str) -> None:
    assert refusal(request_text) is None


def test_a_revision_asking_for_it_is_refused_and_the_plan_still_waits(make_pdf: Callable[..., str]) -> None:
    files = inspect_files([make_pdf(["One.", "Two."], name="contract.pdf")])
    planner = Planner(llm=None)
    first = planner.plan("compress it", files)
    assert first.ok
    revised = planner.revise(first, "and also email it to Ann", files)
    assert not revised.ok and revised.error.startswith("I can't email files")
