"""Verification: each check with good and bad plans; every problem is collected with its step."""

from __future__ import annotations

import json

import pytest

from docpilot.files import FileInfo
from docpilot.plans.verify import verify_plan
from pdftools import all_tools

TOOLS = all_tools()
FILES = {
    "contract.pdf": FileInfo("contract.pdf", "/x/contract.pdf", "pdf", 4),
    "b.pdf": FileInfo("b.pdf", "/x/b.pdf", "pdf", 2),
    "sig.png": FileInfo("sig.png", "/x/sig.png", "image"),
}


def step(id_: int, task: str, args: dict, dep: list[int] | None = None, ret: str | None = None) -> dict:
    return {"id": id_, "task": task, "dep": dep or [], "args": args, "return": ret or f"r{id_}"}


GOOD = [
    [
        step(1, "redact_text", {"file": "contract.pdf", "terms": ["VoltGuard"]}),
        step(2, "convert_to_pptx", {"file": "$r1"}, [1]),
    ],
    [
        step(1, "delete_pages", {"file": "contract.pdf", "pages": "1-2"}),
        step(2, "rotate_pages", {"file": "$r1", "pages": "2", "degrees": 90}, [1]),
    ],
    [
        step(1, "combine_files", {"files": ["contract.pdf", "b.pdf"]}),
        step(2, "extract_pages", {"file": "$r1", "pages": "5-6"}, [1]),
    ],
    [step(1, "add_signature", {"file": "contract.pdf", "image": "sig.png", "page": "last"})],
    [step(1, "count_pages", {"file": "contract.pdf"})],
    [
        step(1, "add_page_with_text", {"file": "contract.pdf", "text": "x"}),
        step(2, "delete_pages", {"file": "$r1", "pages": "5"}, [1]),
    ],
]


@pytest.mark.parametrize("steps", GOOD, ids=range(len(GOOD)))
def test_good_plans_verify(steps: list[dict]) -> None:
    verdict = verify_plan({"steps": steps}, TOOLS, FILES)
    assert verdict.ok, verdict.report()
    assert verdict.order == [s["id"] for s in steps]


BAD = [
    ("syntax", "not json at all", "not valid JSON"),
    ("syntax", json.dumps({"steps": [{"id": 1, "task": "count_pages"}]}), "return"),
    ("unknown_tool", {"steps": [step(1, "teleport_pages", {"file": "contract.pdf"})]}, "no tool 'teleport_pages'"),
    ("arguments", {"steps": [step(1, "rotate_pages", {"pages": "1"})]}, "'file' is required"),
    ("arguments", {"steps": [step(1, "rotate_pages", {"file": "contract.pdf", "degrees": "ninety"})]}, "'degrees'"),
    (
        "arguments",
        {"steps": [step(1, "count_pages", {"file": "contract.pdf", "colour": "red"})]},
        "'colour' is not accepted",
    ),
    ("pages", {"steps": [step(1, "delete_pages", {"file": "contract.pdf", "pages": "40"})]}, "valid pages are 1-4"),
    (
        "pages",
        {
            "steps": [
                step(1, "extract_pages", {"file": "contract.pdf", "pages": "1-2"}),
                step(2, "rotate_pages", {"file": "$r1", "pages": "3"}, [1]),
            ]
        },
        "valid pages are 1-2",
    ),
    ("unknown_file", {"steps": [step(1, "count_pages", {"file": "other.pdf"})]}, "'other.pdf' was not uploaded"),
    (
        "arguments",
        {
            "steps": [
                step(1, "find_entities", {"file": "contract.pdf"}, ret="found"),
                step(2, "redact_text", {"file": "$found", "categories": ["email"]}, dep=[1]),
            ]
        },
        "not a file",
    ),
    ("arguments", {"steps": [step(1, "add_signature", {"file": "contract.pdf", "image": "b.pdf"})]}, "not an image"),
    # "merge these please" with one file uploaded: a combination of one file is no plan
    ("arguments", {"steps": [step(1, "combine_files", {"files": ["contract.pdf"]})]}, "at least 2 items"),
    ("dependency", {"steps": [step(1, "count_pages", {"file": "$ghost"})]}, "'$ghost' is not the return"),
    (
        "dependency",
        {
            "steps": [
                step(1, "rotate_pages", {"file": "$r2"}, [2]),
                step(2, "delete_pages", {"file": "contract.pdf", "pages": "1"}),
            ]
        },
        "runs later",
    ),
    (
        "dependency",
        {
            "steps": [
                step(1, "delete_pages", {"file": "contract.pdf", "pages": "1"}),
                step(2, "rotate_pages", {"file": "$r1"}),
            ]
        },
        "dep does not list 1",
    ),
    ("dependency", {"steps": [step(1, "count_pages", {"file": "contract.pdf"}, [7])]}, "step 7, which does not exist"),
    (
        "cycle",
        {
            "steps": [
                step(1, "rotate_pages", {"file": "contract.pdf"}, [2]),
                step(2, "rotate_pages", {"file": "contract.pdf"}, [1]),
            ]
        },
        "circle: ",
    ),
    (
        "duplicate_id",
        {
            "steps": [
                step(1, "count_pages", {"file": "contract.pdf"}, ret="a"),
                step(1, "count_pages", {"file": "b.pdf"}, ret="b"),
            ]
        },
        "more than one step",
    ),
]


@pytest.mark.parametrize(("code", "plan", "message"), BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_plans_are_reported(code: str, plan: object, message: str) -> None:
    verdict = verify_plan(plan, TOOLS, FILES)
    assert not verdict.ok
    codes = [p.code for p in verdict.problems]
    assert code in codes, verdict.report()
    assert any(message.lower() in p.message.lower() for p in verdict.problems), verdict.report()


def test_every_problem_is_collected_at_once() -> None:
    plan = {
        "steps": [
            step(1, "rotate_pages", {"file": "nope.pdf"}),
            step(2, "teleport", {}),
            step(3, "delete_pages", {"file": "contract.pdf", "pages": "9"}),
        ]
    }
    verdict = verify_plan(plan, TOOLS, FILES)
    assert {p.code for p in verdict.problems} == {"unknown_file", "unknown_tool", "pages"}
    assert {p.step for p in verdict.problems} == {1, 2, 3}


def test_cycle_names_the_steps() -> None:
    plan = {
        "steps": [
            step(1, "rotate_pages", {"file": "contract.pdf"}, [3]),
            step(2, "rotate_pages", {"file": "contract.pdf"}, [1]),
            step(3, "rotate_pages", {"file": "contract.pdf"}, [2]),
        ]
    }
    verdict = verify_plan(plan, TOOLS, FILES)
    cycle = next(p for p in verdict.problems if p.code == "cycle")
    assert all(str(n) in cycle.message for n in (1, 2, 3))


def test_execution_order_is_topological() -> None:
    plan = {
        "steps": [
            step(1, "delete_pages", {"file": "contract.pdf", "pages": "1"}),
            step(2, "count_pages", {"file": "$r3"}, [3]),
            step(3, "rotate_pages", {"file": "$r1"}, [1]),
        ]
    }
    verdict = verify_plan(plan, TOOLS, FILES)
    assert {p.code for p in verdict.problems} == {"dependency"}  # $r3 is a later step
    plan["steps"] = [plan["steps"][0], plan["steps"][2], plan["steps"][1]]
    verdict = verify_plan(plan, TOOLS, FILES)
    assert verdict.ok and verdict.order == [1, 3, 2]


@pytest.mark.parametrize("text", ["- Contract summary | Date: [insert date]", "Signed by <name>", "Total: TBD", "XXX"])
def test_placeholder_text_the_person_did_not_type_is_refused(text: str) -> None:
    plan = {
        "steps": [
            {
                "id": 1,
                "task": "add_page_with_text",
                "dep": [],
                "return": "extended",
                "args": {"file": "report.pdf", "text": text},
            }
        ]
    }
    files = {"report.pdf": FileInfo("report.pdf", "/x/report.pdf", "pdf", 3)}
    verdict = verify_plan(plan, all_tools(), files, request="summarize the report and add it as a page")
    assert not verdict.ok and verdict.problems[0].code == "placeholder"
    assert verify_plan(plan, all_tools(), files, request=f"add a page saying {text}").ok, "typed by the person"
